/**
 * `applySyncedConversation` (docs/security.md#sync, SY-5): turns that arrive before their parents
 * (replication order is not creation order, and a cycle applies its changes in batches) leave a
 * readable conversation, and the synced active leaf is taken once its path is whole.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { ConversationStore } from './conversations';
import { openBatonDb } from './db';
import { applySyncedConversation, type SyncedTurn } from './sync-apply';

const NOW = '2026-12-01T10:00:00.000Z';
const turn = (id: string, parentId: string, seq: number): SyncedTurn => ({
  parentId,
  seq,
  turn: { id, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text: id }] } as Turn,
});

describe('SY-5 applySyncedConversation with turns out of order', () => {
  it('a batch holding children without their parents keeps a whole path; the next batch completes it', async () => {
    const db = await openBatonDb(`sync-apply-${Math.random().toString(36).slice(2)}`);
    const store = new ConversationStore(db);
    const base = { id: 'c1', removedTurns: [], ledger: [] };
    // First batch: t0, t1, and t3 (whose parent t2 comes later); the synced leaf is t3.
    const first = await applySyncedConversation(
      db,
      {
        ...base,
        fields: { title: 'Out of order', activeLeaf: 't3' },
        turns: [turn('t0', '', 0), turn('t1', 't0', 1), turn('t3', 't2', 3)],
      },
      NOW,
    );
    expect(first?.turnCount).toBe(2);
    expect((await store.toTranscript('c1')).turns.map((t) => t.id)).toEqual(['t0', 't1']);
    // Second batch: t2 arrives, and the leaf again.
    const second = await applySyncedConversation(
      db,
      { ...base, fields: { activeLeaf: 't3' }, turns: [turn('t2', 't1', 2)] },
      NOW,
    );
    expect(second?.turnCount).toBe(4);
    expect((await store.toTranscript('c1')).turns.map((t) => t.id)).toEqual(['t0', 't1', 't2', 't3']);
    db.close();
  });
});
