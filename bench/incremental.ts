/**
 * Incremental conversion benchmark (bench/README.md, "Incremental conversion"): append one turn
 * to the largest generated conversation and convert again. Cold: `convertTranscript` of the
 * longer transcript. Cached: the same call with a `ConversionCache` that converted the shorter one
 * (the send path's case: the worker converted the conversation for the previous send or preview);
 * a fresh cache is filled, untimed, before every sample, so each sample pays for the new turn.
 */
import { convertTranscript, createConversionCache } from '../lib/providers/index';
import type { Transcript, WireApi } from '../lib/transcript/schema';
import { collect, measure, timeSync, type MeasureOptions } from './harness';
import { BENCH_APIS, TARGETS } from './targets';

/** Medians for one API (ms). */
export interface IncrementalCell {
  api: WireApi;
  /** Turns after the append. */
  turns: number;
  coldMs: number;
  cachedMs: number;
}

/** `transcript` minus its last turn (same turn objects), and `transcript` itself. */
export function appendPair(transcript: Transcript): { before: Transcript; after: Transcript } {
  return { before: { ...transcript, turns: transcript.turns.slice(0, -1) }, after: transcript };
}

/** Runs the incremental-conversion figures on `transcript` (its last turn is the appended one). */
export async function benchIncremental(
  transcript: Transcript,
  options: MeasureOptions,
  progress: (line: string) => void = () => {},
): Promise<IncrementalCell[]> {
  const { before, after } = appendPair(transcript);
  const cells: IncrementalCell[] = [];
  for (const api of BENCH_APIS) {
    const target = TARGETS[api];
    const [cold, cached] = await measure(
      [
        { name: 'cold', run: () => timeSync(() => convertTranscript(after, target)) },
        {
          name: 'cached',
          run: () => {
            const cache = createConversionCache();
            convertTranscript(before, target, { cache });
            collect(); // the fill's garbage is not the sample's
            return timeSync(() => convertTranscript(after, target, { cache }));
          },
        },
      ],
      options,
    );
    const cell = { api, turns: after.turns.length, coldMs: cold!.medianMs, cachedMs: cached!.medianMs };
    cells.push(cell);
    progress(
      `  append 1 turn, convert again ${api}: ${cell.cachedMs.toFixed(1)} ms vs cold ${cell.coldMs.toFixed(1)} ms (${((100 * cell.cachedMs) / cell.coldMs).toFixed(0)} %)`,
    );
  }
  return cells;
}
