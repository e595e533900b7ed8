/**
 * Bundled by `chromium-search.ts` (Vite, IIFE) and evaluated in Baton's service worker (test
 * build): defines `globalThis.batonSeedSearch`, which generates the search section's records
 * (`search-data.ts`, the store's own record builders) right where they are written, in large
 * relaxed-durability transactions. Nothing crosses CDP but the sizes and the two query words, so
 * seeding 100,000 turns costs the IndexedDB writes and little else.
 */
import type { BatonDb } from '../lib/store/db';
import { searchCorpus } from './search-data';

/** Records written per transaction. */
const PER_TRANSACTION = 5_000;

(globalThis as unknown as Record<string, unknown>).batonSeedSearch = async (p: {
  conversations: number;
  turns: number;
}): Promise<{ rare: string; mid: string; records: number }> => {
  const { db } = await (globalThis as unknown as { batonReady: Promise<{ db: BatonDb }> }).batonReady;
  const corpus = searchCorpus(p);
  let written = 0;
  let first = true;
  let done = false;
  while (!done) {
    const t = db.transaction(['conversations', 'search'], 'readwrite', { durability: 'relaxed' });
    if (first) for (const c of corpus.conversations) void t.objectStore('conversations').put(c);
    first = false;
    const store = t.objectStore('search');
    let n = 0;
    while (n < PER_TRANSACTION) {
      const r = corpus.records.next();
      if (r.done) {
        done = true;
        break;
      }
      void store.put(r.value);
      n++;
    }
    await t.done;
    written += n;
  }
  return { ...corpus.words(), records: written };
};
