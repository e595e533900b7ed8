/**
 * The tree of turns and its active path (docs/transcript.md#versions-and-branches).
 *
 * A conversation's turns form a tree: each {@link TurnRecord} names its parent, siblings are
 * versions of one turn (a regenerate adds an assistant sibling, an edit a user sibling), and the
 * conversation records its active leaf. The active path — the turns from the root to the active
 * leaf — is a plain transcript v1 list of turns, and it is the only thing every reader of "the
 * conversation's turns" sees: {@link readActivePath} is the one function they go through
 * (`ConversationStore.get`, `toTranscript`, `cachedTranscript`, the newest-N window), so the
 * converters, the planner, the disclosure preview, the ledger, the summary and the exports never
 * see a turn of another branch.
 *
 * These functions run inside a caller's transaction and await only its requests (D5).
 */
import type { IDBPObjectStore, StoreNames } from 'idb';
import type { Turn } from '../transcript/schema';
import { ROOT_PARENT, type BatonDbSchema, type ConversationRecord, type TurnRecord } from './db';

type TurnStore = IDBPObjectStore<BatonDbSchema, ArrayLike<StoreNames<BatonDbSchema>>, 'turns', IDBTransactionMode>;

/** Where a turn stands among its versions: `index` is 1-based, `count` ≥ 2; the sibling ids either side. */
export interface VersionInfo {
  index: number;
  count: number;
  previous?: string;
  next?: string;
}

/** Which part of the active path to read: all of it, or the newest `limit` turns (before turn `before`). */
export interface PathQuery {
  limit?: number;
  /** A turn id on the active path; the window ends right before it (exclusive). */
  before?: string;
}

/** Turns of the active path in conversation order, and whether earlier ones exist before `records[0]`. */
export interface ActivePath {
  records: TurnRecord[];
  hasEarlier: boolean;
}

/** Thrown when a turn named by a query or a record is not in the conversation. */
export class MissingTurnError extends Error {
  override readonly name = 'MissingTurnError';
}

/**
 * The active path of conversation `record` (all of it, or a window of it), read in the caller's
 * transaction. Whole: one `getAll` of the conversation's turns, then a walk from the active leaf
 * up through the parents. Windowed: one `byTurnId` get per turn walked, so the cost grows with
 * the window, never with the conversation. A conversation without an active leaf has an empty path.
 * @throws MissingTurnError when `before` is not a turn of the conversation, or a parent is missing (a broken tree).
 */
export async function readActivePath(
  turns: TurnStore,
  record: ConversationRecord,
  q: PathQuery = {},
): Promise<ActivePath> {
  const id = record.id;
  if (q.limit === undefined && q.before === undefined) {
    const all = await turns.getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
    return { records: pathIn(all, record.activeLeaf), hasEarlier: false };
  }
  const limit = q.limit ?? Infinity;
  let at: TurnRecord | undefined;
  if (q.before !== undefined) {
    const anchor = await turns.index('byTurnId').get([id, q.before]);
    if (!anchor) throw new MissingTurnError(`turn ${q.before} not found in conversation ${id}`);
    at = anchor.parentId === ROOT_PARENT ? undefined : await parentOf(turns, anchor);
  } else if (record.activeLeaf !== undefined) {
    at = await turns.index('byTurnId').get([id, record.activeLeaf]);
    if (!at) throw new MissingTurnError(`active turn ${record.activeLeaf} not found in conversation ${id}`);
  }
  const out: TurnRecord[] = [];
  while (at && out.length < limit) {
    out.push(at);
    at = at.parentId === ROOT_PARENT ? undefined : await parentOf(turns, at);
  }
  out.reverse();
  return { records: out, hasEarlier: at !== undefined };
}

async function parentOf(turns: TurnStore, r: TurnRecord): Promise<TurnRecord> {
  const p = await turns.index('byTurnId').get([r.conversationId, r.parentId]);
  if (!p) throw new MissingTurnError(`parent ${r.parentId} of turn ${r.turn.id} not found`);
  return p;
}

/**
 * The path from the root to turn `leaf` among `records` (one conversation's), in order; empty when
 * `leaf` is undefined. Pure.
 * @throws MissingTurnError when `leaf` or a parent on the way is missing, or the parents loop.
 */
export function pathIn(records: readonly TurnRecord[], leaf: string | undefined): TurnRecord[] {
  if (leaf === undefined) return [];
  const byId = new Map(records.map((r) => [r.turn.id, r]));
  const out: TurnRecord[] = [];
  let at = byId.get(leaf);
  if (!at) throw new MissingTurnError(`active turn ${leaf} not found`);
  while (at) {
    out.push(at);
    if (out.length > records.length) throw new MissingTurnError(`the parents of turn ${leaf} loop`);
    if (at.parentId === ROOT_PARENT) break;
    const parent = byId.get(at.parentId);
    if (!parent) throw new MissingTurnError(`parent ${at.parentId} of turn ${at.turn.id} not found`);
    at = parent;
  }
  return out.reverse();
}

/** The siblings of `r` (its versions, itself included), oldest first. */
export async function siblingsOf(
  turns: TurnStore,
  r: Pick<TurnRecord, 'conversationId' | 'parentId'>,
): Promise<TurnRecord[]> {
  return turns.index('byParent').getAll([r.conversationId, r.parentId]);
}

/**
 * The version info of each turn of `path` that has more than one version, by turn id. One
 * `count` per turn, and a read of the siblings only where there are several.
 */
export async function versionsOf(turns: TurnStore, path: readonly TurnRecord[]): Promise<Record<string, VersionInfo>> {
  const out: Record<string, VersionInfo> = {};
  for (const r of path) {
    const n = await turns.index('byParent').count([r.conversationId, r.parentId]);
    if (n < 2) continue;
    const sibs = await siblingsOf(turns, r);
    const i = sibs.findIndex((s) => s.turn.id === r.turn.id);
    out[r.turn.id] = {
      index: i + 1,
      count: sibs.length,
      ...(i > 0 ? { previous: sibs[i - 1]!.turn.id } : {}),
      ...(i + 1 < sibs.length ? { next: sibs[i + 1]!.turn.id } : {}),
    };
  }
  return out;
}

/**
 * The leaf reached from turn `r` by always following its newest child (the most recent
 * continuation of that version): switching to a version shows where that branch got to.
 */
export async function newestDescendant(turns: TurnStore, r: TurnRecord): Promise<TurnRecord> {
  let at = r;
  for (;;) {
    const children = await turns.index('byParent').getAll([at.conversationId, at.turn.id]);
    const newest = children.at(-1);
    if (!newest) return at;
    at = newest;
  }
}

/** Every turn of the subtree under `r` (`r` included), by walking children. */
export async function subtreeOf(turns: TurnStore, r: TurnRecord): Promise<TurnRecord[]> {
  const out: TurnRecord[] = [];
  const todo = [r];
  while (todo.length) {
    const at = todo.pop()!;
    out.push(at);
    todo.push(...(await turns.index('byParent').getAll([at.conversationId, at.turn.id])));
  }
  return out;
}

/**
 * The records of a conversation written in one go as a single path (a capture, a benchmark
 * seed): `seq` from 0, each turn's parent the one before it. Its active leaf is the last turn.
 */
export function chainedRecords(conversationId: string, turns: readonly Turn[]): TurnRecord[] {
  return turns.map((turn, seq) => ({
    conversationId,
    seq,
    parentId: seq ? turns[seq - 1]!.id : ROOT_PARENT,
    turn,
  }));
}

/** The turns of records, in order. */
export const turnsOf = (records: readonly TurnRecord[]): Turn[] => records.map((r) => r.turn);
