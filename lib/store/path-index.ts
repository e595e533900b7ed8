/**
 * The active path's plan index (docs/architecture.md#the-path-index): per conversation, what a
 * plan needs to know of each turn on the active path without reading the turn — its `seq`, id,
 * role, pin, origin, content hash, its blocks' kinds and the token counts stored on its record — so a
 * cold preview of a long conversation can fit the budget over the index and read in full only the
 * turns it keeps (bench/README.md, "Cold preview of a long conversation").
 *
 * Stored in the `paths` object store, keyed `[conversationId, chunk]`: a head record (chunk
 * {@link HEAD_CHUNK}) naming the leaf the index describes and its length, then the entries in path
 * order in chunks of {@link CHUNK_ENTRIES}, so an append rewrites only the last chunk and the head.
 *
 * Kept in the SAME transaction as every write that changes the active path or a turn on it
 * (security-requirements.md D4; `tx` in db.ts refuses a readwrite transaction over `turns`
 * without `paths`): appends extend it, replacements patch the entry, the counts' write-back
 * patches the counts, deletions and switches of version rebuild it (reusing the entries of turns
 * that did not change, so no turn is hashed twice), and writes that cannot tell drop it. An index
 * that is missing or stale — its head's leaf is not the record's `activeLeaf`, or its length does
 * not match — is never used: readers fall back to the whole read, which builds it again.
 *
 * These helpers run inside the caller's transaction and await only its requests (D5).
 */
import { turnContentHash } from '../context/hash';
import type { TurnCount } from '../context/tokens';
import type { Block, Turn } from '../transcript/schema';
import { together } from './together';

/** What the index needs of a stored turn record (`TurnRecord`; not imported: db.ts imports this module). */
export interface IndexedTurnRecord {
  seq: number;
  turn: Turn;
  counts?: Record<string, TurnCount>;
}
type TurnRecord = IndexedTurnRecord;

/** Object store name (kept here so lib/store/db.ts can build it without a cycle). */
export const PATHS_STORE = 'paths';

/** {@link PathIndexRecord.chunk} of the head record (chunks of entries count from 0). */
export const HEAD_CHUNK = -1;

/** Entries per chunk record: an append rewrites one chunk of at most this many. */
export const CHUNK_ENTRIES = 64;

/** What the index holds of one turn of the active path. */
export interface PathEntry {
  /** The turn record's key part (`[conversationId, seq]`). */
  seq: number;
  id: string;
  role: Turn['role'];
  /** `turn.meta.pinned === true` (transcript-v1.md reserved meta). */
  pinned: boolean;
  /** `turnContentHash(turn)`: the ledger's and the token cache's hash. */
  hash: string;
  /** The type of each block, in order. */
  kinds: Block['type'][];
  /** `turn.origin`, when set: which count variant (same origin or not) a plan takes for the turn. */
  origin?: Turn['origin'];
  /** The record's stored token counts by variant (`TurnRecord.counts`), when it has any. */
  counts?: Record<string, TurnCount>;
}

/**
 * The stored form of the index ({@link PathHeadRecord.format}). Form 1 (no `format`; a chunk held
 * one object per entry) is treated as no index: readers read the whole path, which has the lazy
 * build write it again in this form, and writers that would extend or patch it drop it instead.
 */
export const INDEX_FORMAT = 2;

/** The head: which path the chunks describe. */
export interface PathHeadRecord {
  conversationId: string;
  chunk: typeof HEAD_CHUNK;
  /** {@link INDEX_FORMAT} (absent: form 1, not read). */
  format?: number;
  /** The active leaf the index was written for (absent: the empty path). */
  leaf?: string;
  /** Entries over all chunks. */
  length: number;
}

/**
 * One chunk of entries, in path order, packed as parallel arrays (entry `i` is element `i` of
 * each), so that reading 10,000 entries deserialises a few hundred arrays rather than tens of
 * thousands of small objects (bench/README.md, "The bounded cold preview: step 3").
 */
export interface PathChunkRecord {
  conversationId: string;
  chunk: number;
  seq: number[];
  id: string[];
  role: Turn['role'][];
  hash: string[];
  /** Each entry's block types joined by spaces (block types are single words). */
  kinds: string[];
  /** Positions (in this chunk) of the pinned entries. */
  pinned: number[];
  /** The distinct origins of the chunk; `originAt[i]` indexes it (-1: none). */
  origins: NonNullable<Turn['origin']>[];
  originAt: number[];
  /** The distinct count variants of the chunk; counts are flat triples below. */
  variants: string[];
  /** Entry `i`'s counts are positions `countEnd[i-1] … countEnd[i]-1` (from 0 for the first). */
  countEnd: number[];
  /** Per count: its variant (index into `variants`), tokens and whether the turn has tool calls (1/0). */
  countVariant: number[];
  countTokens: number[];
  countToolCalls: number[];
  /** Positions of the entries that have a `counts` record (possibly empty). */
  hasCounts: number[];
}

export type PathIndexRecord = PathHeadRecord | PathChunkRecord;

/** What the helpers read of the `paths` store, in the caller's transaction. */
export interface PathStore {
  get(key: [string, number]): Promise<PathIndexRecord | undefined>;
  getAll(range: IDBKeyRange): Promise<PathIndexRecord[]>;
  getAllKeys(range: IDBKeyRange): Promise<unknown[]>;
}

/** What the helpers write of the `paths` store, inside a readwrite transaction. */
export interface PathWriter extends PathStore {
  put(value: PathIndexRecord): Promise<unknown>;
  delete(key: [string, number] | IDBKeyRange): Promise<unknown>;
}

/** Every key of conversation `id` in the `paths` store. */
function keysOf(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, -Infinity], [id, Infinity]);
}

/** The index entry of a stored turn record. Pure. */
export function pathEntryOf(r: TurnRecord): PathEntry {
  return {
    seq: r.seq,
    id: r.turn.id,
    role: r.turn.role,
    pinned: r.turn.meta?.pinned === true,
    hash: turnContentHash(r.turn),
    kinds: r.turn.blocks.map((b) => b.type),
    ...(r.turn.origin !== undefined ? { origin: r.turn.origin } : {}),
    ...(r.counts !== undefined ? { counts: r.counts } : {}),
  };
}

/** Packs `entries` into a chunk record. Pure. */
export function packChunk(conversationId: string, chunk: number, entries: readonly PathEntry[]): PathChunkRecord {
  const out: PathChunkRecord = {
    conversationId,
    chunk,
    seq: [],
    id: [],
    role: [],
    hash: [],
    kinds: [],
    pinned: [],
    origins: [],
    originAt: [],
    variants: [],
    countEnd: [],
    countVariant: [],
    countTokens: [],
    countToolCalls: [],
    hasCounts: [],
  };
  const originKeys = new Map<string, number>();
  const variantAt = new Map<string, number>();
  entries.forEach((e, i) => {
    out.seq.push(e.seq);
    out.id.push(e.id);
    out.role.push(e.role);
    out.hash.push(e.hash);
    out.kinds.push(e.kinds.join(' '));
    if (e.pinned) out.pinned.push(i);
    let o = -1;
    if (e.origin !== undefined) {
      const key = JSON.stringify(e.origin);
      o = originKeys.get(key) ?? -1;
      if (o < 0) {
        o = out.origins.push(e.origin) - 1;
        originKeys.set(key, o);
      }
    }
    out.originAt.push(o);
    if (e.counts !== undefined) {
      out.hasCounts.push(i);
      for (const [variant, c] of Object.entries(e.counts)) {
        let v = variantAt.get(variant);
        if (v === undefined) variantAt.set(variant, (v = out.variants.push(variant) - 1));
        out.countVariant.push(v);
        out.countTokens.push(c.tokens);
        out.countToolCalls.push(c.toolCalls ? 1 : 0);
      }
    }
    out.countEnd.push(out.countTokens.length);
  });
  return out;
}

/** The entries of a packed chunk, appended to `into`; false when the record is not a packed chunk. */
function unpackChunk(r: PathChunkRecord, into: PathEntry[]): boolean {
  if (!Array.isArray(r.seq) || !Array.isArray(r.countEnd)) return false;
  const pinned = new Set(r.pinned);
  const hasCounts = new Set(r.hasCounts);
  let from = 0;
  for (let i = 0; i < r.seq.length; i++) {
    const kinds = r.kinds[i]!;
    const e: PathEntry = {
      seq: r.seq[i]!,
      id: r.id[i]!,
      role: r.role[i]!,
      pinned: pinned.has(i),
      hash: r.hash[i]!,
      kinds: (kinds === '' ? [] : kinds.split(' ')) as Block['type'][],
    };
    const o = r.originAt[i]!;
    if (o >= 0) e.origin = r.origins[o]!;
    const to = r.countEnd[i]!;
    if (hasCounts.has(i)) {
      const counts: Record<string, TurnCount> = {};
      for (let k = from; k < to; k++)
        counts[r.variants[r.countVariant[k]!]!] = { tokens: r.countTokens[k]!, toolCalls: r.countToolCalls[k] === 1 };
      e.counts = counts;
    }
    from = to;
    into.push(e);
  }
  return true;
}

/** The head and the entries as stored, without checking them against anything. */
async function readRaw(
  paths: PathStore,
  id: string,
): Promise<{ head: PathHeadRecord | undefined; entries: PathEntry[]; chunks: number }> {
  const all = await paths.getAll(keysOf(id));
  const first = all[0];
  const head = first && first.chunk === HEAD_CHUNK ? (first as PathHeadRecord) : undefined;
  const entries: PathEntry[] = [];
  let chunks = 0;
  // An index of an older form: as if there were none (the chunks are still counted, to be replaced).
  const packed = head?.format === INDEX_FORMAT;
  for (const r of all) {
    if (r.chunk === HEAD_CHUNK) continue;
    // Chunks must be contiguous from 0: a gap means a broken index.
    if (r.chunk !== chunks || !packed) return { head: undefined, entries: [], chunks: all.length - (head ? 1 : 0) };
    chunks++;
    if (!unpackChunk(r as PathChunkRecord, entries)) return { head: undefined, entries: [], chunks: all.length - 1 };
  }
  return { head, entries, chunks };
}

/** Whether a stored head describes the path ending at `leaf` with `entries`. */
function current(head: PathHeadRecord | undefined, entries: readonly PathEntry[], leaf: string | undefined): boolean {
  return (
    head !== undefined &&
    head.format === INDEX_FORMAT &&
    head.leaf === leaf &&
    head.length === entries.length &&
    (entries.length === 0 ? leaf === undefined : entries[entries.length - 1]!.id === leaf)
  );
}

/**
 * The index of the active path ending at `leaf` (the conversation record's `activeLeaf`), in
 * path order, or undefined when it is missing or stale (then read the whole path instead).
 */
export async function readPathIndex(
  paths: PathStore,
  conversationId: string,
  leaf: string | undefined,
): Promise<PathEntry[] | undefined> {
  const { head, entries } = await readRaw(paths, conversationId);
  return current(head, entries, leaf) ? entries : undefined;
}

/**
 * Whether conversation `id` has an index for the path ending at `leaf`, judged by its head alone
 * (one `get`: every write keeps head and chunks together, in one transaction).
 */
export async function hasCurrentPathIndex(paths: PathStore, id: string, leaf: string | undefined): Promise<boolean> {
  const head = (await paths.get([id, HEAD_CHUNK])) as PathHeadRecord | undefined;
  return head !== undefined && head.format === INDEX_FORMAT && head.leaf === leaf;
}

/** Deletes the index of conversation `id` (a write that cannot keep it exact). */
export async function dropPathIndex(paths: PathWriter, id: string): Promise<void> {
  await paths.delete(keysOf(id));
}

/** Writes `entries` as the whole index of the path ending at `leaf`, replacing what was there. */
async function writeEntries(
  paths: PathWriter,
  id: string,
  leaf: string | undefined,
  entries: readonly PathEntry[],
  oldChunks: number,
): Promise<void> {
  const chunks = Math.ceil(entries.length / CHUNK_ENTRIES);
  if (oldChunks > chunks) await paths.delete(IDBKeyRange.bound([id, chunks], [id, Infinity]));
  await paths.put(headOf(id, leaf, entries.length));
  for (let c = 0; c < chunks; c++)
    await paths.put(packChunk(id, c, entries.slice(c * CHUNK_ENTRIES, (c + 1) * CHUNK_ENTRIES)));
}

function headOf(id: string, leaf: string | undefined, length: number): PathHeadRecord {
  return {
    conversationId: id,
    chunk: HEAD_CHUNK,
    format: INDEX_FORMAT,
    ...(leaf !== undefined ? { leaf } : {}),
    length,
  };
}

/** The entries of one stored chunk (the head must be of {@link INDEX_FORMAT}); undefined when it is missing or not packed. */
async function chunkEntries(paths: PathStore, id: string, c: number): Promise<PathEntry[] | undefined> {
  const r = (await paths.get([id, c])) as PathChunkRecord | undefined;
  const out: PathEntry[] = [];
  return r && unpackChunk(r, out) ? out : undefined;
}

/**
 * Writes `entries` (from {@link pathEntryOf}, root first) as the whole index of the path ending at
 * their last turn, replacing what was there: the lazy build of a conversation stored before the
 * index existed (lib/store/path-index-build.ts).
 */
export async function writePathIndex(paths: PathWriter, id: string, entries: readonly PathEntry[]): Promise<void> {
  const old = await paths.getAllKeys(keysOf(id));
  await writeEntries(paths, id, entries.at(-1)?.id, entries, Math.max(0, old.length - 1));
}

/**
 * Writes the index of the active path `records` (root first; its last turn is the active leaf),
 * replacing what was there. `oldLeaf` is the active leaf before this transaction's write: when
 * the stored index was exact for it, the entries of turns whose `seq` is not in `changed` (turns
 * this transaction replaced) are taken from it instead of being hashed again.
 */
export async function rebuildPathIndex(
  paths: PathWriter,
  id: string,
  oldLeaf: string | undefined,
  records: readonly TurnRecord[],
  changed: ReadonlySet<number> = new Set(),
): Promise<void> {
  const old = await readRaw(paths, id);
  const reuse = new Map<number, PathEntry>();
  if (current(old.head, old.entries, oldLeaf))
    for (const e of old.entries) if (!changed.has(e.seq)) reuse.set(e.seq, e);
  const entries = records.map((r) => {
    const e = reuse.get(r.seq);
    return e && e.id === r.turn.id ? withCounts(e, r.counts) : pathEntryOf(r);
  });
  await writeEntries(paths, id, records.at(-1)?.turn.id, entries, old.chunks);
}

function withCounts(e: PathEntry, counts: Record<string, TurnCount> | undefined): PathEntry {
  const { counts: _old, ...rest } = e;
  return counts !== undefined ? { ...rest, counts } : rest;
}

/** Reads conversation `id`'s path-index head, for a later {@link appendPathEntry} in the same transaction. */
export async function readPathHead(paths: PathWriter, id: string): Promise<PathHeadRecord | undefined> {
  return (await paths.get([id, HEAD_CHUNK])) as PathHeadRecord | undefined;
}

/**
 * `record` was appended after `oldLeaf`, the active leaf before (its parent), and is the new
 * active leaf: adds its entry, rewriting only the head and the last chunk. An index that was not
 * exact for `oldLeaf` is dropped (the next whole read builds it). `read` is the head as the
 * caller read it earlier in this transaction ({@link readPathHead}).
 */
export async function appendPathEntry(
  paths: PathWriter,
  id: string,
  oldLeaf: string | undefined,
  record: TurnRecord,
  read?: { head: PathHeadRecord | undefined },
): Promise<void> {
  const head = read ? read.head : await readPathHead(paths, id);
  if (!head) return;
  if (head.format !== INDEX_FORMAT) return dropPathIndex(paths, id);
  const n = head.length;
  const c = Math.floor(n / CHUNK_ENTRIES);
  const last = n % CHUNK_ENTRIES === 0 ? undefined : await chunkEntries(paths, id, c);
  const tail = last?.at(-1);
  const exact =
    head.leaf === oldLeaf &&
    (n === 0 ? oldLeaf === undefined : n % CHUNK_ENTRIES === 0 ? oldLeaf !== undefined : tail?.id === oldLeaf) &&
    (n % CHUNK_ENTRIES === 0 || last?.length === n % CHUNK_ENTRIES);
  if (!exact) return dropPathIndex(paths, id);
  await together([
    () => paths.put(packChunk(id, c, [...(last ?? []), pathEntryOf(record)])),
    () => paths.put(headOf(id, record.turn.id, n + 1)),
  ]);
}

/**
 * The turn record at `record.seq` was replaced by `record` (a stream checkpoint, the final answer,
 * an edit in place, the recovery of a streaming turn) while the active leaf is `leaf`: its entry,
 * if it is on the path, is written again. Looks in the last chunk first (the usual case: the
 * leaf's answer streaming), then in the others. A stale index is dropped.
 */
export async function replacePathEntry(
  paths: PathWriter,
  id: string,
  leaf: string | undefined,
  record: TurnRecord,
): Promise<void> {
  const head = (await paths.get([id, HEAD_CHUNK])) as PathHeadRecord | undefined;
  if (!head) return;
  if (head.leaf !== leaf || head.format !== INDEX_FORMAT) return dropPathIndex(paths, id);
  const lastChunk = Math.ceil(head.length / CHUNK_ENTRIES) - 1;
  if (lastChunk < 0) return;
  const last = await chunkEntries(paths, id, lastChunk);
  if (!last) return dropPathIndex(paths, id);
  const at = last.findIndex((e) => e.seq === record.seq);
  if (at >= 0) {
    last[at] = pathEntryOf(record);
    await paths.put(packChunk(id, lastChunk, last));
    return;
  }
  const all = await readRaw(paths, id);
  if (!current(all.head, all.entries, leaf)) return dropPathIndex(paths, id);
  const i = all.entries.findIndex((e) => e.seq === record.seq);
  if (i < 0) return; // not on the active path
  const c = Math.floor(i / CHUNK_ENTRIES);
  const entries = all.entries.slice(c * CHUNK_ENTRIES, (c + 1) * CHUNK_ENTRIES);
  entries[i - c * CHUNK_ENTRIES] = pathEntryOf(record);
  await paths.put(packChunk(id, c, entries));
}

/**
 * The counts' write-back (lib/store/turn-counts.ts) set `counts` on the records at these `seq`s
 * (the turns themselves unchanged): the entries on the path get the same counts.
 */
export async function patchPathCounts(
  paths: PathWriter,
  id: string,
  counts: ReadonlyMap<number, Record<string, TurnCount> | undefined>,
): Promise<void> {
  const all = await paths.getAll(keysOf(id));
  const head = all[0]?.chunk === HEAD_CHUNK ? (all[0] as PathHeadRecord) : undefined;
  if (head === undefined) return;
  if (head.format !== INDEX_FORMAT) return dropPathIndex(paths, id);
  for (const r of all) {
    if (r.chunk === HEAD_CHUNK) continue;
    const chunk = r as PathChunkRecord;
    if (!chunk.seq.some((seq) => counts.has(seq))) continue;
    const entries: PathEntry[] = [];
    if (!unpackChunk(chunk, entries)) return dropPathIndex(paths, id);
    await paths.put(
      packChunk(
        id,
        chunk.chunk,
        entries.map((e) => (counts.has(e.seq) ? withCounts(e, counts.get(e.seq)) : e)),
      ),
    );
  }
}
