/**
 * Applying a conversation that sync received (docs/security.md#sync, "Applying remote changes"):
 * one transaction per conversation over its record, its turns and its ledger records (D4), through
 * the same `tx` as every other write, so the transcript cache and every reader stay in step.
 */
import type { ConversationMeta } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import { metaOf, previewOf } from './conversations';
import { ROOT_PARENT, tx, type BatonDb, type ConversationRecord, type DisclosureRecord } from './db';
import { indexTitle, indexTurns, unindexTurns } from './search-index';
import { readActivePath } from './turn-tree';
import { rebuildPathIndex } from './path-index';
import { putConversation } from './list-pages';

/** A turn version received from another device. */
export interface SyncedTurn {
  parentId: string;
  /** Its creation order on the device that made it (orders new versions among siblings). */
  seq: number;
  turn: Turn;
}

/** What to change in one conversation. */
export interface SyncedConversation {
  id: string;
  /**
   * Record fields to set (`title`, `pinned`, `activeLeaf`…; `meta.<name>` sets an entry of `meta`);
   * a field set to undefined is removed. Only the fields that differ are passed.
   */
  fields: Record<string, unknown>;
  /**
   * Turn versions to add, and stored turns (by turn id) whose content changed on the device that
   * made them (an answer synced while interrupted, then completed): a changed one replaces the
   * stored turn in place, keeping its position in the tree. The caller passes only turns that
   * differ and never one that would take a finished answer back (docs/security.md#sync).
   */
  turns: SyncedTurn[];
  /** Turn ids another device removed. */
  removedTurns: string[];
  /** Ledger records to add (the caller leaves out those already here). */
  ledger: Omit<DisclosureRecord, 'id'>[];
}

/**
 * Applies `c` in one transaction: creates the conversation when missing, adds the new turn versions
 * (in their origin order, after every local turn), removes the removed ones, sets the fields, and
 * recomputes what the device derives itself (turn count, preview). An active leaf whose turn is not
 * here (yet) is not taken: the path stays valid. Returns the new metadata, or undefined when the
 * conversation is missing and nothing creates it.
 */
export async function applySyncedConversation(
  db: BatonDb,
  c: SyncedConversation,
  now: string,
): Promise<ConversationMeta | undefined> {
  return tx(db, ['conversations', 'turns', 'disclosures', 'search', 'paths', 'summaries'], 'readwrite', async (t) => {
    // docs/side-panel.md#search: the index changes in the same transaction as the turns it indexes.
    const search = t.objectStore('search');
    const convs = t.objectStore('conversations');
    const turns = t.objectStore('turns');
    const found = await convs.get(c.id);
    if (!found && c.turns.length === 0 && c.fields.title === undefined) return undefined;
    let rec: ConversationRecord = found ?? {
      id: c.id,
      title: 'New chat',
      createdAt: now,
      updatedAt: now,
      turnCount: 0,
      preview: '',
      nextSeq: 0,
    };
    const local = await turns.getAll(IDBKeyRange.bound([c.id, -Infinity], [c.id, Infinity]));
    const have = new Set(local.map((r) => r.turn.id));
    let nextSeq = rec.nextSeq;
    // Seqs whose turn this transaction replaced: their path-index entries are made again.
    const changed = new Set<number>();
    for (const s of [...c.turns].sort((a, b) => a.seq - b.seq)) {
      if (have.has(s.turn.id)) {
        // A changed version: replaced where it is; its stored token counts are of the old turn.
        const old = local.find((x) => x.turn.id === s.turn.id)!;
        const { counts: _stale, ...kept } = old;
        await turns.put({ ...kept, turn: s.turn });
        changed.add(old.seq);
        await unindexTurns(search, c.id, [old.seq]);
        await indexTurns(search, [{ conversationId: c.id, seq: old.seq, turn: s.turn }]);
        continue;
      }
      const added = { conversationId: c.id, seq: nextSeq++, parentId: s.parentId, turn: s.turn };
      await turns.add(added);
      await indexTurns(search, [added]);
      have.add(s.turn.id);
    }
    for (const id of c.removedTurns) {
      const r = local.find((x) => x.turn.id === id);
      if (r) {
        await turns.delete([c.id, r.seq]);
        await unindexTurns(search, c.id, [r.seq]);
        have.delete(id);
      }
    }
    const next: ConversationRecord & Record<string, unknown> = { ...rec, nextSeq };
    const meta: Record<string, unknown> = { ...(rec.meta ?? {}) };
    for (const [k, v] of Object.entries(c.fields)) {
      if (k.startsWith('meta.')) {
        if (v === undefined) delete meta[k.slice(5)];
        else meta[k.slice(5)] = v;
      } else if (k === 'activeLeaf') {
        if (typeof v === 'string' && have.has(v)) next.activeLeaf = v;
      } else if (v === undefined) delete next[k];
      else next[k] = v;
    }
    if (Object.keys(meta).length > 0) next.meta = meta;
    else delete next.meta;
    // Turns can arrive before their parents (replication order is not creation order, and a
    // cycle applies its changes in batches): the active leaf must be a turn whose path to the root
    // is all here; else, and for a removed leaf, the newest turn whose path is. A later batch sets
    // the synced leaf once its path is whole.
    const all = await turns.getAll(IDBKeyRange.bound([c.id, -Infinity], [c.id, Infinity]));
    const parentOf = new Map(all.map((r) => [r.turn.id, r.parentId]));
    const whole = (id: string): boolean => {
      let at = id;
      for (let i = 0; i <= all.length; i++) {
        const p = parentOf.get(at);
        if (p === undefined) return false;
        if (p === ROOT_PARENT) return true;
        at = p;
      }
      return false; // a loop
    };
    if (next.activeLeaf === undefined || !whole(next.activeLeaf)) {
      const leaf = [...all].reverse().find((r) => whole(r.turn.id));
      if (leaf) next.activeLeaf = leaf.turn.id;
      else delete next.activeLeaf;
    }
    const path = await readActivePath(turns, next);
    // docs/architecture.md#the-path-index: rebuilt in this transaction (entries of unchanged turns reused).
    await rebuildPathIndex(t.objectStore('paths'), c.id, found?.activeLeaf, path.records, changed);
    next.turnCount = path.records.length;
    next.preview = previewOf(path.records.at(-1)?.turn);
    if (typeof next.updatedAt !== 'string') next.updatedAt = now;
    for (const l of c.ledger) await t.objectStore('disclosures').add({ ...l, conversationId: c.id });
    if (next.title !== found?.title) await indexTitle(search, c.id, next.title);
    rec = next;
    await putConversation(t, rec);
    return metaOf(rec);
  });
}
