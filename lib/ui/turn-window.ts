/**
 * The side panel's window on a long conversation (docs/architecture.md#long-conversations-and-speed): it opens with the newest
 * {@link TURN_WINDOW} turns and loads older pages on request, so opening a 10,000-turn
 * conversation reads and renders 50 turns, not 10,000.
 */
import type { Turn } from '../transcript/schema';

/** Turns loaded when a conversation opens, and per "Show earlier turns". */
export const TURN_WINDOW = 50;

/**
 * How many turns to load when (re)opening conversation `id`: the window, or as many as are shown
 * now when it is already open (a reload after a reconnect keeps the pages the person loaded).
 */
export function windowLimit(currentId: string | undefined, shown: number, id: string): number {
  return currentId === id ? Math.max(TURN_WINDOW, shown) : TURN_WINDOW;
}

/**
 * `older` followed by `newer`, in order; a turn in both (same id) is kept once, as in `newer`
 * (the panel's copy, which may hold streamed text the store has not checkpointed yet).
 */
export function joinTurns(older: readonly Turn[], newer: readonly Turn[]): Turn[] {
  if (older.length === 0) return [...newer];
  const seen = new Set(newer.map((t) => t.id));
  const out = older.filter((t) => !seen.has(t.id));
  for (const t of newer) out.push(t);
  return out;
}
