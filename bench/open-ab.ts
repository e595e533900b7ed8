/**
 * The side panel's open row (`benchOpen`, chromium-panel.ts) for several test builds, alternately, so a
 * before/after comparison shares the machine's load (bench/README.md, "Opening a conversation: Markdown on
 * screen first").
 *
 *   node --import tsx bench/open-ab.ts <build dir> [<build dir> …] [--rounds 2] [--samples 5] [--turns 500] [--conversations 500]
 *
 * Each round launches Chromium with each build in turn, seeds a conversation of `--turns` turns and
 * `--conversations` listed ones (the quick sizes by default), and prints the medians of `--samples`
 * opens after one warm-up.
 */
import path from 'node:path';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { conversationRecords, listRecords } from './chromium-data';
import { benchOpen, NAME_SHIM, openPanel } from './chromium-panel';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const rounds = flag('--rounds', 2);
const samples = flag('--samples', 5);
const turnCount = flag('--turns', 500);
const conversations = flag('--conversations', 500);
const dirs = args.map((d) => path.resolve(d));
if (dirs.length === 0)
  throw new Error('usage: bench/open-ab.ts <build dir> [<build dir> …] [--rounds n] [--samples n] [--turns n]');

const ID = 'bench-conversation';
const transcript = decodeTranscript(generateTranscript({ turns: turnCount }));
const { record, turns } = conversationRecords(transcript, ID);
const list = listRecords(conversations);
const newest = transcript.turns.map((t) => t.id).reverse();

for (let r = 0; r < rounds; r++) {
  for (const dir of dirs) {
    const browser = await ExtensionBrowser.launch({ extensionDir: dir });
    try {
      await browser.wakeServiceWorker();
      await browser.worker().evaluate(NAME_SHIM);
      await seedStore(browser, [...list, record], turns);
      const page = await openPanel(browser, ID);
      const s = await benchOpen(page, ID, list[1]!.id, newest, 1, samples);
      const each = s.samples.map((x) => x.paintMs.toFixed(0)).join(', ');
      console.log(
        `round ${r + 1} ${path.basename(path.dirname(dir))}: paint ${s.paintMs.toFixed(1)} ms, dom ${s.domMs.toFixed(1)} ms, getConversation ${s.loadMs.toFixed(1)} ms (${each}; ${s.shownTurns} turns)`,
      );
    } finally {
      await browser.close();
    }
  }
}
