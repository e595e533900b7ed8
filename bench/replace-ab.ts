/**
 * A stream checkpoint (`store.putTurn`: the turn replaced, with its search record, path-index entry,
 * record and list page) in the service worker of one or more test builds, each build in turn over
 * the same seeded store (bench/README.md, "Replacing a turn with its requests issued together"):
 * medians per build and round.
 *
 *   node --import tsx bench/replace-ab.ts <build dir> [<build dir> …] [--rounds 2] [--samples 31] [--conversations 5000]
 */
import os from 'node:os';
import path from 'node:path';
import type { ConversationStore } from '../lib/store/conversations';
import { alternateBuilds, parseAbArgs, probeSeed } from './ab';
import { median } from './harness';

const { dirs, flags } = parseAbArgs('replace-ab.ts', { rounds: 2, samples: 31, conversations: 5_000 });
const id = 'bench-conversation';
const seed = probeSeed(id, 500, flags.conversations);
const last = seed.transcript.turns.at(-1)!;

await alternateBuilds(dirs, flags.rounds, seed.records, seed.turns, async (browser, r, dir) => {
  const times = await browser.evalInWorker(
    async (a) => {
      const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
        .batonReady;
      const out: number[] = [];
      // Three warm-up checkpoints, then the timed ones; each changes the text, as a stream's would.
      for (let i = 0; i < 3 + a.samples; i++) {
        const turn = { ...a.turn, blocks: [{ type: 'text' as const, text: `checkpoint ${i}` }] };
        const t0 = performance.now();
        await store.putTurn(a.id, turn, new Date().toISOString());
        if (i >= 3) out.push(performance.now() - t0);
      }
      return out;
    },
    { id, turn: last, samples: flags.samples },
  );
  console.log(
    `round ${r + 1} ${path.basename(path.dirname(dir))}: putTurn median ${median(times).toFixed(2)} ms, min ${Math.min(...times).toFixed(2)} ms (${times.length} samples) · load ${os.loadavg()[0]!.toFixed(1)}`,
  );
});
