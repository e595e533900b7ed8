/**
 * Conversations and their turns in IndexedDB. A turn and its conversation's metadata are always
 * written in one transaction (security-requirements.md D4), so no conversation ever references a
 * missing turn and the list never disagrees with the turns.
 */
import type { ConversationMeta } from '../messaging/protocol';
import { TRANSCRIPT_FORMAT, type Transcript, type Turn } from '../transcript/schema';
import { tx, type BatonDb, type ConversationRecord, type TurnRecord } from './db';
import { transcriptCacheFor, withAppended, withReplaced, type TranscriptCache } from './transcript-cache';

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

/** Strips the store-only fields from a record. */
export function metaOf(rec: ConversationRecord): ConversationMeta {
  const { nextSeq: _n, system: _s, tools: _t, meta: _m, ...meta } = rec;
  return meta;
}

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

  /** All conversations, pinned first, then newest first. Reads only the metadata store. */
  async list(): Promise<ConversationMeta[]> {
    const all = await this.db.getAllFromIndex('conversations', 'byUpdatedAt');
    all.reverse();
    return all
      .filter((c) => c.pinned)
      .concat(all.filter((c) => !c.pinned))
      .map(metaOf);
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
    await tx(this.db, ['conversations'], 'readwrite', async (t) => {
      await t.objectStore('conversations').add(rec);
    });
    return metaOf(rec);
  }

  async getRecord(id: string): Promise<ConversationRecord | undefined> {
    return this.db.get('conversations', id);
  }

  /** Metadata and turns (all, or the newest `limit`), in conversation order. @throws NotFoundError */
  async get(id: string, limit?: number): Promise<{ record: ConversationRecord; turns: Turn[] }> {
    return tx(this.db, ['conversations', 'turns'], 'readonly', async (t) => {
      const record = await t.objectStore('conversations').get(id);
      if (!record) throw new NotFoundError(`conversation ${id} not found`);
      const range = IDBKeyRange.bound([id, -Infinity], [id, Infinity]);
      const turns: Turn[] = [];
      if (limit === undefined) {
        for (const r of await t.objectStore('turns').getAll(range)) turns.push(r.turn);
      } else {
        let cursor = await t.objectStore('turns').openCursor(range, 'prev');
        while (cursor && turns.length < limit) {
          turns.push(cursor.value.turn);
          cursor = await cursor.continue();
        }
        turns.reverse();
      }
      return { record, turns };
    });
  }

  /** The whole conversation as a Baton transcript. @throws NotFoundError */
  async toTranscript(id: string): Promise<Transcript> {
    const { record, turns } = await this.get(id);
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

  /**
   * {@link toTranscript}, served from the cache while nothing was written since it was read
   * (docs/architecture.md#long-conversations-and-speed: the disclosure preview and the send plan the whole conversation). The result is
   * shared and deeply frozen: copy before changing anything. @throws NotFoundError
   */
  async cachedTranscript(id: string): Promise<Transcript> {
    return this.transcripts.get(id, () => this.toTranscript(id));
  }

  /**
   * Appends a turn and updates the conversation's metadata in one transaction (D4).
   * `patch` may change other metadata at the same time (e.g. `lastTarget`, a title from the first message).
   * @throws NotFoundError when the conversation does not exist (nothing is written).
   */
  async appendTurn(
    conversationId: string,
    turn: Turn,
    now: string,
    patch: Partial<ConversationMeta> = {},
  ): Promise<ConversationMeta> {
    return this.transcripts.write(
      conversationId,
      () => this.appendTx(conversationId, turn, now, patch),
      (t, meta) => withAppended(t, turn, meta.title),
    );
  }

  private appendTx(
    conversationId: string,
    turn: Turn,
    now: string,
    patch: Partial<ConversationMeta>,
  ): Promise<ConversationMeta> {
    return tx(this.db, ['conversations', 'turns'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      const record: TurnRecord = { conversationId, seq: rec.nextSeq, turn };
      await t.objectStore('turns').add(record);
      const next: ConversationRecord = {
        ...rec,
        ...patch,
        nextSeq: rec.nextSeq + 1,
        turnCount: rec.turnCount + 1,
        updatedAt: now,
        preview: previewOf(turn) || rec.preview,
      };
      await t.objectStore('conversations').put(next);
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
    return tx(this.db, ['conversations', 'turns'], 'readwrite', async (t) => {
      const turns = t.objectStore('turns');
      const key = await turns.index('byTurnId').getKey([conversationId, turn.id]);
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!key || !rec) throw new NotFoundError(`turn ${turn.id} of conversation ${conversationId} not found`);
      await turns.put({ conversationId, seq: key[1], turn });
      const next: ConversationRecord = { ...rec, updatedAt: now, preview: previewOf(turn) || rec.preview };
      await t.objectStore('conversations').put(next);
      return metaOf(next);
    });
  }

  /** Removes one turn (e.g. a failed answer before a retry), in one transaction with the metadata. */
  async deleteTurn(conversationId: string, turnId: string, now: string): Promise<void> {
    await tx(this.db, ['conversations', 'turns'], 'readwrite', async (t) => {
      const turns = t.objectStore('turns');
      const key = await turns.index('byTurnId').getKey([conversationId, turnId]);
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!key || !rec) return;
      await turns.delete(key);
      await t.objectStore('conversations').put({ ...rec, turnCount: Math.max(0, rec.turnCount - 1), updatedAt: now });
    });
  }

  /**
   * Removes turn `turnId` and every later turn (regenerate, edit-and-resend), and updates the
   * metadata (count, preview, time) in the same transaction (D4). Returns the removed turn ids in
   * order and the new metadata. @throws NotFoundError when the conversation or the turn is missing
   * (nothing is written).
   */
  async deleteTurnsFrom(
    conversationId: string,
    turnId: string,
    now: string,
  ): Promise<{ deleted: string[]; meta: ConversationMeta }> {
    return tx(this.db, ['conversations', 'turns'], 'readwrite', async (t) => {
      const turns = t.objectStore('turns');
      const key = await turns.index('byTurnId').getKey([conversationId, turnId]);
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!key || !rec) throw new NotFoundError(`turn ${turnId} of conversation ${conversationId} not found`);
      const from = IDBKeyRange.bound([conversationId, key[1]], [conversationId, Infinity]);
      const deleted = (await turns.getAll(from)).map((r) => r.turn.id);
      await turns.delete(from);
      const before = await turns.openCursor(
        IDBKeyRange.bound([conversationId, -Infinity], [conversationId, key[1]], false, true),
        'prev',
      );
      const next: ConversationRecord = {
        ...rec,
        turnCount: Math.max(0, rec.turnCount - deleted.length),
        updatedAt: now,
        preview: previewOf(before?.value.turn),
      };
      await t.objectStore('conversations').put(next);
      return { deleted, meta: metaOf(next) };
    });
  }

  async update(
    id: string,
    patch: Partial<Pick<ConversationRecord, 'title' | 'pinned' | 'lastTarget'>>,
  ): Promise<ConversationMeta> {
    return tx(this.db, ['conversations'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(id);
      if (!rec) throw new NotFoundError(`conversation ${id} not found`);
      const next = { ...rec, ...patch };
      await t.objectStore('conversations').put(next);
      return metaOf(next);
    });
  }

  /** Deletes a conversation, its turns and its disclosure records in one transaction. */
  async delete(id: string): Promise<void> {
    await tx(this.db, ['conversations', 'turns', 'disclosures'], 'readwrite', async (t) => {
      await t.objectStore('conversations').delete(id);
      await t.objectStore('turns').delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
      const keys = await t.objectStore('disclosures').index('byConversation').getAllKeys(id);
      for (const k of keys) await t.objectStore('disclosures').delete(k);
    });
  }

  /**
   * On worker start: every turn left `streaming` becomes `interrupted` (L2). Returns how many.
   */
  async recoverStreaming(now: string): Promise<{ conversationId: string; turnId: string }[]> {
    return tx(this.db, ['conversations', 'turns'], 'readwrite', async (t) => {
      const fixed: { conversationId: string; turnId: string }[] = [];
      let cursor = await t.objectStore('turns').index('byStatus').openCursor('streaming');
      while (cursor) {
        const r = cursor.value;
        if (r.turn.status === 'streaming') {
          await cursor.update({ ...r, turn: { ...r.turn, status: 'interrupted' } });
          fixed.push({ conversationId: r.conversationId, turnId: r.turn.id });
        }
        cursor = await cursor.continue();
      }
      for (const id of new Set(fixed.map((f) => f.conversationId))) {
        const rec = await t.objectStore('conversations').get(id);
        if (rec) await t.objectStore('conversations').put({ ...rec, updatedAt: now });
      }
      return fixed;
    });
  }
}
