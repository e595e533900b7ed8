/**
 * Garbage-collection probe for the conversion rows (bench/README.md, "Conversion rows and the heap
 * they start from"): the candidates of `conversion.ts` (Baton, the floor, pi-ai, the AI SDK) for
 * the chosen inputs and APIs, interleaved by `harness.ts` as the bench does, and for every sample
 * the heap it started from and the collections that ran inside it (from `perf_hooks` GC entries):
 *
 *   node --expose-gc [--trace-gc] --import tsx bench/gc-probe.ts [--inputs 100,1000,10000]
 *     [--apis anthropic-messages,gemini-generate-content] [--samples 7] [--warmup 2] [--graph bench]
 *
 * `--graph bench` first loads every module `main.ts` loads (planning, Chromium, search, sync…)
 * without calling them, so the process holds what a full bench process holds; without it only the
 * conversion row's own modules are loaded. Only the last input's rows are printed; with `--trace-gc` a
 * `## sample` line in stdout marks where each sample starts and ends in V8's trace.
 */
import os from 'node:os';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';
import { convertTranscript } from '../lib/providers/index';
import { decodeTranscript } from '../lib/transcript/codec';
import type { WireApi } from '../lib/transcript/schema';
import { captureOne, installCaptureFetch } from './capture';
import { generateTranscript } from './generate';
import { measure, median, timeSync, type Candidate } from './harness';
import { aiSdkModel, aiSdkRequest, toAiSdkPrompt } from './peers/ai-sdk';
import { piModel, piRequest, toPiContext } from './peers/pi-ai';
import { TARGETS } from './targets';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const inputs = flag('inputs', '10000').split(',').map(Number);
const apis = flag('apis', 'anthropic-messages,gemini-generate-content').split(',') as WireApi[];
const samples = Number(flag('samples', '7'));
const warmup = Number(flag('warmup', '2'));
const graph = flag('graph', 'conversion');
const marks = process.execArgv.some((a) => a.startsWith('--trace-gc'));

if (graph === 'bench') {
  // What `main.ts` imports besides the conversion row's own modules: evaluated, never called.
  for (const m of ['./bundle', './chromium-run', './chromium-rows', './chromium-search', './importers'])
    await import(m);
  for (const m of ['./incremental', './sessions', './planning', './sync', './table']) await import(m);
}
installCaptureFetch();
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** GC entries as they arrive (delivered asynchronously; matched to samples by time afterwards). */
const gcs: { start: number; end: number; kind: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind: number } })[])
    gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind: e.detail?.kind ?? 0 });
}).observe({ entryTypes: ['gc'] });

interface Sample {
  name: string;
  ms: number;
  /** Process CPU time of the sample (ms): helper threads included, waits for a core left out. */
  cpuMs: number;
  start: number;
  end: number;
  oldMb: number;
  newCapMb: number;
  heapMb: number;
}

const space = (name: string) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name)!;
const mb = (b: number) => b / 1048576;

const log = (line: string) => process.stderr.write(`${line}\n`);
log(
  `node ${process.version} · graph ${graph} · load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} · heap at start ${mb(v8.getHeapStatistics().used_heap_size).toFixed(1)} MB`,
);
for (const turns of inputs) {
  const transcript = decodeTranscript(generateTranscript({ turns }));
  const last = turns === inputs.at(-1);
  const piContext = toPiContext(transcript);
  const aiPrompt = toAiSdkPrompt(transcript);
  for (const api of apis) {
    const target = TARGETS[api];
    const piM = piModel(api);
    const aiM = aiSdkModel(api);
    const taken: Sample[] = [];
    const probe = (name: string, run: () => number | Promise<number>): Candidate => ({
      name,
      run: async () => {
        const old = space('old_space');
        const young = space('new_space');
        const heapMb = mb(v8.getHeapStatistics().used_heap_size);
        if (marks && last) process.stdout.write(`## sample ${name} start\n`);
        const cpu = process.cpuUsage();
        const start = performance.now();
        const ms = await run();
        const end = performance.now();
        const used = process.cpuUsage(cpu);
        if (marks && last) process.stdout.write(`## sample ${name} end ${ms.toFixed(1)} ms\n`);
        taken.push({
          name,
          ms,
          cpuMs: (used.user + used.system) / 1000,
          start,
          end,
          oldMb: mb(old.space_used_size),
          newCapMb: mb(young.space_size),
          heapMb,
        });
        return ms;
      },
    });
    const candidates: Candidate[] = [
      probe('baton', () => timeSync(() => JSON.stringify(convertTranscript(transcript, target).body))),
      probe('floor', () => {
        const body = convertTranscript(transcript, target).body;
        return timeSync(() => JSON.stringify(body));
      }),
      probe('pi-ai', async () => (await captureOne(() => piRequest(api, piM, piContext))).elapsedMs),
      probe('AI SDK', async () => (await captureOne(() => aiSdkRequest(api, aiM, aiPrompt))).elapsedMs),
    ];
    if (api === 'gemini-interactions') candidates.splice(2, 1);
    const large = turns > 2_000;
    const results = await measure(candidates, {
      warmup: last ? warmup : large ? 2 : 4,
      minSamples: last ? samples : 15,
      budgetMs: 0,
      maxSamples: last ? samples : 15,
      gc: turns <= 100 ? 'minor' : 'major',
    });
    await new Promise((r) => setTimeout(r, 50)); // let the GC entries arrive
    if (!last) continue;
    const timedFrom = taken.length - results.reduce((n, r) => n + r.samples.length, 0);
    const rows = results.map((r) => {
      const mine = taken.slice(timedFrom).filter((s) => s.name === r.name);
      const inside = mine.map((s) => gcs.filter((g) => g.start < s.end && g.end > s.start));
      const count = (k: number) => median(inside.map((l) => l.filter((g) => g.kind === k).length));
      const gcMs = median(inside.map((l) => l.reduce((t, g) => t + g.end - g.start, 0)));
      return (
        `  ${r.name.padEnd(6)} ${r.medianMs.toFixed(1).padStart(6)} ms [${Math.min(...r.samples).toFixed(0)}–${Math.max(...r.samples).toFixed(0)}], CPU ${median(mine.map((s) => s.cpuMs)).toFixed(1)} ms` +
        ` · per sample: scavenges ${count(constants.NODE_PERFORMANCE_GC_MINOR)}, mark-compacts ${count(constants.NODE_PERFORMANCE_GC_MAJOR)},` +
        ` incremental ${count(constants.NODE_PERFORMANCE_GC_INCREMENTAL)}, GC pause ${gcMs.toFixed(1)} ms` +
        ` · at start: old space ${median(mine.map((s) => s.oldMb)).toFixed(1)} MB, new space ${median(mine.map((s) => s.newCapMb)).toFixed(1)} MB, heap ${median(mine.map((s) => s.heapMb)).toFixed(1)} MB`
      );
    });
    log(`${turns} ${api} (load ${os.loadavg()[0]!.toFixed(1)})\n${rows.join('\n')}`);
  }
}
