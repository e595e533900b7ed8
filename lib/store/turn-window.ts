/**
 * A window of a conversation's turns (docs/architecture.md#long-conversations-and-speed: opening a 10,000-turn conversation loads only its
 * newest turns, older ones page in on request). One readonly transaction walking the active path
 * (lib/store/turn-tree.ts) back from its leaf: the cost grows with the window, never with the
 * conversation (no full scan).
 */
import { tx, type BatonDb, type ConversationRecord } from './db';
import type { Turn } from '../transcript/schema';
import { NotFoundError } from './conversations';
import { MissingTurnError, readActivePath, turnsOf, versionsOf, type VersionInfo } from './turn-tree';

/** Which turns to read: the newest `limit` (≥ 1; undefined: all), or with `before` the `limit` turns just before that turn. */
export interface TurnWindowQuery {
  limit?: number | undefined;
  /** A turn id of this conversation; the window ends right before it (exclusive). */
  before?: string;
}

/** The window of the active path, in conversation order, and whether older turns exist before `turns[0]`. */
export interface TurnWindow {
  record: ConversationRecord;
  turns: Turn[];
  hasEarlier: boolean;
  /** With `hasEarlier`: the conversation's first turn (it holds the capture stamp the panel reads). */
  first?: Turn;
  /** The turns of the window that have several versions, by turn id (docs/transcript.md#versions-and-branches). */
  versions: Record<string, VersionInfo>;
}

/**
 * Reads a window of conversation `id`'s active path in one readonly transaction: `limit + 1` turns
 * at most, walked from the active leaf through the parents (the extra one only tells
 * `hasEarlier`), plus the first turn when it is not in the window, and each turn's version count.
 * @throws NotFoundError when the conversation, or the `before` turn in it, does not exist.
 * @throws RangeError when `limit` is not a positive integer.
 */
export async function readTurnWindow(db: BatonDb, id: string, q: TurnWindowQuery): Promise<TurnWindow> {
  if (q.limit !== undefined && (!Number.isInteger(q.limit) || q.limit < 1))
    throw new RangeError(`limit must be a positive integer, got ${q.limit}`);
  return tx(db, ['conversations', 'turns'], 'readonly', async (t) => {
    const record = await t.objectStore('conversations').get(id);
    if (!record) throw new NotFoundError(`conversation ${id} not found`);
    const store = t.objectStore('turns');
    let path;
    try {
      path = await readActivePath(store, record, {
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.before !== undefined ? { before: q.before } : {}),
      });
    } catch (e) {
      if (e instanceof MissingTurnError) throw new NotFoundError(e.message);
      throw e;
    }
    const versions = await versionsOf(store, path.records);
    const turns = turnsOf(path.records);
    if (!path.hasEarlier) return { record, turns, hasEarlier: false, versions };
    const head = await store.openCursor(IDBKeyRange.bound([id, -Infinity], [id, Infinity]), 'next');
    return { record, turns, hasEarlier: true, versions, ...(head ? { first: head.value.turn } : {}) };
  });
}
