/**
 * The full-text search section of `npm run bench` (bench/README.md, "Search"; docs/side-panel.md#search):
 * in the system Chromium with the test build, the `search` store is seeded with 5,000
 * conversations and 100,000 turns' index records (generated inside the service worker by
 * `search-seed.ts` with the store's own `turnSearchRecord` / `titleSearchRecord`, so the terms are
 * exactly what Baton writes), then
 * `searchConversations` requests are timed from an extension page on its own clock — the round
 * trip the side panel waits for (router, store query, MiniSearch ranking, structured clone both
 * ways). Three queries: a rare word (a handful of turns), the most common word (in a third of the
 * turns: the candidate caps apply), and two words, the last one typed halfway (a prefix).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ExtensionBrowser } from '../test/e2e/harness';
import { CHROMIUM_PATH } from '../test/e2e/paths';
import { ensureTestBuild, TEST_BUILD_DIR } from './chromium-build';
import type { SharedBrowser } from './chromium-run';
import { NAME_SHIM } from './chromium-panel';
import { median } from './harness';
import { ms, type Row } from './table';

/** Sizes and sample counts of one run. */
export interface SearchProfile {
  conversations: number;
  turns: number;
  /** Untimed + timed requests per query. */
  samples: [number, number];
}

export const SEARCH_FULL: SearchProfile = { conversations: 5_000, turns: 100_000, samples: [3, 20] };
export const SEARCH_QUICK: SearchProfile = { conversations: 500, turns: 5_000, samples: [1, 5] };

/** Target: a search answers in under this many ms (median round trip, every query). */
export const SEARCH_TARGET_MS = 100;

/** One timed query: its text, how many records hold its words, the median and the hits returned. */
export interface QueryResult {
  label: string;
  query: string;
  medianMs: number;
  samples: number[];
  hits: number;
}

export type SearchResult =
  { ok: false; note: string } | { ok: true; profile: SearchProfile; queries: QueryResult[]; seedS: number };

/**
 * `search-seed.ts` bundled as one script for the worker (an IIFE: no imports, nothing exported), by
 * esbuild: the same modules a Vite library build bundled, in a tenth of the time (Vite's build
 * took about a second of the quick run, more on a cold start of its module graph).
 */
export async function seedScript(): Promise<string> {
  const { build } = await import('esbuild');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const out = await build({
    entryPoints: [path.join(root, 'bench/search-seed.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = out.outputFiles[0]?.text;
  if (!code) throw new Error('bench/search-seed.ts: the bundle has no code');
  return code;
}

/**
 * Seeds the stores inside the worker with `script` (see {@link seedScript}); returns the query
 * words the corpus picked.
 */
export async function seed(
  browser: ExtensionBrowser,
  p: SearchProfile,
  script: string | Promise<string> = seedScript(),
): Promise<{ rare: string; mid: string }> {
  const code = await script;
  await browser.wakeServiceWorker();
  await browser.worker().evaluate(code);
  return browser.evalInWorker(
    (size) =>
      (
        globalThis as unknown as {
          batonSeedSearch(s: typeof size): Promise<{ rare: string; mid: string; records: number }>;
        }
      ).batonSeedSearch(size),
    { conversations: p.conversations, turns: p.turns },
  );
}

/** The stores a section before this one may have filled (everything but settings and the vault). */
export const DATA_STORES = ['conversations', 'turns', 'search', 'paths', 'summaries', 'disclosures'] as const;

/**
 * Makes the database of a browser another section used look like a fresh profile's to the search:
 * empties {@link DATA_STORES}, then restarts the worker so that nothing it read stays in memory.
 */
export async function emptyDataStores(browser: ExtensionBrowser): Promise<void> {
  await browser.evalInWorker(async (stores) => {
    const { db } = await (
      globalThis as unknown as {
        batonReady: Promise<{
          db: { transaction(s: string[], m: string): { objectStore(n: string): { clear(): unknown }; done: unknown } };
        }>;
      }
    ).batonReady;
    const t = db.transaction([...stores], 'readwrite');
    for (const s of stores) void t.objectStore(s).clear();
    await t.done;
  }, DATA_STORES);
  await browser.stopServiceWorker();
  await browser.wakeServiceWorker();
  await browser.worker().evaluate(NAME_SHIM);
  await browser.evalInWorker(async () => {
    await (globalThis as unknown as { batonReady: Promise<unknown> }).batonReady;
  }, undefined);
}

async function timeQuery(page: Page, query: string, warmup: number, samples: number) {
  return page.evaluate(
    async (a) => {
      const chrome = (
        globalThis as unknown as {
          chrome: { runtime: { sendMessage(m: unknown): Promise<{ ok: boolean; data?: unknown; error?: unknown }> } };
        }
      ).chrome;
      const out: number[] = [];
      let hits = 0;
      for (let i = 0; i < a.warmup + a.samples; i++) {
        const t0 = performance.now();
        const reply = await chrome.runtime.sendMessage({ type: 'searchConversations', payload: { query: a.query } });
        const took = performance.now() - t0;
        if (!reply.ok) throw new Error(`searchConversations failed: ${JSON.stringify(reply.error)}`);
        hits = (reply.data as unknown[]).length;
        if (i >= a.warmup) out.push(took);
      }
      return { out, hits };
    },
    { query, warmup, samples },
  );
}

/**
 * Runs the search section with `p`; never throws (a failure is a note). With `shared`, it takes
 * the browser another section left there (emptied first: {@link emptyDataStores}) instead of
 * starting its own; the browser is closed at the end either way. With `quietBeforeQueries`, the
 * queries are timed only once it settles (untimed work of another section ran during the seeding).
 */
export async function benchSearch(
  p: SearchProfile,
  log: (line: string) => void,
  shared?: SharedBrowser,
  quietBeforeQueries?: Promise<unknown>,
): Promise<SearchResult> {
  let browser = shared?.browser;
  if (shared) shared.browser = undefined;
  try {
    if (!browser) {
      if (!fs.existsSync(CHROMIUM_PATH))
        return { ok: false, note: `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)` };
      const build = ensureTestBuild(log);
      if (!build.ok) return { ok: false, note: build.note };
    }
    // Bundled while the browser starts or is emptied (both wait on Chromium, not on this process).
    const script = seedScript();
    script.catch(() => undefined);
    if (browser) {
      log('  emptying the data stores of the Chromium section (its browser, reused)');
      await emptyDataStores(browser);
    } else {
      log('  launching Chromium');
      browser = await ExtensionBrowser.launch({ extensionDir: TEST_BUILD_DIR });
    }
    log(
      `  seeding ${p.conversations.toLocaleString('en')} conversations, ${p.turns.toLocaleString('en')} turns' index records`,
    );
    const t0 = performance.now();
    await browser.wakeServiceWorker();
    await browser.worker().evaluate(NAME_SHIM);
    const { rare, mid } = await seed(browser, p, script);
    const seedS = (performance.now() - t0) / 1000;
    log(`  seeded in ${seedS.toFixed(1)} s`);
    if (quietBeforeQueries) {
      log('  waiting for the work run alongside the seeding');
      await quietBeforeQueries;
    }
    const page = await browser.openPage('options.html');
    await page.evaluate(NAME_SHIM);
    const queries: QueryResult[] = [];
    for (const [label, query] of [
      ['a rare word', rare],
      ['the most common word', 'the'],
      ['two words, the last typed halfway', `model ${mid.slice(0, Math.ceil(mid.length / 2))}`],
    ] as const) {
      log(`  query ${JSON.stringify(query)} (${label})`);
      const r = await timeQuery(page, query, ...p.samples);
      queries.push({ label, query, medianMs: median(r.out), samples: r.out, hits: r.hits });
    }
    return { ok: true, profile: p, queries, seedS };
  } catch (e) {
    return { ok: false, note: `failed: ${((e as Error).message ?? String(e)).split('\n')[0]}` };
  } finally {
    await browser?.close();
  }
}

/** One row per query, target < {@link SEARCH_TARGET_MS} ms. */
export function searchRows(r: SearchResult, p: SearchProfile = SEARCH_FULL): Row[] {
  const scope = `${(r.ok ? r.profile : p).conversations.toLocaleString('en')} conversations / ${(r.ok ? r.profile : p).turns.toLocaleString('en')} turns`;
  const target = `< ${SEARCH_TARGET_MS} ms`;
  if (!r.ok)
    return [
      {
        section: 'search',
        figure: `search ${scope} (searchConversations round trip)`,
        value: r.note,
        target,
        met: 'skipped',
      },
    ];
  return r.queries.map((q) => ({
    section: 'search',
    figure: `search ${scope}: ${q.label} (${JSON.stringify(q.query)}, round trip from a page)`,
    value: `${ms(q.medianMs)} ms (max ${ms(Math.max(...q.samples))} ms; ${q.hits} hits)`,
    target,
    met: q.medianMs < SEARCH_TARGET_MS ? 'yes' : 'no',
  }));
}
