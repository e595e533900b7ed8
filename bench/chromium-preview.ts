/**
 * Cold disclosure preview of a long conversation (bench/README.md, "Cold preview"): the request the
 * side panel makes for its collapsed disclosure line (`previewSend` with `countsOnly`), timed from an
 * extension page on the browser's clock (router, store read, plan, structured clone both ways), right
 * after the service worker was stopped and started again — so the worker's transcript cache is empty
 * and the conversation must be read out of IndexedDB — with the token counts already stored on the
 * turn records (docs/architecture.md#token-counts-with-the-turn): a person reopening a conversation
 * planned before. The second request after each cold one is timed too (warm: the cache holds it).
 *
 * The target is Anthropic at an unreachable loopback base URL (a usable provider without a key;
 * nothing is sent anywhere).
 */
import type { Page } from 'playwright-core';
import type { ConversationStore } from '../lib/store/conversations';
import type { BatonDb } from '../lib/store/db';
import type { ExtensionBrowser } from '../test/e2e/harness';
import { median } from './harness';
import { NAME_SHIM } from './chromium-panel';

/** The preview's target: Anthropic (its count is exact without a rank table to fetch). */
export const PREVIEW_TARGET = { providerId: 'anthropic', model: 'claude-sonnet-4-5' } as const;

/** Medians (ms) of the cold and warm previews, and what the preview counted. */
export interface PreviewResult {
  samples: number[];
  coldMs: number;
  warmMs: number;
  /** Turns the preview says the conversation has (its "of N turns"). */
  turns: number;
  /** Turns the plan includes (what fits the model's budget). */
  included: number;
}

interface PageChrome {
  runtime: { sendMessage(m: unknown): Promise<{ ok: boolean; data?: unknown; error?: unknown }> };
}

interface WorkerGlobals {
  batonReady: Promise<{ db: BatonDb; store: ConversationStore }>;
}

/** Sends `previewSend` (counts only) from `page` for conversation `id`; its round trip (ms) and the counts. */
export async function previewOnce(page: Page, id: string): Promise<{ ms: number; turns: number; included: number }> {
  return page.evaluate(
    async (a) => {
      const chrome = (globalThis as unknown as { chrome: PageChrome }).chrome;
      const t0 = performance.now();
      const reply = await chrome.runtime.sendMessage({
        type: 'previewSend',
        payload: { conversationId: a.id, target: a.target, countsOnly: true },
      });
      const ms = performance.now() - t0;
      if (!reply.ok) throw new Error(`previewSend failed: ${JSON.stringify(reply.error)}`);
      const d = reply.data as { turns: number; includedTurns: number };
      return { ms, turns: d.turns, included: d.includedTurns };
    },
    { id, target: PREVIEW_TARGET },
  );
}

/** Resolves once the turn records of conversation `id` at `seqs` all hold stored counts (the plan's write-back). */
export async function waitForStoredCounts(browser: ExtensionBrowser, id: string, seqs: number[]): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const done = await browser.evalInWorker(
      async (a) => {
        const { db } = await (globalThis as unknown as WorkerGlobals).batonReady;
        const recs = await Promise.all(a.seqs.map((s) => db.get('turns', [a.id, s])));
        return recs.every((r) => r?.counts !== undefined && Object.keys(r.counts).length > 0);
      },
      { id, seqs },
    );
    if (done) return;
    if (Date.now() > deadline) throw new Error('the token counts were not written back to the turn records');
    // The write-back starts a fixed quiet time after the plan (FLUSH_DELAY_MS): poll finely, so
    // that the wait ends right after it rather than up to a second later.
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Configures the provider, previews conversation `id` (`turns` turns) once so its counts are made
 * and written back, then `warmup + samples` times: restart the worker, time a preview (cold), time
 * another (warm).
 */
export async function benchColdPreview(
  browser: ExtensionBrowser,
  id: string,
  turns: number,
  warmup: number,
  samples: number,
  log: (line: string) => void = () => {},
): Promise<PreviewResult> {
  const page = await browser.openPage('options.html');
  try {
    await page.evaluate(NAME_SHIM);
    const set = await page.evaluate(() =>
      (globalThis as unknown as { chrome: PageChrome }).chrome.runtime.sendMessage({
        type: 'setBaseUrl',
        payload: { providerId: 'anthropic', baseUrl: 'http://127.0.0.1:9' },
      }),
    );
    if (!set.ok) throw new Error(`setBaseUrl failed: ${JSON.stringify(set.error)}`);
    // The first plan counts every turn; its counts go onto the records once the worker is quiet.
    log('    first (planned) preview');
    await previewOnce(page, id);
    log("    waiting for the counts' write-back");
    await waitForStoredCounts(browser, id, [0, Math.floor(turns / 2), turns - 1]);
    const cold: number[] = [];
    const warm: number[] = [];
    let last = { turns: NaN, included: NaN };
    for (let i = 0; i < warmup + samples; i++) {
      log(`    restart ${i + 1} of ${warmup + samples}`);
      await browser.stopServiceWorker();
      await browser.wakeServiceWorker();
      await browser.worker().evaluate(NAME_SHIM);
      await browser.evalInWorker(async () => {
        await (globalThis as unknown as WorkerGlobals).batonReady;
      }, undefined);
      log('    worker ready; previews');
      const c = await previewOnce(page, id);
      const w = await previewOnce(page, id);
      last = c;
      if (i < warmup) continue;
      cold.push(c.ms);
      warm.push(w.ms);
    }
    return { samples: cold, coldMs: median(cold), warmMs: median(warm), turns: last.turns, included: last.included };
  } finally {
    await page.close().catch(() => undefined);
  }
}
