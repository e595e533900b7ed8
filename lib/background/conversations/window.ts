/**
 * `getConversation` (docs/architecture.md#long-conversations-and-speed): the whole conversation, or a window of its newest turns and older
 * pages on request, read in one transaction without a full scan (lib/store/turn-window.ts).
 */
import type { ConversationView, RequestPayload } from '../../messaging/protocol';
import { metaOf, NotFoundError, type ConversationStore } from '../../store/conversations';
import { readTurnWindow } from '../../store/turn-window';
import { BatonError } from '../../messaging/errors';
import { CONVERSATION_GONE } from '../core/guards';

/** Turns per page when `before` comes without `limit`. */
export const DEFAULT_PAGE = 50;

/**
 * Answers `getConversation` with the active path (docs/transcript.md#versions-and-branches): without
 * `limit` and `before`, every turn of it (`hasEarlier: false`); otherwise the newest `limit` turns (before turn `before` when given; `limit` defaults to
 * {@link DEFAULT_PAGE}) and whether older ones exist.
 * @throws BatonError `not_found` when the conversation or the `before` turn does not exist.
 */
export async function getConversationWindow(
  store: ConversationStore,
  p: RequestPayload<'getConversation'>,
  busy: boolean,
): Promise<ConversationView> {
  try {
    const whole = p.limit === undefined && p.before === undefined;
    const w = await readTurnWindow(store.db, p.id, {
      limit: whole ? undefined : (p.limit ?? DEFAULT_PAGE),
      ...(p.before !== undefined ? { before: p.before } : {}),
    });
    return {
      meta: metaOf(w.record),
      turns: w.turns,
      busy,
      hasEarlier: w.hasEarlier,
      ...(w.first ? { first: w.first } : {}),
      ...(Object.keys(w.versions).length ? { versions: w.versions } : {}),
      ...(w.record.system?.trim() ? { instructions: w.record.system } : {}),
    };
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    const gone =
      p.before !== undefined && (await store.getRecord(p.id))
        ? 'That message is no longer in this conversation.'
        : CONVERSATION_GONE;
    throw new BatonError('not_found', gone);
  }
}
