/**
 * D2: a full storage, injected as a fault in the database wrapper the stores write through
 * (fake-indexeddb underneath). The turn is written first and the conversation's metadata second,
 * so failing the second write proves the first is rolled back (no half-written record).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Vault } from '../vault/vault';
import { ConversationStore } from './conversations';
import { openBatonDb, STORES, type BatonDb } from './db';
import { isQuotaExceeded } from './quota';
import { user } from './store.test-helper';

const T0 = '2026-11-30T10:00:00.000Z';
const T1 = '2026-11-30T10:01:00.000Z';

type Fault = 'quota' | 'abort-with-quota';

/**
 * `db` whose transactions fail the write to `store` the way a full disk does: `quota` rejects the
 * write with `QuotaExceededError`; `abort-with-quota` aborts the real transaction, rejects the
 * write with `AbortError` and reports `QuotaExceededError` as the transaction's `error`.
 */
function faulty(db: BatonDb, fault: Fault, store: string): BatonDb {
  const bind = <T extends object>(target: T, prop: string | symbol) => {
    const v = Reflect.get(target, prop, target) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'transaction') return bind(target, prop);
      return (...args: Parameters<BatonDb['transaction']>) => {
        const t = target.transaction(...args);
        let aborted = false;
        return new Proxy(t, {
          get(tt, p) {
            if (p === 'error' && aborted) return new DOMException('The quota has been exceeded.', 'QuotaExceededError');
            if (p !== 'objectStore') return bind(tt, p);
            return (name: string) => {
              const os = tt.objectStore(name as never);
              if (name !== store) return os;
              return new Proxy(os, {
                get(o, q) {
                  if (q !== 'put' && q !== 'add') return bind(o, q);
                  return async () => {
                    if (fault === 'quota') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
                    aborted = true;
                    tt.abort();
                    throw new DOMException('The transaction was aborted.', 'AbortError');
                  };
                },
              });
            };
          },
        });
      };
    },
  });
}

async function dump(db: BatonDb): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const s of Object.values(STORES)) out[s] = await db.getAll(s);
  return JSON.stringify(out);
}

let n = 0;
let db: BatonDb | undefined;
afterEach(() => db?.close());

async function seeded() {
  db = await openBatonDb(`quota-${++n}`);
  const store = new ConversationStore(db);
  await store.create({ id: 'c1', now: T0 });
  await store.appendTurn('c1', user('u1', 'an earlier message'), T0, { title: 'Earlier' });
  await store.create({ id: 'c2', now: T0 });
  await new Vault(db).setKey('openai', 'sk-quota-test-key-0123456789', 'https://api.openai.com', T0);
  return db;
}

const STORAGE_FULL = {
  code: 'storage_full',
  message: 'Browser storage is full, so nothing was saved. Delete old conversations and try again.',
};

describe('D2 quota failures', () => {
  for (const fault of ['quota', 'abort-with-quota'] as const) {
    it(`D2 ${fault}: appending a turn fails with storage_full, the turn written before the failing write is rolled back, stored data byte-identical`, async () => {
      const real = await seeded();
      const before = await dump(real);
      const store = new ConversationStore(faulty(real, fault, 'conversations'));
      await expect(store.appendTurn('c1', user('u2', 'the unsent draft'), T1)).rejects.toMatchObject(STORAGE_FULL);
      await expect(store.create({ id: 'c3', now: T1 })).rejects.toMatchObject(STORAGE_FULL);
      expect(await dump(real)).toBe(before);
      // The store keeps working once there is room again.
      await new ConversationStore(real).appendTurn('c1', user('u2', 'the unsent draft'), T1);
      expect((await new ConversationStore(real).get('c1')).turns.map((t) => t.id)).toEqual(['u1', 'u2']);
    });

    it(`D2 ${fault}: checkpoints and key saves map to storage_full too, nothing changed`, async () => {
      const real = await seeded();
      const before = await dump(real);
      await expect(
        new ConversationStore(faulty(real, fault, 'turns')).putTurn('c1', user('u1', 'changed'), T1),
      ).rejects.toMatchObject(STORAGE_FULL);
      await expect(
        new Vault(faulty(real, fault, 'vault')).setKey(
          'anthropic',
          'sk-ant-0123456789abcdef',
          'https://api.anthropic.com',
          T1,
        ),
      ).rejects.toMatchObject(STORAGE_FULL);
      expect(await dump(real)).toBe(before);
    });
  }

  it('D2 recognises the quota error in its three shapes and nothing else', () => {
    const quota = new DOMException('q', 'QuotaExceededError');
    const abort = new DOMException('a', 'AbortError');
    expect(isQuotaExceeded(quota)).toBe(true);
    expect(isQuotaExceeded(abort, quota)).toBe(true);
    expect(isQuotaExceeded(Object.assign(new Error('a'), { name: 'AbortError', cause: quota }))).toBe(true);
    expect(isQuotaExceeded(abort)).toBe(false);
    expect(isQuotaExceeded(abort, null)).toBe(false);
    expect(isQuotaExceeded(new DOMException('c', 'ConstraintError'), quota)).toBe(false);
    expect(isQuotaExceeded('QuotaExceededError')).toBe(false);
  });
});
