/**
 * Every send goes through the context planner (docs/disclosure.md): the request body is the planner's
 * bounded body for the merged policy (global + conversation + this send's exclusions), with
 * Anthropic cache breakpoints on long conversations, or — for a stateful Responses or Gemini
 * Interactions conversation with a valid receipt — only the new turns with
 * `previous_response_id` / `previous_interaction_id`. The same function makes
 * the preview, so the body shown is byte for byte the body sent for the same inputs.
 */
import { addCacheBreakpoints } from './cache-breakpoints';
import { chooseDelivery, PREVIOUS_ID_FIELD, STATEFUL_APIS, type Delivery, type DeliveryReceipt } from './delivery';
import { plan } from './plan';
import { mergePolicies } from './policy';
import { cachedTurnHash, type TokenCache } from './token-cache';
import type { Plan, Policy } from './types';
import { TranscriptError } from '../transcript/codec';
import type { Transcript } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { withActiveSummary, type AppliedSummary, type SummaryState } from './summary-apply';

/** The only branch the store keeps today (turns are linear; edits delete the turns after them). */
export const MAIN_BRANCH = 'main';

/** The person's choices for one send: turns and blocks left out. */
export interface Exclusions {
  excludeTurns?: string[] | undefined;
  excludeBlocks?: { turn: string; index: number }[] | undefined;
  /** The person confirmed replaying provider state from an imported file (see {@link planSend}). */
  replayImportedState?: boolean | undefined;
  /**
   * One of several answers to one message (docs/side-panel.md#ask-several-models-at-once): the
   * request is stateless whatever the conversation's delivery policy — the whole history, nothing
   * stored server-side, no receipt written — since parallel answers cannot share the one receipt
   * a conversation keeps (docs/disclosure.md, "Snapshot or delta").
   */
  stateless?: boolean | undefined;
}

/**
 * A disclosure policy, global or per conversation: the planner's {@link Policy} without the
 * per-send exclusions, plus `delivery` (`stateful` lets an OpenAI Responses target keep the
 * conversation server-side; the protocol's `DisclosurePolicy` has this shape).
 */
export type SendPolicy = Omit<Policy, 'excludeTurns' | 'excludeBlocks'> & {
  delivery?: 'snapshot' | 'stateful' | undefined;
};

/** The merged policy is invalid (a policy field out of range): the {@link TranscriptError} of `mergePolicies`. */
export class InvalidPolicyError extends TranscriptError {}

export interface PlanSendInput<S extends AppliedSummary = AppliedSummary> {
  /** The conversation as it would be sent: stored turns plus the new user turn (or the draft). */
  transcript: Transcript;
  target: ConvertTarget;
  global: SendPolicy;
  conversation: SendPolicy;
  exclusions: Exclusions;
  cache: TokenCache;
  /** The conversation's internal delivery receipt (stateful delivery only). */
  receipt?: DeliveryReceipt | undefined;
  /** `providerSessionKey(target, accountId)` of this request's provider session. */
  sessionKey: string;
  /** The conversation's active summary ("summarise the earlier part"): sent in place of its turns unless stale. */
  summary?: S | undefined;
  /** The stored turns the summary's hashes are checked against when `transcript` is a changed copy of them (a retry without opaque state); default `transcript`. */
  summaryBasis?: Transcript | undefined;
}

export interface PlannedSend<S extends AppliedSummary = AppliedSummary> {
  /** The plan of what is sent (for a delta: of the new turns only). */
  plan: Plan;
  /** The exact JSON body to send (no credentials). */
  body: Record<string, unknown>;
  delivery: Delivery;
  /** `[turnId, contentHash]` of every stored/draft turn the body carries (the ledger's format). */
  sent: [string, string][];
  /** The conversation asked for server-side state (`delivery: 'stateful'` on a Responses or Interactions target). */
  stateful: boolean;
  /** The transcript planned: the input, with the active summary's turn in place of its turns when it applies. */
  transcript: Transcript;
  /** The active summary: applied (its turn is planned like any turn) or stale (ignored). */
  summary?: SummaryState<S>;
}

/**
 * Plans one send. Never throws for a forbidden provider or a request that does not fit (the
 * caller checks `plan.allowed` and `plan.fits`); deterministic: the same inputs give a deep-equal body.
 * @throws InvalidPolicyError when the merged policy is invalid (the TranscriptError's path and problem).
 */
export function planSend<S extends AppliedSummary>(input: PlanSendInput<S>): PlannedSend<S> {
  const { exclusions } = input;
  // docs/security.md ("Hostile providers and files"): an imported file's provider state is replayed
  // only when the person chose it in the disclosure preview; the preview plans with the same flag,
  // so the body it shows is the body sent.
  const target: ConvertTarget = exclusions.replayImportedState
    ? { ...input.target, importedState: 'replay' }
    : input.target;
  // docs/disclosure.md "Fitting": an active summary stands for its turns while none of them changed.
  const withSummary = input.summary
    ? withActiveSummary(input.transcript, input.summary, input.summaryBasis)
    : undefined;
  const transcript = withSummary?.transcript ?? input.transcript;
  const summary = withSummary ? { summary: withSummary.state } : {};
  let policy: Policy;
  try {
    policy = mergePolicies(withoutDelivery(input.global), {
      ...withoutDelivery(input.conversation),
      ...definedExclusions(exclusions),
    });
  } catch (e) {
    if (e instanceof TranscriptError) throw new InvalidPolicyError(e.path, e.problem);
    throw e;
  }
  const asked = input.conversation.delivery === 'stateful' && STATEFUL_APIS.has(target.api);
  const stateful = asked && exclusions.stateless !== true;
  const excluded = (exclusions.excludeTurns?.length ?? 0) + (exclusions.excludeBlocks?.length ?? 0) > 0;
  const delivery: Delivery =
    asked && !stateful
      ? {
          mode: 'snapshot',
          reason: 'policy-snapshot',
          detail: 'a message sent to several models at once is not stored',
        }
      : excluded && stateful
        ? { mode: 'snapshot', reason: 'history-changed', detail: 'turns or blocks are left out of this send' }
        : chooseDelivery({
            policy: stateful ? 'stateful' : 'snapshot',
            target,
            providerSessionKey: input.sessionKey,
            turns: transcript.turns,
            branchId: MAIN_BRANCH,
            receipt: input.receipt,
          });

  const byId = new Map(transcript.turns.map((t) => [t.id, t] as const));
  if (delivery.mode === 'delta') {
    const fresh = new Set(delivery.newTurnIds);
    const p = plan(
      { ...transcript, turns: transcript.turns.filter((t) => fresh.has(t.id)) },
      target,
      policy,
      input.cache,
    );
    // The server holds the earlier turns: send only the new ones after the stored response. GI-P1:
    // `previous_interaction_id` only with `store: true` (never with the converter's `store: false`);
    // tools, system and config are in the body again (GI-R5).
    const field = PREVIOUS_ID_FIELD[target.api]!;
    const body = p.body ? { ...p.body, store: true, [field]: delivery.previousResponseId } : {};
    return { plan: p, body, delivery, sent: hashes(p.included, byId, input.cache), stateful, transcript, ...summary };
  }
  const p = plan(transcript, target, policy, input.cache);
  let body: Record<string, unknown> = p.body ?? {};
  // Anthropic prompt caching: breakpoints on the stable prefix of long conversations.
  if (p.allowed && target.api === 'anthropic-messages' && p.body) body = addCacheBreakpoints(p.body, p);
  // A stateful conversation stores each snapshot, so the next send can be a delta (Interactions:
  // `store: true` in place of the stateless `store: false`, GI-R2, GI-P2).
  if (stateful && p.body) body = { ...body, store: true };
  return { plan: p, body, delivery, sent: hashes(p.included, byId, input.cache), stateful, transcript, ...summary };
}

/** The ledger's `[turnId, contentHash]` of `ids`; each hash at most once per turn object (the plan's conversion already made most of them). */
function hashes(
  ids: readonly string[],
  byId: Map<string, Transcript['turns'][number]>,
  cache: TokenCache,
): [string, string][] {
  return ids.flatMap((id): [string, string][] => {
    const t = byId.get(id);
    return t ? [[id, cachedTurnHash(cache, t)]] : [];
  });
}

function withoutDelivery(p: SendPolicy): Policy {
  const { delivery: _d, ...rest } = p;
  return rest;
}

function definedExclusions(x: Exclusions): Policy {
  return {
    ...(x.excludeTurns?.length ? { excludeTurns: x.excludeTurns } : {}),
    ...(x.excludeBlocks?.length ? { excludeBlocks: x.excludeBlocks } : {}),
  };
}
