/**
 * The kept bounded read (docs/architecture.md#the-path-index): a second bounded read of the same
 * conversation is served from the first while nothing was written — the same transcript, no
 * database read — and never after a write of that conversation (an append, an edit, a rename, a
 * stream checkpoint), while the counts' write-back and writes of other conversations leave it
 * valid. Real stores over fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { plan } from '../context/plan';
import { createTokenCache } from '../context/token-cache';
import type { Turn } from '../transcript/schema';
import { COMPLETE_SLICE, type ConversationStore } from './conversations';
import { answer, closeSeededStores, seededStore, user } from './store.test-helper';
import { standInInfo, storedCountsFor } from './turn-counts';

afterEach(closeSeededStores);

const T0 = '2026-12-02T10:00:00.000Z';

/** A store holding conversation c1 (10 turns) and c2 (2 turns). */
function store(): Promise<ConversationStore> {
  const c1 = Array.from({ length: 5 }, (_, i) => [user(`u${i}`, `question ${i}`), answer(`a${i}`, `answer ${i}`)]);
  return seededStore('bounded-cache', T0, [
    { id: 'c1', title: 'One', turns: c1.flat() },
    { id: 'c2', title: 'Two', turns: [user('x0', 'other'), answer('x1', 'other answer')] },
  ]);
}

/** The newest `k` path positions. */
const newest = (k: number) => (entries: readonly unknown[]) =>
  new Set(Array.from({ length: Math.min(k, entries.length) }, (_, i) => entries.length - 1 - i));

/** What a bounded read holds, as plain data: each turn's id and text, or `stand-in`. */
function shape(t: { turns: readonly Turn[] }): string[] {
  return t.turns.map((x) =>
    standInInfo(x)
      ? `${x.id}:stand-in`
      : `${x.id}:${x.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('+')}`,
  );
}

describe('ConversationStore.readBounded, kept', () => {
  it('serves a second read from the first while nothing is written: the same frozen transcript', async () => {
    const s = await store();
    const first = (await s.readBounded('c1', newest(4)))!;
    expect(first.reused).toBeUndefined();
    expect(first.standIns).toBe(6);
    const second = (await s.readBounded('c1', newest(3)))!;
    expect(second.reused).toBe(true);
    expect(second.transcript).toBe(first.transcript);
    expect(Object.isFrozen(second.transcript.turns[9])).toBe(true);
    // Served without a read: also when the database could not be read at all.
    s.db.close();
    expect((await s.readBounded('c1', newest(4)))!.transcript).toBe(first.transcript);
  });

  it('reads again when a position it did not read in full is asked for (or gives nothing with cachedOnly)', async () => {
    const s = await store();
    const first = (await s.readBounded('c1', newest(2)))!;
    expect(await s.readBounded('c1', newest(5), true)).toBeUndefined();
    const wider = (await s.readBounded('c1', newest(5)))!;
    expect(wider.reused).toBeUndefined();
    expect(wider.standIns).toBe(5);
    expect(shape(wider.transcript).slice(0, 5)).toEqual(shape(first.transcript).slice(0, 5));
    // The wider read is the one kept now.
    expect((await s.readBounded('c1', newest(5)))!.transcript).toBe(wider.transcript);
  });

  it('is dropped by an append, an edit, a rename and a stream checkpoint of its conversation', async () => {
    const s = await store();
    const writes: [string, () => Promise<unknown>, string][] = [
      ['append', () => s.appendTurn('c1', user('u5', 'appended'), T0), 'u5:appended'],
      ['checkpoint', () => s.putTurn('c1', user('u5', 'changed'), T0), 'u5:changed'],
      ['edit', () => s.appendTurn('c1', user('u5b', 'edited'), T0, {}, 'u5'), 'u5b:edited'],
      ['rename', () => s.update('c1', { title: 'Renamed' }, T0), 'u5b:edited'],
    ];
    for (const [what, write, last] of writes) {
      await s.readBounded('c1', newest(2));
      expect((await s.readBounded('c1', newest(2)))!.reused, what).toBe(true);
      await write();
      const after = (await s.readBounded('c1', newest(2)))!;
      expect(after.reused, what).toBeUndefined();
      expect(shape(after.transcript).at(-1), what).toBe(last);
    }
    expect((await s.readBounded('c1', newest(2)))!.transcript.title).toBe('Renamed');
  });

  it('stays valid through a write of another conversation and the counts write-back, not a clear', async () => {
    const s = await store();
    const first = (await s.readBounded('c1', newest(2)))!;
    await s.appendTurn('c2', user('x2', 'more'), T0);
    expect((await s.readBounded('c1', newest(2)))!.transcript).toBe(first.transcript);
    // A plan over the turns read makes their counts; writing them back changes no turn.
    const counts = storedCountsFor(s.db);
    const before = counts.written;
    const whole = (await s.readBounded('c1', () => new Set(Array.from({ length: 10 }, (_, i) => i))))!;
    plan(
      whole.transcript,
      { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
      {},
      createTokenCache({ stored: counts }),
    );
    await counts.flush();
    expect(counts.written - before).toBe(10);
    expect((await s.readBounded('c1', newest(2)))!.transcript).toBe(whole.transcript);
    // Only one conversation's bounded read is kept: reading c2 replaces it.
    await s.readBounded('c2', newest(1));
    expect((await s.readBounded('c1', newest(2)))!.reused).toBeUndefined();
    s.transcripts.clear();
    expect((await s.readBounded('c1', newest(2)))!.reused).toBeUndefined();
  });

  it('a read overlapped by a write is returned but not kept', async () => {
    const s = await store();
    const reading = s.readBounded('c1', newest(2));
    const writing = s.appendTurn('c1', user('u5', 'during the read'), T0);
    await Promise.all([reading, writing]);
    const next = (await s.readBounded('c1', newest(2)))!;
    expect(next.reused).toBeUndefined();
    expect(shape(next.transcript).at(-1)).toBe('u5:during the read');
  });

  it('the whole read after it completes the kept read in slices: equal to a fresh whole read, reusing its turns', async () => {
    const s = await store();
    for (let i = 5; i < 1_400; i++) await s.appendTurn('c1', (i % 2 ? answer : user)(`t${i}`, `turn ${i}`), T0);
    // A branch: turns off the active path must not come in.
    await s.appendTurn('c1', user('t1400b', 'another version'), T0, {}, 't1399');
    await s.appendTurn('c1', answer('t1401', 'after the edit'), T0);
    const bounded = (await s.readBounded('c1', newest(30)))!;
    expect(bounded.standIns).toBeGreaterThan(COMPLETE_SLICE * 2);
    s.prefetchTranscript('c1');
    const whole = await s.cachedTranscript('c1');
    expect(whole).toEqual(await s.toTranscript('c1'));
    expect(whole.turns.some((t) => standInInfo(t) !== undefined)).toBe(false);
    expect(whole.turns.at(-1)).toBe(bounded.transcript.turns.at(-1));
  });

  it('a write while the slices are read makes it fall back to a whole read of the conversation as it is now', async () => {
    const s = await store();
    for (let i = 5; i < 1_200; i++) await s.appendTurn('c1', (i % 2 ? answer : user)(`t${i}`, `turn ${i}`), T0);
    await s.readBounded('c1', newest(4));
    s.prefetchTranscript('c1');
    // Lands between two slices (each slice waits a task for the next).
    await new Promise((resolve) => setTimeout(resolve, 0));
    await s.putTurn('c1', user('t1198', 'changed meanwhile'), T0);
    const whole = await s.cachedTranscript('c1');
    expect(whole).toEqual(await s.toTranscript('c1'));
    expect(shape(whole).at(-2)).toBe('t1198:changed meanwhile');
  });
});
