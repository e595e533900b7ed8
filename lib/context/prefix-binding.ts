/**
 * A-B2, A-B3: Anthropic binds a thinking block to everything before it. When a send changes the
 * history before an answer whose thinking it replays (a turn left out, an edit, a detour removed),
 * the API drops that block under the thinking-binding beta (default policy) — after the fact, in
 * `input_transformations`. This predicts it before the send, from the ledger: the request that
 * produced the answer is on record with the `[turnId, contentHash]` of every turn it carried, and
 * the history before the answer in this send either repeats that list exactly or does not. Pure.
 *
 * A prediction, not a promise: the ledger compares turns, not the system text or tools the
 * binding also covers, so a changed system prompt alone is not seen here.
 */
import type { LedgerReceipt } from './count-state';
import type { BlockReport } from '../transcript/report';
import type { Transcript } from '../transcript/schema';
import type { ReasoningUnused } from './types';

/** What {@link prefixChangedThinking} looks at. */
export interface PrefixBindingInput {
  /** The conversation's ledger records (any order). */
  records: readonly (LedgerReceipt & { answer?: readonly [string, string] | undefined })[];
  /** `[turnId, contentHash]` of the turns this send carries, in order (the ledger's format). */
  sent: readonly (readonly [string, string])[];
  /** The transcript planned (for the answers' reasoning tokens). */
  transcript: Transcript;
  /** The plan's block report: which thinking blocks this send replays. */
  blocks: readonly BlockReport[];
}

/**
 * The answers whose replayed thinking Anthropic will likely drop because the history before them
 * changed since the request that produced them, as one `prefix-changed` entry of the preview's
 * `reasoningUnused`; undefined when none.
 */
export function prefixChangedThinking(input: PrefixBindingInput): ReasoningUnused | undefined {
  const replayed = new Set<string>();
  for (const b of input.blocks) {
    const type = input.transcript.turns.find((t) => t.id === b.turn)?.blocks[b.index]?.type;
    if ((type === 'thinking' || type === 'redacted_thinking') && !b.fates.some((f) => f.fate === 'dropped'))
      replayed.add(b.turn);
  }
  if (replayed.size === 0) return undefined;
  const producedBy = new Map<string, readonly (readonly [string, string])[]>();
  for (const r of input.records)
    if (r.status === 'completed' && r.answer && replayed.has(r.answer[0])) producedBy.set(r.answer[0], r.turns);
  let turns = 0;
  let reasoningTokens = 0;
  input.sent.forEach(([id], i) => {
    const before = producedBy.get(id);
    if (!before) return;
    const now = input.sent.slice(0, i);
    const same =
      before.length === now.length && before.every(([bid, bh], k) => bid === now[k]![0] && bh === now[k]![1]);
    if (same) return;
    turns++;
    reasoningTokens += input.transcript.turns.find((t) => t.id === id)?.usage?.reasoningTokens ?? 0;
  });
  return turns > 0 ? { reason: 'prefix-changed', turns, reasoningTokens } : undefined;
}
