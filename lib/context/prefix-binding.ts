/**
 * A-B2, A-B3: Anthropic binds a thinking block to everything before it. When a send changes the
 * history before an answer whose thinking it replays (a turn left out, an edit, a detour removed),
 * the API drops that block under the thinking-binding beta (default policy) — after the fact, in
 * `input_transformations`. This predicts it before the send, from the ledger: the request that
 * produced the answer is on record with the `[turnId, contentHash]` of every turn it carried, and
 * the history before the answer in this send either repeats that list exactly or does not. Pure.
 *
 * The binding also covers the system prompt: records that carry the hash of the instructions they
 * sent (`system`, docs/disclosure.md#instructions) are compared with this send's too. Older records
 * have none and are judged on their turns alone. Tools are not compared. A prediction, not a promise.
 */
import type { LedgerReceipt } from './count-state';
import { contentHash } from './hash';
import type { BlockReport } from '../transcript/report';
import type { Transcript, Turn } from '../transcript/schema';
import type { ReasoningUnused } from './types';

/** What {@link prefixChangedThinking} looks at. */
export interface PrefixBindingInput {
  /** The conversation's ledger records (any order). */
  records: readonly (LedgerReceipt & {
    answer?: readonly [string, string] | undefined;
    /** {@link systemHash} of the instructions the request sent; absent on records written before it existed. */
    system?: string | undefined;
  })[];
  /** {@link systemHash} of this send's instructions; undefined: not compared. */
  system?: string | undefined;
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
  const byId = new Map<string, Turn>();
  for (const t of input.transcript.turns) byId.set(t.id, t);
  for (const b of input.blocks) {
    const type = byId.get(b.turn)?.blocks[b.index]?.type;
    if ((type === 'thinking' || type === 'redacted_thinking') && !b.fates.some((f) => f.fate === 'dropped'))
      replayed.add(b.turn);
  }
  if (replayed.size === 0) return undefined;
  const producedBy = new Map<string, readonly (readonly [string, string])[]>();
  const systemOf = new Map<string, string | undefined>();
  for (const r of input.records)
    if (r.status === 'completed' && r.answer && replayed.has(r.answer[0])) {
      producedBy.set(r.answer[0], r.turns);
      systemOf.set(r.answer[0], r.system);
    }
  let turns = 0;
  let reasoningTokens = 0;
  input.sent.forEach(([id], i) => {
    const before = producedBy.get(id);
    if (!before) return;
    const now = input.sent.slice(0, i);
    const then = systemOf.get(id);
    const same =
      (then === undefined || input.system === undefined || then === input.system) &&
      before.length === now.length &&
      before.every(([bid, bh], k) => bid === now[k]![0] && bh === now[k]![1]);
    if (same) return;
    turns++;
    reasoningTokens += byId.get(id)?.usage?.reasoningTokens ?? 0;
  });
  return turns > 0 ? { reason: 'prefix-changed', turns, reasoningTokens } : undefined;
}

/**
 * The ledger's fingerprint of a request's instructions (transcript `system`): '' when there are
 * none (absent or blank, as the converters treat them), else their content hash. Records keep
 * this, never the text.
 */
export function systemHash(system: string | undefined): string {
  return system !== undefined && system.trim() !== '' ? contentHash(system) : '';
}

/** How this send's instructions differ from those of the last completed send to the same provider. */
export type InstructionsChange = 'added' | 'changed' | 'removed';

/**
 * docs/disclosure.md#instructions: whether the instructions changed since the last completed send
 * of this conversation to `provider` (id and endpoint origin) on record that noted its
 * instructions (summary requests aside, they send their own). The provider's prompt cache starts
 * again at the changed system prompt, and reasoning bound to the old one may be dropped.
 * Undefined when unchanged, never sent to this provider, or only by records older than the note.
 */
export function instructionsChange(
  records: readonly (LedgerReceipt & { system?: string | undefined; purpose?: string | undefined })[],
  provider: { providerId: string; origin: string },
  system: string | undefined,
): InstructionsChange | undefined {
  let last: string | undefined;
  for (const r of records)
    if (
      r.providerId === provider.providerId &&
      r.endpoint === provider.origin &&
      r.status === 'completed' &&
      r.purpose === undefined
    )
      last = r.system;
  const now = systemHash(system);
  if (last === undefined || last === now) return undefined;
  return last === '' ? 'added' : now === '' ? 'removed' : 'changed';
}
