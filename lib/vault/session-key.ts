/**
 * The unlocked vault key across worker restarts (security-requirements.md S3; SECURITY.md, "The
 * passphrase"): unlocking stores a random session secret in the {@link SessionSecretStore}
 * (`chrome.storage.session`: memory only, trusted contexts only, gone when the browser closes) and
 * the derived key bytes sealed under that secret in IndexedDB (`settings` → `vaultSession`). A new
 * worker restores the non-extractable `CryptoKey` from the two; locking removes both.
 */
import { tx, type BatonDb } from '../store/db';
import { fromBase64, importVaultKey, open, randomBytes, seal, toBase64, type Sealed } from './crypto';
import type { SessionSecretStore } from './session';

/** `settings` record key of the sealed key bytes. */
const SESSION_KEY = 'vaultSession';

/** The derived key bytes sealed under the session secret (`settings` → `vaultSession`). */
interface SessionRecord extends Sealed {
  id: string;
}

/** The vault key held in worker memory and the id of the session it belongs to. */
export interface HeldKey {
  key: CryptoKey;
  id: string;
}

/**
 * Seals `raw` (the derived key bytes) under a fresh session secret, stores both, then zeroes
 * `raw` and the secret (also on failure). Returns the new session's id, with `key` to hold.
 */
export async function rememberKey(
  db: BatonDb,
  session: SessionSecretStore,
  key: CryptoKey,
  raw: Uint8Array<ArrayBuffer>,
): Promise<HeldKey> {
  const id = toBase64(randomBytes(9));
  const secret = randomBytes(32);
  try {
    const sealed = await seal(await importVaultKey(secret), raw, `${SESSION_KEY}|${id}`);
    await tx(
      db,
      ['settings'],
      'readwrite',
      async (t) =>
        void (await t
          .objectStore('settings')
          .put({ key: SESSION_KEY, value: { id, ...sealed } satisfies SessionRecord })),
      'strict',
    );
    await session.set(JSON.stringify({ id, secret: toBase64(secret) }));
  } finally {
    raw.fill(0);
    secret.fill(0);
  }
  return { key, id };
}

/**
 * The vault key if unlocked: `held` while the session secret that goes with it is still there,
 * else restored from the session secret and the sealed bytes (a worker restart). `null`: no
 * session secret at all (locked: forget any held key); undefined: not unlocked (a stale or
 * unreadable session; the held key is not used).
 */
export async function restoreKey(
  db: BatonDb,
  session: SessionSecretStore,
  held: HeldKey | undefined,
): Promise<HeldKey | null | undefined> {
  const stored = await session.get();
  let parsed: { id: string; secret: string } | undefined;
  try {
    parsed = stored ? (JSON.parse(stored) as { id: string; secret: string }) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed) return null;
  if (held && held.id === parsed.id) return held;
  const rec = (await db.get('settings', SESSION_KEY))?.value as SessionRecord | undefined;
  if (!rec || rec.id !== parsed.id) return undefined;
  const secret = fromBase64(parsed.secret);
  try {
    const raw = await open(await importVaultKey(secret), rec, `${SESSION_KEY}|${rec.id}`);
    const key = await importVaultKey(raw);
    raw.fill(0);
    return { key, id: parsed.id };
  } catch {
    return undefined;
  } finally {
    secret.fill(0);
  }
}

/** Removes the session secret and the sealed key bytes (S3: lock). */
export async function forgetKey(db: BatonDb, session: SessionSecretStore): Promise<void> {
  await session.clear();
  await tx(
    db,
    ['settings'],
    'readwrite',
    async (t) => void (await t.objectStore('settings').delete(SESSION_KEY)),
    'strict',
  );
}
