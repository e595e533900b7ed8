import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { ConversationStore, NotFoundError } from './conversations';
import { openBatonDb, type BatonDb } from './db';
import { readTurnWindow } from './turn-window';

let n = 0;
let db: BatonDb | undefined;
afterEach(() => db?.close());

const T0 = '2026-11-30T10:00:00.000Z';
const user = (id: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text: id }] });

/** A store with conversation `c1` of `count` turns t0…t{count-1}, and an other conversation `c2` of 3 turns. */
async function seeded(count: number): Promise<BatonDb> {
  db = await openBatonDb(`window-${++n}`);
  const s = new ConversationStore(db);
  await s.create({ id: 'c1', now: T0 });
  await s.create({ id: 'c2', now: T0 });
  for (let i = 0; i < count; i++) await s.appendTurn('c1', user(`t${i}`), T0);
  for (let i = 0; i < 3; i++) await s.appendTurn('c2', user(`o${i}`), T0);
  return db;
}
const ids = (turns: Turn[]) => turns.map((t) => t.id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `t${from + i}`);

describe('readTurnWindow', () => {
  it('reads the newest `limit` turns in order and says whether older ones exist', async () => {
    const d = await seeded(7);
    const w = await readTurnWindow(d, 'c1', { limit: 3 });
    expect({ turns: ids(w.turns), hasEarlier: w.hasEarlier, id: w.record.id, first: w.first }).toEqual({
      turns: ['t4', 't5', 't6'],
      hasEarlier: true,
      id: 'c1',
      first: user('t0'),
    });
  });

  it('returns the first turn only when it is not in the window', async () => {
    const d = await seeded(4);
    expect((await readTurnWindow(d, 'c1', { limit: 4 })).first).toBeUndefined();
    expect((await readTurnWindow(d, 'c1', { limit: 2, before: 't2' })).first).toBeUndefined();
    expect((await readTurnWindow(d, 'c1', { limit: 1, before: 't2' })).first).toEqual(user('t0'));
  });

  it('pages backwards from a turn until the first, never crossing into another conversation', async () => {
    const d = await seeded(7);
    const a = await readTurnWindow(d, 'c1', { limit: 3, before: 't4' });
    expect([ids(a.turns), a.hasEarlier]).toEqual([['t1', 't2', 't3'], true]);
    const b = await readTurnWindow(d, 'c1', { limit: 3, before: 't1' });
    expect([ids(b.turns), b.hasEarlier]).toEqual([['t0'], false]);
    const c = await readTurnWindow(d, 'c1', { limit: 3, before: 't0' });
    expect([ids(c.turns), c.hasEarlier]).toEqual([[], false]);
  });

  it('a window exactly the size of the conversation has nothing earlier', async () => {
    const d = await seeded(4);
    const w = await readTurnWindow(d, 'c1', { limit: 4 });
    expect([ids(w.turns), w.hasEarlier]).toEqual([range(0, 4), false]);
    const empty = await readTurnWindow(d, 'c1', { limit: 4, before: 't0' });
    expect([ids(empty.turns), empty.hasEarlier]).toEqual([[], false]);
  });

  it('pages cover the whole conversation once, in order', async () => {
    const d = await seeded(23);
    const pages: string[][] = [];
    let w = await readTurnWindow(d, 'c1', { limit: 5 });
    pages.unshift(ids(w.turns));
    while (w.hasEarlier) {
      w = await readTurnWindow(d, 'c1', { limit: 5, before: w.turns[0]!.id });
      pages.unshift(ids(w.turns));
    }
    expect(pages.flat()).toEqual(range(0, 23));
    expect(pages.map((p) => p.length)).toEqual([3, 5, 5, 5, 5]);
  });

  it('refuses an unknown conversation, an unknown or foreign `before` turn, and a bad limit', async () => {
    const d = await seeded(2);
    await expect(readTurnWindow(d, 'nope', { limit: 2 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(readTurnWindow(d, 'c1', { limit: 2, before: 'missing' })).rejects.toThrow(
      'turn missing not found in conversation c1',
    );
    await expect(readTurnWindow(d, 'c1', { limit: 2, before: 'o1' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(readTurnWindow(d, 'c1', { limit: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(readTurnWindow(d, 'c1', { limit: 1.5 })).rejects.toBeInstanceOf(RangeError);
  });
});
