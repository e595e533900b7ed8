/**
 * Edits the incremental property tests (conversion cache, plan memo) apply to a transcript the way
 * the store does: the edited turn is a new object, every other turn stays the same object.
 */
import { decodeTranscript } from '../../lib/transcript/codec';
import type { Transcript, Turn } from '../../lib/transcript/schema';

/** `old` with its first text block's text set to `text` (a new text block when it has none; a tool turn without text is kept). */
export function withText(old: Turn, text: string): Turn {
  const i = old.blocks.findIndex((b) => b.type === 'text');
  const blocks =
    i >= 0
      ? old.blocks.map((b, k) => (k === i ? { ...b, text } : b))
      : old.role === 'tool'
        ? old.blocks
        : [...old.blocks, { type: 'text' as const, text }];
  return { ...old, blocks };
}

/** `t` with `turns`, or `t` itself when that would not be a valid transcript (the edit is skipped). */
export function withTurnsIfValid(t: Transcript, turns: Turn[]): Transcript {
  const next = { ...t, turns };
  try {
    decodeTranscript(next);
  } catch {
    return t;
  }
  return next;
}
