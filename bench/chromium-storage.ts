/**
 * Storage figures (bench/README.md, "Storage and rendering"), in the built extension's service worker —
 * where Baton's store runs (`lib/store`, reached through the test build's `globalThis.batonReady`)
 * — against real IndexedDB:
 * - seed: 5,000 list records and one 10,000-turn conversation, in bulk transactions (untimed);
 * - append one turn: `store.appendTurn` (read the metadata, add the turn, put the metadata, one
 *   transaction) vs the floor, raw IndexedDB `put` of the same two records in one transaction;
 * - list: `store.list()` (it reads the list pages, lib/store/list-pages.ts) vs the floor, raw
 *   `getAll()` of the conversations store (what listing read before the pages); plus the
 *   `listConversations` round trip from an extension page (what the side panel waits for).
 * Every timed function runs in the browser, on its own clock (`performance.now()`), interleaved
 * with its floor.
 */
import type { ConversationStore } from '../lib/store/conversations';
import type { BatonDb, ConversationRecord, TurnRecord } from '../lib/store/db';
import type { Turn } from '../lib/transcript/schema';
import type { ExtensionBrowser } from '../test/e2e/harness';
import { batches } from './chromium-data';
import { median } from './harness';

/** What the test build's worker exposes (entrypoints/background.ts). */
interface WorkerGlobals {
  batonReady: Promise<{ db: BatonDb; store: ConversationStore }>;
}

/** Baton's and the floor's samples (ms) of one storage figure. */
export interface StoragePair {
  batonMs: number;
  floorMs: number;
  batonSamples: number[];
  floorSamples: number[];
}

/**
 * Writes records into the `conversations` and `turns` stores, one relaxed transaction per batch of
 * turns, then has the store write its list pages from them (`store.rebuildList()`: records written
 * around the store have none).
 */
export async function seedStore(
  browser: ExtensionBrowser,
  conversations: ConversationRecord[],
  turns: TurnRecord[],
  batchSize = 1_000,
): Promise<void> {
  const parts = batches(turns, batchSize);
  for (let i = 0; i < Math.max(1, parts.length); i++) {
    // One JSON string crosses CDP much faster than the same records as an object graph.
    const arg = JSON.stringify({ conversations: i === 0 ? conversations : [], turns: parts[i] ?? [] });
    await browser.evalInWorker(async (json) => {
      const a = JSON.parse(json) as { conversations: ConversationRecord[]; turns: TurnRecord[] };
      const { db } = await (globalThis as unknown as WorkerGlobals).batonReady;
      const t = db.transaction(['conversations', 'turns'], 'readwrite', { durability: 'relaxed' });
      for (const r of a.conversations) void t.objectStore('conversations').put(r);
      for (const r of a.turns) void t.objectStore('turns').put(r);
      await t.done;
    }, arg);
  }
  await browser.evalInWorker(async () => {
    const { store } = await (globalThis as unknown as WorkerGlobals).batonReady;
    // Builds from before the list pages (A/B runs against an older build) list the records themselves.
    if ('rebuildList' in store) await store.rebuildList();
  }, undefined);
}

/**
 * Appends `samples` (+ `warmup`) turns to conversation `id` with `store.appendTurn`, interleaved
 * with the floor (raw `put` of the turn and of a same-sized metadata record, under
 * `<id>-floor`), then removes every appended record again (`store.deleteTurnsFrom`, raw delete).
 */
export async function benchAppend(
  browser: ExtensionBrowser,
  id: string,
  turn: Turn,
  warmup: number,
  samples: number,
): Promise<StoragePair> {
  const r = await browser.evalInWorker(
    async (a) => {
      const { store } = await (globalThis as unknown as WorkerGlobals).batonReady;
      const raw = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('baton');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const floorId = `${a.id}-floor`;
      const record = await store.getRecord(a.id);
      if (!record) throw new Error(`bench: conversation ${a.id} is not seeded`);
      const floorRecord = { ...record, id: floorId };
      const baton: number[] = [];
      const floor: number[] = [];
      let firstAppended: string | undefined;
      for (let i = 0; i < a.warmup + a.samples; i++) {
        const mine = { ...a.turn, id: `${a.turn.id}-baton-${i}` };
        const theirs = {
          conversationId: floorId,
          seq: i,
          parentId: '',
          turn: { ...a.turn, id: `${a.turn.id}-floor-${i}` },
        };
        const now = new Date().toISOString();
        firstAppended ??= mine.id;
        const runBaton = async () => {
          const t0 = performance.now();
          await store.appendTurn(a.id, mine, now);
          return performance.now() - t0;
        };
        const runFloor = () =>
          new Promise<number>((resolve, reject) => {
            const t0 = performance.now();
            const t = raw.transaction(['conversations', 'turns'], 'readwrite', { durability: 'default' });
            t.objectStore('turns').put(theirs);
            t.objectStore('conversations').put(floorRecord);
            t.oncomplete = () => resolve(performance.now() - t0);
            t.onerror = () => reject(t.error);
          });
        const [b, f] =
          i % 2 === 0 ? [await runBaton(), await runFloor()] : [await runFloor(), await runBaton()].reverse();
        if (i >= a.warmup) {
          baton.push(b!);
          floor.push(f!);
        }
      }
      if (firstAppended) await store.deleteTurnsFrom(a.id, firstAppended, record.updatedAt);
      await new Promise<void>((resolve, reject) => {
        const t = raw.transaction(['conversations', 'turns'], 'readwrite');
        t.objectStore('turns').delete(IDBKeyRange.bound([floorId, -Infinity], [floorId, Infinity]));
        t.objectStore('conversations').delete(floorId);
        t.oncomplete = () => resolve();
        t.onerror = () => reject(t.error);
      });
      raw.close();
      return { baton, floor };
    },
    { id, turn, warmup, samples },
  );
  return pairOf(r.baton, r.floor);
}

/** `store.list()` vs raw `getAll()` of the conversations store, interleaved, in the worker. */
export async function benchList(
  browser: ExtensionBrowser,
  warmup: number,
  samples: number,
): Promise<StoragePair & { listed: number }> {
  const r = await browser.evalInWorker(
    async (a) => {
      const { store } = await (globalThis as unknown as WorkerGlobals).batonReady;
      const raw = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('baton');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const baton: number[] = [];
      const floor: number[] = [];
      let listed = 0;
      for (let i = 0; i < a.warmup + a.samples; i++) {
        const runBaton = async () => {
          const t0 = performance.now();
          listed = (await store.list()).length;
          return performance.now() - t0;
        };
        const runFloor = () =>
          new Promise<number>((resolve, reject) => {
            const t0 = performance.now();
            const req = raw.transaction('conversations', 'readonly').objectStore('conversations').getAll();
            req.onsuccess = () => resolve(performance.now() - t0);
            req.onerror = () => reject(req.error);
          });
        const [b, f] =
          i % 2 === 0 ? [await runBaton(), await runFloor()] : [await runFloor(), await runBaton()].reverse();
        if (i >= a.warmup) {
          baton.push(b!);
          floor.push(f!);
        }
      }
      raw.close();
      return { baton, floor, listed };
    },
    { warmup, samples },
  );
  return { ...pairOf(r.baton, r.floor), listed: r.listed };
}

/** Medians of two sample lists. */
function pairOf(baton: number[], floor: number[]): StoragePair {
  return { batonMs: median(baton), floorMs: median(floor), batonSamples: baton, floorSamples: floor };
}
