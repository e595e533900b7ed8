/**
 * Ask several models at once (docs/side-panel.md#ask-several-models-at-once): one message sent to
 * two to four targets, each answer a version of one assistant turn. Spread into `REQUESTS` and
 * `Responses` of `protocol.ts`, which passes its send-target and attachments schemas (so there is
 * no import cycle). The UI imports only its types.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import { COMPARE_TARGETS } from './compare-limits';
import { confirmationFields, exclusionFields } from './disclosure-types';

const id = onFirstUse(() => z.string().min(1).max(200));

export { COMPARE_TARGETS };

/** The compare request, over the protocol's send-target and attachments schemas. */
export function compareRequests<T extends z.ZodType, A extends z.ZodType>(target: T, attachments: A) {
  return {
    /**
     * Stores one user turn and answers it with every target at once, each a normal send (native
     * history, ledger record, checkpoints, retries). Each target carries its own first-disclosure
     * confirmation (`confirmedDisclosure`, `confirmedFor`: that provider only, docs/disclosure.md).
     * A target that cannot go (no key, not permitted, refused by a policy, unconfirmed) drops out
     * with its reason; the others still go. Refused as a whole only when none can go (the first
     * target's reason) or a send is in flight (`busy`). The first target that goes answers the
     * active version; the others are versions beside it.
     */
    sendCompare: {
      input: onFirstUse(() =>
        z.strictObject({
          conversationId: id,
          text: z.string().max(1_000_000),
          attachments,
          // One is enough: the person may have declined the others' first disclosures in the panel.
          targets: z
            .array(z.strictObject({ target, ...confirmationFields }))
            .min(1)
            .max(COMPARE_TARGETS.max),
          ...exclusionFields,
        }),
      ),
      from: ['extension'] as const,
    },
    /**
     * The answers of the conversation's last send to several models while none is picked (a
     * {@link CompareGroup}), else `null`: the panel shows them side by side again after a reload.
     */
    getCompare: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] as const },
    /** The person picked an answer (or closed the view): the answers stop being shown side by side; they stay as versions. */
    endCompare: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] as const },
  };
}

/** The answers compared side by side, as stored: the user turn and its answers, oldest first. */
export interface CompareGroup<T> {
  userTurnId: string;
  answers: T[];
}

/** A target of a compare send and what became of it. */
export interface CompareOutcome<Target, Err> {
  /** The user turn all answers answer. */
  userTurnId: string;
  /** The targets that went, in the order asked, with the id of the answer turn each streams into. */
  answers: { target: Target; turnId: string }[];
  /** The targets that did not go, with the reason (nothing was sent to them). */
  dropped: { target: Target; error: Err }[];
}
