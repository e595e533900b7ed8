/**
 * The background's transcript cache (docs/architecture.md#long-conversations-and-speed): served while nothing was written, kept in step by
 * the store's own appends and replacements, dropped by every other write, never stale.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMAT, type Turn } from '../transcript/schema';
import { NotFoundError, type ConversationStore } from './conversations';
import { DisclosureStore } from './disclosures';
import { importConversations } from './import-store';
import { answer, closeSeededStores, seededStore, user } from './store.test-helper';

/** A store holding conversation c1 (4 turns). */
function store(): Promise<ConversationStore> {
  const turns = [user('u1', 'first'), answer('a1', 'one'), user('u2', 'second'), answer('a2', 'two')];
  return seededStore('cache', T0, [{ id: 'c1', title: 'One', turns }]);
}
afterEach(closeSeededStores);

const T0 = '2026-11-30T10:00:00.000Z';
const texts = (turns: readonly Turn[]) =>
  turns.map((t) => `${t.id}:${t.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('+')}`);

describe('ConversationStore.cachedTranscript', () => {
  it('serves the same transcript while nothing is written, equal to a fresh read, and frozen', async () => {
    const s = await store();
    const a = await s.cachedTranscript('c1');
    expect(await s.cachedTranscript('c1')).toBe(a);
    expect(a).toEqual(await s.toTranscript('c1'));
    expect(() => (a.turns as Turn[]).push(user('x', 'x'))).toThrow(TypeError);
    expect(() => ((a.turns[0]!.blocks[0] as { text: string }).text = 'changed')).toThrow(TypeError);
    // Another conversation is read (and cached) on its own.
    await s.create({ id: 'c2', now: T0 });
    await s.appendTurn('c2', user('o1', 'other'), T0);
    expect(texts((await s.cachedTranscript('c2')).turns)).toEqual(['o1:other']);
    expect(texts((await s.cachedTranscript('c1')).turns)).toEqual(['u1:first', 'a1:one', 'u2:second', 'a2:two']);
  });

  it('an append or a replaced turn updates the cached transcript in place of a re-read (earlier turns are the same objects)', async () => {
    const s = await store();
    const before = await s.cachedTranscript('c1');
    const mine = user('u3', 'third');
    await s.appendTurn('c1', mine, T0, { title: 'Renamed by the first message' });
    const appended = await s.cachedTranscript('c1');
    expect(texts(appended.turns)).toEqual(['u1:first', 'a1:one', 'u2:second', 'a2:two', 'u3:third']);
    expect(appended.title).toBe('Renamed by the first message');
    expect(appended.turns[0]).toBe(before.turns[0]);
    // The caller's own turn object is not frozen by the cache.
    expect(Object.isFrozen(mine)).toBe(false);
    await s.putTurn('c1', answer('a2', 'two, revised'), T0);
    const replaced = await s.cachedTranscript('c1');
    expect(texts(replaced.turns)).toEqual(['u1:first', 'a1:one', 'u2:second', 'a2:two, revised', 'u3:third']);
    expect(replaced).toEqual(await s.toTranscript('c1'));
    // The ledger's final-turn write (DisclosureStore.finishSend) too.
    await new DisclosureStore(s.db).finishSend('c1', answer('a2', 'final'), T0, {
      record: {
        conversationId: 'c1',
        at: T0,
        providerId: 'openai',
        api: 'openai-responses',
        model: 'gpt-5.5',
        endpoint: 'https://api.openai.com',
        turns: [],
        status: 'completed',
        mode: 'snapshot',
      },
    });
    const finished = await s.cachedTranscript('c1');
    expect(texts(finished.turns)).toEqual(['u1:first', 'a1:one', 'u2:second', 'a2:final', 'u3:third']);
    expect(finished).toEqual(await s.toTranscript('c1'));
  });

  it('deletes, edits from a turn, renames, deletion of the conversation and an import under its id are never served stale', async () => {
    const s = await store();
    await s.cachedTranscript('c1');
    await s.deleteTurn('c1', 'a1', T0);
    expect(texts((await s.cachedTranscript('c1')).turns)).toEqual(['u1:first', 'u2:second', 'a2:two']);
    await s.deleteTurnsFrom('c1', 'u2', T0);
    expect(texts((await s.cachedTranscript('c1')).turns)).toEqual(['u1:first']);
    await s.update('c1', { title: 'New title' });
    expect((await s.cachedTranscript('c1')).title).toBe('New title');
    await s.delete('c1');
    await expect(s.cachedTranscript('c1')).rejects.toThrow(NotFoundError);
    const out = await importConversations(
      s.db,
      [{ format: TRANSCRIPT_FORMAT, version: 1, id: 'c1', title: 'Imported', turns: [user('i1', 'imported')] }],
      { now: T0 },
    );
    expect(out.failed.map((f) => f.reason)).toEqual([]);
    expect(out.imported.map((c) => c.id)).toEqual(['c1']);
    const t = await s.cachedTranscript('c1');
    expect([t.title, texts(t.turns)]).toEqual(['Imported', ['i1:imported']]);
  });

  it('a read that overlaps a write is not kept: the next read sees the write', async () => {
    const s = await store();
    const reading = s.cachedTranscript('c1');
    const writing = s.appendTurn('c1', user('u3', 'during the read'), T0);
    await Promise.all([reading, writing]);
    expect(texts((await s.cachedTranscript('c1')).turns)).toContain('u3:during the read');
  });

  it('an append that interleaves with another write does not patch a stale base', async () => {
    const s = await store();
    await s.cachedTranscript('c1');
    await Promise.all([
      s.appendTurn('c1', user('u3', 'third'), T0),
      s.deleteTurn('c1', 'a1', T0),
      s.appendTurn('c1', user('u4', 'fourth'), T0),
    ]);
    expect(await s.cachedTranscript('c1')).toEqual(await s.toTranscript('c1'));
    expect(texts((await s.cachedTranscript('c1')).turns)).toEqual([
      'u1:first',
      'u2:second',
      'a2:two',
      'u3:third',
      'u4:fourth',
    ]);
  });

  it('keeps a few conversations: an append to one leaves the others served, any other write re-reads them, the oldest is evicted', async () => {
    const s = await store();
    for (const id of ['c2', 'c3', 'c4']) {
      await s.create({ id, now: T0 });
      await s.appendTurn(id, user(`${id}-u`, id), T0);
    }
    const c1 = await s.cachedTranscript('c1');
    const c2 = await s.cachedTranscript('c2');
    await s.appendTurn('c1', user('u3', 'third'), T0);
    expect(await s.cachedTranscript('c2')).toBe(c2);
    expect(texts((await s.cachedTranscript('c1')).turns)).toHaveLength(5);
    await s.update('c3', { title: 'Another one renamed' });
    const c2Again = await s.cachedTranscript('c2');
    expect(c2Again).not.toBe(c2);
    expect(c2Again).toEqual(c2);
    // c1, c2, c3, c4 fit (CACHE_LIMITS.conversations = 4); a fifth evicts the least recently used (c1).
    await s.create({ id: 'c5', now: T0 });
    const c1Now = await s.cachedTranscript('c1');
    await s.cachedTranscript('c3');
    await s.cachedTranscript('c4');
    await s.cachedTranscript('c2');
    await s.cachedTranscript('c5');
    const c1Later = await s.cachedTranscript('c1');
    expect(c1Later).not.toBe(c1Now);
    expect(c1Later).toEqual(c1Now);
    expect(c1).not.toBe(c1Now);
  });

  it('a failed write leaves nothing stale behind', async () => {
    const s = await store();
    const cached = await s.cachedTranscript('c1');
    await expect(s.putTurn('c1', user('missing', 'x'), T0)).rejects.toThrow(NotFoundError);
    expect(await s.cachedTranscript('c1')).toEqual(cached);
    await expect(s.appendTurn('nope', user('x', 'x'), T0)).rejects.toThrow(NotFoundError);
    expect(texts((await s.cachedTranscript('c1')).turns)).toEqual(['u1:first', 'a1:one', 'u2:second', 'a2:two']);
  });
});
