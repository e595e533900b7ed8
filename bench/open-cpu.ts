/**
 * Main-thread time of opening a conversation in the side panel, robust to a loaded machine
 * (bench/README.md, "Opening a conversation: Markdown on screen first"): the bench's open (quick
 * sizes: a 500-turn conversation among 500) under a CDP trace (`devtools.timeline`), summing the
 * renderer main thread's *thread* time (`tdur`) of its tasks from the click to the painted frame,
 * so time spent waiting for a CPU is not counted. One warm-up, then `samples` opens.
 *
 *   node --import tsx bench/open-cpu.ts <test build dir> [samples]
 */
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { decodeTranscript } from '../lib/transcript/codec';
import { launchSeeded } from './ab';
import { conversationRecords, listRecords } from './chromium-data';
import { openOnce, openOther, openPanel } from './chromium-panel';
import { generateTranscript } from './generate';

/** One trace event (the fields used here). */
interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

const dir = path.resolve(process.argv[2]!);
const N = Number(process.argv[3] ?? 3);
const transcript = decodeTranscript(generateTranscript({ turns: 500 }));
const { record, turns } = conversationRecords(transcript, 'bench-conversation');
const list = listRecords(500);
const newest = transcript.turns.map((t) => t.id).reverse();
const mustShow = [newest[0]!, newest[49]!];
const browser = await launchSeeded(dir, [...list, record], turns);
try {
  const page: Page = await openPanel(browser, 'bench-conversation');
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const agg = new Map<string, number>();
  for (let i = 0; i < N + 1; i++) {
    await openOther(page, list[1]!.id);
    await new Promise((r) => setTimeout(r, 300));
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,v8,blink.user_timing,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
    const r = await openOnce(page, 'bench-conversation', mustShow, true);
    await cdp.send('Tracing.end');
    await done;
    (cdp as unknown as { removeAllListeners(e: string): void }).removeAllListeners('Tracing.dataCollected');
    if (i === 0) continue;
    const click = events.find((e) => e.name === 'click' && e.cat.includes('user_timing'));
    const painted = events.find((e) => e.name === 'painted' && e.cat.includes('user_timing'));
    if (!click || !painted) throw new Error('open-cpu: the trace has no click or painted mark');
    const t0 = click.ts,
      t1 = painted.ts;
    // main thread of the renderer: the thread of the click mark
    const tid = click.tid,
      pid = click.pid;
    const top = events.filter(
      (e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= t0 && e.ts <= t1 && e.dur !== undefined,
    ) as (TraceEvent & { dur: number })[];
    const names = ['RunTask'];
    const tasks = top.filter((e) => names.includes(e.name));
    const line: string[] = [];
    for (const n of [
      'FunctionCall',
      'EvaluateScript',
      'V8.Execute',
      'TimerFire',
      'FireAnimationFrame',
      'EventDispatch',
      'RunMicrotasks',
      'UpdateLayoutTree',
      'Layout',
      'Paint',
      'PrePaint',
      'Layerize',
      'MajorGC',
      'MinorGC',
      'V8.GC_SCAVENGER',
      'ParseHTML',
      'HitTest',
      'IntersectionObserverController::computeIntersections',
      'Commit',
      'UpdateLayer',
      'ScheduleStyleRecalculation',
    ]) {
      const ms = top.filter((e) => e.name === n).reduce((s, e) => s + e.dur, 0) / 1000;
      if (ms > 0.5) {
        line.push(`${n} ${ms.toFixed(1)}`);
        agg.set(n, (agg.get(n) ?? 0) + ms);
      }
    }
    const busy = tasks.reduce((s, e) => s + e.dur, 0) / 1000;
    const cpu = tasks.reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000;
    const fcpu = top.filter((e) => e.name === 'FunctionCall').reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000;
    const lcpu =
      top
        .filter((e) => ['Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint'].includes(e.name))
        .reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000;
    console.log(
      `CPU: tasks ${cpu.toFixed(1)} ms, FunctionCall ${fcpu.toFixed(1)}, style+layout+paint ${lcpu.toFixed(1)}`,
    );
    console.log(
      `dom ${r.domMs.toFixed(0)} paint ${r.paintMs.toFixed(0)} | tasks ${busy.toFixed(0)} ms | ${line.join(', ')}`,
    );
    // long tasks
    console.log(
      '  tasks>5ms: ' +
        tasks
          .filter((e) => e.dur > 5000)
          .map((e) => `@${((e.ts - t0) / 1000).toFixed(0)}+${(e.dur / 1000).toFixed(0)}`)
          .join(' '),
    );
  }
} finally {
  await browser.close();
}
