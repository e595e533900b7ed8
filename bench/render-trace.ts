/**
 * Where the streaming render's per-chunk time goes (bench/README.md, "Streaming render"): streams the
 * bench's 200 KB answer in 2,000 chunks into the side panel page of one or more test builds, the way
 * the bench row does (`MarkdownStream.append`, a 400 px `.markdown` container, each chunk in its own
 * task), and splits each chunk's time into the update, the style recalculation (a computed-style
 * read of the open block) and the layout (a forced `offsetHeight`). With several builds the runs are
 * interleaved (A, B, A, B, …) in one process, so load changes hit both alike. `--trace` also records
 * a Chromium trace of the last run per build and prints, for the first and last 100 chunks, the
 * median `UpdateLayoutTree` element count and `Layout` dirty/total object counts.
 *
 *   node --import tsx bench/render-trace.ts [--rounds 3] [--chars 200000] [--chunks 2000] [--trace] <test build dir>...
 */
import fs from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { ExtensionBrowser } from '../test/e2e/harness';
import { chunkText } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { Rng } from './random';
import { markdown } from './text';

interface Split {
  update: number[];
  style: number[];
  layout: number[];
  total: number[];
  blocks: number;
  children: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const edges = (xs: number[]) => `${median(xs.slice(0, 100)).toFixed(2)} → ${median(xs.slice(-100)).toFixed(2)}`;

async function main(): Promise<void> {
  const valued = new Set(['--rounds', '--chars', '--chunks']);
  const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !valued.has(all[i - 1] ?? ''));
  const rounds = arg('--rounds', 3);
  const chars = arg('--chars', 200_000);
  const chunks = arg('--chunks', 2_000);
  const tracing = process.argv.includes('--trace');
  const textFile = process.argv.find((a) => a.startsWith('--text='))?.slice('--text='.length);
  const text = textFile ? fs.readFileSync(textFile, 'utf8') : markdown(new Rng(9), chars).slice(0, chars);
  const warm = markdown(new Rng(10), chars / 10).slice(0, chars / 10);
  const parts = chunkText(text, chunks);
  const warmParts = chunkText(warm, Math.max(1, chunks / 10));

  const runs: { dir: string; browser: ExtensionBrowser; page: Awaited<ReturnType<ExtensionBrowser['openPage']>> }[] =
    [];
  for (const spec of positional) {
    // `dir` or `dir#css`: extra CSS for the page (to try a style before building it in).
    const [dir, css] = spec.split('#', 2) as [string, string | undefined];
    const browser = await ExtensionBrowser.launch({ extensionDir: dir });
    const page = await browser.openPage('sidepanel.html');
    await page.evaluate(NAME_SHIM);
    if (css) await page.addStyleTag({ content: css });
    await page.bringToFront();
    await page.waitForFunction(() => 'batonBench' in globalThis, undefined, { timeout: 60_000 });
    runs.push({ dir: spec, browser, page });
  }
  const stream = (page: (typeof runs)[number]['page'], list: string[]) =>
    page.evaluate(async (chunks) => {
      const bench = (
        globalThis as unknown as {
          batonBench: { MarkdownStream: new (r: HTMLElement) => { append(c: string, f?: boolean): void } };
        }
      ).batonBench;
      const root = document.createElement('div');
      root.className = 'block-text markdown';
      root.style.width = '400px';
      document.body.append(root);
      const s = new bench.MarkdownStream(root);
      const next = () =>
        new Promise<void>((r) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => r();
          ch.port2.postMessage(0);
        });
      const out = {
        update: [] as number[],
        style: [] as number[],
        layout: [] as number[],
        total: [] as number[],
        blocks: 0,
        children: 0,
      };
      for (const c of chunks) {
        await next();
        performance.mark('chunk');
        const t0 = performance.now();
        s.append(c, false);
        const t1 = performance.now();
        const open = root.querySelector('.md-open') ?? root.lastElementChild ?? root;
        void getComputedStyle(open).color;
        const t2 = performance.now();
        void root.offsetHeight;
        const t3 = performance.now();
        out.update.push(t1 - t0);
        out.style.push(t2 - t1);
        out.layout.push(t3 - t2);
        out.total.push(t3 - t0);
      }
      s.append('', true);
      out.blocks = root.querySelectorAll('.md-block').length;
      out.children = root.children.length;
      root.remove();
      return out;
    }, list);

  if (process.argv.includes('--geometry')) {
    // The look: every block's box (relative to the container) after streaming, per build; they must agree.
    const boxes: string[] = [];
    for (const run of runs) {
      const g = await run.page.evaluate(async (chunks) => {
        const bench = (
          globalThis as unknown as {
            batonBench: { MarkdownStream: new (r: HTMLElement) => { append(c: string, f?: boolean): void } };
          }
        ).batonBench;
        const root = document.createElement('div');
        root.className = 'block-text markdown';
        root.style.width = '400px';
        document.body.append(root);
        const s = new bench.MarkdownStream(root);
        for (const c of chunks) s.append(c, false);
        const open = [...root.querySelectorAll('.md-block')].map((b) => b.getBoundingClientRect());
        s.append('', true);
        const top = root.getBoundingClientRect().top;
        const rects = [...root.querySelectorAll('.md-block, .md-block > *')].map((b) => {
          const r = b.getBoundingClientRect();
          return `${(r.top - top).toFixed(2)},${r.left.toFixed(2)},${r.width.toFixed(2)},${r.height.toFixed(2)}`;
        });
        const out = {
          rects: rects.join(';'),
          count: rects.length,
          height: root.getBoundingClientRect().height,
          openCount: open.length,
        };
        root.remove();
        return out;
      }, parts);
      boxes.push(g.rects);
      console.log(`geometry ${run.dir}: ${g.count} boxes, height ${g.height.toFixed(2)} px`);
    }
    console.log(`geometry identical across builds: ${boxes.every((b) => b === boxes[0])}`);
  }
  const results = new Map<string, Split[]>();
  for (let r = 0; r < rounds; r++)
    for (const run of runs) {
      await stream(run.page, warmParts);
      const last = tracing && r === rounds - 1;
      let cdp: CDPSession | undefined;
      const events: { name: string; dur?: number; args?: Record<string, unknown>; ts: number; ph: string }[] = [];
      if (last) {
        cdp = await run.page.context().newCDPSession(run.page);
        cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as typeof events)));
        await cdp.send('Tracing.start', {
          traceConfig: {
            includedCategories: ['devtools.timeline', 'blink.user_timing', 'disabled-by-default-devtools.timeline'],
          },
          transferMode: 'ReportEvents',
        });
      }
      const split = await stream(run.page, parts);
      if (last) {
        const done = new Promise<void>((res) => cdp!.once('Tracing.tracingComplete', () => res()));
        await cdp!.send('Tracing.end');
        await done;
        summariseTrace(run.dir, events);
      }
      (results.get(run.dir) ?? results.set(run.dir, []).get(run.dir)!).push(split);
      const t = split;
      console.log(
        `round ${r + 1} ${run.dir}: total ${edges(t.total)} · update ${edges(t.update)} · style ${edges(t.style)} · layout ${edges(t.layout)} ms (blocks ${t.blocks}, root children ${t.children})`,
      );
    }
  for (const [dir, splits] of results) {
    const by = (k: 'total' | 'update' | 'style' | 'layout') =>
      `${median(splits.map((s) => median(s[k].slice(0, 100)))).toFixed(2)} → ${median(splits.map((s) => median(s[k].slice(-100)))).toFixed(2)}`;
    console.log(
      `median of rounds ${dir}: total ${by('total')} · update ${by('update')} · style ${by('style')} · layout ${by('layout')} ms`,
    );
  }
  for (const run of runs) await run.browser.close();
}

/** Per chunk (between `chunk` marks): style recalc element counts and layout object counts. */
function summariseTrace(
  dir: string,
  events: { name: string; dur?: number; args?: Record<string, unknown>; ts: number; ph: string }[],
): void {
  const sorted = events.filter((e) => e.ts).sort((a, b) => a.ts - b.ts);
  const perChunk: { style: number; styleMs: number; dirty: number; total: number; layoutMs: number }[] = [];
  let cur: (typeof perChunk)[number] | undefined;
  const layoutBegins: Record<string, unknown>[] = [];
  for (const e of sorted) {
    if (e.name === 'chunk') perChunk.push((cur = { style: 0, styleMs: 0, dirty: 0, total: 0, layoutMs: 0 }));
    if (!cur) continue;
    const data = (e.args?.beginData ?? e.args?.data ?? {}) as Record<string, number>;
    if (e.name === 'UpdateLayoutTree' && e.ph === 'X') {
      cur.style += (e.args?.elementCount as number) ?? (data.elementCount as number) ?? 0;
      cur.styleMs += (e.dur ?? 0) / 1000;
    }
    if (e.name === 'UpdateLayoutTree' && e.ph === 'E') cur.style += (e.args?.elementCount as number) ?? 0;
    if (e.name === 'Layout') {
      if (e.ph === 'B' || e.ph === 'X') {
        cur.dirty += data.dirtyObjects ?? 0;
        cur.total = Math.max(cur.total, data.totalObjects ?? 0);
        layoutBegins.push(data);
      }
      if (e.ph === 'X') cur.layoutMs += (e.dur ?? 0) / 1000;
    }
  }
  const med = (k: keyof (typeof perChunk)[number], xs: typeof perChunk) =>
    median(xs.map((x) => x[k])).toFixed(k.endsWith('Ms') ? 2 : 0);
  const first = perChunk.slice(0, 100);
  const lastH = perChunk.slice(-100);
  console.log(
    `trace ${dir}: chunks ${perChunk.length}; style elements ${med('style', first)} → ${med('style', lastH)} (${med('styleMs', first)} → ${med('styleMs', lastH)} ms); layout dirty objects ${med('dirty', first)} → ${med('dirty', lastH)}, total objects ${med('total', first)} → ${med('total', lastH)} (${med('layoutMs', first)} → ${med('layoutMs', lastH)} ms)`,
  );
  const names = new Map<string, number>();
  for (const e of sorted) names.set(e.name, (names.get(e.name) ?? 0) + 1);
  if (process.argv.includes('--names')) console.log([...names].sort((a, b) => b[1] - a[1]).slice(0, 40));
}

await main();
