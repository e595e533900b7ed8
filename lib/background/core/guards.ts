/**
 * The checks several features make before they act, each written once: the conversation still
 * exists, no answer is streaming in it, the provider's host may be reached (N1), and the title a
 * first message gives a conversation.
 */
import { BatonError } from '../../messaging/errors';
import type { ConversationStore } from '../../store/conversations';
import type { ConversationRecord } from '../../store/db';

/** What a request about a deleted (or never created) conversation is told. */
export const CONVERSATION_GONE = 'This conversation no longer exists.';

/** The stored conversation `id`. @throws BatonError `not_found` when it was deleted (or never existed). */
export async function existingConversation(
  store: Pick<ConversationStore, 'getRecord'>,
  id: string,
): Promise<ConversationRecord> {
  const record = await store.getRecord(id);
  if (!record) throw new BatonError('not_found', CONVERSATION_GONE);
  return record;
}

/** The refusal of a send or job while another is in flight in the same conversation (`busy`). */
export function busyError(): BatonError {
  return new BatonError('busy', 'An answer is still streaming in this conversation.');
}

/** @throws BatonError `busy` when `busy` (the conversation has a request in flight). */
export function refuseBusy(busy: boolean): void {
  if (busy) throw busyError();
}

/**
 * N1: a provider at a custom base URL is reached only once the person granted Baton the host
 * permission for its origin (built-in origins are granted in the manifest).
 * @throws BatonError `endpoint_not_permitted`
 */
export async function assertReachable(
  provider: { baseUrl?: string | undefined; origin: string },
  hasHostPermission: (origin: string) => Promise<boolean>,
): Promise<void> {
  if (provider.baseUrl && !(await hasHostPermission(provider.origin)))
    throw new BatonError(
      'endpoint_not_permitted',
      `Baton has no permission to reach ${provider.origin}. Grant it in the options page.`,
    );
}

/**
 * N1: an address is saved (a built-in provider's base URL off its default, a custom endpoint) only
 * once the host permission for `origin` was granted, from the click that saves it.
 * @throws BatonError `endpoint_not_permitted`
 */
export async function assertHostGranted(
  origin: string,
  hasHostPermission: (origin: string) => Promise<boolean>,
): Promise<void> {
  if (!(await hasHostPermission(origin)))
    throw new BatonError('endpoint_not_permitted', `Permission to reach ${origin} was not granted.`);
}

/** Characters of a conversation's title taken from its first message. */
export const TITLE_CHARS = 60;

/** The title a first message gives a new conversation: whitespace collapsed, at most {@link TITLE_CHARS} characters; undefined for blank text. */
export function titleFromFirstMessage(text: string): string | undefined {
  return text.trim() ? text.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS) : undefined;
}
