/**
 * The first-disclosure confirmation of Retry, Regenerate and Edit-and-resend (docs/disclosure.md). The side
 * panel issues the action; when the background refuses it with `confirmation_required` (the
 * provider has not received this conversation), it fetches the preview of exactly that action
 * (`previewSend` with `resend`) and asks the person. Confirm re-issues the same action with
 * `confirmedDisclosure: true`; Cancel sends nothing (the background removed nothing either).
 */
import type { Connector } from '../messaging/client';
import type { DisclosurePreview } from '../messaging/disclosure-types';
import type { SendTarget } from '../messaging/protocol';
import { toProtocolError } from './targets';

/** An action that answers again without a new message from the composer. */
export type ResendAction = { kind: 'retry' } | { kind: 'regenerate' } | { kind: 'edit'; turnId: string; text: string };

/** A refused action waiting for the person's confirmation (the dialog is open). */
export interface PendingResend {
  conversationId: string;
  target: SendTarget;
  action: ResendAction;
  /** What the action would disclose (its `needsConfirmation` is true). */
  preview: DisclosurePreview;
}

/** Whether a request failed because the disclosure must be confirmed first. */
export function isConfirmationRequired(e: unknown): boolean {
  return toProtocolError(e).code === 'confirmation_required';
}

/**
 * The preview of `action` on conversation `conversationId` to `target`; undefined when the
 * background cannot give one (then the refusal is shown as an error instead of a dialog).
 */
export async function previewResend(
  connector: Connector,
  conversationId: string,
  target: SendTarget,
  action: ResendAction,
): Promise<DisclosurePreview | undefined> {
  try {
    return await connector.request('previewSend', {
      conversationId,
      target,
      resend: action.kind === 'edit' ? { kind: 'edit', turnId: action.turnId } : { kind: action.kind },
      ...(action.kind === 'edit' && action.text.trim() ? { text: action.text } : {}),
    });
  } catch {
    return undefined;
  }
}
