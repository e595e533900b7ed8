/**
 * The service-worker cold-start row (`chromium-startup.ts`) for several test builds, alternately, so a
 * before/after comparison shares the machine's load (bench/README.md, "Service-worker start-up").
 *
 *   node --import tsx bench/startup-ab.ts <build dir> [<build dir> …] [--rounds 2] [--samples 5] [--sync 1] [--empty 1]
 *
 * Each round launches Chromium with each build in turn, seeds the quick sizes (500 conversations and
 * a 500-turn one), and prints the medians of `--samples` cold starts after one warm-up. `--sync 1`:
 * the "cold start, sync on" row instead (sync configured, its alarm set). `--empty 1` (the default):
 * an empty extension worker is loaded beside each build and restarted after each of its restarts, as
 * the bench row does, and printed with Baton's figure minus its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { parseAbArgs } from './ab';
import { conversationRecords, listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { CHROMIUM_QUICK } from './chromium-run';
import { benchStartup, benchStartupSyncOn, EmptyWorker, writeEmptyExtension } from './chromium-startup';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';

const { dirs, flags } = parseAbArgs('startup-ab.ts', { rounds: 2, samples: 5, sync: 0, empty: 1 });

const { sizes } = CHROMIUM_QUICK;
const { record, turns } = conversationRecords(
  decodeTranscript(generateTranscript({ turns: sizes.turns })),
  'bench-conversation',
);
const records = [...listRecords(sizes.conversations), record];
const emptyDir = flags.empty ? writeEmptyExtension() : undefined;

try {
  for (let r = 0; r < flags.rounds; r++) {
    for (const dir of dirs) {
      const browser = await ExtensionBrowser.launch({
        extensionDir: dir,
        extraExtensions: emptyDir ? [emptyDir] : [],
      });
      try {
        await browser.wakeServiceWorker();
        await browser.worker().evaluate(NAME_SHIM);
        await seedStore(browser, records, turns);
        const empty = emptyDir ? await EmptyWorker.attach(browser) : undefined;
        const s = await (flags.sync ? benchStartupSyncOn : benchStartup)(browser, 1, flags.samples, empty);
        const beside = s.empty
          ? `; empty worker evaluated ${s.empty.evaluatedMs.toFixed(1)} ms, ready ${s.empty.readyMs.toFixed(1)} ms (Baton − empty: ${s.empty.batonMinusEmpty.evaluatedMs.toFixed(1)}, ${s.empty.batonMinusEmpty.readyMs.toFixed(1)} ms)`
          : '';
        console.log(
          `round ${r + 1}${flags.sync ? ' (sync on)' : ''} ${path.basename(path.dirname(dir))}/${path.basename(dir)}: evaluated ${s.evaluatedMs.toFixed(1)} ms, ready ${s.readyMs.toFixed(1)} ms, startWorker → running ${s.wallMs.toFixed(1)} ms (${s.samples} samples)${beside}`,
        );
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  if (emptyDir) fs.rmSync(emptyDir, { recursive: true, force: true });
}
