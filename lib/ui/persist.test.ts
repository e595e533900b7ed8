import { beforeEach, describe, expect, it } from 'vitest';
import { PERSIST_RECORD_KEY, requestPersistentStorage, resetPersistForTests } from './persist';

const AT = '2026-11-30T08:00:00.000Z';
function recorder() {
  const items = new Map<string, string>();
  return { items, setItem: (k: string, v: string) => void items.set(k, v) };
}

beforeEach(() => resetPersistForTests());

describe('persistent storage', () => {
  it('D5 asks once per page and records the answer, however often it is called', async () => {
    let calls = 0;
    const storage = { persist: async () => (++calls, true) };
    const rec = recorder();
    expect(
      await Promise.all([
        requestPersistentStorage(storage, rec, () => AT),
        requestPersistentStorage(storage, rec, () => AT),
      ]),
    ).toEqual(['granted', 'granted']);
    expect(await requestPersistentStorage(storage, rec, () => AT)).toBe('granted');
    expect(calls).toBe(1);
    expect([...rec.items]).toEqual([[PERSIST_RECORD_KEY, JSON.stringify({ result: 'granted', at: AT })]]);
  });

  it('D5 records a refusal, a missing API and a failure as such', async () => {
    const cases: [Parameters<typeof requestPersistentStorage>[0], string][] = [
      [{ persist: async () => false }, 'denied'],
      [{}, 'unsupported'],
      [undefined, 'unsupported'],
      [{ persist: async () => Promise.reject(new Error('no')) }, 'error'],
    ];
    for (const [storage, result] of cases) {
      resetPersistForTests();
      const rec = recorder();
      expect(await requestPersistentStorage(storage, rec, () => AT)).toBe(result);
      expect(JSON.parse(rec.items.get(PERSIST_RECORD_KEY)!)).toEqual({ result, at: AT });
    }
  });
});
