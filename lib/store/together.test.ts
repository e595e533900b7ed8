/**
 * Requests issued together (lib/store/together.ts) against real transactions (fake-indexeddb): the
 * results come back in order, a failure reports the failing request's own error (not the aborts it
 * caused) and leaves nothing written, and an append does issue its writes together — several
 * requests in flight at once rather than one after another.
 */
import 'fake-indexeddb/auto';
import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { ConversationStore } from './conversations';
import { openBatonDb, type BatonDb } from './db';
import { together } from './together';

let n = 0;
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

async function plain(): Promise<IDBPDatabase> {
  const d = await openDB(`together-${n++}`, 1, {
    upgrade: (u) => {
      u.createObjectStore('a');
      u.createObjectStore('b');
    },
  });
  opened.push(d);
  return d;
}

describe('together', () => {
  it('gives every result in the order of the functions', async () => {
    const d = await plain();
    await d.put('a', 'one', 1);
    const t = d.transaction(['a', 'b'], 'readwrite');
    const [put, got, nothing] = await together([
      () => t.objectStore('b').put('two', 2),
      () => t.objectStore('a').get(1),
      () => undefined,
    ]);
    await t.done;
    expect([put, got, nothing]).toEqual([2, 'one', undefined]);
    expect(await d.get('b', 2)).toBe('two');
  });

  it("reports the failing request's own error, not the aborts of the requests issued before it, and nothing is written", async () => {
    const d = await plain();
    await d.put('a', 'kept', 1);
    const t = d.transaction(['a', 'b'], 'readwrite');
    const done = t.done.catch((e: unknown) => e);
    const failed = together([
      () => t.objectStore('b').put('lost', 1),
      () => t.objectStore('b').put('lost too', 2),
      // The key exists: ConstraintError, and the transaction aborts.
      () => t.objectStore('a').add('again', 1),
      // Issued after the abort: refused when issued.
      async () => {
        await t.objectStore('b').get(1);
        return t.objectStore('b').put('after', 3);
      },
    ]);
    await expect(failed).rejects.toMatchObject({ name: 'ConstraintError' });
    await done;
    expect(await d.getAll('b')).toEqual([]);
    expect(await d.get('a', 1)).toBe('kept');
  });

  it('a function that throws when called is a rejection like any other; the requests already issued are still awaited', async () => {
    const d = await plain();
    const t = d.transaction(['a'], 'readwrite');
    const boom = new Error('refused');
    await expect(
      together([
        () => t.objectStore('a').put('x', 1),
        () => {
          throw boom;
        },
      ]),
    ).rejects.toBe(boom);
    await t.done;
    expect(await d.get('a', 1)).toBe('x');
  });
});

/** `db` whose transactions count their requests in flight, keeping the largest count in `peak.max`. */
function counting(db: BatonDb, peak: { now: number; max: number }): BatonDb {
  type Fn = (...a: unknown[]) => unknown;
  const wrap = <T extends object>(o: T, inner: (f: Fn, p: string | symbol) => unknown): T =>
    new Proxy(o, {
      get(target, p) {
        const v = Reflect.get(target, p, target) as unknown;
        return typeof v === 'function' ? inner((v as Fn).bind(target), p) : v;
      },
    });
  const request =
    (f: Fn) =>
    (...a: unknown[]) => {
      const r = f(...a);
      if (!(r instanceof Promise)) return r;
      peak.max = Math.max(peak.max, ++peak.now);
      const settle = () => void peak.now--;
      r.then(settle, settle);
      return r;
    };
  const store = (s: object): object =>
    wrap(s, (f, p) =>
      p === 'index'
        ? (...a: unknown[]) => store(f(...a) as object)
        : ['get', 'getAll', 'getAllKeys', 'put', 'add', 'delete', 'count', 'clear'].includes(String(p))
          ? request(f)
          : f,
    );
  return wrap(db, (f, p) =>
    p === 'transaction'
      ? (...a: unknown[]) =>
          wrap(f(...a) as object, (g, q) => (q === 'objectStore' ? (...b: unknown[]) => store(g(...b) as object) : g))
      : f,
  );
}

describe('the append issues its writes together', () => {
  it('an append has several requests in flight at once, and stores the same as one after another would', async () => {
    const db = await openBatonDb(`together-append-${n++}`);
    opened.push(db);
    const peak = { now: 0, max: 0 };
    const store = new ConversationStore(counting(db, peak));
    const turn = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
    await store.create({ id: 'c', now: '2026-12-02T10:00:00.000Z' });
    await store.appendTurn('c', turn('u1', 'hello'), '2026-12-02T10:01:00.000Z');
    peak.max = 0;
    await store.appendTurn('c', turn('u2', 'again'), '2026-12-02T10:02:00.000Z', { title: 'Greetings' });
    // The turn, its search record, the path index's head, the title's record, the record and its list page.
    expect(peak.max).toBeGreaterThanOrEqual(4);
    expect((await store.get('c')).turns.map((t) => t.id)).toEqual(['u1', 'u2']);
    expect((await store.list()).map((m) => [m.id, m.title, m.turnCount])).toEqual([['c', 'Greetings', 2]]);
  });
});
