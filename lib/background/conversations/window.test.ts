import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../transcript/schema';
import type { ConversationStore } from '../../store/conversations';
import type { BatonDb } from '../../store/db';
import { BatonError } from '../../messaging/errors';
import { createTestBackground, NOW, user as userTurn } from '../background.test-helper';
import { DEFAULT_PAGE, getConversationWindow } from './window';

let db: BatonDb | undefined;
afterEach(() => db?.close());
const user = (id: string): Turn => userTurn(id, id);

/** The shared background's conversation `c1`, titled 'Long', with `count` user turns `t0…`. */
async function storeWith(count: number): Promise<ConversationStore> {
  const bg = await createTestBackground(undefined, { name: 'handlers-window' });
  db = bg.db;
  const s = bg.store;
  await s.update('c1', { title: 'Long' });
  for (let i = 0; i < count; i++) await s.appendTurn('c1', user(`t${i}`), NOW);
  return s;
}
const ids = (turns: Turn[]) => turns.map((t) => t.id);

describe('getConversation (docs/architecture.md#long-conversations-and-speed window)', () => {
  it('without limit returns every turn, as before', async () => {
    const s = await storeWith(60);
    const v = await getConversationWindow(s, { id: 'c1' }, false);
    expect({ n: v.turns.length, hasEarlier: v.hasEarlier, busy: v.busy, meta: v.meta.turnCount }).toEqual({
      n: 60,
      hasEarlier: false,
      busy: false,
      meta: 60,
    });
  });

  it('with limit returns the newest turns and the metadata; with before, the page before it', async () => {
    const s = await storeWith(60);
    const v = await getConversationWindow(s, { id: 'c1', limit: 50 }, true);
    expect({
      first: v.turns[0]!.id,
      last: v.turns.at(-1)!.id,
      n: v.turns.length,
      hasEarlier: v.hasEarlier,
      busy: v.busy,
      title: v.meta.title,
    }).toEqual({ first: 't10', last: 't59', n: 50, hasEarlier: true, busy: true, title: 'Long' });
    const older = await getConversationWindow(s, { id: 'c1', before: 't10' }, false);
    expect([ids(older.turns), older.hasEarlier]).toEqual([Array.from({ length: 10 }, (_, i) => `t${i}`), false]);
    expect(DEFAULT_PAGE).toBe(50);
  });

  it('a missing conversation or turn is a not_found BatonError with its own message', async () => {
    const s = await storeWith(2);
    for (const [p, message] of [
      [{ id: 'gone', limit: 5 }, 'This conversation no longer exists.'],
      [{ id: 'gone' }, 'This conversation no longer exists.'],
      [{ id: 'c1', limit: 5, before: 'nope' }, 'That message is no longer in this conversation.'],
    ] as const) {
      const e = await getConversationWindow(s, p, false).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BatonError);
      expect({ code: (e as BatonError).code, message: (e as BatonError).message }).toEqual({
        code: 'not_found',
        message,
      });
    }
  });
});
