/**
 * The full-text search section of `npm run bench` (bench/README.md, "Search"; docs/side-panel.md#search):
 * in the system Chromium with the test build, the `search` store is seeded with 5,000
 * conversations and 100,000 turns' index records (built in Node with the store's own
 * `turnSearchRecord` / `titleSearchRecord`, so the terms are exactly what Baton writes), then
 * `searchConversations` requests are timed from an extension page on its own clock — the round
 * trip the side panel waits for (router, store query, MiniSearch ranking, structured clone both
 * ways). Three queries: a rare word (a handful of turns), the most common word (in nearly every
 * turn: the candidate caps apply), and two words, the last one typed halfway (a prefix).
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import type { BatonDb, ConversationRecord } from '../lib/store/db';
import { titleSearchRecord, turnSearchRecord, type SearchRecord } from '../lib/store/search-index';
import type { Turn } from '../lib/transcript/schema';
import { ExtensionBrowser } from '../test/e2e/harness';
import { CHROMIUM_PATH } from '../test/e2e/paths';
import { ensureTestBuild } from './chromium-build';
import { batches, listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { median } from './harness';
import { Rng } from './random';
import { prose } from './text';
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

/** Pronounceable made-up words, the rarer vocabulary besides the bench's prose words. */
function vocabulary(rng: Rng, size: number): string[] {
  const c = 'bdfgklmnprstvz';
  const v = 'aeiou';
  const out = new Set<string>();
  while (out.size < size) {
    let w = '';
    for (let i = rng.int(3, 5); i > 0; i--) w += rng.pick([...c]) + rng.pick([...v]);
    out.add(w);
  }
  return [...out];
}

/**
 * The seeded records: `conversations` titles and `turns` turn records spread over them, each turn
 * 100–800 characters of prose plus 1–4 made-up words picked with a skew (a few are common, most
 * rare). Also returns a rare word (in 2–10 turns) and a mid-frequency one, for the queries.
 */
export function searchRecords(p: Pick<SearchProfile, 'conversations' | 'turns'>, seed = 21) {
  const rng = new Rng(seed);
  const conversations = listRecords(p.conversations, seed);
  const words = vocabulary(rng, 30_000);
  const count = new Map<string, number>();
  const records: SearchRecord[] = conversations.map((c) => titleSearchRecord(c.id, c.title));
  for (let i = 0; i < p.turns; i++) {
    const conversationId = conversations[i % conversations.length]!.id;
    const extra: string[] = [];
    for (let k = rng.int(1, 4); k > 0; k--) {
      const w = words[Math.floor(words.length * rng.next() ** 3)]!;
      extra.push(w);
      count.set(w, (count.get(w) ?? 0) + 1);
    }
    const turn: Turn =
      i % 2
        ? {
            id: `t${i}`,
            role: 'assistant',
            origin: { provider: 'openai', api: 'openai-responses', model: 'm' },
            blocks: [{ type: 'text', text: `${prose(rng, rng.int(100, 800))} ${extra.join(' ')}` }],
          }
        : {
            id: `t${i}`,
            role: 'user',
            blocks: [{ type: 'text', text: `${prose(rng, rng.int(50, 300))} ${extra.join(' ')}` }],
          };
    records.push(turnSearchRecord({ conversationId, seq: Math.floor(i / conversations.length), turn }));
  }
  const byCount = [...count].sort((a, b) => a[1] - b[1]);
  const rare = byCount.find(([, c]) => c >= 2 && c <= 10)?.[0] ?? byCount[0]![0];
  const mid = byCount[Math.floor(byCount.length * 0.9)]![0];
  return { conversations, records, rare, mid };
}

interface WorkerGlobals {
  batonReady: Promise<{ db: BatonDb }>;
}

async function seed(browser: ExtensionBrowser, conversations: ConversationRecord[], records: SearchRecord[]) {
  const parts = batches(records, 2_000);
  for (let i = 0; i < parts.length; i++) {
    const arg = JSON.stringify({ conversations: i === 0 ? conversations : [], records: parts[i] });
    await browser.evalInWorker(async (json) => {
      const a = JSON.parse(json) as { conversations: ConversationRecord[]; records: SearchRecord[] };
      const { db } = await (globalThis as unknown as WorkerGlobals).batonReady;
      const t = db.transaction(['conversations', 'search'], 'readwrite', { durability: 'relaxed' });
      for (const r of a.conversations) void t.objectStore('conversations').put(r);
      for (const r of a.records) void t.objectStore('search').put(r);
      await t.done;
    }, arg);
  }
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
  const { conversations, records, rare, mid } = searchRecords(p);
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await ExtensionBrowser.launch({ extensionDir: build.dir });
    log(
      `  seeding ${p.conversations.toLocaleString('en')} conversations, ${p.turns.toLocaleString('en')} turns' index records`,
    );
    const t0 = performance.now();
    await browser.wakeServiceWorker();
    await browser.worker().evaluate(NAME_SHIM);
    await seed(browser, conversations, records);
    const seedS = (performance.now() - t0) / 1000;
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
