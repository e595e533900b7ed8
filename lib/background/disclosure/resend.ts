/**
 * What a retry, a regenerate or an edit-and-resend sends (docs/disclosure.md): the stored turns it keeps,
 * the first turn it removes, and which kept turn (if any) counts as new for the first-disclosure
 * confirmation. One definition for the send engine and for `previewSend`, so the previewed body
 * is the body then sent. Pure.
 */
import type { Attachment, ConversationMeta } from '../../messaging/protocol';
import type { LedgerRecord } from '../../store/disclosures';
import type { Turn } from '../../transcript/schema';
import { BatonError } from '../../messaging/errors';
import type { ResolvedProvider } from '../core/providers';

/** A resend: `retry` a failed, interrupted or stopped answer; `regenerate` the last answer; `edit` any user turn. */
export type Resend = { kind: 'retry' } | { kind: 'regenerate' } | { kind: 'edit'; turnId: string };

export interface ResendPlan {
  /** The turns of the active path the request is built on, in order (an edit adds its new user turn after them). */
  kept: Turn[];
  /**
   * The first turn of the active path the action leaves behind (it and every later turn), if any:
   * a retry removes it; a regenerate or an edit keeps it as an earlier version, on its own branch
   * (docs/transcript.md#versions-and-branches).
   */
  removeFrom?: string | undefined;
  /**
   * A retry's unanswered last user turn: a candidate for the turn that counts as new for the
   * confirmation. It counts as new only for a provider that already got it, or that the person
   * picked for it (see {@link retryNewTurnId}); for any other provider it is history like every
   * stored turn. A regenerate has none: the answered user turn is history.
   */
  newTurnId?: string | undefined;
}

/**
 * Plans `resend` over the active path `turns`. Any user turn of it can be edited.
 * @throws BatonError `bad_request` (nothing to retry, the last answer completed, no message to
 * answer), `not_found` (the edited turn is not a user turn here).
 */
export function planResend(turns: readonly Turn[], resend: Resend): ResendPlan {
  if (resend.kind === 'retry') {
    const last = turns[turns.length - 1];
    if (!last) throw new BatonError('bad_request', 'Nothing to retry.');
    let kept = turns.slice();
    let removeFrom: string | undefined;
    if (last.role === 'assistant') {
      if (last.status === undefined || last.status === 'complete')
        throw new BatonError('bad_request', 'The last answer completed; send a new message instead.');
      kept = turns.slice(0, -1);
      removeFrom = last.id;
    }
    const unanswered = kept[kept.length - 1];
    return { kept, removeFrom, newTurnId: unanswered?.role === 'user' ? unanswered.id : undefined };
  }
  if (resend.kind === 'regenerate') {
    const lastUser = turns.findLastIndex((t) => t.role === 'user');
    if (lastUser < 0) throw new BatonError('bad_request', 'There is no message to answer.');
    return { kept: turns.slice(0, lastUser + 1), removeFrom: turns[lastUser + 1]?.id };
  }
  const i = turns.findIndex((t) => t.id === resend.turnId);
  if (i < 0 || turns[i]!.role !== 'user')
    throw new BatonError('not_found', 'That message is not in this conversation.');
  return { kept: turns.slice(0, i), removeFrom: resend.turnId };
}

/**
 * The turn of a retry that counts as new for the first-disclosure confirmation of `provider`
 * (docs/disclosure.md), or undefined. The unanswered last user turn (`plan.newTurnId`) is new only when
 * - a ledger record (completed or failed) of this provider id + origin carries it (the person
 *   already sent it there), or
 * - no ledger record carries it at all, the conversation was written in Baton (no capture or
 *   import `source`) and its `lastTarget` (set by the send that stored the turn) is this provider:
 *   the person's own new message to the provider they picked, whose send was never recorded (the
 *   worker stopped mid-answer, or nothing left the browser) — the first message of a brand-new
 *   conversation must not ask.
 * Otherwise (e.g. sent to A, the worker died, Retry with B) the retry carries a turn B never
 * received, and a B that has not received the conversation needs the confirmation.
 */
export function retryNewTurnId(
  plan: Pick<ResendPlan, 'newTurnId'>,
  provider: Pick<ResolvedProvider, 'providerId' | 'origin'>,
  ledger: readonly Pick<LedgerRecord, 'providerId' | 'endpoint' | 'turns'>[],
  conversation: Pick<ConversationMeta, 'source' | 'lastTarget'>,
): string | undefined {
  const id = plan.newTurnId;
  if (!id) return undefined;
  const carrying = ledger.filter((r) => r.turns.some(([turnId]) => turnId === id));
  if (carrying.some((r) => r.providerId === provider.providerId && r.endpoint === provider.origin)) return id;
  if (carrying.length === 0 && !conversation.source && conversation.lastTarget?.providerId === provider.providerId)
    return id;
  return undefined;
}

/** The images and documents (with data) of a user turn, as attachments: an edit sends them again. */
export function turnAttachments(turn: Turn): Attachment[] {
  return turn.blocks.flatMap((b): Attachment[] =>
    (b.type === 'image' || b.type === 'document') && b.data
      ? [
          {
            kind: b.type,
            mediaType: b.mediaType,
            data: b.data,
            ...(b.type === 'document' && b.title ? { name: b.title } : {}),
          },
        ]
      : [],
  );
}

/**
 * The person's answer to the first-disclosure question of one send (docs/disclosure.md): `false` not
 * confirmed; `true` confirmed (older panels, which do not say for whom); or the provider id +
 * endpoint origin the confirmation dialog was shown for, which authorises that provider only — a
 * confirmation shown for A never lets the conversation go to B.
 */
export type Confirmation = boolean | { providerId: string; origin: string };

/** The {@link Confirmation} of a request's `confirmedDisclosure` and `confirmedFor` (protocol, docs/disclosure.md). */
export function confirmationOf(p: {
  confirmedDisclosure?: boolean | undefined;
  confirmedFor?: { providerId: string; origin: string } | undefined;
}): Confirmation {
  if (p.confirmedDisclosure !== true) return false;
  return p.confirmedFor ? { providerId: p.confirmedFor.providerId, origin: p.confirmedFor.origin } : true;
}

/**
 * The first-disclosure check of every send (docs/disclosure.md): a send whose body carries this
 * conversation's history to a provider (id + origin) that has not received it is refused unless
 * `confirmed` is `true` or names that same provider id and origin. `confirmed` undefined: not
 * asked (internal callers such as the retry alarm).
 * @throws BatonError `confirmation_required` (the message names the provider, and for a
 * confirmation given for another provider, that one too).
 */
export function refuseUnconfirmed(
  prepared: { firstDisclosure: boolean },
  provider: Pick<ResolvedProvider, 'providerId' | 'origin'>,
  confirmed: Confirmation | undefined,
): void {
  if (!prepared.firstDisclosure || confirmed === undefined || confirmed === true) return;
  const who = `${provider.providerId} (${provider.origin})`;
  if (confirmed === false)
    throw new BatonError(
      'confirmation_required',
      `${who} has not received this conversation yet: confirm the disclosure first.`,
    );
  if (confirmed.providerId !== provider.providerId || confirmed.origin !== provider.origin)
    throw new BatonError(
      'confirmation_required',
      `The disclosure was confirmed for ${confirmed.providerId} (${confirmed.origin}), not for ${who}, which has not received this conversation yet: confirm it first.`,
    );
}
