/**
 * Conversations and their turns in IndexedDB. A turn and its conversation's metadata are always
 * written in one transaction (security-requirements.md D4), so no conversation ever references a
 * missing turn and the list never disagrees with the turns. The full-text index's records of the
 * turns and the title (lib/store/search-index.ts) are written in that same transaction.
 */
import type { ConversationMeta } from '../messaging/protocol';
import { TRANSCRIPT_FORMAT, type Transcript, type Turn } from '../transcript/schema';
import { standInTurn, storedCountsFor } from './turn-counts';
import type { IDBPObjectStore, StoreNames } from 'idb';
import {
  ROOT_PARENT,
  tx,
  writeGeneration,
  type BatonDb,
  type BatonDbSchema,
  type ConversationRecord,
  type TurnRecord,
} from './db';
import { newestDescendant, pathIn, readActivePath, siblingsOf, subtreeOf, turnsOf } from './turn-tree';
import type { TurnTree } from '../transcript/versions';
import { transcriptCacheFor, withAppended, withReplaced, type TranscriptCache } from './transcript-cache';
import { indexTitle, indexTurns, unindexConversation, unindexTurns, type SearchStoreWriter } from './search-index';
import {
  appendPathEntry,
  dropPathIndex,
  hasCurrentPathIndex,
  readPathHead,
  readPathIndex,
  rebuildPathIndex,
  replacePathEntry,
  type PathEntry,
  type PathWriter,
} from './path-index';
import { pathIndexBuilderFor } from './path-index-build';
import { together } from './together';
import {
  addConversation,
  deleteConversation,
  listFieldsOf,
  listFromPages,
  putConversation,
  readListPage,
  rebuildListPages,
  type ListWriteTx,
} from './list-pages';

/** Thrown when a conversation or turn does not exist. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

const PREVIEW_CHARS = 120;

/** The first text of a turn, shortened to one line of at most `max` characters. */
export function previewOf(turn: Turn | undefined, max = PREVIEW_CHARS): string {
  if (!turn) return '';
  for (const b of turn.blocks) if (b.type === 'text' && b.text.trim()) return oneLine(b.text, max);
  if (turn.status === 'error') return turn.error?.message ? oneLine(turn.error.message, max) : 'error';
  return '';
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * `old` holding `turn` instead: its stored token counts go with the old turn
 * (docs/architecture.md#token-counts-with-the-turn).
 */
export function replacedTurn(old: TurnRecord, turn: Turn): TurnRecord {
  const { counts: _counts, ...rest } = old;
  return { ...rest, turn };
}

/** The list fields of a record, without its store-only fields (what the list shows of it). */
export function metaOf(rec: ConversationRecord): ConversationMeta {
  return listFieldsOf(rec);
}

/**
 * A writing transaction over the stores that replacing a turn touches — the turns, the search
 * index, the path index, the conversation record and its list page — typed structurally (like
 * `ListWriteTx`), since every writer's transaction names its own, wider, set of stores.
 */
export type TurnReplaceTx = {
  objectStore(name: 'conversations'): { get(id: string): Promise<ConversationRecord | undefined> };
  objectStore(
    name: 'turns',
  ): IDBPObjectStore<BatonDbSchema, ArrayLike<StoreNames<BatonDbSchema>>, 'turns', 'readwrite'>;
  objectStore(name: 'search'): SearchStoreWriter;
  objectStore(name: 'paths'): PathWriter;
} & ListWriteTx;

/**
 * Replaces stored turn `turn.id` of conversation `conversationId` by `turn` in the caller's
 * transaction (D4): the turn record (its stored counts go, {@link replacedTurn}), its search
 * record, its path-index entry, and the conversation record — touched at `now`, the preview from
 * `turn`, then passed through `edit` — with its list page. Returns the record as written.
 * The two reads are issued together, then the four writes (lib/store/together.ts): each write
 * goes to a store of its own and needs only what the reads gave, so their order does not matter,
 * and a failing one still aborts the transaction as a whole.
 * @throws NotFoundError when the turn or the conversation does not exist (nothing is written).
 */
export async function replaceTurnIn(
  t: TurnReplaceTx,
  conversationId: string,
  turn: Turn,
  now: string,
  edit: (rec: ConversationRecord) => ConversationRecord = (rec) => rec,
): Promise<ConversationRecord> {
  const turns = t.objectStore('turns');
  // The list page is read beside the record, so its write goes out with the others.
  const [old, rec, page] = await together([
    () => turns.index('byTurnId').get([conversationId, turn.id]),
    () => t.objectStore('conversations').get(conversationId),
    () => readListPage(t, conversationId),
  ]);
  if (!old || !rec) throw new NotFoundError(`turn ${turn.id} of conversation ${conversationId} not found`);
  const replaced = replacedTurn(old, turn);
  const next = edit({ ...rec, updatedAt: now, preview: previewOf(turn) || rec.preview });
  await together([
    () => turns.put(replaced),
    // docs/side-panel.md#search: the turn's words, in the same transaction.
    () => indexTurns(t.objectStore('search'), [replaced]),
    // docs/architecture.md#the-path-index: the turn's entry, in the same transaction.
    () => replacePathEntry(t.objectStore('paths'), conversationId, rec.activeLeaf, replaced),
    () => putConversation(t, next, { page }),
  ]);
  return next;
}

/** What {@link ConversationStore.readBounded} gives: the active path with stand-ins for the turns not read. */
export interface BoundedRead {
  /** The active path; a turn not read is a stand-in (`standInInfo` in turn-counts.ts gives its hash and counts). */
  transcript: Transcript;
  /** How many of `transcript.turns` are stand-ins. */
  standIns: number;
  /** Served from the kept bounded read (no database read). */
  reused?: boolean;
}

/** Turns per transaction when a bounded read is completed to the whole path (`completeBounded`). */
export const COMPLETE_SLICE = 250;

const holdsOf = new WeakMap<BatonDb, { count: number; waiting: (() => void)[] }>();

/**
 * A turn not read, from its index entry: id, role, pin, origin and its blocks' types only, marked
 * as a stand-in with the entry's hash and counts (`standInTurn`).
 */
function standInOf(e: PathEntry): Turn {
  const turn: Turn = {
    id: e.id,
    role: e.role,
    ...(e.origin !== undefined ? { origin: e.origin } : {}),
    blocks: e.kinds.map((type) => ({ type }) as unknown as Turn['blocks'][number]),
    ...(e.pinned ? { meta: { pinned: true } } : {}),
  };
  return standInTurn(turn, e.hash, e.counts);
}

/** A conversation record and its active path's turns as a Baton transcript. */
function transcriptOf(record: ConversationRecord, turns: Turn[]): Transcript {
  return {
    format: TRANSCRIPT_FORMAT,
    version: 1,
    id: record.id,
    title: record.title,
    createdAt: record.createdAt,
    ...(record.system !== undefined ? { system: record.system } : {}),
    ...(record.tools !== undefined ? { tools: record.tools } : {}),
    ...(record.source !== undefined ? { source: record.source } : {}),
    turns,
  };
}

/** What an append may change in the conversation record besides the turn: its metadata, and which answers are compared. */
export type ConversationPatch = Partial<ConversationMeta> & Pick<ConversationRecord, 'compareOf'>;

export interface NewConversation {
  id: string;
  title?: string;
  now: string;
  system?: string;
  tools?: Transcript['tools'];
  source?: ConversationMeta['source'];
  lastTarget?: ConversationMeta['lastTarget'];
}

/** Conversation CRUD over one open database. Every method is one transaction. */
export class ConversationStore {
  /** The last conversation read whole, shared with the other stores of `db` (lib/store/transcript-cache.ts). */
  readonly transcripts: TranscriptCache;

  constructor(readonly db: BatonDb) {
    this.transcripts = transcriptCacheFor(db);
  }

  /** Previews served from the kept bounded read under way ({@link servingBounded}); shared by the stores of `db`. */
  private get holds(): { count: number; waiting: (() => void)[] } {
    let h = holdsOf.get(this.db);
    if (!h) holdsOf.set(this.db, (h = { count: 0, waiting: [] }));
    return h;
  }

  /**
   * Runs `work` — a preview answered from the kept bounded read, which must not wait for the whole
   * read (it would wait for itself) — with the whole read's slices ({@link completeBounded}) held
   * back until it is done: the database and the worker serve one thing at a time, and a slice
   * read meanwhile would put its megabyte before the preview's small reads.
   */
  async servingBounded<T>(work: () => Promise<T>): Promise<T> {
    const h = this.holds;
    h.count++;
    try {
      return await work();
    } finally {
      if (--h.count === 0) for (const wake of h.waiting.splice(0)) wake();
    }
  }

  /**
   * All conversations, pinned first, then newest first. Reads only the list pages
   * (docs/architecture.md#the-conversation-list), never the records.
   */
  async list(): Promise<ConversationMeta[]> {
    return listFromPages(await this.db.getAll('summaries'));
  }

  /**
   * Writes the list pages again from the records (one transaction): for records written around
   * this store, as the benchmarks seed them. Everything written through the store keeps the pages
   * current by itself.
   */
  async rebuildList(): Promise<void> {
    await tx(this.db, ['conversations', 'summaries'], 'readwrite', (t) => rebuildListPages(t));
  }

  async create(input: NewConversation): Promise<ConversationMeta> {
    const rec: ConversationRecord = {
      id: input.id,
      title: input.title ?? 'New chat',
      createdAt: input.now,
      updatedAt: input.now,
      turnCount: 0,
      preview: '',
      nextSeq: 0,
      ...(input.system !== undefined ? { system: input.system } : {}),
      ...(input.tools !== undefined ? { tools: input.tools } : {}),
      ...(input.source !== undefined ? { source: input.source } : {}),
      ...(input.lastTarget !== undefined ? { lastTarget: input.lastTarget } : {}),
    };
    await tx(this.db, ['conversations', 'search', 'paths', 'summaries'], 'readwrite', async (t) => {
      await addConversation(t, rec);
      await indexTitle(t.objectStore('search'), rec.id, rec.title);
      // docs/architecture.md#the-path-index: indexed from the start (the empty path), so appends extend it.
      await rebuildPathIndex(t.objectStore('paths'), rec.id, undefined, []);
    });
    return metaOf(rec);
  }

  async getRecord(id: string): Promise<ConversationRecord | undefined> {
    return this.db.get('conversations', id);
  }

  /**
   * Metadata and the turns of the active path (all, or the newest `limit`), in conversation order
   * (docs/transcript.md#versions-and-branches: every reader sees the active path only, through
   * {@link readActivePath}). @throws NotFoundError
   */
  async get(id: string, limit?: number): Promise<{ record: ConversationRecord; turns: Turn[] }> {
    return tx(this.db, ['conversations', 'turns', 'paths'], 'readonly', async (t) => {
      const record = await t.objectStore('conversations').get(id);
      if (!record) throw new NotFoundError(`conversation ${id} not found`);
      const generation = writeGeneration();
      const path = await readActivePath(t.objectStore('turns'), record, limit === undefined ? {} : { limit });
      // The counts of a whole read, for the planner (docs/architecture.md#token-counts-with-the-turn).
      if (limit === undefined) storedCountsFor(this.db).noteRead(id, path.records, generation);
      // docs/architecture.md#the-path-index: a conversation without a current index gets one built from this read.
      if (limit === undefined && !(await hasCurrentPathIndex(t.objectStore('paths'), id, record.activeLeaf)))
        pathIndexBuilderFor(this.db).noteRead(id, path.records, generation);
      return { record, turns: turnsOf(path.records) };
    });
  }

  /**
   * The bounded read of a cold preview (docs/architecture.md#the-path-index): the conversation
   * record and its path index, then in full only the turns at the path positions `choose` picks
   * from the index (one `getAll` over the `seq` range they span, filtered: `seq` is not always
   * increasing along the path). Every other turn is a stand-in: its id, role, pin, origin and one
   * block of the right type per block, with no content — enough for a plan that drops it, never
   * for one that sends it. The stand-ins' counts (from the index) and the read turns' counts are
   * registered for the planner (`storedCountsFor`). Undefined when there is no current index.
   *
   * The read is kept in the transcript cache while nothing is written ({@link TranscriptCache.bounded}):
   * a later call whose `choose` picks only positions it holds in full is served from it without
   * touching the database (the same, frozen transcript); with `cachedOnly`, a call it cannot
   * serve so gives undefined instead of reading. @throws NotFoundError
   */
  async readBounded(
    id: string,
    choose: (entries: readonly PathEntry[]) => ReadonlySet<number>,
    cachedOnly = false,
  ): Promise<BoundedRead | undefined> {
    const kept = this.transcripts.bounded(id);
    if (kept) {
      let covered = true;
      for (const i of choose(kept.entries))
        if (i >= 0 && i < kept.entries.length && !kept.full.has(i)) {
          covered = false;
          break;
        }
      if (covered) return { transcript: kept.transcript, standIns: kept.standIns, reused: true };
    }
    if (cachedOnly) return undefined;
    const out = await tx(this.db, ['conversations', 'turns', 'paths'], 'readonly', async (t) => {
      const record = await t.objectStore('conversations').get(id);
      if (!record) throw new NotFoundError(`conversation ${id} not found`);
      const generation = writeGeneration();
      const entries = await readPathIndex(t.objectStore('paths'), id, record.activeLeaf);
      if (!entries) return undefined;
      const chosen = choose(entries);
      const seqs = new Set<number>();
      let lo = Infinity;
      let hi = -Infinity;
      for (const i of chosen) {
        const e = entries[i];
        if (!e) continue;
        seqs.add(e.seq);
        lo = Math.min(lo, e.seq);
        hi = Math.max(hi, e.seq);
      }
      const read = new Map<number, TurnRecord>();
      if (seqs.size > 0)
        for (const r of await t.objectStore('turns').getAll(IDBKeyRange.bound([id, lo], [id, hi])))
          if (seqs.has(r.seq)) read.set(r.seq, r);
      let standIns = 0;
      const full = new Set<number>();
      const turns = entries.map((e, i) => {
        const r = read.get(e.seq);
        if (r && r.turn.id === e.id) {
          full.add(i);
          return r.turn;
        }
        standIns++;
        return standInOf(e);
      });
      storedCountsFor(this.db).notePartialRead(id, [...read.values()], generation);
      return { entries, transcript: transcriptOf(record, turns), full, standIns, generation };
    });
    if (!out) return undefined;
    // Kept only when no write ran since the read started (`keepBounded` checks the generation).
    this.transcripts.keepBounded({ id, ...out });
    return { transcript: out.transcript, standIns: out.standIns };
  }

  /**
   * The conversation's active path as a Baton transcript, and its whole tree — every turn of every
   * branch in creation order with its parent — read together (docs/transcript.md#versions-and-branches;
   * the Baton export keeps every version). @throws NotFoundError
   */
  async toTranscriptTree(id: string): Promise<{ transcript: Transcript; tree: TurnTree }> {
    return tx(this.db, ['conversations', 'turns'], 'readonly', async (t) => {
      const record = await t.objectStore('conversations').get(id);
      if (!record) throw new NotFoundError(`conversation ${id} not found`);
      const records = await t.objectStore('turns').getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
      const tree: TurnTree = {
        turns: records.map((r) => ({ parentId: r.parentId === ROOT_PARENT ? null : r.parentId, turn: r.turn })),
        leaf: record.activeLeaf,
      };
      return { transcript: transcriptOf(record, turnsOf(pathIn(records, record.activeLeaf))), tree };
    });
  }

  /** The conversation's active path as a Baton transcript (docs/transcript.md#versions-and-branches). @throws NotFoundError */
  async toTranscript(id: string): Promise<Transcript> {
    const { record, turns } = await this.get(id);
    return transcriptOf(record, turns);
  }

  /**
   * {@link toTranscript}, served from the cache while nothing was written since it was read
   * (docs/architecture.md#long-conversations-and-speed: the disclosure preview and the send plan the whole conversation). The result is
   * shared and deeply frozen: copy before changing anything. @throws NotFoundError
   */
  async cachedTranscript(id: string): Promise<Transcript> {
    return this.transcripts.get(id, () => this.toTranscript(id));
  }

  /**
   * Reads conversation `id` whole into the transcript cache, starting in a later task; a
   * {@link cachedTranscript} meanwhile waits for this read. Never rejects. For a read nobody waits
   * for yet (after a bounded preview): the database serves its requests in turn, so a whole read
   * asked in the same task as a reply held that reply's own small reads (the message listener's
   * refresh of the secrets) back for as long as it took (bench/README.md, "The bounded cold
   * preview: step 3").
   */
  prefetchTranscript(id: string): void {
    void this.transcripts
      .get(id, async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        return (await this.completeBounded(id)) ?? this.toTranscript(id);
      })
      .catch(() => undefined);
  }

  /**
   * The whole active path completed from the kept bounded read of `id` (TranscriptCache.bounded):
   * its turns read in full are reused, the others are read by `seq` in slices of
   * {@link COMPLETE_SLICE}, each its own short readonly transaction with a task between them, so a
   * preview or any other request asked meanwhile is served between two slices instead of after
   * the whole 20 MB (docs/architecture.md#the-path-index); no slice starts while a preview is
   * served from the kept read ({@link servingBounded}). The slices together are one consistent
   * read only because nothing was written from the bounded read to the last slice: undefined
   * when a write ran meanwhile (or no bounded read is kept, or a record is not the index's turn),
   * and the caller reads whole in one transaction instead.
   */
  private async completeBounded(id: string): Promise<Transcript | undefined> {
    const b = this.transcripts.bounded(id);
    if (!b) return undefined;
    const generation = b.generation;
    const turns = b.transcript.turns.slice();
    const missing: { seq: number; at: number }[] = [];
    b.entries.forEach((e, at) => {
      if (!b.full.has(at)) missing.push({ seq: e.seq, at });
    });
    missing.sort((x, y) => x.seq - y.seq);
    const counts = storedCountsFor(this.db);
    for (let i = 0; i < missing.length; i += COMPLETE_SLICE) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      while (this.holds.count > 0) await new Promise<void>((resolve) => this.holds.waiting.push(resolve));
      if (writeGeneration() !== generation) return undefined;
      const slice = missing.slice(i, i + COMPLETE_SLICE);
      const wanted = new Map(slice.map((m) => [m.seq, m.at]));
      const lo = slice[0]!.seq;
      const hi = slice[slice.length - 1]!.seq;
      const records = await tx(this.db, ['turns'], 'readonly', (t) =>
        t.objectStore('turns').getAll(IDBKeyRange.bound([id, lo], [id, hi])),
      );
      if (writeGeneration() !== generation) return undefined;
      const got: TurnRecord[] = [];
      for (const r of records) {
        const at = wanted.get(r.seq);
        if (at === undefined) continue;
        if (r.turn.id !== b.entries[at]!.id) return undefined;
        turns[at] = r.turn;
        got.push(r);
      }
      if (got.length !== slice.length) return undefined;
      counts.notePartialRead(id, got, generation);
    }
    return { ...b.transcript, turns };
  }

  /**
   * Appends a turn after the active leaf and makes it the active leaf, and updates the
   * conversation's metadata, in one transaction (D4). `patch` may change other metadata at the
   * same time (e.g. `lastTarget`, a title from the first message). With `versionOf` (a turn id),
   * the turn is added as a new version of that turn instead — a sibling, same parent — and its
   * path becomes the active one (an edit, docs/transcript.md#versions-and-branches); nothing is removed.
   * @throws NotFoundError when the conversation (or the `versionOf` turn) does not exist (nothing is written).
   */
  async appendTurn(
    conversationId: string,
    turn: Turn,
    now: string,
    patch: ConversationPatch = {},
    versionOf?: string,
  ): Promise<ConversationMeta> {
    return this.transcripts.write(
      conversationId,
      () => this.appendTx(conversationId, turn, now, patch, versionOf),
      (t, meta) => (versionOf === undefined ? withAppended(t, turn, meta.title) : undefined),
    );
  }

  /**
   * Adds `turn` as a child of turn `parentId` — beside any answers it already has, as their new
   * version — in one transaction with the metadata. With `activate` its path becomes the active
   * one; without, the active leaf stays where it is (the answers of one message to several models,
   * docs/side-panel.md#ask-several-models-at-once: the first target's answer is the active one).
   * @throws NotFoundError when the conversation or the parent turn does not exist (nothing is written).
   */
  async appendChild(
    conversationId: string,
    parentId: string,
    turn: Turn,
    now: string,
    activate: boolean,
  ): Promise<ConversationMeta> {
    return this.transcripts.write(
      conversationId,
      () => this.appendTx(conversationId, turn, now, {}, undefined, { parentId, activate }),
      (t, meta) => (!activate ? t : t.turns.at(-1)?.id === parentId ? withAppended(t, turn, meta.title) : undefined),
    );
  }

  private appendTx(
    conversationId: string,
    turn: Turn,
    now: string,
    patch: ConversationPatch,
    versionOf: string | undefined,
    under?: { parentId: string; activate: boolean },
  ): Promise<ConversationMeta> {
    return tx(this.db, ['conversations', 'turns', 'search', 'paths', 'summaries'], 'readwrite', async (t) => {
      const paths = t.objectStore('paths');
      const activate = under?.activate ?? true;
      // The reads that need nothing from the record are issued beside it, so the writes after it
      // go out in one round trip (bench/README.md, "Append: the reads issued together").
      const [rec, page, head] = await together([
        () => t.objectStore('conversations').get(conversationId),
        () => readListPage(t, conversationId),
        () => (activate ? readPathHead(paths, conversationId) : undefined),
      ]);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      const turns = t.objectStore('turns');
      let parentId = rec.activeLeaf ?? ROOT_PARENT;
      let turnCount = rec.turnCount + 1;
      // The path up to the new turn's parent when it is not the active path (a new version, a branch).
      let newPath: TurnRecord[] | undefined;
      if (versionOf !== undefined) {
        const sibling = await turns.index('byTurnId').get([conversationId, versionOf]);
        if (!sibling) throw new NotFoundError(`turn ${versionOf} of conversation ${conversationId} not found`);
        parentId = sibling.parentId;
        const { activeLeaf: _old, ...base } = rec;
        const before = await readActivePath(turns, parentId === ROOT_PARENT ? base : { ...base, activeLeaf: parentId });
        turnCount = before.records.length + 1;
        newPath = before.records;
      }
      if (under !== undefined) {
        const parent = await turns.index('byTurnId').get([conversationId, under.parentId]);
        if (!parent) throw new NotFoundError(`turn ${under.parentId} of conversation ${conversationId} not found`);
        parentId = under.parentId;
        turnCount = rec.turnCount;
        if (under.activate) {
          const { activeLeaf: _old, ...base } = rec;
          const before = (await readActivePath(turns, { ...base, activeLeaf: parentId })).records;
          turnCount = before.length + 1;
          if (parentId !== rec.activeLeaf) newPath = before;
        }
      }
      const record: TurnRecord = { conversationId, seq: rec.nextSeq, parentId, turn };
      // Anything appended but a compared answer ends the side-by-side view (docs/side-panel.md#ask-several-models-at-once).
      const { compareOf: _compared, ...kept } = rec;
      const next: ConversationRecord = {
        ...(under === undefined ? kept : rec),
        ...patch,
        nextSeq: rec.nextSeq + 1,
        turnCount,
        ...(activate ? { activeLeaf: turn.id, preview: previewOf(turn) || rec.preview } : {}),
        updatedAt: now,
      };
      // The writes need none of each other's results: issued together (lib/store/together.ts).
      await together([
        () => turns.add(record),
        () => indexTurns(t.objectStore('search'), [record]),
        // docs/architecture.md#the-path-index: an append extends the index; a new branch rewrites it.
        () =>
          !activate
            ? undefined
            : newPath
              ? rebuildPathIndex(paths, conversationId, rec.activeLeaf, [...newPath, record])
              : appendPathEntry(paths, conversationId, rec.activeLeaf, record, { head }),
        () =>
          patch.title !== undefined && patch.title !== rec.title
            ? indexTitle(t.objectStore('search'), conversationId, patch.title)
            : undefined,
        () => putConversation(t, next, { page }),
      ]);
      return metaOf(next);
    });
  }

  /**
   * Replaces a stored turn (same id) — the stream checkpoint — and touches the metadata, in one
   * transaction. @throws NotFoundError when the turn does not exist.
   */
  async putTurn(conversationId: string, turn: Turn, now: string): Promise<ConversationMeta> {
    return this.transcripts.write(
      conversationId,
      () => this.putTx(conversationId, turn, now),
      (t) => withReplaced(t, turn),
    );
  }

  private putTx(conversationId: string, turn: Turn, now: string): Promise<ConversationMeta> {
    return tx(this.db, ['conversations', 'turns', 'search', 'paths', 'summaries'], 'readwrite', async (t) =>
      metaOf(await replaceTurnIn(t, conversationId, turn, now)),
    );
  }

  /**
   * Removes turn `turnId` and every turn after it on any branch (its subtree) — a retry removes a
   * failed, interrupted or stopped answer this way — and updates the metadata (active leaf, count,
   * preview, time) in the same transaction (D4). When the active leaf was in the subtree, the
   * path ends at the removed turn's parent, or with `toSibling` at the newest continuation of its
   * nearest remaining version (deleting one version, docs/transcript.md#versions-and-branches).
   * Returns the removed turn ids (the turn first) and the new metadata.
   * @throws NotFoundError when the conversation or the turn is missing (nothing is written).
   */
  async deleteTurnsFrom(
    conversationId: string,
    turnId: string,
    now: string,
    toSibling = false,
  ): Promise<{ deleted: string[]; meta: ConversationMeta }> {
    return tx(this.db, ['conversations', 'turns', 'search', 'paths', 'summaries'], 'readwrite', async (t) => {
      const turns = t.objectStore('turns');
      const target = await turns.index('byTurnId').get([conversationId, turnId]);
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!target || !rec) throw new NotFoundError(`turn ${turnId} of conversation ${conversationId} not found`);
      const removed = await subtreeOf(turns, target);
      const ids = new Set(removed.map((r) => r.turn.id));
      let leaf = rec.activeLeaf;
      if (leaf === undefined || ids.has(leaf)) {
        // The version before the removed one, else the one after it.
        const all = toSibling ? await siblingsOf(turns, target) : [];
        const i = all.findIndex((r) => r.turn.id === turnId);
        const rest = all.filter((r) => r.turn.id !== turnId);
        const sibling = rest[i > 0 ? i - 1 : 0];
        leaf = sibling
          ? (await newestDescendant(turns, sibling)).turn.id
          : target.parentId === ROOT_PARENT
            ? undefined
            : target.parentId;
      }
      for (const r of removed) await turns.delete([r.conversationId, r.seq]);
      await unindexTurns(
        t.objectStore('search'),
        conversationId,
        removed.map((r) => r.seq),
      );
      const { activeLeaf: _old, ...base } = rec;
      const path = await readActivePath(turns, { ...base, ...(leaf !== undefined ? { activeLeaf: leaf } : {}) });
      await rebuildPathIndex(t.objectStore('paths'), conversationId, rec.activeLeaf, path.records);
      const next: ConversationRecord = {
        ...base,
        ...(leaf !== undefined ? { activeLeaf: leaf } : {}),
        turnCount: path.records.length,
        updatedAt: now,
        preview: previewOf(path.records.at(-1)?.turn),
      };
      await putConversation(t, next);
      return { deleted: removed.map((r) => r.turn.id), meta: metaOf(next) };
    });
  }

  /**
   * Makes the path through turn `turnId` the active one: the active leaf becomes the newest
   * continuation of that turn (its newest child, then that one's, …), or with `exact` the turn
   * itself (a regenerate answers it again). Nothing is removed. Returns the new metadata.
   * @throws NotFoundError when the conversation or the turn is missing (nothing is written).
   */
  async selectTurn(conversationId: string, turnId: string, now: string, exact = false): Promise<ConversationMeta> {
    return tx(this.db, ['conversations', 'turns', 'paths', 'summaries'], 'readwrite', async (t) => {
      const turns = t.objectStore('turns');
      const target = await turns.index('byTurnId').get([conversationId, turnId]);
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!target || !rec) throw new NotFoundError(`turn ${turnId} of conversation ${conversationId} not found`);
      const leaf = exact ? target : await newestDescendant(turns, target);
      const path = await readActivePath(turns, { ...rec, activeLeaf: leaf.turn.id });
      await rebuildPathIndex(t.objectStore('paths'), conversationId, rec.activeLeaf, path.records);
      const next: ConversationRecord = {
        ...rec,
        activeLeaf: leaf.turn.id,
        turnCount: path.records.length,
        updatedAt: now,
        preview: previewOf(leaf.turn) || rec.preview,
      };
      await putConversation(t, next);
      return metaOf(next);
    });
  }

  /**
   * The answers compared side by side (docs/side-panel.md#ask-several-models-at-once): the user
   * turn a send to several models stored and its answers (its children, oldest first), while the
   * person has not picked one; undefined otherwise (or when that turn is gone).
   * @throws NotFoundError when the conversation does not exist.
   */
  async compareGroup(conversationId: string): Promise<{ userTurnId: string; answers: Turn[] } | undefined> {
    return tx(this.db, ['conversations', 'turns'], 'readonly', async (t) => {
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      if (rec.compareOf === undefined) return undefined;
      const turns = t.objectStore('turns');
      if (!(await turns.index('byTurnId').get([conversationId, rec.compareOf]))) return undefined;
      const children = await turns.index('byParent').getAll([conversationId, rec.compareOf]);
      if (children.length === 0) return undefined;
      return { userTurnId: rec.compareOf, answers: children.sort((a, b) => a.seq - b.seq).map((r) => r.turn) };
    });
  }

  /** Ends the side-by-side view of the conversation's compared answers (the person picked one); the answers stay as versions. @throws NotFoundError */
  async endCompare(conversationId: string): Promise<void> {
    await tx(this.db, ['conversations', 'summaries'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      if (rec.compareOf === undefined) return;
      const { compareOf: _c, ...next } = rec;
      await putConversation(t, next);
    });
  }

  /** How many versions turn `turnId` has (itself included). @throws NotFoundError when the turn is missing. */
  async versionCount(conversationId: string, turnId: string): Promise<number> {
    return tx(this.db, ['conversations', 'turns'], 'readonly', async (t) => {
      const turns = t.objectStore('turns');
      const r = await turns.index('byTurnId').get([conversationId, turnId]);
      if (!r) throw new NotFoundError(`turn ${turnId} of conversation ${conversationId} not found`);
      return turns.index('byParent').count([conversationId, r.parentId]);
    });
  }

  /**
   * Removes one turn and nothing else, in one transaction with the metadata: the turns after it
   * (its children) take its parent as theirs, and an active leaf on it moves to its parent.
   * Nothing happens when it is missing.
   */
  async deleteTurn(conversationId: string, turnId: string, now: string): Promise<void> {
    await tx(this.db, ['conversations', 'turns', 'search', 'paths', 'summaries'], 'readwrite', async (t) => {
      const turns = t.objectStore('turns');
      const target = await turns.index('byTurnId').get([conversationId, turnId]);
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!target || !rec) return;
      for (const child of await turns.index('byParent').getAll([conversationId, turnId]))
        await turns.put({ ...child, parentId: target.parentId });
      await turns.delete([conversationId, target.seq]);
      await unindexTurns(t.objectStore('search'), conversationId, [target.seq]);
      const { activeLeaf, ...base } = rec;
      const leaf = activeLeaf === turnId ? (target.parentId === ROOT_PARENT ? undefined : target.parentId) : activeLeaf;
      // The path may have lost a turn anywhere: the index is rebuilt from the new path (entries reused).
      const path = await readActivePath(turns, { ...base, ...(leaf !== undefined ? { activeLeaf: leaf } : {}) });
      await rebuildPathIndex(t.objectStore('paths'), conversationId, activeLeaf, path.records);
      await putConversation(t, {
        ...base,
        ...(leaf !== undefined ? { activeLeaf: leaf } : {}),
        turnCount: Math.max(0, rec.turnCount - 1),
        updatedAt: now,
      });
    });
  }

  /**
   * Sets the title, pin or last target, and records when each changed field was edited (`now`, for
   * sync's merge: docs/security.md#sync). One transaction. @throws NotFoundError when missing.
   */
  async update(
    id: string,
    patch: Partial<Pick<ConversationRecord, 'title' | 'pinned' | 'lastTarget'>>,
    now: string = new Date().toISOString(),
  ): Promise<ConversationMeta> {
    return tx(this.db, ['conversations', 'search', 'summaries'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(id);
      if (!rec) throw new NotFoundError(`conversation ${id} not found`);
      const editedAt = { ...rec.editedAt };
      for (const k of Object.keys(patch) as (keyof typeof patch)[])
        if (JSON.stringify(patch[k]) !== JSON.stringify(rec[k])) editedAt[k] = now;
      const next = { ...rec, ...patch, ...(Object.keys(editedAt).length > 0 ? { editedAt } : {}) };
      await putConversation(t, next);
      if (next.title !== rec.title) await indexTitle(t.objectStore('search'), id, next.title);
      return metaOf(next);
    });
  }

  /**
   * Sets the conversation's instructions — its transcript `system` (docs/side-panel.md#instructions)
   * — or removes them when `system` is undefined or blank. One transaction over the record only;
   * `updatedAt` is left alone (instructions are not a new message). Returns the stored text ('' for none).
   * @throws NotFoundError when the conversation does not exist (nothing is written).
   */
  async setSystem(id: string, system: string | undefined): Promise<string> {
    return tx(this.db, ['conversations', 'summaries'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(id);
      if (!rec) throw new NotFoundError(`conversation ${id} not found`);
      const { system: _old, ...base } = rec;
      const next: ConversationRecord = system?.trim() ? { ...base, system } : base;
      await putConversation(t, next);
      return next.system ?? '';
    });
  }

  /** Deletes a conversation, its turns, their index records and its disclosure records in one transaction. */
  async delete(id: string): Promise<void> {
    await tx(
      this.db,
      ['conversations', 'turns', 'disclosures', 'search', 'paths', 'summaries'],
      'readwrite',
      async (t) => {
        await deleteConversation(t, id);
        await dropPathIndex(t.objectStore('paths'), id);
        await t.objectStore('turns').delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
        await unindexConversation(t.objectStore('search'), id);
        const keys = await t.objectStore('disclosures').index('byConversation').getAllKeys(id);
        for (const k of keys) await t.objectStore('disclosures').delete(k);
      },
    );
  }

  /**
   * On worker start: every turn left `streaming` becomes `interrupted` (L2). Returns how many.
   */
  async recoverStreaming(now: string): Promise<{ conversationId: string; turnId: string }[]> {
    return tx(this.db, ['conversations', 'turns', 'paths', 'summaries'], 'readwrite', async (t) => {
      const fixed: { conversationId: string; turnId: string }[] = [];
      const replaced: TurnRecord[] = [];
      let cursor = await t.objectStore('turns').index('byStatus').openCursor('streaming');
      while (cursor) {
        const r = cursor.value;
        if (r.turn.status === 'streaming') {
          const next = replacedTurn(r, { ...r.turn, status: 'interrupted' });
          await cursor.update(next);
          replaced.push(next);
          fixed.push({ conversationId: r.conversationId, turnId: r.turn.id });
        }
        cursor = await cursor.continue();
      }
      for (const id of new Set(fixed.map((f) => f.conversationId))) {
        const rec = await t.objectStore('conversations').get(id);
        if (rec) await putConversation(t, { ...rec, updatedAt: now });
        for (const r of replaced)
          if (r.conversationId === id) await replacePathEntry(t.objectStore('paths'), id, rec?.activeLeaf, r);
      }
      return fixed;
    });
  }
}
