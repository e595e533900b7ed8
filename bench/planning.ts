/**
 * Planning benchmark (bench/README.md, "Planning"): `plan()` from `lib/context/` with token estimation on
 * the largest generated transcript, per target API. Warm: one token cache per target, filled by an
 * untimed first plan, then reused (the send path's case: the per-turn counts are cached). Cold: a
 * new cache for every sample. Each is reported for `plan()` alone (conversion is lazy) and with
 * its `report` read (which runs, or on a warm cache reuses, the conversion).
 */
import type { Transcript, Turn, WireApi } from '../lib/transcript/schema';
import { collect, measure, timeSync, type MeasureOptions } from './harness';
import { BENCH_APIS, TARGETS } from './targets';

/** Planning medians for one target (ms), or why planning could not run. */
export interface PlanningCell {
  api: WireApi;
  turns: number;
  warmMs: number;
  warmWithReportMs: number;
  coldMs: number;
  coldWithReportMs: number;
  /** Cold cache, but the turns carry their counts (StoredCounts filled by an earlier plan). */
  coldStoredMs: number;
  /** Disclosure preview (plan + `.report`) after appending one turn: caches warm from the shorter conversation. */
  previewAppendMs: number;
  /** The same preview with new caches (nothing known). */
  previewColdMs: number;
  /** Turns the plan includes (it drops the oldest to fit the window). */
  includedTurns: number;
  estimatedInputTokens: number;
  tokenizer: string;
}

export type PlanningResult = { ok: true; cells: PlanningCell[] } | { ok: false; note: string };

interface ContextModule {
  plan: (
    t: Transcript,
    target: (typeof TARGETS)[WireApi],
    policy?: object,
    cache?: unknown,
  ) => {
    included: string[];
    estimatedInputTokens: number;
    tokenizer: string;
    report: unknown;
  };
  createTokenCache: (options?: { stored?: StoredCounts }) => unknown;
}

/** What a stored turn record would hold: counts per turn and tokenizer variant (lib/context StoredCounts). */
interface StoredCounts {
  get(turn: Turn, variant: string): unknown;
  set(turn: Turn, variant: string, count: unknown): void;
}

function memoryCounts(): StoredCounts {
  const kept = new WeakMap<Turn, Map<string, unknown>>();
  return {
    get: (turn, variant) => kept.get(turn)?.get(variant),
    set(turn, variant, count) {
      let m = kept.get(turn);
      if (!m) kept.set(turn, (m = new Map()));
      m.set(variant, count);
    },
  };
}

/** Runs the planning figures; `lib/context` missing or broken gives `ok: false` with the reason. */
export async function benchPlanning(
  transcript: Transcript,
  warmOptions: MeasureOptions,
  coldOptions: MeasureOptions,
  progress: (line: string) => void = () => {},
): Promise<PlanningResult> {
  let ctx: ContextModule;
  try {
    // Loaded by URL so the benchmark still typechecks and runs while lib/context is being written.
    ctx = (await import(new URL('../lib/context/index.ts', import.meta.url).href)) as ContextModule;
    if (typeof ctx.plan !== 'function' || typeof ctx.createTokenCache !== 'function')
      throw new Error('lib/context/index.ts exports no plan/createTokenCache');
  } catch (e) {
    return { ok: false, note: `pending: lib/context could not be loaded (${(e as Error).message})` };
  }
  const cells: PlanningCell[] = [];
  for (const api of BENCH_APIS) {
    const target = TARGETS[api];
    const cache = ctx.createTokenCache();
    const first = ctx.plan(transcript, target, {}, cache);
    void first.report;
    const [warm, warmReport] = await measure(
      [
        { name: 'warm', run: () => timeSync(() => ctx.plan(transcript, target, {}, cache)) },
        { name: 'warm+report', run: () => timeSync(() => ctx.plan(transcript, target, {}, cache).report) },
      ],
      warmOptions,
    );
    const [cold, coldReport] = await measure(
      [
        { name: 'cold', run: () => timeSync(() => ctx.plan(transcript, target, {}, ctx.createTokenCache())) },
        {
          name: 'cold+report',
          run: () => timeSync(() => ctx.plan(transcript, target, {}, ctx.createTokenCache()).report),
        },
      ],
      coldOptions,
    );
    // Counts kept with the turns: filled once, untimed, then every sample starts with a new cache.
    const stored = memoryCounts();
    void ctx.plan(transcript, target, {}, ctx.createTokenCache({ stored })).report;
    const before: Transcript = { ...transcript, turns: transcript.turns.slice(0, -1) };
    const [coldStored, previewAppend] = await measure(
      [
        {
          name: 'cold+stored',
          run: () => timeSync(() => ctx.plan(transcript, target, {}, ctx.createTokenCache({ stored }))),
        },
        {
          name: 'preview after append',
          run: () => {
            const c = ctx.createTokenCache();
            void ctx.plan(before, target, {}, c).report;
            collect(); // the first plan's garbage is not the sample's
            return timeSync(() => ctx.plan(transcript, target, {}, c).report);
          },
        },
      ],
      coldOptions,
    );
    const cell: PlanningCell = {
      api,
      turns: transcript.turns.length,
      warmMs: warm!.medianMs,
      warmWithReportMs: warmReport!.medianMs,
      coldMs: cold!.medianMs,
      coldWithReportMs: coldReport!.medianMs,
      coldStoredMs: coldStored!.medianMs,
      previewAppendMs: previewAppend!.medianMs,
      previewColdMs: coldReport!.medianMs, // the cold preview is `cold+report`
      includedTurns: first.included.length,
      estimatedInputTokens: first.estimatedInputTokens,
      tokenizer: first.tokenizer,
    };
    cells.push(cell);
    progress(
      `  plan ${api}: warm ${cell.warmMs.toFixed(2)} ms (+report ${cell.warmWithReportMs.toFixed(2)}), cold ${cell.coldMs.toFixed(1)} ms (+report ${cell.coldWithReportMs.toFixed(1)}), cold with stored counts ${cell.coldStoredMs.toFixed(1)} ms, preview after append ${cell.previewAppendMs.toFixed(1)} ms vs cold ${cell.previewColdMs.toFixed(1)} ms, ${cell.includedTurns} turns included, ${cell.tokenizer}`,
    );
  }
  return { ok: true, cells };
}
