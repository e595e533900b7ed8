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
import { alternateBuilds, parseAbArgs } from './ab';
import { conversationRecords, listRecords } from './chromium-data';
import { benchOpen, openPanel } from './chromium-panel';
import { generateTranscript } from './generate';

const { dirs, flags } = parseAbArgs('open-ab.ts', { rounds: 2, samples: 5, turns: 500, conversations: 500 });

const ID = 'bench-conversation';
const transcript = decodeTranscript(generateTranscript({ turns: flags.turns }));
const { record, turns } = conversationRecords(transcript, ID);
const list = listRecords(flags.conversations);
const newest = transcript.turns.map((t) => t.id).reverse();

await alternateBuilds(dirs, flags.rounds, [...list, record], turns, async (browser, r, dir) => {
  const page = await openPanel(browser, ID);
  const s = await benchOpen(page, ID, list[1]!.id, newest, 1, flags.samples);
  const each = s.samples.map((x) => x.paintMs.toFixed(0)).join(', ');
  console.log(
    `round ${r + 1} ${path.basename(path.dirname(dir))}: paint ${s.paintMs.toFixed(1)} ms, dom ${s.domMs.toFixed(1)} ms, getConversation ${s.loadMs.toFixed(1)} ms (${each}; ${s.shownTurns} turns)`,
  );
});
