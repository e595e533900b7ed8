/**
 * The cold-preview row (`previewSend` with `countsOnly` right after a worker restart, chromium-preview.ts)
 * with and without the path index, alternately in one browser over one seeded store, so the bounded
 * read and the whole read share the machine's load (bench/README.md, "The bounded cold preview").
 *
 *   node --import tsx bench/preview-ab.ts [--turns 10000] [--samples 3]
 *
 * "whole": the conversation's path index is taken out of the store before the restart, so the
 * preview reads every turn as before the bounded read existed (plus one empty index read);
 * "bounded": the same index records are put back. Nothing else is written between samples.
 */
import { decodeTranscript } from '../lib/transcript/codec';
import type { BatonDb } from '../lib/store/db';
import { ExtensionBrowser } from '../test/e2e/harness';
import { parseAbArgs } from './ab';
import { ensureTestBuild } from './chromium-build';
import { conversationRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { PREVIEW_TARGET, previewOnce, waitForStoredCounts } from './chromium-preview';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';
import { median } from './harness';

process.argv.push('.'); // parseAbArgs wants a build folder; this script uses the test build.
const { flags } = parseAbArgs('preview-ab.ts', { turns: 10_000, samples: 3 });
const ID = 'bench-conversation';
const build = ensureTestBuild(console.log);
if (!build.ok) throw new Error(build.note);
const transcript = decodeTranscript(generateTranscript({ turns: flags.turns }));
const { record, turns } = conversationRecords(transcript, ID);

interface W {
  batonReady: Promise<{ db: BatonDb }>;
}
const browser = await ExtensionBrowser.launch({ extensionDir: build.dir });
try {
  await browser.wakeServiceWorker();
  await browser.worker().evaluate(NAME_SHIM);
  let t = Date.now();
  await seedStore(browser, [record], turns);
  console.log(`seeded ${flags.turns} turns in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  const page = await browser.openPage('options.html');
  await page.evaluate(NAME_SHIM);
  await page.evaluate(() =>
    (
      globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
    ).chrome.runtime.sendMessage({
      type: 'setBaseUrl',
      payload: { providerId: 'anthropic', baseUrl: 'http://127.0.0.1:9' },
    }),
  );
  const restart = async () => {
    await browser.stopServiceWorker();
    await browser.wakeServiceWorker();
    await browser.worker().evaluate(NAME_SHIM);
    await browser.evalInWorker(async () => {
      await (globalThis as unknown as W).batonReady;
    }, undefined);
  };
  const index = (op: 'get' | 'drop' | 'put', recs?: unknown[]) =>
    browser.evalInWorker(
      async (a) => {
        const { db } = await (globalThis as unknown as W).batonReady;
        const range = IDBKeyRange.bound([a.id, -Infinity], [a.id, Infinity]);
        if (a.op === 'get') return (await db.getAll('paths', range)) as unknown[];
        if (a.op === 'drop') await db.delete('paths', range);
        else for (const r of a.recs ?? []) await db.put('paths', r as never);
        return [];
      },
      { id: ID, op, recs },
    );
  t = Date.now();
  await previewOnce(page, ID);
  await waitForStoredCounts(browser, ID, [0, Math.floor(flags.turns / 2), flags.turns - 1]);
  // The index of a seeded conversation is built 2 s after a whole read with nothing written since.
  let saved: unknown[] = [];
  for (let i = 0; i < 10 && saved.length === 0; i++) {
    await restart();
    await previewOnce(page, ID);
    await new Promise((r) => setTimeout(r, 5_000));
    saved = await index('get');
  }
  if (saved.length === 0) throw new Error('the path index was not built');
  console.log(
    `counts and index ready in ${((Date.now() - t) / 1000).toFixed(0)} s (${saved.length} index records); target ${PREVIEW_TARGET.model}`,
  );
  const out: Record<'whole' | 'bounded', { cold: number[]; warm: number[] }> = {
    whole: { cold: [], warm: [] },
    bounded: { cold: [], warm: [] },
  };
  for (let s = 0; s < flags.samples + 1; s++)
    for (const mode of s % 2 === 0 ? (['whole', 'bounded'] as const) : (['bounded', 'whole'] as const)) {
      await index('drop');
      if (mode === 'bounded') await index('put', saved);
      await restart();
      const c = await previewOnce(page, ID);
      const w = await previewOnce(page, ID);
      console.log(
        `sample ${s} ${mode}: cold ${c.ms.toFixed(0)} ms, warm ${w.ms.toFixed(0)} ms (${c.included} of ${c.turns} turns)`,
      );
      if (s === 0) continue; // warm-up
      out[mode].cold.push(c.ms);
      out[mode].warm.push(w.ms);
    }
  // Where a bounded preview's time goes: the index alone, then the bounded read (index and kept turns), cold.
  for (let s = 0; s < flags.samples; s++) {
    await index('drop');
    await index('put', saved);
    await restart();
    const split = await browser.evalInWorker(
      async (a) => {
        const { db, store } = (await (globalThis as unknown as W).batonReady) as unknown as {
          db: BatonDb;
          store: { readBounded(id: string, choose: (e: readonly unknown[]) => Set<number>): Promise<unknown> };
        };
        let t0 = performance.now();
        await db.getAll('paths', IDBKeyRange.bound([a.id, -Infinity], [a.id, Infinity]));
        const indexMs = performance.now() - t0;
        t0 = performance.now();
        await store.readBounded(a.id, (e) => new Set(Array.from({ length: 600 }, (_, i) => e.length - 1 - i)));
        return { indexMs, boundedMs: performance.now() - t0 };
      },
      { id: ID },
    );
    console.log(
      `split ${s}: index getAll ${split.indexMs.toFixed(0)} ms, then readBounded (index + newest 600 turns) ${split.boundedMs.toFixed(0)} ms`,
    );
  }
  for (const mode of ['whole', 'bounded'] as const)
    console.log(
      `${mode}: cold median ${median(out[mode].cold).toFixed(0)} ms, warm median ${median(out[mode].warm).toFixed(0)} ms`,
    );
} finally {
  await browser.close();
}
