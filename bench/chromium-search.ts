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
import { ensureTestBuild } from './chromium-build';
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

/** `search-seed.ts` bundled as one script for the worker (an IIFE: no imports, nothing exported). */
async function seedScript(): Promise<string> {
  const { build } = await import('vite');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const out = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(root, 'bench/search-seed.ts'), formats: ['iife'], name: 'batonSeed', fileName: 'seed' },
    },
  });
  const first = (Array.isArray(out) ? out[0] : out) as { output: { type: string; code?: string }[] };
  const chunk = first.output.find((o) => o.type === 'chunk');
  if (!chunk?.code) throw new Error('bench/search-seed.ts: the bundle has no code');
  return chunk.code;
}

/** Seeds the stores inside the worker; returns the query words the corpus picked. */
export async function seed(browser: ExtensionBrowser, p: SearchProfile): Promise<{ rare: string; mid: string }> {
  const script = await seedScript();
  await browser.wakeServiceWorker();
  await browser.worker().evaluate(script);
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

/** Runs the search section with `p`; never throws (a failure is a note). */
export async function benchSearch(p: SearchProfile, log: (line: string) => void): Promise<SearchResult> {
  if (!fs.existsSync(CHROMIUM_PATH)) return { ok: false, note: `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)` };
  const build = ensureTestBuild(log);
  if (!build.ok) return { ok: false, note: build.note };
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await ExtensionBrowser.launch({ extensionDir: build.dir });
    log(
      `  seeding ${p.conversations.toLocaleString('en')} conversations, ${p.turns.toLocaleString('en')} turns' index records`,
    );
    const t0 = performance.now();
    await browser.wakeServiceWorker();
    await browser.worker().evaluate(NAME_SHIM);
    const { rare, mid } = await seed(browser, p);
    const seedS = (performance.now() - t0) / 1000;
    log(`  seeded in ${seedS.toFixed(0)} s`);
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
