/**
 * D3 upgrade blocking with fake-indexeddb, which implements the IndexedDB `versionchange` /
 * `blocked` events of the spec: another context holding version N while version N+1 opens.
 * `terminated` (the browser closing a connection abnormally) cannot be produced by
 * fake-indexeddb, so that case calls the hook the way idb does.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversations';
import { DB_VERSION, openBatonDb, type BatonDb, type OpenHooks } from './db';
import { openLiveDb } from './db-lifecycle';

let n = 0;
const name = () => `lifecycle-${++n}`;

describe('D3 upgrade blocking', () => {
  it('D3 a holder of version N closes on `blocking`, so version N+1 opens instead of waiting on it', async () => {
    const db = name();
    let holderBlocking = 0;
    const holder = await openBatonDb(db, { onBlocking: () => holderBlocking++ });
    await new ConversationStore(holder).create({ id: 'c1', now: 'now' });
    // Were the holder to stay open, this would wait for ever (`blocked`) and the test time out.
    const upgraded = await openBatonDb(db, {}, DB_VERSION + 1);
    expect(upgraded.version).toBe(DB_VERSION + 1);
    expect(holderBlocking).toBe(1);
    // The holder's connection is closed; the data is intact in the new version.
    expect(() => holder.transaction('conversations')).toThrow();
    expect((await new ConversationStore(upgraded).list()).map((c) => c.id)).toEqual(['c1']);
    upgraded.close();
  });

  it('D3 a holder that does not close: `blocked` is reported at once (the UI says "close other Baton pages"), and the open completes when it closes', async () => {
    const db = name();
    // A page with an old connection and no versionchange handler: it never closes by itself.
    const stubborn = await openDB(db, DB_VERSION, {
      upgrade: (d) => void d.createObjectStore('conversations', { keyPath: 'id' }),
    });
    const events: string[] = [];
    const live = openLiveDb((hooks) => openBatonDb(db, hooks, DB_VERSION + 1), {
      onBlocked: () => events.push('blocked'),
      onUnblocked: () => events.push('unblocked'),
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(['blocked']);
    expect(live.blocked()).toBe(true);
    stubborn.close();
    const opened = await live.ready;
    expect(opened.version).toBe(DB_VERSION + 1);
    expect(events).toEqual(['blocked', 'unblocked']);
    expect(live.blocked()).toBe(false);
    opened.close();
  });

  it('D3 `terminated` reopens the database, and stores holding the live handle keep working', async () => {
    const db = name();
    const opens: OpenHooks[] = [];
    let reopened = 0;
    const live = openLiveDb(
      (hooks) => {
        opens.push(hooks);
        return openBatonDb(db, hooks);
      },
      { onReopened: () => reopened++ },
    );
    const first: BatonDb = await live.ready;
    const store = new ConversationStore(live.db);
    await store.create({ id: 'c1', now: 'now' });
    // The browser terminates the connection (idb calls `terminated` after the `close` event).
    first.close();
    opens[0]!.onTerminated!();
    await new Promise((r) => setTimeout(r, 50));
    expect(opens).toHaveLength(2);
    expect(reopened).toBe(1);
    await store.create({ id: 'c2', now: 'now' });
    expect((await store.list()).map((c) => c.id).sort()).toEqual(['c1', 'c2']);
  });
});
