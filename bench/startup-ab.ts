/**
 * The service-worker cold-start row (`chromium-startup.ts`) for several test builds, alternately, so a
 * before/after comparison shares the machine's load (bench/README.md, "Service-worker start-up").
 *
 *   node --import tsx bench/startup-ab.ts <build dir> [<build dir> …] [--rounds 2] [--samples 5]
 *
 * Each round launches Chromium with each build in turn, seeds the quick sizes (500 conversations and
 * a 500-turn one), and prints the medians of `--samples` cold starts after one warm-up.
 */
import path from 'node:path';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { conversationRecords, listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { CHROMIUM_QUICK } from './chromium-run';
import { benchStartup } from './chromium-startup';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const rounds = flag('--rounds', 2);
const samples = flag('--samples', 5);
const dirs = args.map((d) => path.resolve(d));
if (dirs.length === 0)
  throw new Error('usage: bench/startup-ab.ts <build dir> [<build dir> …] [--rounds n] [--samples n]');

const { sizes } = CHROMIUM_QUICK;
const { record, turns } = conversationRecords(
  decodeTranscript(generateTranscript({ turns: sizes.turns })),
  'bench-conversation',
);
const list = listRecords(sizes.conversations);

for (let r = 0; r < rounds; r++) {
  for (const dir of dirs) {
    const browser = await ExtensionBrowser.launch({ extensionDir: dir });
    try {
      await browser.wakeServiceWorker();
      await browser.worker().evaluate(NAME_SHIM);
      await seedStore(browser, [...list, record], turns);
      const s = await benchStartup(browser, 1, samples);
      console.log(
        `round ${r + 1} ${path.basename(path.dirname(dir))}/${path.basename(dir)}: evaluated ${s.evaluatedMs.toFixed(1)} ms, ready ${s.readyMs.toFixed(1)} ms, startWorker → running ${s.wallMs.toFixed(1)} ms (${s.samples} samples)`,
      );
    } finally {
      await browser.close();
    }
  }
}
