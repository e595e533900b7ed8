/**
 * Every version of a conversation in one transcript v1 file (docs/transcript.md#versions-and-branches).
 *
 * A transcript's `turns` are the active path — valid transcript v1 that every reader, converter
 * and the CLI use unchanged. The other versions, and the shape of the tree, travel in the
 * free-form `meta` under {@link VERSIONS_META}: `order` lists every turn (the path's and the
 * others') in creation order with its parent's turn id (`null` for a first turn), and `turns`
 * holds the turns that are not on the path. The path's last turn is the active leaf. Tools that
 * do not know the key still read a valid conversation; Baton's import rebuilds the whole tree.
 * Pure.
 */
import { decodeTurn, TranscriptError } from './codec';
import type { Transcript, Turn } from './schema';

/** `transcript.meta` key of the versions that are not on the active path. */
export const VERSIONS_META = 'batonVersions';

/** One turn of the tree: the turn, and its parent's turn id (`null`: a first turn). */
export interface TreeTurn {
  parentId: string | null;
  turn: Turn;
}

/** The tree of a conversation: every turn in creation order, and the active leaf's turn id. */
export interface TurnTree {
  turns: TreeTurn[];
  /** Undefined only for a conversation without turns. */
  leaf?: string | undefined;
}

/** The shape under `meta[VERSIONS_META]`. */
interface VersionsMeta {
  order: [string, string | null][];
  turns: Turn[];
}

/**
 * `t` (whose `turns` are the active path of `tree`) with the rest of the tree under
 * `meta[VERSIONS_META]`; `t` itself when every turn is on the path.
 */
export function withVersions(t: Transcript, tree: TurnTree): Transcript {
  const onPath = new Set(t.turns.map((x) => x.id));
  const others = tree.turns.filter((x) => !onPath.has(x.turn.id));
  if (others.length === 0) return t;
  const v: VersionsMeta = {
    order: tree.turns.map((x) => [x.turn.id, x.parentId]),
    turns: others.map((x) => x.turn),
  };
  return { ...t, meta: { ...t.meta, [VERSIONS_META]: v } };
}

/** How many turns of `t` are versions off the active path (0 when it has none). */
export function otherVersionCount(t: Transcript): number {
  const v = t.meta?.[VERSIONS_META] as Partial<VersionsMeta> | undefined;
  return Array.isArray(v?.turns) ? v.turns.length : 0;
}

/** `t` without {@link VERSIONS_META} in its meta (meta dropped when nothing else is left). */
export function withoutVersions(t: Transcript): Transcript {
  if (!t.meta || !(VERSIONS_META in t.meta)) return t;
  const { [VERSIONS_META]: _v, ...meta } = t.meta;
  const { meta: _m, ...rest } = t;
  return Object.keys(meta).length ? { ...rest, meta } : rest;
}

/**
 * The tree of `t`: its path alone when it has no {@link VERSIONS_META}, else every turn in
 * creation order with its parent, checked. Each version turn is decoded like a turn of the
 * transcript (the same schema and role rules).
 * @throws TranscriptError naming `meta.batonVersions…` when the versions are malformed: not the
 * expected shape, a turn id twice or missing from `order`, a parent that is not an earlier turn,
 * or `order` disagreeing with the path.
 */
export function treeOf(t: Transcript): TurnTree {
  const raw = t.meta?.[VERSIONS_META];
  const leaf = t.turns.at(-1)?.id;
  if (raw === undefined)
    return { turns: t.turns.map((turn, i) => ({ parentId: i ? t.turns[i - 1]!.id : null, turn })), leaf };
  const at = `meta.${VERSIONS_META}`;
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as VersionsMeta).order))
    throw new TranscriptError(at, 'expected { order: [[turnId, parentId|null], …], turns: [turn, …] }');
  const { order, turns } = raw as VersionsMeta;
  if (!Array.isArray(turns)) throw new TranscriptError(`${at}.turns`, 'expected an array of turns');
  // The version turns pass the same decoder as the transcript's own turns.
  const decoded = turns.map((x, i) => decodeTurn(x, ['meta', VERSIONS_META, 'turns', i]));
  const byId = new Map<string, Turn>();
  for (const turn of [...t.turns, ...decoded]) {
    if (byId.has(turn.id)) throw new TranscriptError(`${at}.turns`, `turn id ${turn.id} appears twice`);
    byId.set(turn.id, turn);
  }
  const parents = new Map<string, string | null>();
  const out: TreeTurn[] = [];
  order.forEach((entry, i) => {
    const where = `${at}.order[${i}]`;
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || (entry[1] !== null && typeof entry[1] !== 'string'))
      throw new TranscriptError(where, 'expected [turnId, parentId or null]');
    const [id, parentId] = entry as [string, string | null];
    const turn = byId.get(id);
    if (!turn) throw new TranscriptError(where, `turn ${id} is neither in turns nor in ${at}.turns`);
    if (parents.has(id)) throw new TranscriptError(where, `turn ${id} is listed twice`);
    if (parentId !== null && !parents.has(parentId))
      throw new TranscriptError(where, `parent ${parentId} of turn ${id} is not an earlier turn`);
    parents.set(id, parentId);
    out.push({ parentId, turn });
  });
  if (out.length !== byId.size) throw new TranscriptError(`${at}.order`, 'does not list every turn');
  t.turns.forEach((turn, i) => {
    const expected = i ? t.turns[i - 1]!.id : null;
    if (parents.get(turn.id) !== expected)
      throw new TranscriptError(
        `${at}.order`,
        `turn ${turn.id} of the path does not follow ${expected ?? 'the start'}`,
      );
  });
  return { turns: out, leaf };
}
