/**
 * Sync (bench/README.md, "Sync"): the time one device takes to apply 1,000 turns another device
 * wrote — a one-shot cycle pulling them from a real `pouchdb-server --in-memory` on 127.0.0.1,
 * opening each ciphertext and applying them through the store's transactions. Runs in Node: the
 * Baton stores over fake-indexeddb and PouchDB's memory adapter for the local mirror (the
 * extension uses real IndexedDB and PouchDB's IndexedDB adapter, so this is a floor of the work,
 * not the browser's figure). The KDF is set to 1,000 iterations here so the figure is the apply
 * alone (the real 600,000 run once per Join).
 */
import * as fakeIdb from 'fake-indexeddb';
import type { Turn } from '../lib/transcript/schema';
import { median } from './harness';
import type { Row } from './table';

/** `fetch` as Node has it, kept before the benchmark's capture replaces it (loopback only, below). */
const nodeFetch = globalThis.fetch;

/** The figure: medians over the samples. */
export type SyncResult =
  { ok: false; note: string } | { ok: true; turns: number; samples: number; applyMs: number; perTurnMs: number };

/** Target for applying 1,000 remote turns (ms): a device catching up after a day of use stays interactive. */
export const SYNC_APPLY_TARGET_MS = 5_000;

const text = (i: number) =>
  `Turn ${i}: ${'the quick brown fox jumps over the lazy dog, '.repeat(8)}and a code line \`x = ${i}\`.`;

/**
 * Lets the untimed set-up of the first sample overlap other untimed work (`--quick`: the search
 * section's seeding, bench/README.md): {@link benchSyncApply} calls `setUp` once device A has
 * pushed the first sample's turns (or the set-up failed), then waits for `timeAfter` before it
 * times device B, so that nothing else runs while it does.
 */
export interface SyncOverlap {
  setUp(): void;
  timeAfter: Promise<unknown>;
}

/**
 * Applies `turns` remote turns `samples` times (each on a fresh pair of devices and database):
 * device A writes them and syncs; device B, joined before, runs one cycle, timed.
 */
export async function benchSyncApply(
  turns: number,
  samples: number,
  log: (l: string) => void,
  overlap?: SyncOverlap,
): Promise<SyncResult> {
  const g = globalThis as unknown as Record<string, unknown>;
  // fake-indexeddb's classes as globals (what `fake-indexeddb/auto` sets), only while this runs.
  const idb: Record<string, unknown> = { ...fakeIdb, indexedDB: new fakeIdb.IDBFactory() };
  delete idb.default;
  const saved: Record<string, unknown> = { fetch: g.fetch };
  for (const k of Object.keys(idb)) saved[k] = g[k];
  // The real fetch for the local server only: nothing else may be reached.
  g.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('http://127.0.0.1:')) throw new TypeError(`bench sync: refused ${url}`);
    return nodeFetch(input, init);
  };
  Object.assign(g, idb);
  let stop: (() => Promise<void>) | undefined;
  try {
    log('  sync: loading the sync modules');
    const { makeDevice, startPouchServer } = await import('../lib/background/sync/sync-server.test-helper');
    const server = await startPouchServer();
    stop = server.stop;
    log('  sync: pouchdb-server up');
    const times: number[] = [];
    for (let s = 0; s < samples; s++) {
      const access = { url: `${server.origin}/bench-${s}`, user: '', password: '', passphrase: 'bench passphrase' };
      const a = await makeDevice('A', { timeoutMs: 60_000 });
      const b = await makeDevice('B', { timeoutMs: 60_000 });
      await a.engine.create(access);
      await b.engine.join(access);
      const now = new Date().toISOString();
      // Ten conversations of turns / 10, a user question and an answer in turn.
      for (let c = 0; c < 10; c++) {
        const id = `bench-sync-${c}`;
        await a.store.create({ id, title: `Bench conversation ${c}`, now });
        for (let i = 0; i < turns / 10; i++) {
          const turn: Turn =
            i % 2 === 0
              ? { id: `${id}-${i}`, role: 'user', blocks: [{ type: 'text', text: text(i) }] }
              : {
                  id: `${id}-${i}`,
                  role: 'assistant',
                  status: 'complete',
                  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
                  blocks: [{ type: 'text', text: text(i) }],
                };
          await a.store.appendTurn(id, turn, now);
        }
      }
      log(`  sync: device A wrote ${turns} turns`);
      const pushed = await a.engine.syncNow();
      log('  sync: device A pushed them');
      if (pushed.state !== 'idle') throw new Error(`device A did not sync: ${pushed.error?.message ?? pushed.state}`);
      if (s === 0 && overlap) {
        overlap.setUp();
        await overlap.timeAfter;
      }
      const t0 = performance.now();
      const pulled = await b.engine.syncNow();
      const ms = performance.now() - t0;
      if (pulled.state !== 'idle') throw new Error(`device B did not sync: ${pulled.error?.message ?? pulled.state}`);
      let applied = 0;
      for (let c = 0; c < 10; c++) applied += (await b.store.toTranscript(`bench-sync-${c}`)).turns.length;
      if (applied !== turns) throw new Error(`device B holds ${applied} turns, not ${turns}`);
      times.push(ms);
      log(`  sync: ${turns} remote turns applied in ${ms.toFixed(0)} ms`);
      a.db.close();
      b.db.close();
    }
    const applyMs = median(times);
    return { ok: true, turns, samples, applyMs, perTurnMs: applyMs / turns };
  } catch (e) {
    return { ok: false, note: `failed: ${((e as Error).message ?? String(e)).split('\n')[0]}` };
  } finally {
    // A failed set-up must not leave the other section waiting for it.
    overlap?.setUp();
    await stop?.().catch(() => undefined);
    Object.assign(g, saved);
  }
}

/** The table row of {@link benchSyncApply}. */
export function syncRows(r: SyncResult, turns = 1_000): Row[] {
  const figure = `apply ${turns.toLocaleString('en')} remote turns (one cycle from pouchdb-server on 127.0.0.1; Node, fake-indexeddb, memory mirror)`;
  const target = `< ${SYNC_APPLY_TARGET_MS.toLocaleString('en')} ms`;
  if (!r.ok) return [{ section: 'sync', figure, value: r.note, target, met: 'skipped' }];
  return [
    {
      section: 'sync',
      figure,
      value: `${r.applyMs.toFixed(0)} ms (${r.perTurnMs.toFixed(2)} ms per turn; median of ${r.samples})`,
      target,
      met: r.applyMs < SYNC_APPLY_TARGET_MS ? 'yes' : 'no',
    },
  ];
}
