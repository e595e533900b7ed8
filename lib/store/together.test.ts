/**
 * Requests issued together (lib/store/together.ts) against real transactions (fake-indexeddb): the
 * results come back in order, a failure reports the failing request's own error (not the aborts it
 * caused) and leaves nothing written, and an append, a checkpoint (`putTurn`) and the final answer's
 * write (`finishSend`) do issue their requests together — several in flight at once rather than one
 * after another — while a failure still reports its own error and writes nothing.
 */
import 'fake-indexeddb/auto';
import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryReceipt } from '../context/delivery';
import { ConversationStore } from './conversations';
import { openBatonDb, STORES, type BatonDb } from './db';
import { DisclosureStore, type FinishedSend } from './disclosures';
import { answer, user } from './store.test-helper';
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

  it("an abort at once wins over a later function's InvalidStateError (a store asked of the finished transaction)", async () => {
    const d = await plain();
    const t = d.transaction(['a', 'b'], 'readwrite');
    const done = t.done.catch((e: unknown) => e);
    // How a full disk may show (lib/store/quota.ts): the write aborts the transaction and rejects
    // with AbortError, the quota error being the transaction's; the caller maps that to storage_full.
    const failed = together([
      () => t.objectStore('a').put('lost', 1),
      () => {
        t.abort();
        return Promise.reject(new DOMException('The transaction was aborted.', 'AbortError'));
      },
      // The transaction has finished: asking it for a store throws InvalidStateError.
      () => t.objectStore('b').put('never', 2),
    ]);
    await expect(failed).rejects.toMatchObject({ name: 'AbortError' });
    await done;
    expect([await d.getAll('a'), await d.getAll('b')]).toEqual([[], []]);
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
    await store.create({ id: 'c', now: '2026-12-02T10:00:00.000Z' });
    await store.appendTurn('c', user('u1', 'hello'), '2026-12-02T10:01:00.000Z');
    peak.max = 0;
    await store.appendTurn('c', user('u2', 'again'), '2026-12-02T10:02:00.000Z', { title: 'Greetings' });
    // The turn, its search record, the path index's head, the title's record, the record and its list page.
    expect(peak.max).toBeGreaterThanOrEqual(4);
    expect((await store.get('c')).turns.map((t) => t.id)).toEqual(['u1', 'u2']);
    expect((await store.list()).map((m) => [m.id, m.title, m.turnCount])).toEqual([['c', 'Greetings', 2]]);
  });
});

const T0 = '2026-12-02T10:00:00.000Z';
const T1 = '2026-12-02T10:05:00.000Z';

/** A ledger record of a completed send of conversation c. */
const sent = (receipt?: FinishedSend['receipt']): FinishedSend => ({
  record: {
    conversationId: 'c',
    at: T1,
    providerId: 'openai',
    api: 'openai-responses',
    model: 'gpt-5.5',
    endpoint: 'https://api.openai.com',
    turns: [['u1', 'hash-of-u1']],
    status: 'completed',
    mode: 'snapshot',
  },
  ...(receipt !== undefined ? { receipt } : {}),
});

/** Every store's content, as one string. */
async function dump(db: BatonDb): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const s of Object.values(STORES)) out[s] = await db.getAll(s);
  return JSON.stringify(out);
}

/** A database holding conversation c: a question and a streamed answer, `a1`, to replace. */
async function answered(): Promise<{ db: BatonDb; peak: { now: number; max: number } }> {
  const db = await openBatonDb(`together-replace-${n++}`);
  opened.push(db);
  const store = new ConversationStore(db);
  await store.create({ id: 'c', now: T0 });
  await store.appendTurn('c', user('u1', 'hello'), T0);
  await store.appendTurn('c', answer('a1', 'partial'), T0);
  return { db, peak: { now: 0, max: 0 } };
}

describe('replacing a turn issues its requests together', () => {
  it('a checkpoint (putTurn) has several requests in flight at once, and stores what it replaced', async () => {
    const { db, peak } = await answered();
    const meta = await new ConversationStore(counting(db, peak)).putTurn('c', answer('a1', 'partial, more'), T1);
    // The turn, its search record, the path index's head, the record and its list page.
    expect(peak.max).toBeGreaterThanOrEqual(4);
    expect([meta.updatedAt, meta.preview]).toEqual([T1, 'partial, more']);
    const fresh = new ConversationStore(db);
    expect((await fresh.get('c')).turns.map((t) => [t.id, t.blocks])).toEqual([
      ['u1', [{ type: 'text', text: 'hello' }]],
      ['a1', [{ type: 'text', text: 'partial, more' }]],
    ]);
    expect((await fresh.list()).map((m) => [m.id, m.preview, m.updatedAt])).toEqual([['c', 'partial, more', T1]]);
  });

  it('the final answer (finishSend) has several requests in flight at once, and stores the turn, the ledger record and the receipt', async () => {
    const { db, peak } = await answered();
    const receipt: DeliveryReceipt = {
      providerSessionKey: 'openai|https://api.openai.com',
      branchId: 'a1',
      responseId: 'resp_1',
      status: 'completed',
      anchorTurnId: 'a1',
      anchorHash: 'hash-of-a1',
      deliveredTurns: [['u1', 'hash-of-u1']],
    };
    await new DisclosureStore(counting(db, peak)).finishSend('c', answer('a1', 'final'), T1, sent(receipt));
    // The ledger record beside the turn, its search record, the path index's head, the record and its page.
    expect(peak.max).toBeGreaterThanOrEqual(4);
    const ledger = new DisclosureStore(db);
    expect((await ledger.list('c')).map((r) => [r.at, r.turns])).toEqual([[T1, [['u1', 'hash-of-u1']]]]);
    expect((await ledger.getConversationState('c')).receipt).toEqual(receipt);
    expect((await new ConversationStore(db).get('c')).turns.at(-1)?.blocks).toEqual([{ type: 'text', text: 'final' }]);
  });

  it('finishSend of a missing turn: NotFoundError, and neither the ledger record nor anything else is written', async () => {
    const { db } = await answered();
    const before = await dump(db);
    await expect(new DisclosureStore(db).finishSend('c', answer('gone', 'final'), T1, sent())).rejects.toMatchObject({
      name: 'NotFoundError',
    });
    expect(await dump(db)).toBe(before);
  });

  it("finishSend whose ledger write fails: that request's own error, not the aborts it caused, and nothing is written", async () => {
    const { db } = await answered();
    const ledger = new DisclosureStore(db);
    await ledger.addRecord(sent().record);
    const id = (await ledger.list('c'))[0]!.id;
    expect(id).toBeTypeOf('number');
    const before = await dump(db);
    // A record under an id the ledger holds: the add fails with ConstraintError.
    const clash: FinishedSend = { record: { ...sent().record, id } as FinishedSend['record'] };
    await expect(ledger.finishSend('c', answer('a1', 'final'), T1, clash)).rejects.toMatchObject({
      name: 'ConstraintError',
    });
    expect(await dump(db)).toBe(before);
    expect((await new ConversationStore(db).get('c')).turns.at(-1)?.blocks).toEqual([
      { type: 'text', text: 'partial' },
    ]);
  });
});
