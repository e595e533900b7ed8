/**
 * The search section's seed script (bench/README.md, "Search"): `chromium-search.ts` bundles
 * `search-seed.ts` into one script the worker evaluates. Evaluated here in a bare context (no
 * module system, no Node API) with a stand-in database, the bundle must write exactly the corpus `searchCorpus` describes.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { seedScript } from './chromium-search';
import { searchCorpus } from './search-data';

describe('seedScript', () => {
  it('bundles a self-contained script whose batonSeedSearch writes the corpus', async () => {
    const code = await seedScript();
    expect(code).not.toMatch(/^\s*import\s/m);
    const written: Record<string, unknown[]> = { conversations: [], search: [] };
    let transactions = 0;
    const db = {
      transaction(stores: string[], mode: string) {
        expect(mode).toBe('readwrite');
        transactions++;
        return {
          objectStore: (name: string) => {
            expect(stores).toContain(name);
            return { put: (v: unknown) => void written[name]!.push(structuredClone(v)) };
          },
          done: Promise.resolve(),
        };
      },
    };
    // The worker's globals the bundle may use, and nothing of Node's.
    const context = vm.createContext({ batonReady: Promise.resolve({ db }), TextEncoder, TextDecoder, console });
    vm.runInContext(code, context);
    const size = { conversations: 7, turns: 40 };
    const seed = (
      context as { batonSeedSearch(p: typeof size): Promise<{ rare: string; mid: string; records: number }> }
    ).batonSeedSearch;
    const result = await seed(size);

    const corpus = searchCorpus(size);
    const records = [...corpus.records];
    expect(result).toEqual({ ...corpus.words(), records: records.length });
    // Compared as JSON: the records were made in another realm (vm), so their prototypes differ.
    expect(JSON.stringify(written.search)).toBe(JSON.stringify(records));
    expect(JSON.stringify(written.conversations)).toBe(JSON.stringify(corpus.conversations));
    expect(transactions).toBeGreaterThan(0);
  });
});
