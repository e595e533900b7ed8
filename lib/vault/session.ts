/**
 * Where the vault's session secret lives while the vault is unlocked (security-requirements.md
 * S3): in the extension `chrome.storage.session` area, which is kept in memory, cleared when the
 * browser closes, survives a service-worker restart, and — at its default access level — is
 * readable by trusted extension contexts only (S1: Baton never calls `setAccessLevel`).
 */

/** One string slot for the session secret. */
export interface SessionSecretStore {
  get(): Promise<string | undefined>;
  set(value: string): Promise<void>;
  clear(): Promise<void>;
}

/** The `storage.session` slice the vault uses (`browser.storage.session` in the extension). */
export interface StorageAreaLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

/** The `storage.session` key that holds the session secret. */
export const SESSION_STORAGE_KEY = 'batonVaultSession';

/** A {@link SessionSecretStore} over a `storage.session` area. */
export function storageSession(area: StorageAreaLike): SessionSecretStore {
  return {
    get: async () => {
      const v = (await area.get(SESSION_STORAGE_KEY))[SESSION_STORAGE_KEY];
      return typeof v === 'string' ? v : undefined;
    },
    set: (value) => area.set({ [SESSION_STORAGE_KEY]: value }),
    clear: () => area.remove(SESSION_STORAGE_KEY),
  };
}

/** A {@link SessionSecretStore} in this object only (tests; a worker restart forgets it). */
export function memorySession(): SessionSecretStore & { value: string | undefined } {
  const s = {
    value: undefined as string | undefined,
    get: async () => s.value,
    set: async (v: string) => void (s.value = v),
    clear: async () => void (s.value = undefined),
  };
  return s;
}
