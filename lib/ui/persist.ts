/**
 * Eviction protection (security-requirements.md D5): the side panel — not the service worker,
 * which cannot show the permission — asks once for persistent storage and records the answer,
 * so Chrome does not evict conversations under storage pressure.
 */

/** The part of `navigator.storage` used. */
export interface StorageManagerLike {
  persist?(): Promise<boolean>;
}

/** Where the answer is recorded (`localStorage` of the side panel's origin). */
export interface RecordLike {
  setItem(key: string, value: string): void;
}

/** `localStorage` key of the recorded answer: JSON `{result, at}`. */
export const PERSIST_RECORD_KEY = 'baton.storagePersist';

/** `granted` / `denied` as the browser answered; `unsupported` without the API; `error` when it threw. */
export type PersistResult = 'granted' | 'denied' | 'unsupported' | 'error';

let once: Promise<PersistResult> | undefined;

/**
 * Calls `storage.persist()` at most once per page (later calls get the first answer) and records
 * the result under {@link PERSIST_RECORD_KEY}. Never throws.
 */
export function requestPersistentStorage(
  storage: StorageManagerLike | undefined = globalThis.navigator?.storage,
  record: RecordLike | undefined = globalThis.localStorage,
  now: () => string = () => new Date().toISOString(),
): Promise<PersistResult> {
  once ??= (async (): Promise<PersistResult> => {
    let result: PersistResult;
    try {
      result =
        typeof storage?.persist === 'function' ? ((await storage.persist()) ? 'granted' : 'denied') : 'unsupported';
    } catch {
      result = 'error';
    }
    try {
      record?.setItem(PERSIST_RECORD_KEY, JSON.stringify({ result, at: now() }));
    } catch {
      // a page without storage: the answer is still returned
    }
    return result;
  })();
  return once;
}

/** Forgets the first call (tests only). */
export function resetPersistForTests(): void {
  once = undefined;
}
