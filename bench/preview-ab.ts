/**
 * The cold-preview row (`previewSend` with `countsOnly` right after a worker restart, chromium-preview.ts)
 * with and without the path index, alternately in one browser over one seeded store, so the bounded
 * read and the whole read share the machine's load (bench/README.md, "The bounded cold preview").
 *
 *   node --import tsx bench/preview-ab.ts [<build dir> …] [--turns 10000] [--samples 3]
 *
 * Without a build folder, the test build of this checkout (built when stale); with several (e.g. a
 * build of the commit before a change, then this one), one browser per build, each seeded alike,
 * and every sample taken in each browser in turn, so the builds share the machine's load too.
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

const given = process.argv.slice(2).some((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
if (!given) process.argv.push('.'); // parseAbArgs wants a build folder; '.' stands for this checkout's test build.
const { dirs: given_, flags } = parseAbArgs('preview-ab.ts', { turns: 10_000, samples: 3 });
const ID = 'bench-conversation';
let dirs = given_;
if (!given) {
  const build = ensureTestBuild(console.log);
  if (!build.ok) throw new Error(build.note);
  dirs = [build.dir];
}
const transcript = decodeTranscript(generateTranscript({ turns: flags.turns }));
const { record, turns } = conversationRecords(transcript, ID);

interface W {
  batonReady: Promise<{ db: BatonDb; engine: { discloser: { lastRead?: { read: string; standIns: number } } } }>;
}

/** One build's browser, seeded, with its counts stored and its path index saved aside. */
async function prepare(dir: string) {
  const browser = await ExtensionBrowser.launch({ extensionDir: dir });
  await browser.wakeServiceWorker();
  await browser.worker().evaluate(NAME_SHIM);
  let t = Date.now();
  await seedStore(browser, [record], turns);
  console.log(`${dir}: seeded ${flags.turns} turns in ${((Date.now() - t) / 1000).toFixed(0)} s`);
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
  const lastRead = () =>
    browser.evalInWorker(async () => {
      const { engine } = await (globalThis as unknown as W).batonReady;
      return JSON.stringify(engine.discloser.lastRead ?? null);
    }, undefined);
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
    `${dir}: counts and index ready in ${((Date.now() - t) / 1000).toFixed(0)} s (${saved.length} index records); target ${PREVIEW_TARGET.model}`,
  );
  return { dir, browser, page, restart, index, lastRead, saved };
}

const builds: Awaited<ReturnType<typeof prepare>>[] = [];
try {
  for (const dir of dirs) builds.push(await prepare(dir));
  type Mode = 'whole' | 'bounded';
  const out = builds.map(() => ({
    whole: { cold: [] as number[], warm: [] as number[] },
    bounded: { cold: [] as number[], warm: [] as number[] },
  }));
  for (let s = 0; s < flags.samples + 1; s++)
    for (const [b, x] of (s % 2 === 0 ? builds : [...builds].reverse()).map((x) => [builds.indexOf(x), x] as const))
      for (const mode of s % 2 === 0 ? (['whole', 'bounded'] as const) : (['bounded', 'whole'] as const)) {
        await x.index('drop');
        if (mode === 'bounded') await x.index('put', x.saved);
        await x.restart();
        const c = await previewOnce(x.page, ID);
        const read = await x.lastRead();
        const w = await previewOnce(x.page, ID);
        console.log(
          `sample ${s} build ${b} ${mode}: cold ${c.ms.toFixed(0)} ms (${read}), warm ${w.ms.toFixed(0)} ms (${c.included} of ${c.turns} turns)`,
        );
        if (s === 0) continue; // warm-up
        out[b]![mode as Mode].cold.push(c.ms);
        out[b]![mode as Mode].warm.push(w.ms);
      }
  // Where a bounded preview's time goes: the index alone, then the bounded read (index and kept turns), cold.
  for (let s = 0; s < flags.samples; s++)
    for (const [b, x] of builds.entries()) {
      await x.index('drop');
      await x.index('put', x.saved);
      await x.restart();
      const split = await x.browser.evalInWorker(
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
      // The preview itself in the worker, cold (no message, no reply), after another restart.
      await x.restart();
      const inWorker = await x.browser.evalInWorker(
        async (a) => {
          const { engine } = (await (globalThis as unknown as W).batonReady) as unknown as {
            engine: { preview(input: unknown): Promise<unknown> };
          };
          const t0 = performance.now();
          await engine.preview({ conversationId: a.id, target: a.target, countsOnly: true });
          return performance.now() - t0;
        },
        { id: ID, target: PREVIEW_TARGET },
      );
      console.log(
        `split ${s} build ${b}: index getAll ${split.indexMs.toFixed(0)} ms, then readBounded (index + newest 600 turns) ${split.boundedMs.toFixed(0)} ms; previewSend in the worker ${inWorker.toFixed(0)} ms`,
      );
    }
  for (const [b, x] of builds.entries())
    for (const mode of ['whole', 'bounded'] as const)
      console.log(
        `build ${b} (${x.dir}) ${mode}: cold median ${median(out[b]![mode].cold).toFixed(0)} ms, warm median ${median(out[b]![mode].warm).toFixed(0)} ms`,
      );
} finally {
  for (const x of builds) await x.browser.close();
}
