/**
 * Timing harness: warm-up, then rounds in which every candidate runs once, in an order that
 * rotates each round (interleaving, so drift on a shared machine hits all candidates alike).
 * With `--expose-gc` the heap is collected before every sample, outside the timed region, so no
 * candidate pays for another's garbage (a full mark-compact for large inputs; only the young
 * generation for small ones, where a full one would cost more than the sample). Reports medians (ms).
 */

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
  /** Collection before each sample (with `--expose-gc`): `major` (default) or `minor` (young generation only). */
  gc?: 'major' | 'minor';
}

/** The samples of one candidate (ms) and their median. */
export interface Measurement {
  name: string;
  samples: number[];
  medianMs: number;
}

const gc = (globalThis as { gc?: (options?: { type: 'minor'; execution: 'sync' }) => void }).gc;

/**
 * One collection of the given kind, synchronously. A major one is a bare `gc()`: on Node 20 (V8
 * 11.3) `gc({ type: 'major', execution: 'sync' })` runs a scavenge, not a mark-compact
 * (`--trace-gc` prints "Scavenge … testing"), so old space kept every earlier sample's promoted
 * garbage and a mark-compact fell inside whichever sample reached the old-generation limit
 * (bench/README.md, "Conversion rows and the heap they start from").
 */
function collectNow(type: 'major' | 'minor'): void {
  if (!gc) return;
  if (type === 'major') gc();
  else gc({ type: 'minor', execution: 'sync' });
}

/** True when the process runs with `--expose-gc` (samples start from a collected heap). */
export const GC_BETWEEN_SAMPLES = typeof gc === 'function';

/** A full collection now (with `--expose-gc`; otherwise nothing): for untimed setup inside a sample. */
export function collect(): void {
  collectNow('major');
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
