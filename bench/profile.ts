/**
 * Profiling helper for Baton's conversion (bench/README.md: "where time goes vs. the floor"):
 *
 *   node --cpu-prof --cpu-prof-dir=bench-results/profiles --import tsx bench/profile.ts \
 *     [--turns 10000 | --pi] [--api anthropic-messages] [--runs 5]
 *
 * Converts the generated transcript (or the pi session) `runs` times per API after one warm-up,
 * printing the median time of convert alone, of JSON.stringify of its body (the floor) and of the
 * two together, and how much of each phase was garbage collection (from `perf_hooks` gc entries).
 * Then summarise the profile with `bench/profile-summary.ts`. Line numbers in a profile are only
 * useful for a bundled build (`npx esbuild bench/profile.ts --bundle --platform=node --format=esm
 * --outfile=bench-results/profile.mjs`, then profile that file).
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { convertTranscript } from '../lib/providers/index';
import type { Transcript, WireApi } from '../lib/transcript/schema';
import { generateTranscript } from './generate';
import { median } from './harness';
import { loadPiSession } from './pi-session';
import { BENCH_APIS, TARGETS } from './targets';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function input(): Promise<Transcript> {
  if (process.argv.includes('--pi')) {
    const pi = await loadPiSession();
    if (!pi.ok) throw new Error(pi.note);
    return pi.transcript;
  }
  return generateTranscript({ turns: Number(arg('turns') ?? 10_000) });
}

const gcEntries: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
observer.observe({ entryTypes: ['gc'] });

/** GC time (ms) that falls inside the given windows. */
function gcWithin(windows: readonly [number, number][]): number {
  let total = 0;
  for (const e of gcEntries) for (const [a, b] of windows) if (e.startTime >= a && e.startTime < b) total += e.duration;
  return total;
}

const transcript = await input();
const runs = Number(arg('runs') ?? 5);
const apis = arg('api') ? [arg('api') as WireApi] : BENCH_APIS;
for (const api of apis) {
  const target = TARGETS[api];
  JSON.stringify(convertTranscript(transcript, target).body);
  const convert: number[] = [];
  const floor: number[] = [];
  const convertWindows: [number, number][] = [];
  const floorWindows: [number, number][] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const { body } = convertTranscript(transcript, target);
    const t1 = performance.now();
    JSON.stringify(body);
    const t2 = performance.now();
    convert.push(t1 - t0);
    floor.push(t2 - t1);
    convertWindows.push([t0, t1]);
    floorWindows.push([t1, t2]);
  }
  await new Promise((r) => setTimeout(r, 50)); // Let the observer deliver the last gc entries.
  const c = median(convert);
  const f = median(floor);
  const gcC = gcWithin(convertWindows) / runs;
  const gcF = gcWithin(floorWindows) / runs;
  process.stdout.write(
    `${api}: ${transcript.turns.length} turns · convert ${c.toFixed(1)} ms (gc ${gcC.toFixed(1)}) + stringify (floor) ${f.toFixed(1)} ms (gc ${gcF.toFixed(1)}) = ${(c + f).toFixed(1)} ms → ${((c + f) / f).toFixed(2)}× floor\n`,
  );
}
