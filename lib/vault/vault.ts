/**
 * Provider keys in the extension's IndexedDB (`vault` store): never in `storage.sync` or
 * `storage.local`, never exported, never logged, shown again only masked (security-requirements.md
 * S1, S5). Each key is bound to the origin it may be sent to (N2).
 *
 * Passphrase mode (S2, S3; design in SECURITY.md, "The passphrase"): every key record is sealed
 * with AES-GCM under a key derived from the passphrase (PBKDF2-SHA-256, ≥ 600,000 iterations,
 * 16-byte salt); the derived `CryptoKey` is non-extractable and lives in worker memory. To survive
 * a worker restart within the browser session, unlocking also stores a random *session secret* in
 * `chrome.storage.session` (in memory, trusted contexts only, gone when the browser closes) and the
 * derived key bytes sealed under that secret in IndexedDB (`settings` → `vaultSession`). Locked
 * (no key in memory and no matching session secret) → {@link Vault.getKey} throws
 * `BatonError('locked')`, so no send can start.
 */
import { BatonError } from '../messaging/errors';
import { tx, type BatonDb, type SealedVaultRecord, type VaultRecord } from '../store/db';
import {
  deriveKeyBytes,
  fromBase64,
  fromUtf8,
  importVaultKey,
  open,
  PBKDF2_ITERATIONS,
  randomBytes,
  SALT_BYTES,
  seal,
  toBase64,
  utf8,
  type KdfParams,
  type Sealed,
} from './crypto';
import { memorySession, type SessionSecretStore } from './session';
import { forgetKey, rememberKey, restoreKey } from './session-key';

/** At most the last 4 characters, e.g. `••••7f3a` (S5). Keys of 8 characters or fewer show no characters. */
export function maskKey(secret: string): string {
  return secret.length > 8 ? `••••${secret.slice(-4)}` : '••••';
}

/** `settings` record keys the vault owns. */
const META_KEY = 'vault';
/** Known plaintext sealed with the vault key, so a wrong passphrase is detected without touching a key record. */
const CHECK_PLAIN = 'baton-vault-check-v1';

/** The passphrase's KDF parameters and a check value (`settings` → `vault`). */
interface VaultMeta {
  version: 1;
  kdf: KdfParams;
  salt: string;
  check: Sealed;
}

/** Whether a passphrase is set, and whether the vault is locked. */
export interface VaultStatus {
  passphrase: boolean;
  locked: boolean;
  /** PBKDF2 iterations of the current passphrase. */
  iterations?: number;
}

export interface VaultOptions {
  /** Where the session secret lives (the background passes `chrome.storage.session`); default in memory. */
  session?: SessionSecretStore;
  /** PBKDF2 iterations for a new passphrase; default {@link PBKDF2_ITERATIONS} (tests pass fewer). */
  iterations?: number;
}

/** The one error for any passphrase that does not open the vault (S3: one generic error). */
const wrongPassphrase = () => new BatonError('locked', 'That passphrase does not unlock the keys.');
const lockedError = () =>
  new BatonError('locked', 'Baton is locked. Unlock it with your passphrase in the options page.');
const aadOf = (providerId: string, boundOrigin: string) => `${providerId}|${boundOrigin}`;

export class Vault {
  private key: CryptoKey | undefined;
  private keySession: string | undefined;
  private readonly session: SessionSecretStore;
  private readonly iterations: number;
  /** Tail of the queue that runs key and passphrase changes one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: BatonDb,
    opts: VaultOptions = {},
  ) {
    this.session = opts.session ?? memorySession();
    this.iterations = opts.iterations ?? PBKDF2_ITERATIONS;
  }

  /** Lock state (S3). Never throws for a locked vault. */
  async status(): Promise<VaultStatus> {
    const meta = await this.meta();
    if (!meta) return { passphrase: false, locked: false };
    return { passphrase: true, locked: (await this.currentKey()) === undefined, iterations: meta.kdf.iterations };
  }

  /**
   * Saves (replaces) a provider's key, bound to `boundOrigin`; sealed when a passphrase is set.
   * Written with strict durability (D4). @throws BatonError('locked') in passphrase mode while locked.
   */
  setKey(providerId: string, secret: string, boundOrigin: string, now: string): Promise<void> {
    return this.serial(() => this.setKeyNow(providerId, secret, boundOrigin, now));
  }

  private async setKeyNow(providerId: string, secret: string, boundOrigin: string, now: string): Promise<void> {
    const meta = await this.meta();
    let rec: VaultRecord = { providerId, version: 1, secret, boundOrigin, savedAt: now };
    if (meta) {
      const key = await this.currentKey();
      if (!key) throw lockedError();
      rec = await sealRecord(key, meta, rec);
    }
    await tx(this.db, ['vault'], 'readwrite', async (t) => void (await t.objectStore('vault').put(rec)), 'strict');
  }

  /**
   * The key and the origin it is bound to, or undefined. Only the background calls this.
   * @throws BatonError('locked') in passphrase mode while locked (S3), whatever the provider.
   */
  async getKey(providerId: string): Promise<{ secret: string; boundOrigin: string } | undefined> {
    const meta = await this.meta();
    const key = meta ? await this.currentKey() : undefined;
    if (meta && !key) throw lockedError();
    const rec = await this.db.get('vault', providerId);
    if (!rec) return undefined;
    return { secret: await this.secretOf(rec, key), boundOrigin: rec.boundOrigin };
  }

  async deleteKey(providerId: string): Promise<void> {
    await tx(
      this.db,
      ['vault'],
      'readwrite',
      async (t) => void (await t.objectStore('vault').delete(providerId)),
      'strict',
    );
  }

  /** Whether a key is stored, its origin, and its masked form (S5) — no mask while locked. Never throws `locked`. */
  async describe(providerId: string): Promise<{ masked?: string; boundOrigin: string } | undefined> {
    const rec = await this.db.get('vault', providerId);
    if (!rec) return undefined;
    if (rec.version === 1) return { masked: maskKey(rec.secret), boundOrigin: rec.boundOrigin };
    const key = await this.currentKey();
    return key
      ? { masked: maskKey(await this.secretOf(rec, key)), boundOrigin: rec.boundOrigin }
      : { boundOrigin: rec.boundOrigin };
  }

  /** Masked keys of every provider that has one (S5: never the full key); no mask while locked. */
  async masked(): Promise<Map<string, { masked?: string; boundOrigin: string }>> {
    const out = new Map<string, { masked?: string; boundOrigin: string }>();
    for (const rec of await this.db.getAll('vault')) {
      const d = await this.describe(rec.providerId);
      if (d) out.set(rec.providerId, d);
    }
    return out;
  }

  /** Every secret readable now, for redaction of logs and error text (S4); none of the sealed ones while locked. */
  async allSecrets(): Promise<string[]> {
    const key = await this.currentKey();
    const out: string[] = [];
    for (const rec of await this.db.getAll('vault'))
      if (rec.version === 1 || key) out.push(await this.secretOf(rec, key));
    return out;
  }

  /**
   * Sets the passphrase, or changes it (`current` required then): every key is (re)sealed under a
   * new salt and key in one strict transaction, and the vault stays unlocked.
   * @throws BatonError('locked') when `current` is wrong or missing while a passphrase is set;
   * BatonError('busy') when keys changed during the operation (nothing written).
   */
  setPassphrase(passphrase: string, current?: string): Promise<void> {
    return this.serial(() => this.setPassphraseNow(passphrase, current));
  }

  private async setPassphraseNow(passphrase: string, current?: string): Promise<void> {
    const old = await this.meta();
    const oldKey = old ? await this.keyFromPassphrase(old, current) : undefined;
    const records = await this.db.getAll('vault');
    const plain = await Promise.all(records.map(async (r) => ({ ...r, secret: await this.secretOf(r, oldKey) })));
    const salt = randomBytes(SALT_BYTES);
    const kdf: KdfParams = { name: 'PBKDF2', hash: 'SHA-256', iterations: this.iterations };
    const raw = await deriveKeyBytes(passphrase, salt, kdf.iterations);
    const key = await importVaultKey(raw);
    const meta: VaultMeta = {
      version: 1,
      kdf,
      salt: toBase64(salt),
      check: await seal(key, utf8(CHECK_PLAIN), META_KEY),
    };
    const sealed = await Promise.all(
      plain.map((p) =>
        sealRecord(key, meta, {
          providerId: p.providerId,
          secret: p.secret,
          boundOrigin: p.boundOrigin,
          savedAt: p.savedAt,
        }),
      ),
    );
    await this.replaceAll(records, sealed, old, meta);
    await this.remember(key, raw);
  }

  /** Unlocks with the passphrase (S3). @throws BatonError('locked') for a wrong one (nothing stored changes) or when no passphrase is set. */
  unlock(passphrase: string): Promise<void> {
    return this.serial(() => this.unlockNow(passphrase));
  }

  private async unlockNow(passphrase: string): Promise<void> {
    const meta = await this.meta();
    if (!meta) throw new BatonError('bad_request', 'No passphrase is set.');
    const { key, raw } = await this.derive(meta, passphrase);
    await this.remember(key, raw);
  }

  /** Forgets the key: worker memory, the session secret and its sealed copy (S3). */
  lock(): Promise<void> {
    return this.serial(() => this.lockNow());
  }

  private async lockNow(): Promise<void> {
    this.key = undefined;
    this.keySession = undefined;
    await forgetKey(this.db, this.session);
  }

  /** Stores every key in plain form again and forgets the passphrase. @throws BatonError('locked') for a wrong passphrase. */
  removePassphrase(passphrase: string): Promise<void> {
    return this.serial(() => this.removePassphraseNow(passphrase));
  }

  private async removePassphraseNow(passphrase: string): Promise<void> {
    const meta = await this.meta();
    if (!meta) return;
    const key = await this.keyFromPassphrase(meta, passphrase);
    const records = await this.db.getAll('vault');
    const plain = await Promise.all(
      records.map(async (r): Promise<VaultRecord> => ({
        providerId: r.providerId,
        version: 1,
        secret: await this.secretOf(r, key),
        boundOrigin: r.boundOrigin,
        savedAt: r.savedAt,
      })),
    );
    await this.replaceAll(records, plain, meta, undefined);
    await this.lockNow();
  }

  /**
   * Runs `work` after every change queued before it (a double-submitted "Set passphrase" must not
   * leave the key of one call in memory and the salt of the other stored: keys saved then were lost).
   */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async meta(): Promise<VaultMeta | undefined> {
    return (await this.db.get('settings', META_KEY))?.value as VaultMeta | undefined;
  }

  private async keyFromPassphrase(meta: VaultMeta, passphrase: string | undefined): Promise<CryptoKey> {
    if (passphrase === undefined) throw wrongPassphrase();
    return (await this.derive(meta, passphrase)).key;
  }

  /** Derives the key and checks it against the meta record. @throws the generic wrong-passphrase error. */
  private async derive(meta: VaultMeta, passphrase: string): Promise<{ key: CryptoKey; raw: Uint8Array<ArrayBuffer> }> {
    const raw = await deriveKeyBytes(passphrase, fromBase64(meta.salt), meta.kdf.iterations);
    const key = await importVaultKey(raw);
    try {
      if (fromUtf8(await open(key, meta.check, META_KEY)) !== CHECK_PLAIN) throw new Error('check');
    } catch {
      raw.fill(0);
      throw wrongPassphrase();
    }
    return { key, raw };
  }

  /** Keeps `key` in memory and seals its bytes under a fresh session secret, then zeroes them (`rememberKey`). */
  private async remember(key: CryptoKey, raw: Uint8Array<ArrayBuffer>): Promise<void> {
    const held = await rememberKey(this.db, this.session, key, raw);
    this.key = held.key;
    this.keySession = held.id;
  }

  /** The vault key if unlocked, else undefined (`restoreKey`: after a worker restart, from the session secret). */
  private async currentKey(): Promise<CryptoKey | undefined> {
    const held = await restoreKey(
      this.db,
      this.session,
      this.key && this.keySession !== undefined ? { key: this.key, id: this.keySession } : undefined,
    );
    if (held === null) {
      this.key = undefined;
      this.keySession = undefined;
      return undefined;
    }
    if (held) {
      this.key = held.key;
      this.keySession = held.id;
    }
    return held?.key;
  }

  private async secretOf(rec: VaultRecord, key: CryptoKey | undefined): Promise<string> {
    if (rec.version === 1) return rec.secret;
    if (!key) throw lockedError();
    try {
      return fromUtf8(await open(key, rec, aadOf(rec.providerId, rec.boundOrigin)));
    } catch {
      throw new BatonError('internal', `The stored key for ${rec.providerId} could not be decrypted; save it again.`);
    }
  }

  /**
   * Replaces every key record and the meta record in one strict transaction, after checking
   * inside it that the records are still the ones read before the crypto work (D5: no crypto
   * awaits inside the transaction), and so is the passphrase record (`oldMeta`: another worker may
   * have changed the passphrase). @throws BatonError('busy') when they changed.
   */
  private async replaceAll(
    before: VaultRecord[],
    after: VaultRecord[],
    oldMeta: VaultMeta | undefined,
    meta: VaultMeta | undefined,
  ): Promise<void> {
    await tx(
      this.db,
      ['vault', 'settings'],
      'readwrite',
      async (t) => {
        const now = await t.objectStore('vault').getAll();
        const nowMeta = (await t.objectStore('settings').get(META_KEY))?.value;
        if (JSON.stringify(now) !== JSON.stringify(before) || JSON.stringify(nowMeta) !== JSON.stringify(oldMeta))
          throw new BatonError('busy', 'The keys changed meanwhile; try again.');
        for (const r of after) await t.objectStore('vault').put(r);
        if (meta) await t.objectStore('settings').put({ key: META_KEY, value: meta });
        else await t.objectStore('settings').delete(META_KEY);
      },
      'strict',
    );
  }
}

async function sealRecord(
  key: CryptoKey,
  meta: VaultMeta,
  rec: { providerId: string; secret: string; boundOrigin: string; savedAt: string },
): Promise<SealedVaultRecord> {
  const sealed = await seal(key, utf8(rec.secret), aadOf(rec.providerId, rec.boundOrigin));
  return {
    providerId: rec.providerId,
    version: 2,
    kdf: meta.kdf,
    salt: meta.salt,
    iv: sealed.iv,
    ciphertext: sealed.ciphertext,
    boundOrigin: rec.boundOrigin,
    savedAt: rec.savedAt,
  };
}
