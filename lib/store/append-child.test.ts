/**
 * `ConversationStore.appendChild` (docs/side-panel.md#ask-several-models-at-once): answers of one
 * message added under it in any order are siblings; only the activated one moves the active leaf,
 * and the cached transcript (what a send plans from) follows exactly.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { ConversationStore, NotFoundError } from './conversations';
import { openBatonDb, type BatonDb } from './db';

let n = 0;
const open: BatonDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const T0 = '2026-12-01T10:00:00.000Z';
const user = (id: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text: id }] });
const answer = (id: string): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'm' },
  blocks: [{ type: 'text', text: id }],
});

async function withQuestion(): Promise<ConversationStore> {
  const db = await openBatonDb(`append-child-${++n}`);
  open.push(db);
  const s = new ConversationStore(db);
  await s.create({ id: 'c1', now: T0 });
  await s.appendTurn('c1', user('u1'), T0);
  return s;
}

describe('appendChild', () => {
  it('a sibling that is not activated leaves the active path, the count and the cache as they were', async () => {
    const s = await withQuestion();
    // The second answer is stored first: the order they are written in does not decide the active one.
    await s.appendChild('c1', 'u1', answer('b'), T0, false);
    expect((await s.cachedTranscript('c1')).turns.map((t) => t.id)).toEqual(['u1']);
    expect((await s.getRecord('c1'))!.turnCount).toBe(1);
    await s.appendChild('c1', 'u1', answer('a'), T0, true);
    expect((await s.cachedTranscript('c1')).turns.map((t) => t.id)).toEqual(['u1', 'a']);
    expect((await s.get('c1')).turns.map((t) => t.id)).toEqual(['u1', 'a']);
    const rec = (await s.getRecord('c1'))!;
    expect(rec.activeLeaf).toBe('a');
    expect(rec.turnCount).toBe(2);
    const { tree } = await s.toTranscriptTree('c1');
    expect(tree.turns.map((t) => [t.turn.id, t.parentId])).toEqual([
      ['u1', null],
      ['b', 'u1'],
      ['a', 'u1'],
    ]);
    expect(await s.versionCount('c1', 'a')).toBe(2);
  });

  it('refuses a parent that does not exist, writing nothing', async () => {
    const s = await withQuestion();
    await expect(s.appendChild('c1', 'nope', answer('a'), T0, true)).rejects.toBeInstanceOf(NotFoundError);
    expect((await s.toTranscriptTree('c1')).tree.turns).toHaveLength(1);
  });
});
