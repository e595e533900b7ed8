/**
 * Where the time of "open a 10,000-turn conversation" goes (bench/README.md): the bench's open procedure
 * (`benchOpen`, chromium-panel.ts) with a timeline of every protocol request, as the side panel
 * page sees it (sent → answered) and as the worker sees it (arrival; `previewSend`'s own span and
 * its parts: store read, plan, preview build), all on one clock (epoch ms from each context's
 * `performance.timeOrigin + performance.now()`), plus optionally a CPU profile of the page.
 *
 *   BATON_OUT_DIR=.output-perf node --import tsx bench/trace-open.ts [--turns 10000] [--conversations 5000] [--samples 3] [--provider [--cold]] [--profile out.cpuprofile] [--build <dir>]
 *
 * `--build` uses that test build as it is (e.g. a non-minified one for a readable profile) instead of
 * building `<BATON_OUT_DIR>/chrome-mv3-test` when stale.
 *
 * Prints one line per event, relative to the first click of each open sample. A diagnostic tool,
 * not a figure of the table: `npm run bench` reports the open time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { ensureTestBuild } from './chromium-build';
import { conversationRecords, listRecords } from './chromium-data';
import { benchOpen, NAME_SHIM, openPanel } from './chromium-panel';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';

const flag = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const TURNS = Number(flag('turns') ?? 10_000);
const CONVERSATIONS = Number(flag('conversations') ?? 5_000);
const SAMPLES = Number(flag('samples') ?? 3);
const BUILD = flag('build');
const PROFILE = flag('profile');
const ID = 'bench-conversation';
/** `--provider`: Anthropic configured at an unreachable local base URL (a configured provider without a key: `isLocalUrl`), so the panel has a target and previews; nothing is sent anywhere. */
const PROVIDER = process.argv.includes('--provider');
/** `--cold`: the worker's transcript cache is emptied before each timed line (a first preview after the worker started or after a write). */
const COLD = process.argv.includes('--cold');

/** One timeline event: where, what, start and end (epoch ms). */
interface Ev {
  where: 'page' | 'worker';
  what: string;
  t0: number;
  t1?: number;
}

/** Wraps `chrome.runtime.sendMessage` in the page: every request's type, sent and answered. */
async function instrumentPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as {
      chrome: { runtime: { sendMessage: (...a: unknown[]) => unknown } };
      __ev: unknown[];
    };
    g.__ev = [];
    const now = () => performance.timeOrigin + performance.now();
    const orig = g.chrome.runtime.sendMessage.bind(g.chrome.runtime);
    g.chrome.runtime.sendMessage = (...a: unknown[]) => {
      const m = a[0] as { type?: string };
      const ev: { where: string; what: string; t0: number; t1?: number } = {
        where: 'page',
        what: String(m?.type),
        t0: now(),
      };
      g.__ev.push(ev);
      const done = () => (ev.t1 = now());
      const cb = a.find((x) => typeof x === 'function') as ((...r: unknown[]) => void) | undefined;
      if (cb) {
        const rest = a.map((x) => (x === cb ? (...r: unknown[]) => (done(), cb(...r)) : x));
        return orig(...rest);
      }
      const r = orig(...a) as Promise<unknown> | undefined;
      void r?.then(done, done);
      return r;
    };
    // Clicks, for the sample boundaries.
    document.addEventListener(
      'click',
      (e) => {
        const li = (e.target as Element).closest?.('li[data-conversation-id]');
        if (li) g.__ev.push({ where: 'page', what: `click ${li.getAttribute('data-conversation-id')}`, t0: now() });
      },
      true,
    );
  });
}

/** Wraps the worker's message arrival and `previewSend`'s parts with timestamps. */
async function instrumentWorker(browser: ExtensionBrowser): Promise<void> {
  await browser.evalInWorker(async () => {
    type AnyFn = (...a: unknown[]) => unknown;
    const g = globalThis as unknown as {
      batonReady: Promise<{
        store: Record<string, AnyFn>;
        engine: { discloser: Record<string, AnyFn> } & Record<string, AnyFn>;
      }>;
      __ev: unknown[];
      chrome: { runtime: { onMessage: { addListener(f: (m: unknown) => void): void } } };
    };
    g.__ev = [];
    const now = () => performance.timeOrigin + performance.now();
    g.chrome.runtime.onMessage.addListener((m) => {
      g.__ev.push({ where: 'worker', what: `arrive ${String((m as { type?: string }).type)}`, t0: now() });
    });
    const { store, engine } = await g.batonReady;
    const wrap = (o: Record<string, AnyFn>, name: string, label: string) => {
      const f = o[name]!.bind(o);
      o[name] = (...a: unknown[]) => {
        const ev: { where: string; what: string; t0: number; t1?: number } = {
          where: 'worker',
          what: label,
          t0: now(),
        };
        g.__ev.push(ev);
        const r = f(...a);
        if (r && typeof (r as Promise<unknown>).then === 'function')
          void (r as Promise<unknown>).then(
            () => (ev.t1 = now()),
            () => (ev.t1 = now()),
          );
        else ev.t1 = now();
        return r;
      };
    };
    wrap(engine as unknown as Record<string, AnyFn>, 'preview', 'previewSend');
    wrap(store, 'toTranscript', '  store.toTranscript');
    wrap(engine.discloser, 'prepare', '  discloser.prepare (plan + convert)');
    wrap(engine.discloser, 'preview', '  discloser.preview (build)');
  }, undefined);
}

/** Clicks conversation `id` and times (in the page) until the disclosure line contains `text`. */
async function lineOnce(page: Page, id: string, text: string): Promise<number> {
  return page.evaluate(
    async (a) => {
      const t0 = performance.now();
      document.querySelector<HTMLButtonElement>(`li[data-conversation-id="${a.id}"] button`)!.click();
      await new Promise<void>((resolve) => {
        const frame = () =>
          document.querySelector('[data-disclosure-summary]')?.textContent?.includes(a.text)
            ? resolve()
            : void requestAnimationFrame(frame);
        requestAnimationFrame(frame);
      });
      return performance.now() - t0;
    },
    { id, text },
  );
}

async function main() {
  const build = BUILD ? { ok: true as const, dir: path.resolve(BUILD) } : ensureTestBuild((l) => console.error(l));
  if (!build.ok) throw new Error(build.note);
  const transcript = decodeTranscript(generateTranscript({ turns: TURNS }));
  const { record, turns } = conversationRecords(transcript, ID);
  // With a provider, the conversation was last sent to it (as a real one would be), so opening it picks that target.
  if (PROVIDER) record.lastTarget = { providerId: 'anthropic', model: 'claude-sonnet-4-5' };
  const list = listRecords(CONVERSATIONS);
  const newest = transcript.turns.map((t) => t.id).reverse();
  const browser = await ExtensionBrowser.launch({ extensionDir: build.dir });
  try {
    await browser.worker().evaluate(NAME_SHIM);
    console.error('seeding');
    await seedStore(browser, [...list, record], turns);
    await instrumentWorker(browser);
    if (PROVIDER) {
      const setup = await browser.openPage('options.html');
      const reply = await setup.evaluate(() =>
        (
          globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
        ).chrome.runtime.sendMessage({
          type: 'setBaseUrl',
          payload: { providerId: 'anthropic', baseUrl: 'http://127.0.0.1:9' },
        }),
      );
      console.error('setBaseUrl', JSON.stringify(reply));
      await setup.close();
    }
    const page = await openPanel(browser, ID);
    await instrumentPage(page);
    const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const r = await benchOpen(page, ID, list[1]!.id, newest, 0, SAMPLES);
    await new Promise((res) => setTimeout(res, 3_000));
    // With a provider: each open until the disclosure line describes the conversation (the preview's answer shown).
    const lines: number[] = [];
    if (PROVIDER) {
      for (let i = 0; i < SAMPLES; i++) {
        await page.locator(`li[data-conversation-id="${list[1]!.id}"] button`).click();
        await page.locator('[data-turn-id]').first().waitFor({ state: 'detached', timeout: 300_000 });
        await page
          .locator('[data-disclosure-summary]')
          .filter({ hasText: /of 0 turns/ })
          .waitFor({ timeout: 300_000 });
        if (COLD)
          await browser.evalInWorker(
            async () =>
              (
                await (globalThis as unknown as { batonReady: Promise<{ store: { transcripts?: { clear(): void } } }> })
                  .batonReady
              ).store.transcripts?.clear(),
            undefined,
          );
        lines.push(await lineOnce(page, ID, `of ${TURNS} turns`));
      }
    }
    if (cdp) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      fs.writeFileSync(PROFILE!, JSON.stringify(profile));
    }
    const ev = [
      ...((await page.evaluate('globalThis.__ev')) as Ev[]),
      ...((await browser.evalInWorker(() => (globalThis as unknown as { __ev: Ev[] }).__ev, undefined)) as Ev[]),
    ].sort((a, b) => a.t0 - b.t0);
    let base = ev[0]?.t0 ?? 0;
    for (const e of ev) {
      if (e.what === `click ${ID}`) base = e.t0;
      const span =
        e.t1 !== undefined ? ` … ${(e.t1 - base).toFixed(0).padStart(6)}  (${(e.t1 - e.t0).toFixed(0)} ms)` : '';
      console.log(`${(e.t0 - base).toFixed(0).padStart(7)}${span}  ${e.where.padEnd(6)} ${e.what}`);
    }
    if (lines.length) console.log(`open → disclosure line shown: ${lines.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    console.log(
      `open: paint ${r.samples.map((s) => s.paintMs.toFixed(0)).join(', ')} ms; dom ${r.samples.map((s) => s.domMs.toFixed(0)).join(', ')} ms; getConversation alone ${r.loadMs.toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
  }
}

await main();
