/**
 * The list and append rows (`chromium-storage.ts`) for several test builds, alternately, so a
 * before/after comparison shares the machine's load (bench/README.md, "List from pages").
 *
 *   node --import tsx bench/list-ab.ts <build dir> [<build dir> …] [--rounds 3] [--samples 15] [--conversations 5000]
 *
 * Each round launches Chromium with each build in turn, seeds `--conversations` list records and
 * a 500-turn conversation, and prints the medians of `store.list()` against its floor (raw
 * `getAll` of the conversations store) and of `store.appendTurn` against its floor.
 */
import os from 'node:os';
import path from 'node:path';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { conversationRecords, listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { benchAppend, benchList, seedStore } from './chromium-storage';
import { generateTranscript } from './generate';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const rounds = flag('--rounds', 3);
const samples = flag('--samples', 15);
const conversations = flag('--conversations', 5_000);
const dirs = args.map((d) => path.resolve(d));
if (dirs.length === 0)
  throw new Error('usage: bench/list-ab.ts <build dir> [<build dir> …] [--rounds n] [--samples n] [--conversations n]');

const id = 'bench-conversation';
const transcript = decodeTranscript(generateTranscript({ turns: 500 }));
const { record, turns } = conversationRecords(transcript, id);
const list = listRecords(conversations);
const sample = transcript.turns.find((t) => t.role === 'assistant') ?? transcript.turns[0]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

for (let r = 0; r < rounds; r++) {
  for (const dir of dirs) {
    const browser = await ExtensionBrowser.launch({ extensionDir: dir });
    try {
      await browser.wakeServiceWorker();
      await browser.worker().evaluate(NAME_SHIM);
      await seedStore(browser, [...list, record], turns);
      const l = await benchList(browser, 3, samples);
      const a = await benchAppend(browser, id, sample, 3, samples);
      console.log(
        `round ${r + 1} ${path.basename(path.dirname(dir))}: list ${ms(l.batonMs)} (floor ${ms(l.floorMs)}, ${l.listed} listed) · append ${ms(a.batonMs)} (floor ${ms(a.floorMs)}) · load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    } finally {
      await browser.close();
    }
  }
}
