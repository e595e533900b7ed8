/**
 * The background's side of planning a send (docs/disclosure.md): the pure planner's refusals as
 * the protocol's errors. The planning itself (`planSend` of lib/context/send-plan.ts) needs no deps, store or clock.
 */
import type { ActiveSummary } from '../../messaging/summary-types';
import { BatonError } from '../../messaging/errors';
import {
  InvalidPolicyError,
  planSend as planRequest,
  type PlannedSend as PlannedRequest,
  type PlanSendInput as PlanRequestInput,
} from '../../context/send-plan';

export { MAIN_BRANCH, type Exclusions } from '../../context/send-plan';

/** One send's planning input, with the conversation's stored {@link ActiveSummary}. */
export type PlanSendInput = PlanRequestInput<ActiveSummary>;
/** One planned send, with the conversation's stored {@link ActiveSummary}. */
export type PlannedSend = PlannedRequest<ActiveSummary>;

/**
 * Plans one send ({@link planRequest}). Never throws for a forbidden provider or a request that
 * does not fit (see {@link assertSendable}); deterministic: the same inputs give a deep-equal body.
 * @throws BatonError `bad_request` for an invalid policy (the TranscriptError's path and problem).
 */
export function planSend(input: PlanSendInput): PlannedSend {
  try {
    return planRequest(input);
  } catch (e) {
    if (e instanceof InvalidPolicyError) throw new BatonError('bad_request', `Invalid disclosure policy: ${e.message}`);
    throw e;
  }
}

/**
 * Refuses a send the plan does not allow, before anything is stored or sent.
 * @throws BatonError `policy_forbidden` (lockedProvider / neverProviders) or `context_too_long` (the plan does not fit; N5).
 */
export function assertSendable(planned: PlannedSend): void {
  const p = planned.plan;
  if (!p.allowed)
    throw new BatonError('policy_forbidden', p.forbidden?.message ?? 'The disclosure policy forbids this provider.');
  if (!p.fits)
    throw new BatonError('context_too_long', p.notFit?.message ?? 'The conversation does not fit the model.');
  if (p.included.length === 0) throw new BatonError('bad_request', 'Every turn is left out: nothing would be sent.');
}
