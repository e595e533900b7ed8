import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { ConversationStore, NotFoundError } from './conversations';
import { openBatonDb, type BatonDb } from './db';
import { failUpgrade, seedOldVersion, user } from './store.test-helper';

let n = 0;
let db: BatonDb | undefined;
async function store(): Promise<ConversationStore> {
  db = await openBatonDb(`test-${++n}`);
  return new ConversationStore(db);
}
afterEach(() => db?.close());

const T0 = '2026-11-30T10:00:00.000Z';
const T1 = '2026-11-30T10:01:00.000Z';
const T2 = '2026-11-30T10:02:00.000Z';
const answer = (id: string, text: string, status?: Turn['status']): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
  blocks: [{ type: 'text', text }],
  ...(status ? { status } : {}),
});

describe('ConversationStore', () => {
  it('D4 appends turns and keeps the list metadata in step, in one transaction', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', user('u1', 'Hello   there\nfriend'), T1, { title: 'Hello there friend' });
    const meta = await s.appendTurn('c1', answer('a1', 'Hi!'), T2);
    expect(meta).toEqual({
      id: 'c1',
      title: 'Hello there friend',
      createdAt: T0,
      updatedAt: T2,
      turnCount: 2,
      preview: 'Hi!',
    });
    expect(await s.list()).toEqual([meta]);
    const { turns } = await s.get('c1');
    expect(turns.map((t) => t.id)).toEqual(['u1', 'a1']);
    expect((await s.get('c1', 1)).turns.map((t) => t.id)).toEqual(['a1']);
  });

  it('lists pinned first, then newest first', async () => {
    const s = await store();
    await s.create({ id: 'old', now: T0 });
    await s.create({ id: 'new', now: T2 });
    await s.create({ id: 'mid', now: T1 });
    await s.update('old', { pinned: true });
    expect((await s.list()).map((c) => c.id)).toEqual(['old', 'new', 'mid']);
  });

  it('writes nothing when the conversation is missing', async () => {
    const s = await store();
    await expect(s.appendTurn('nope', user('u1', 'x'), T1)).rejects.toBeInstanceOf(NotFoundError);
    expect(await db!.count('turns')).toBe(0);
  });

  it('D4 rolls back the turn and the metadata together when the write fails (one transaction)', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', user('u1', 'x'), T1);
    await expect(s.appendTurn('c1', user('u1', 'y'), T2)).rejects.toThrow();
    const { record, turns } = await s.get('c1');
    expect(turns).toHaveLength(1);
    expect(record.turnCount).toBe(1);
    expect(record.updatedAt).toBe(T1);
  });

  it('L2 replaces a checkpointed turn in place and recovers streaming turns as interrupted', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', user('u1', 'x'), T0);
    await s.appendTurn('c1', answer('a1', 'par', 'streaming'), T0);
    await s.putTurn('c1', answer('a1', 'partial text', 'streaming'), T1);
    expect(await s.recoverStreaming(T2)).toEqual([{ conversationId: 'c1', turnId: 'a1' }]);
    const { turns } = await s.get('c1');
    expect(turns[1]).toEqual(answer('a1', 'partial text', 'interrupted'));
    expect(await s.recoverStreaming(T2)).toEqual([]);
  });

  it('deletes a conversation with all its turns', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0 });
    await s.create({ id: 'c2', now: T0 });
    await s.appendTurn('c1', user('u1', 'x'), T0);
    await s.appendTurn('c2', user('u1', 'y'), T0);
    await s.delete('c1');
    expect((await s.list()).map((c) => c.id)).toEqual(['c2']);
    expect(await db!.count('turns')).toBe(1);
    await expect(s.get('c1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('exports the conversation as a transcript', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0, system: 'Be brief.', title: 'T' });
    await s.appendTurn('c1', user('u1', 'x'), T0);
    expect(await s.toTranscript('c1')).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'c1',
      title: 'T',
      createdAt: T0,
      system: 'Be brief.',
      turns: [user('u1', 'x')],
    });
  });
});

describe('upgrade ladder (D4)', () => {
  it('D4 builds every store and index from an empty database', async () => {
    const s = await store();
    expect([...s.db.objectStoreNames].sort()).toEqual([
      'conversations',
      'disclosures',
      'paths',
      'search',
      'settings',
      'summaries',
      'turns',
      'vault',
    ]);
    const t = s.db.transaction('turns');
    expect([...t.store.indexNames].sort()).toEqual(['byParent', 'byStatus', 'byTurnId']);
    await t.done;
  });

  it('D4 a migration that throws leaves the old data readable', async () => {
    const name = `test-${++n}`;
    await seedOldVersion(
      name,
      1,
      { id: 'c1', title: 'New chat', createdAt: T0, updatedAt: T1, turnCount: 1, preview: 'keep me', nextSeq: 1 },
      [{ conversationId: 'c1', seq: 0, turn: user('u1', 'keep me') }],
    );
    // A migration step that fails aborts the versionchange transaction (what an exception inside `upgrade` does).
    const outcome = await failUpgrade(name, 2);
    expect(outcome).toBe('AbortError');
    const old = await openBatonDb(name, {}, 1);
    expect(old.version).toBe(1);
    expect((await old.getAll('turns')).map((r) => r.turn)).toEqual([user('u1', 'keep me')]);
    old.close();
    // The real ladder then migrates it (docs/transcript.md#versions-and-branches).
    db = await openBatonDb(name);
    expect((await new ConversationStore(db).get('c1')).turns).toEqual([user('u1', 'keep me')]);
  });
});

describe('ConversationStore.deleteTurnsFrom', () => {
  it('removes a turn and everything after it, with the metadata, in one transaction', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', user('u1', 'first'), T0);
    await s.appendTurn('c1', answer('a1', 'one'), T0);
    await s.appendTurn('c1', user('u2', 'second'), T1);
    await s.appendTurn('c1', answer('a2', 'two'), T1);
    await s.create({ id: 'c2', now: T0 });
    await s.appendTurn('c2', user('x1', 'other conversation'), T0);

    const r = await s.deleteTurnsFrom('c1', 'u2', T2);
    expect(r).toEqual({
      deleted: ['u2', 'a2'],
      meta: { id: 'c1', title: 'New chat', createdAt: T0, updatedAt: T2, turnCount: 2, preview: 'one' },
    });
    expect((await s.get('c1')).turns.map((t) => t.id)).toEqual(['u1', 'a1']);
    expect((await s.get('c2')).turns.map((t) => t.id)).toEqual(['x1']);
    // sequence numbers are not reused: a new turn goes after the deleted ones
    await s.appendTurn('c1', user('u3', 'third'), T2);
    expect((await s.get('c1')).turns.map((t) => t.id)).toEqual(['u1', 'a1', 'u3']);

    expect(await s.deleteTurnsFrom('c1', 'u1', T2)).toMatchObject({
      deleted: ['u1', 'a1', 'u3'],
      meta: { turnCount: 0, preview: '' },
    });
  });

  it('writes nothing for a missing turn or conversation', async () => {
    const s = await store();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', user('u1', 'x'), T1);
    await expect(s.deleteTurnsFrom('c1', 'nope', T2)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.deleteTurnsFrom('nope', 'u1', T2)).rejects.toBeInstanceOf(NotFoundError);
    const { record, turns } = await s.get('c1');
    expect([record.turnCount, record.updatedAt, turns.length]).toEqual([1, T1, 1]);
  });
});
