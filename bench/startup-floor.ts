/**
 * Where the cold-start row's time goes (bench/README.md, "Service-worker start-up: where the time
 * goes"). For each extension folder in turn (interleaved rounds), Chromium is launched, the worker
 * stopped and started over CDP as in `chromium-startup.ts`, and three marks read on the worker's
 * own clock (ms since its time origin):
 *
 * - `t0`: the script's first statement ran, when the folder's `background.js` sets
 *   `self.batonT0 = performance.now()` first (so: worker thread, script read, compile);
 * - `evaluated`, `ready`: `globalThis.batonStartup`, as the bench row reads them.
 *
 *   node --import tsx bench/startup-floor.ts <dir> [<dir> …] [--rounds 3] [--samples 5] [--seed 1] [--trace 0]
 *
 * A folder holding a Baton test build (`sidepanel.html` present) is seeded with the quick sizes when
 * `--seed 1`; any other folder (a one-line worker, say) must set `batonStartup` and `batonReady`
 * itself. The first start after install is reported apart from the restarts (`first`). With
 * `--trace 1`, one extra restart per browser is traced (Chromium's `v8` and `devtools.timeline`
 * categories) and the worker thread's compile and run events for `background.js` are printed,
 * including whether V8 consumed a code cache.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { parseAbArgs } from './ab';
import { conversationRecords, listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { CHROMIUM_QUICK } from './chromium-run';
import { seedStore } from './chromium-storage';
import { generateTranscript } from './generate';
import { median } from './harness';

interface Marks {
  t0?: number;
  /** Further marks a patched build may set (`self.batonT1` …), in order. */
  more?: number[];
  evaluatedMs: number;
  readyMs?: number;
}

const { dirs, flags } = parseAbArgs('startup-floor.ts', { rounds: 3, samples: 5, seed: 1, trace: 0 });

const { sizes } = CHROMIUM_QUICK;
const { record, turns } = conversationRecords(
  decodeTranscript(generateTranscript({ turns: sizes.turns })),
  'bench-conversation',
);
const records = [...listRecords(sizes.conversations), record];

/** The marks of the worker's current life (after `batonReady`). */
async function readMarks(browser: ExtensionBrowser): Promise<Marks> {
  await browser.worker().evaluate(NAME_SHIM);
  const marks = await browser.evalInWorker(async () => {
    const g = globalThis as unknown as { batonReady: Promise<unknown>; batonStartup?: Marks; batonT0?: number };
    await g.batonReady;
    const more: number[] = [];
    for (let i = 1; typeof (g as Record<string, unknown>)[`batonT${i}`] === 'number'; i++)
      more.push((g as Record<string, unknown>)[`batonT${i}`] as number);
    return g.batonStartup && { ...g.batonStartup, t0: g.batonT0, more };
  }, undefined);
  if (!marks || marks.readyMs === undefined) throw new Error('startup-floor: no batonStartup marks in this worker');
  return marks;
}

/** One traced restart: the worker thread's compile and evaluate events for `background.js`. */
async function tracedRestart(browser: ExtensionBrowser, port: number): Promise<string[]> {
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const session = await cdp.newBrowserCDPSession();
    const events: { name: string; ph: string; ts: number; dur?: number; tid: number; args?: { data?: object } }[] = [];
    session.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as typeof events)));
    const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
    await browser.stopServiceWorker();
    await session.send('Tracing.start', {
      traceConfig: {
        includedCategories: [
          'v8',
          'devtools.timeline',
          'ServiceWorker',
          'blink',
          'loading',
          'disabled-by-default-devtools.timeline',
        ],
      },
    } as never);
    await browser.wakeServiceWorker();
    await readMarks(browser);
    await session.send('Tracing.end');
    await done;
    // The worker thread: the one that evaluated background.js; its events from its first, with offsets.
    const evaluate = events.find(
      (e) => e.name === 'EvaluateScript' && JSON.stringify(e.args).includes('background.js'),
    );
    if (!evaluate) return ['no EvaluateScript event for background.js in the trace'];
    const thread = events.filter((e) => e.tid === evaluate.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
    const start = thread[0]!.ts;
    return thread
      .filter((e) => (e.dur ?? 0) >= 1000 || /compile|EvaluateScript|v8\.run|Cache/i.test(e.name))
      .map(
        (e) =>
          `+${((e.ts - start) / 1000).toFixed(1)} ms ${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ms ${JSON.stringify(e.args?.data ?? e.args ?? {}).slice(0, 300)}`,
      );
  } finally {
    await cdp.close().catch(() => undefined);
  }
}

const fmt = (xs: number[]) => (xs.length ? median(xs).toFixed(1) : '—');

for (let r = 0; r < flags.rounds; r++) {
  for (const dir of dirs) {
    const port = 9400 + Math.floor(Math.random() * 500);
    const browser = await ExtensionBrowser.launch({
      extensionDir: dir,
      extraArgs: flags.trace ? [`--remote-debugging-port=${port}`] : [],
    });
    try {
      const first = await readMarks(browser);
      const isBaton = fs.existsSync(path.join(dir, 'sidepanel.html'));
      if (isBaton && flags.seed) await seedStore(browser, records, turns);
      const t0: number[] = [];
      const evaluated: number[] = [];
      const ready: number[] = [];
      const more: number[][] = [];
      for (let i = 0; i < 1 + flags.samples; i++) {
        await browser.stopServiceWorker();
        await browser.wakeServiceWorker();
        const m = await readMarks(browser);
        if (i === 0) continue; // warm-up
        if (m.t0 !== undefined) t0.push(m.t0);
        m.more?.forEach((x, k) => (more[k] ??= []).push(x));
        evaluated.push(m.evaluatedMs);
        ready.push(m.readyMs!);
      }
      console.log(
        `round ${r + 1} ${path.basename(path.dirname(dir))}/${path.basename(dir)}: t0 ${fmt(t0)} ms, evaluated ${fmt(evaluated)} ms, ready ${fmt(ready)} ms` +
          more.map((xs, k) => `, t${k + 1} ${fmt(xs)} ms`).join('') +
          ` (first start after install: t0 ${first.t0?.toFixed(1) ?? '—'}, evaluated ${first.evaluatedMs.toFixed(1)}, ready ${first.readyMs!.toFixed(1)})`,
      );
      if (flags.trace) for (const line of await tracedRestart(browser, port)) console.log(`  ${line}`);
    } finally {
      await browser.close();
    }
  }
}
