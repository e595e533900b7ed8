/**
 * Timing harness: warm-up, then rounds in which every candidate runs once, in an order that
 * rotates each round (interleaving, so drift on a shared machine hits all candidates alike).
 * With `--expose-gc` the heap is collected before every sample, outside the timed region, so no
 * candidate pays for another's garbage: the young generation always, and for large inputs a
 * mark-compact too whenever old space has grown past what was live, so each sample starts from the
 * same old space (`collectNow`). Reports medians (ms).
 */
import type * as NodeV8 from 'node:v8';
/** One thing to time. `run` returns the elapsed time of one sample in ms (it times itself, so async peers can stop the clock at the network). */
export interface Candidate {
  name: string;
  run: () => number | Promise<number>;
}

/** How many samples to take. */
export interface MeasureOptions {
  /** Untimed rounds first (JIT warm-up, lazy imports). */
  warmup: number;
  /** Timed rounds, at least this many… */
  minSamples: number;
  /** …and more while the total time spent stays under this budget (ms)… */
  budgetMs: number;
  /** …up to this many. */
  maxSamples: number;
  /**
   * Collection before each sample (with `--expose-gc`): `major` (default: a scavenge, and a
   * mark-compact when old space has grown, see `collectNow`) or `minor` (a scavenge only). Use
   * `minor` where samples promote little: a mark-compact is followed by slower samples.
   */
  gc?: 'major' | 'minor';
}

/** The samples of one candidate (ms) and their median. */
export interface Measurement {
  name: string;
  samples: number[];
  medianMs: number;
}

const gc = (globalThis as { gc?: (options?: { type: 'minor'; execution: 'sync' }) => void }).gc;

// `node:v8` is taken at run time: this module is also bundled into scripts that run in the browser.
type V8 = Pick<typeof NodeV8, 'setFlagsFromString' | 'getHeapSpaceStatistics'>;
const v8 = (globalThis as { process?: { getBuiltinModule?: (id: 'node:v8') => V8 } }).process?.getBuiltinModule?.(
  'node:v8',
);
// A mark-compact leaves its sweeping to helper threads, and a sample that starts before they finish
// pays for it: the main thread sweeps pages itself when it needs memory, and the helpers compete
// for the same cores. Sweeping inside the collection's own pause keeps it out of every sample
// (bench/README.md, "Conversion rows and the heap they start from").
if (gc) v8?.setFlagsFromString('--no-concurrent-sweeping');

/** Old space a sample may find beyond what the last mark-compact left live (bytes): under it, a scavenge is enough. */
const OLD_SPACE_SLACK = 4 * 1024 * 1024;
let oldSpaceLive = 0;

function oldSpaceUsed(): number {
  return v8?.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
}

/**
 * A synchronous collection before a sample. `minor`: a scavenge. `major`: a scavenge, then a
 * mark-compact (a bare `gc()`) when old space holds more than {@link OLD_SPACE_SLACK} beyond what
 * the last one left live, so every sample starts from an old space holding what is live and at
 * most that much more, and samples that promote nothing (up to about 1,000 turns) do not pay for a
 * full collection each. On Node 20 (V8 11.3) `gc({ type: 'major', execution: 'sync' })` runs a
 * scavenge, not a mark-compact (`--trace-gc` prints "Scavenge … testing"): with it, old space kept
 * every earlier sample's promoted garbage and a mark-compact fell inside whichever sample reached
 * the old-generation limit (bench/README.md, "Conversion rows and the heap they start from").
 */
function collectNow(type: 'major' | 'minor', force = false): void {
  if (!gc) return;
  gc({ type: 'minor', execution: 'sync' });
  if (type === 'minor' || (!force && oldSpaceUsed() <= oldSpaceLive + OLD_SPACE_SLACK)) return;
  gc();
  oldSpaceLive = oldSpaceUsed();
}

/** True when the process runs with `--expose-gc` (samples start from a collected heap). */
export const GC_BETWEEN_SAMPLES = typeof gc === 'function';

/** A full collection now (with `--expose-gc`; otherwise nothing): for untimed setup inside a sample. */
export function collect(): void {
  collectNow('major', true);
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Times a synchronous function once (ms). */
export function timeSync(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** Runs the candidates interleaved and returns one measurement per candidate, in input order. */
export async function measure(candidates: readonly Candidate[], options: MeasureOptions): Promise<Measurement[]> {
  const samples = candidates.map(() => [] as number[]);
  const started = performance.now();
  const rounds = options.warmup + options.maxSamples;
  const gcType = options.gc ?? 'major';
  for (let round = 0; round < rounds; round++) {
    const timed = round >= options.warmup;
    if (timed && round - options.warmup >= options.minSamples && performance.now() - started > options.budgetMs) break;
    for (let k = 0; k < candidates.length; k++) {
      const i = (k + round) % candidates.length;
      collectNow(gcType);
      const ms = await candidates[i]!.run();
      if (timed) samples[i]!.push(ms);
    }
  }
  return candidates.map((c, i) => ({ name: c.name, samples: samples[i]!, medianMs: median(samples[i]!) }));
}
