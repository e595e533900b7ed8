/**
 * The shared driver of the "grown one turn at a time" property cases (the plan property test and
 * the conversion-cache property test): several generated transcripts joined into one conversation
 * that is appended to one turn at a time, as a person's chat grows between sends.
 */
import fc from 'fast-check';
import { decodeTranscript } from '../../lib/transcript/codec';
import type { Transcript } from '../../lib/transcript/schema';
import { transcriptArb } from './arbitraries';

/** Two to `maxParts` generated transcripts whose turns, in order, are the turns to append. */
export function growthPartsArb(maxParts: number): fc.Arbitrary<Transcript[]> {
  return fc.array(transcriptArb, { minLength: 2, maxLength: maxParts });
}

/**
 * Appends the turns of `parts` one at a time (ids prefixed by their part, so they stay unique) to a
 * conversation that starts as `parts[0]` without turns, skipping a turn that would make the
 * transcript invalid, and calls `visit` with every transcript reached. Turns already appended
 * keep their objects from one step to the next, as the store's transcript cache keeps them, so
 * caches keyed by turn object are really reused. Returns the last transcript.
 */
export function growOneTurnAtATime(parts: readonly Transcript[], visit: (t: Transcript) => void): Transcript {
  const all = parts.flatMap((p, i) => p.turns.map((turn) => ({ ...turn, id: `p${i}-${turn.id}` })));
  let t: Transcript = { ...parts[0]!, turns: [] };
  for (const turn of all) {
    const next = { ...t, turns: [...t.turns, turn] };
    try {
      decodeTranscript(next);
    } catch {
      continue;
    }
    t = next;
    visit(t);
  }
  return t;
}
