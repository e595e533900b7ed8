/**
 * Planning A/B (bench/README.md, "Preview after an append: the last plan's per-turn results kept"):
 * two or more builds of the planner, interleaved in one process, on the planning section's rows
 * (`planning.ts`): the preview after an append (`plan(…).report` with the caches of a plan of the
 * transcript minus its last turn), the cold preview (`plan(…).report` with a new cache) and the
 * warm plan with its report, and the cold plan (no report) with counts stored with the turns. Each build is a bundle of `lib/context/index.ts`, so both sides are
 * compiled the same way.
 *
 *   npx esbuild lib/context/index.ts --bundle --platform=node --format=esm --outfile=bench-results/plan-head.mjs
 *   node --expose-gc --import tsx bench/plan-ab.ts bench-results/plan-base.mjs bench-results/plan-head.mjs \
 *     [--turns 10000] [--apis gemini-generate-content,gemini-interactions] [--samples 15]
 *
 * Prints, per API, each build's medians (ms) and the ratio preview-after-append / cold preview.
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transcript, WireApi } from '../lib/transcript/schema';
import { takeFlag } from './cli';
import { generateTranscript } from './generate';
import { collect, measure, timeSync, type Candidate } from './harness';
import { BENCH_APIS, TARGETS } from './targets';

interface PlannerBuild {
  plan: (t: Transcript, target: unknown, policy?: object, cache?: unknown) => { report: unknown };
  createTokenCache: (options?: { stored?: unknown }) => unknown;
}

/** Counts kept with the turns (as `planning.ts`'s row "cold, counts stored with the turns"). */
function memoryCounts() {
  const kept = new WeakMap<object, Map<string, unknown>>();
  return {
    get: (turn: object, variant: string) => kept.get(turn)?.get(variant),
    set(turn: object, variant: string, count: unknown) {
      let m = kept.get(turn);
      if (!m) kept.set(turn, (m = new Map()));
      m.set(variant, count);
    },
  };
}

const turns = Number(takeFlag('turns') ?? 10_000);
const samples = Number(takeFlag('samples') ?? 15);
const apis = (takeFlag('apis')?.split(',') ?? BENCH_APIS) as WireApi[];
const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: bench/plan-ab.ts <build.mjs> [<build.mjs> …] [--turns N] [--apis …]');
const builds = await Promise.all(
  files.map(async (f) => ({
    name: path.basename(f, '.mjs'),
    ctx: (await import(pathToFileURL(path.resolve(f)).href)) as PlannerBuild,
  })),
);
const transcript = generateTranscript({ turns });
const before: Transcript = { ...transcript, turns: transcript.turns.slice(0, -1) };
console.log(`${turns} turns · builds ${builds.map((b) => b.name).join(', ')} · load ${os.loadavg()[0]!.toFixed(1)}`);

for (const api of apis) {
  const target = TARGETS[api];
  const candidates: Candidate[] = [];
  for (const { name, ctx } of builds) {
    const warm = ctx.createTokenCache();
    void ctx.plan(transcript, target, {}, warm).report;
    const stored = memoryCounts();
    void ctx.plan(transcript, target, {}, ctx.createTokenCache({ stored })).report;
    candidates.push(
      {
        name: `${name} append`,
        run: () => {
          const c = ctx.createTokenCache();
          void ctx.plan(before, target, {}, c).report;
          collect(); // the first plan's garbage is not the sample's
          return timeSync(() => ctx.plan(transcript, target, {}, c).report);
        },
      },
      {
        name: `${name} cold`,
        run: () => timeSync(() => ctx.plan(transcript, target, {}, ctx.createTokenCache()).report),
      },
      { name: `${name} warm`, run: () => timeSync(() => ctx.plan(transcript, target, {}, warm).report) },
      {
        name: `${name} stored`,
        run: () => timeSync(() => ctx.plan(transcript, target, {}, ctx.createTokenCache({ stored }))),
      },
    );
  }
  const results = await measure(candidates, { warmup: 2, minSamples: samples, budgetMs: 0, maxSamples: samples });
  const line = builds
    .map(({ name }, b) => {
      const [append, cold, warm, stored] = results.slice(b * 4, b * 4 + 4).map((m) => m.medianMs);
      return `${name}: append ${append!.toFixed(2)} ms, cold ${cold!.toFixed(1)} ms (${((100 * append!) / cold!).toFixed(1)} %), warm ${warm!.toFixed(2)} ms, cold with stored counts ${stored!.toFixed(2)} ms`;
    })
    .join(' · ');
  console.log(`${api}: ${line} · load ${os.loadavg()[0]!.toFixed(1)}`);
}
