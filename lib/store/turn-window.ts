/**
 * A window of a conversation's turns (docs/architecture.md#long-conversations-and-speed: opening a 10,000-turn conversation loads only its
 * newest turns, older ones page in on request). One readonly transaction, a key range on the
 * `turns` store's `[conversationId, seq]` key read backwards with a cursor: the cost grows with the
 * window, never with the conversation (no full scan).
 */
import { tx, type BatonDb, type ConversationRecord } from './db';
import type { Turn } from '../transcript/schema';
import { NotFoundError } from './conversations';

/** Which turns to read: the newest `limit` (≥ 1), or with `before` the `limit` turns just before that turn. */
export interface TurnWindowQuery {
  limit: number;
  /** A turn id of this conversation; the window ends right before it (exclusive). */
  before?: string;
}

/** The window, in conversation order, and whether older turns exist before `turns[0]`. */
export interface TurnWindow {
  record: ConversationRecord;
  turns: Turn[];
  hasEarlier: boolean;
  /** With `hasEarlier`: the conversation's first turn (it holds the capture stamp the panel reads). */
  first?: Turn;
}

/**
 * Reads a window of conversation `id`'s turns in one readonly transaction: `limit + 1` records at
 * most by cursor (the extra one only tells `hasEarlier`), plus the first turn when it is not in the window.
 * @throws NotFoundError when the conversation, or the `before` turn in it, does not exist.
 * @throws RangeError when `limit` is not a positive integer.
 */
export async function readTurnWindow(db: BatonDb, id: string, q: TurnWindowQuery): Promise<TurnWindow> {
  if (!Number.isInteger(q.limit) || q.limit < 1)
    throw new RangeError(`limit must be a positive integer, got ${q.limit}`);
  return tx(db, ['conversations', 'turns'], 'readonly', async (t) => {
    const record = await t.objectStore('conversations').get(id);
    if (!record) throw new NotFoundError(`conversation ${id} not found`);
    let upper = Infinity;
    let upperOpen = false;
    if (q.before !== undefined) {
      const anchor = await t.objectStore('turns').index('byTurnId').get([id, q.before]);
      if (!anchor) throw new NotFoundError(`turn ${q.before} not found in conversation ${id}`);
      upper = anchor.seq;
      upperOpen = true;
    }
    const range = IDBKeyRange.bound([id, -Infinity], [id, upper], false, upperOpen);
    const turns: Turn[] = [];
    let hasEarlier = false;
    let cursor = await t.objectStore('turns').openCursor(range, 'prev');
    while (cursor) {
      if (turns.length === q.limit) {
        hasEarlier = true;
        break;
      }
      turns.push(cursor.value.turn);
      cursor = await cursor.continue();
    }
    turns.reverse();
    if (!hasEarlier) return { record, turns, hasEarlier };
    const head = await t.objectStore('turns').openCursor(IDBKeyRange.bound([id, -Infinity], [id, Infinity]), 'next');
    return { record, turns, hasEarlier, ...(head ? { first: head.value.turn } : {}) };
  });
}
