/**
 * Snapshot or delta (docs/disclosure.md, "Snapshot or delta"): the pure decision whether a request may send
 * only the new turns with `previous_response_id` (OpenAI Responses, `store: true`) or
 * `previous_interaction_id` (Gemini Interactions, `store: true`, GI-P1) instead of the bounded
 * snapshot. Every doubt falls back to the snapshot, with the reason.
 */
import type { Turn } from '../transcript/schema';
import { resolveTarget, type ConvertTarget } from '../transcript/target';
import { turnContentHash } from './hash';
import { lookupTable } from '../transcript/lookup';

/** What Baton keeps (internally, never shown or exported) about one stateful delivery. */
export interface DeliveryReceipt {
  /** The provider session the response lives in (see {@link providerSessionKey}). */
  providerSessionKey: string;
  /** The conversation branch the delivered turns belong to. */
  branchId: string;
  /** The id of the response (Responses) or stored interaction (Interactions, a non-empty `v1_…` id, GI-P2) that received the delivered turns. */
  responseId: string;
  /** How that response ended; only `completed` lets a delta build on it. */
  status: 'completed' | 'failed' | 'incomplete' | 'cancelled' | 'unknown';
  /** The assistant turn that response produced (the anchor new turns follow). */
  anchorTurnId: string;
  /** {@link turnContentHash} of the anchor turn when it was stored. */
  anchorHash: string;
  /**
   * `[turnId, contentHash]` of every turn the server holds for this response, in conversation
   * order, up to (not including) the anchor — the ledger's format. For a chain of deltas, the
   * turns of the whole chain (earlier anchors included).
   */
  deliveredTurns: readonly (readonly [string, string])[];
}

export interface DeliveryInput {
  /** The conversation's policy: `snapshot` (default) or `stateful` (server-side state allowed). */
  policy: 'snapshot' | 'stateful';
  target: ConvertTarget;
  /** The provider session this request would go to (see {@link providerSessionKey}). */
  providerSessionKey: string;
  /** The conversation's turns on the current branch, in order. */
  turns: readonly Turn[];
  branchId: string;
  receipt?: DeliveryReceipt;
}

/** Why a request goes as a snapshot. */
export type SnapshotReason =
  | 'policy-snapshot'
  | 'target-not-stateful'
  | 'no-receipt'
  | 'response-not-completed'
  | 'other-session'
  | 'other-branch'
  | 'anchor-missing'
  | 'anchor-not-unique'
  | 'anchor-changed'
  | 'delivered-turn-missing'
  | 'delivered-turn-changed'
  | 'history-changed'
  | 'nothing-new';

export type Delivery =
  | { mode: 'snapshot'; reason: SnapshotReason; detail: string }
  | {
      mode: 'delta';
      /** The stored response's (Responses) or interaction's (Interactions) id the new turns follow. */
      previousResponseId: string;
      newTurnIds: string[];
    };

/** The APIs that keep conversation state server-side by response (or interaction) id. */
export const STATEFUL_APIS: ReadonlySet<string> = new Set(['openai-responses', 'gemini-interactions']);

/** The request field a delta names the stored response by, per stateful API (GI-P1 for Interactions). */
export const PREVIOUS_ID_FIELD: Readonly<Record<string, string>> = lookupTable({
  'openai-responses': 'previous_response_id',
  'gemini-interactions': 'previous_interaction_id',
});

/**
 * Identifies the server-side store a response lives in: provider, API, endpoint and the
 * account (an opaque id of the key or project, never the key itself). For Gemini Interactions
 * also the model: a stored interaction chains only on the same origin, same model and key (GI-P2).
 */
export function providerSessionKey(target: ConvertTarget, accountId: string): string {
  const t = resolveTarget(target);
  const key = [t.provider, t.api, t.endpoint ?? '', accountId];
  return JSON.stringify(t.api === 'gemini-interactions' ? [...key, t.model] : key);
}

/**
 * Chooses snapshot or delta. Delta only when all hold: the policy is `stateful`; the target's
 * API keeps state (`openai-responses`, `gemini-interactions`); a receipt exists, of a `completed` response, in the same
 * provider session and on the same branch; exactly one turn has the anchor's id and it is
 * unchanged (content hash); the delivered turns are, unchanged and in order, the turns right
 * before the anchor (older turns the bounded snapshot never sent are not the server's concern);
 * and at least one turn follows the anchor. Anything else: `snapshot` with the reason.
 * Never throws.
 */
export function chooseDelivery(input: DeliveryInput): Delivery {
  const snapshot = (reason: SnapshotReason, detail: string): Delivery => ({ mode: 'snapshot', reason, detail });
  const { receipt, turns } = input;
  if (input.policy !== 'stateful')
    return snapshot('policy-snapshot', 'the conversation sends the bounded snapshot every time');
  if (!STATEFUL_APIS.has(input.target.api))
    return snapshot('target-not-stateful', `${input.target.api} keeps no conversation state`);
  if (!receipt) return snapshot('no-receipt', 'no delivery receipt for this conversation');
  if (receipt.status !== 'completed')
    return snapshot('response-not-completed', `the last delivery ended ${receipt.status}`);
  if (receipt.providerSessionKey !== input.providerSessionKey)
    return snapshot(
      'other-session',
      input.target.api === 'gemini-interactions'
        ? 'the stored interaction is from another model, key or endpoint'
        : 'the receipt is from another provider session',
    );
  if (receipt.branchId !== input.branchId) return snapshot('other-branch', 'the receipt is from another branch');

  let anchor = -1;
  for (let i = 0; i < turns.length; i++) {
    if (turns[i]!.id !== receipt.anchorTurnId) continue;
    if (anchor >= 0)
      return snapshot('anchor-not-unique', `more than one turn has the anchor id ${receipt.anchorTurnId}`);
    anchor = i;
  }
  if (anchor < 0)
    return snapshot(
      'anchor-missing',
      `the stored answer ${receipt.anchorTurnId} is no longer in this conversation's active version (an edit, a regenerate or a version switch)`,
    );
  if (turnContentHash(turns[anchor]!) !== receipt.anchorHash)
    return snapshot('anchor-changed', `the anchor turn ${receipt.anchorTurnId} was edited`);

  const delivered = receipt.deliveredTurns;
  const byId = new Map<string, Turn>();
  for (const t of turns) byId.set(t.id, t);
  for (const [id, hash] of delivered) {
    const t = byId.get(id);
    if (!t)
      return snapshot(
        'delivered-turn-missing',
        `delivered turn ${id} is no longer in this conversation's active version (an edit or a version switch)`,
      );
    if (turnContentHash(t) !== hash) return snapshot('delivered-turn-changed', `delivered turn ${id} was edited`);
  }
  // The delivered turns must be exactly the turns right before the anchor, in order.
  const start = anchor - delivered.length;
  if (start < 0 || delivered.some(([id], k) => turns[start + k]!.id !== id))
    return snapshot('history-changed', 'turns were added, removed or reordered before the anchor');

  const newTurnIds = turns.slice(anchor + 1).map((t) => t.id);
  if (newTurnIds.length === 0) return snapshot('nothing-new', 'no turn follows the anchor');
  return { mode: 'delta', previousResponseId: receipt.responseId, newTurnIds };
}
