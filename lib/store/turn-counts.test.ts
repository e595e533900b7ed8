/**
 * Token counts kept on the stored turn records (docs/architecture.md#token-counts-with-the-turn):
 * a plan's counts are written back onto the records, a fresh worker (a new database connection)
 * plans from them without counting, the plan is the same as a counted one, a replaced turn loses
 * its counts, and a write between the read and the write-back keeps nothing.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { plan } from '../context/plan';
import { createTokenCache } from '../context/token-cache';
import { TRANSCRIPT_FORMAT, type Turn } from '../transcript/schema';
import { ConversationStore } from './conversations';
import { openBatonDb, type BatonDb } from './db';
import { user } from './store.test-helper';
import { storedCountsFor } from './turn-counts';

let n = 0;
const open: BatonDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});
async function connect(name: string): Promise<ConversationStore> {
  const db = await openBatonDb(name);
  open.push(db);
  return new ConversationStore(db);
}
const T0 = '2026-12-02T01:00:00.000Z';
const answer = (id: string, text: string): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  blocks: [{ type: 'text', text }],
});
const TARGET = { api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;

async function seeded(): Promise<{ name: string; s: ConversationStore }> {
  const name = `counts-${++n}`;
  const s = await connect(name);
  await s.create({ id: 'c1', now: T0 });
  for (let i = 0; i < 6; i++) {
    await s.appendTurn('c1', user(`u${i}`, `question ${i} `.repeat(i + 1)), T0);
    await s.appendTurn('c1', answer(`a${i}`, `answer ${i} `.repeat(3 * i + 1)), T0);
  }
  return { name, s };
}

async function records(s: ConversationStore) {
  return s.db.getAll('turns', IDBKeyRange.bound(['c1', -Infinity], ['c1', Infinity]));
}

describe('token counts on the turn records', () => {
  it('are written back after a plan and read by the next worker instead of counting', async () => {
    const { name, s } = await seeded();
    const counted = plan(await s.toTranscript('c1'), TARGET, {}, createTokenCache({ stored: storedCountsFor(s.db) }));
    await storedCountsFor(s.db).flush();
    const recs = await records(s);
    expect(recs.every((r) => r.counts && Object.keys(r.counts).length === 1)).toBe(true);
    expect(storedCountsFor(s.db).written).toBe(12);

    // A new connection, as after a worker restart: counts come from the records, nothing is counted.
    const again = await connect(name);
    const stored = storedCountsFor(again.db);
    const sets: string[] = [];
    const spy = { get: stored.get.bind(stored), set: (t: Turn) => sets.push(t.id) };
    const cold = plan(await again.toTranscript('c1'), TARGET, {}, createTokenCache({ stored: spy }));
    expect(sets).toEqual([]);
    expect(cold.estimatedInputTokens).toBe(counted.estimatedInputTokens);
    expect(JSON.stringify(cold.body)).toBe(JSON.stringify(counted.body));
  });

  it('are dropped when the turn is replaced', async () => {
    const { s } = await seeded();
    plan(await s.toTranscript('c1'), TARGET, {}, createTokenCache({ stored: storedCountsFor(s.db) }));
    await storedCountsFor(s.db).flush();
    await s.putTurn('c1', answer('a2', 'a different answer, longer than before'), T0);
    const recs = await records(s);
    expect(recs.find((r) => r.turn.id === 'a2')!.counts).toBeUndefined();
    expect(recs.filter((r) => r.counts).length).toBe(11);
  });

  it('are not written back when another write ran since the read', async () => {
    const { s } = await seeded();
    const t = await s.toTranscript('c1');
    await s.putTurn('c1', answer('a5', 'replaced after the read'), T0);
    plan(t, TARGET, {}, createTokenCache({ stored: storedCountsFor(s.db) }));
    await storedCountsFor(s.db).flush();
    expect((await records(s)).some((r) => r.counts)).toBe(false);
    expect(storedCountsFor(s.db).written).toBe(0);
  });

  it('made on a bounded read are still written back after a whole read of the same records', async () => {
    const { s } = await seeded();
    const bounded = await s.readBounded('c1', (entries) => new Set(entries.map((_, i) => i)));
    expect(bounded?.standIns).toBe(0);
    plan(bounded!.transcript, TARGET, {}, createTokenCache({ stored: storedCountsFor(s.db) }));
    // The whole read that follows a bounded preview: the records are the same, nothing was written.
    await s.cachedTranscript('c1');
    await storedCountsFor(s.db).flush();
    expect(storedCountsFor(s.db).written).toBe(12);
    expect((await records(s)).every((r) => r.counts && Object.keys(r.counts).length === 1)).toBe(true);
  });

  it('keep the cached transcript valid (the turns did not change)', async () => {
    const { s } = await seeded();
    const t = await s.cachedTranscript('c1');
    plan(t, TARGET, {}, createTokenCache({ stored: storedCountsFor(s.db) }));
    await storedCountsFor(s.db).flush();
    expect(storedCountsFor(s.db).written).toBe(12);
    expect(await s.cachedTranscript('c1')).toBe(t);
    expect(t.format).toBe(TRANSCRIPT_FORMAT);
  });
});
