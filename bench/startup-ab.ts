/**
 * The service-worker cold-start row (`chromium-startup.ts`) for several test builds, alternately, so a
 * before/after comparison shares the machine's load (bench/README.md, "Service-worker start-up").
 *
 *   node --import tsx bench/startup-ab.ts <build dir> [<build dir> …] [--rounds 2] [--samples 5] [--sync 1]
 *
 * Each round launches Chromium with each build in turn, seeds the quick sizes (500 conversations and
 * a 500-turn one), and prints the medians of `--samples` cold starts after one warm-up. `--sync 1`:
 * the "cold start, sync on" row instead (sync configured, its alarm set).
 */
import path from 'node:path';
import { decodeTranscript } from '../lib/transcript/codec';
import { alternateBuilds, parseAbArgs } from './ab';
import { conversationRecords, listRecords } from './chromium-data';
import { CHROMIUM_QUICK } from './chromium-run';
import { benchStartup, benchStartupSyncOn } from './chromium-startup';
import { generateTranscript } from './generate';

const { dirs, flags } = parseAbArgs('startup-ab.ts', { rounds: 2, samples: 5, sync: 0 });

const { sizes } = CHROMIUM_QUICK;
const { record, turns } = conversationRecords(
  decodeTranscript(generateTranscript({ turns: sizes.turns })),
  'bench-conversation',
);
const list = listRecords(sizes.conversations);

await alternateBuilds(dirs, flags.rounds, [...list, record], turns, async (browser, r, dir) => {
  const s = await (flags.sync ? benchStartupSyncOn : benchStartup)(browser, 1, flags.samples);
  console.log(
    `round ${r + 1}${flags.sync ? ' (sync on)' : ''} ${path.basename(path.dirname(dir))}/${path.basename(dir)}: evaluated ${s.evaluatedMs.toFixed(1)} ms, ready ${s.readyMs.toFixed(1)} ms, startWorker → running ${s.wallMs.toFixed(1)} ms (${s.samples} samples)`,
  );
});
