/**
 * What the A/B scripts share (`startup-ab.ts`, `open-ab.ts`, and `open-cpu.ts` for one build): the
 * command line, the write probes' seeded store, and Chromium launched with a test build over a
 * seeded store, each build in turn so that a before/after comparison shares the machine's load.
 */
import path from 'node:path';
import type { ConversationRecord, TurnRecord } from '../lib/store/db';
import { decodeTranscript } from '../lib/transcript/codec';
import type { Transcript } from '../lib/transcript/schema';
import { ExtensionBrowser } from '../test/e2e/harness';
import { conversationRecords, listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';

/**
 * Reads `<build dir> [<build dir> …] [--name n] …` from the process arguments: each `--name`
 * of `defaults` takes a number (its default when absent), the rest are build folders (at least one,
 * or the usage is thrown).
 */
export function parseAbArgs<K extends string>(
  script: string,
  defaults: Record<K, number>,
): { dirs: string[]; flags: Record<K, number> } {
  const args = process.argv.slice(2);
  const flags = { ...defaults };
  for (const name of Object.keys(defaults) as K[]) {
    const i = args.indexOf(`--${name}`);
    if (i >= 0) flags[name] = Number(args.splice(i, 2)[1]);
  }
  const dirs = args.map((d) => path.resolve(d));
  if (dirs.length === 0) {
    const options = Object.keys(defaults).map((name) => `[--${name} n]`);
    throw new Error(`usage: bench/${script} <build dir> [<build dir> …] ${options.join(' ')}`);
  }
  return { dirs, flags };
}

/**
 * What the write probes (`append-probe.ts`, `replace-ab.ts`) seed: a generated conversation `id`
 * of `turnCount` turns, its record after `conversations` listed ones, and its transcript (the
 * turns a probe writes come from it).
 */
export function probeSeed(
  id: string,
  turnCount: number,
  conversations: number,
): { transcript: Transcript; records: ConversationRecord[]; turns: TurnRecord[] } {
  const transcript = decodeTranscript(generateTranscript({ turns: turnCount }));
  const { record, turns } = conversationRecords(transcript, id);
  return { transcript, records: [...listRecords(conversations), record], turns };
}

/** Launches Chromium with the test build in `dir` and writes `records` and `turns` into its store. */
export async function launchSeeded(
  dir: string,
  records: ConversationRecord[],
  turns: TurnRecord[],
): Promise<ExtensionBrowser> {
  const browser = await ExtensionBrowser.launch({ extensionDir: dir });
  try {
    await browser.wakeServiceWorker();
    await browser.worker().evaluate(NAME_SHIM);
    await seedStore(browser, records, turns);
    return browser;
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/**
 * For each of `rounds` rounds and each build in `dirs` in turn: a browser from `launchSeeded`,
 * handed to `run` and closed after it.
 */
export async function alternateBuilds(
  dirs: readonly string[],
  rounds: number,
  records: ConversationRecord[],
  turns: TurnRecord[],
  run: (browser: ExtensionBrowser, round: number, dir: string) => Promise<void>,
): Promise<void> {
  for (let r = 0; r < rounds; r++) {
    for (const dir of dirs) {
      const browser = await launchSeeded(dir, records, turns);
      try {
        await run(browser, r, dir);
      } finally {
        await browser.close();
      }
    }
  }
}
