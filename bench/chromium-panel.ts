/**
 * Side panel figures (bench/README.md): opening a large conversation (its load over the protocol and the
 * first paint of its newest 50 turns, timed in the page), the JS heap with it open (after a full
 * collection, CDP `HeapProfiler.collectGarbage` + `Runtime.getHeapUsage`), and the
 * `listConversations` round trip from the page.
 */
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from '../test/e2e/harness';
import { median } from './harness';

/** Makes functions compiled by tsx (`__name(fn, "fn")` wrappers, esbuild keepNames) run in a page or worker. */
export const NAME_SHIM = 'globalThis.__name ??= (f) => f; 0';

/** The `chrome` API slice used in the page. */
interface PageChrome {
  runtime: { sendMessage(m: unknown): Promise<{ ok: boolean; data?: unknown; error?: unknown }> };
}

/** Opens the side panel as a tab, in front (so it paints), once its conversation list shows `listedId`. */
export async function openPanel(browser: ExtensionBrowser, listedId: string): Promise<Page> {
  const page = await browser.openPage('sidepanel.html');
  await page.evaluate(NAME_SHIM);
  await page.bringToFront();
  await page.locator(`li[data-conversation-id="${listedId}"] button`).waitFor({ timeout: 60_000 });
  return page;
}

/** Times `listConversations` requests from the page (ms each); returns the samples and how many conversations came back. */
export async function benchListRoundTrip(
  page: Page,
  warmup: number,
  samples: number,
): Promise<{ samples: number[]; medianMs: number; listed: number }> {
  const r = await page.evaluate(
    async (a) => {
      const chrome = (globalThis as unknown as { chrome: PageChrome }).chrome;
      const out: number[] = [];
      let listed = 0;
      for (let i = 0; i < a.warmup + a.samples; i++) {
        const t0 = performance.now();
        const reply = await chrome.runtime.sendMessage({ type: 'listConversations', payload: {} });
        const ms = performance.now() - t0;
        if (!reply.ok) throw new Error(`listConversations failed: ${JSON.stringify(reply.error)}`);
        listed = (reply.data as unknown[]).length;
        if (i >= a.warmup) out.push(ms);
      }
      return { out, listed };
    },
    { warmup, samples },
  );
  return { samples: r.out, medianMs: median(r.out), listed: r.listed };
}

/** One open of a conversation: click → newest turns in the DOM (`domMs`) → the frame with them painted (`paintMs`). */
export interface OpenSample {
  domMs: number;
  paintMs: number;
}

/**
 * Clicks conversation `id` in the list and times, in the page, until the turns `mustShow` (the
 * newest and the 50th newest) are in the DOM, and until the frame that shows them has been
 * painted (the first `requestAnimationFrame` that finds them, then a task after that frame).
 * With `marks`, also leaves the user-timing marks `click`, `dom` and `painted` at those moments,
 * for a trace of the open (`open-cpu.ts`).
 */
export async function openOnce(
  page: Page,
  id: string,
  mustShow: readonly string[],
  marks = false,
): Promise<OpenSample> {
  return page.evaluate(
    async (a) => {
      const button = document.querySelector<HTMLButtonElement>(`li[data-conversation-id="${a.id}"] button`);
      if (!button) throw new Error(`bench: conversation ${a.id} is not in the list`);
      const shown = () => a.mustShow.every((t) => document.querySelector(`[data-turn-id="${t}"]`));
      if (a.marks) performance.mark('click');
      const t0 = performance.now();
      button.click();
      let domMs = 0;
      await new Promise<void>((resolve) => {
        const frame = () => {
          if (!shown()) return void requestAnimationFrame(frame);
          domMs = performance.now() - t0;
          if (a.marks) performance.mark('dom');
          // This frame paints the turns; a task posted now runs after it.
          const ch = new MessageChannel();
          ch.port1.onmessage = () => resolve();
          ch.port2.postMessage(0);
        };
        requestAnimationFrame(frame);
      });
      if (a.marks) performance.mark('painted');
      return { domMs, paintMs: performance.now() - t0 };
    },
    { id, mustShow, marks },
  );
}

/** Opens conversation `otherId` (an empty one) and waits until no turn of the one before is left in the DOM. */
export async function openOther(page: Page, otherId: string): Promise<void> {
  await page.locator(`li[data-conversation-id="${otherId}"] button`).click();
  await page.locator('[data-turn-id]').first().waitFor({ state: 'detached', timeout: 300_000 });
}

/** Collects garbage in the page and returns its JS heap in use (bytes). */
export async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Opening a large conversation, repeated, and the heap with it open. */
export interface OpenResult {
  samples: OpenSample[];
  paintMs: number;
  domMs: number;
  /** `getConversation` round trip alone for the newest 50 turns (what the panel asks on open), from the page (median ms): the load part of an open. */
  loadMs: number;
  /** Turns shown after the last open. */
  shownTurns: number;
  /** JS heap in use with the large conversation open / with a small one open, after a collection (bytes). */
  heapBytes: number;
  baselineHeapBytes: number;
}

/**
 * Opens conversation `id` `warmup + samples` times, switching to the empty conversation `otherId`
 * (and collecting garbage, untimed) before each; then measures the heap with `id` open.
 * `newest` are the turn ids, newest first (at least the newest 50).
 */
export async function benchOpen(
  page: Page,
  id: string,
  otherId: string,
  newest: readonly string[],
  warmup: number,
  samples: number,
): Promise<OpenResult> {
  const mustShow = [newest[0]!, newest[Math.min(49, newest.length - 1)]!];
  const out: OpenSample[] = [];
  let baselineHeapBytes = 0;
  for (let i = 0; i < warmup + samples; i++) {
    await openOther(page, otherId);
    baselineHeapBytes = await heapUsed(page);
    const s = await openOnce(page, id, mustShow);
    if (i >= warmup) out.push(s);
  }
  const shownTurns = await page.locator('[data-turn-id]').count();
  const heapBytes = await heapUsed(page);
  const loads = await page.evaluate(
    async (a) => {
      const chrome = (globalThis as unknown as { chrome: PageChrome }).chrome;
      const out: number[] = [];
      for (let i = 0; i < a.samples; i++) {
        const t0 = performance.now();
        const reply = await chrome.runtime.sendMessage({ type: 'getConversation', payload: { id: a.id, limit: 50 } });
        out.push(performance.now() - t0);
        if (!reply.ok) throw new Error(`getConversation failed: ${JSON.stringify(reply.error)}`);
      }
      return out;
    },
    { id, samples: Math.max(1, samples) },
  );
  return {
    samples: out,
    paintMs: median(out.map((s) => s.paintMs)),
    domMs: median(out.map((s) => s.domMs)),
    loadMs: median(loads),
    shownTurns,
    heapBytes,
    baselineHeapBytes,
  };
}
