/**
 * What a retry, a regenerate or an edit-and-resend sends (issue 6): the stored turns it keeps,
 * the first turn it removes, and which kept turn (if any) counts as new for the first-disclosure
 * confirmation. One definition for the send engine and for `previewSend`, so the previewed body
 * is the body then sent. Pure.
 */
import type { Attachment } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import type { PreparedSend } from './disclosure-engine';
import { BatonError } from './errors';
import type { ResolvedProvider } from './providers';

/** A resend: `retry` a failed, interrupted or stopped answer; `regenerate` the last answer; `edit` the last user turn. */
export type Resend = { kind: 'retry' } | { kind: 'regenerate' } | { kind: 'edit'; turnId: string };

export interface ResendPlan {
  /** The stored turns that stay, in order (an edit adds its new user turn after them). */
  kept: Turn[];
  /** The first stored turn the action removes (it and every later turn), if any. */
  removeFrom?: string | undefined;
  /**
   * The kept turn that counts as new for the confirmation: a retry redoes the send of its
   * unanswered last user turn, which alone (like a new message) never needs a confirmation.
   * A regenerate has none: the answered user turn is history.
   */
  newTurnId?: string | undefined;
}

/**
 * Plans `resend` over the stored `turns`.
 * @throws BatonError `bad_request` (nothing to retry, the last answer completed, no message to
 * answer, only the last message can be edited), `not_found` (the edited turn is not a user turn here).
 */
export function planResend(turns: readonly Turn[], resend: Resend): ResendPlan {
  if (resend.kind === 'retry') {
    const last = turns[turns.length - 1];
    if (!last) throw new BatonError('bad_request', 'Nothing to retry.');
    let kept = turns.slice();
    let removeFrom: string | undefined;
    if (last.role === 'assistant') {
      if (last.status === undefined || last.status === 'complete') throw new BatonError('bad_request', 'The last answer completed; send a new message instead.');
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
  if (i < 0 || turns[i]!.role !== 'user') throw new BatonError('not_found', 'That message is not in this conversation.');
  if (turns.slice(i + 1).some((t) => t.role === 'user')) throw new BatonError('bad_request', 'Only the last message can be edited.');
  return { kept: turns.slice(0, i), removeFrom: resend.turnId };
}

/** The images and documents (with data) of a user turn, as attachments: an edit sends them again. */
export function turnAttachments(turn: Turn): Attachment[] {
  return turn.blocks.flatMap((b): Attachment[] =>
    (b.type === 'image' || b.type === 'document') && b.data
      ? [{ kind: b.type, mediaType: b.mediaType, data: b.data, ...(b.type === 'document' && b.title ? { name: b.title } : {}) }]
      : [],
  );
}

/**
 * The first-disclosure check of every send (issue 6): with `confirmed === false`, a send whose
 * body carries this conversation's history to a provider (id + origin) that has not received it
 * is refused. `confirmed` undefined: not asked (internal callers such as the retry alarm).
 * @throws BatonError `confirmation_required`
 */
export function refuseUnconfirmed(prepared: Pick<PreparedSend, 'firstDisclosure'>, provider: Pick<ResolvedProvider, 'providerId' | 'origin'>, confirmed: boolean | undefined): void {
  if (confirmed === false && prepared.firstDisclosure)
    throw new BatonError('confirmation_required', `${provider.providerId} (${provider.origin}) has not received this conversation yet: confirm the disclosure first.`);
}
