/**
 * Passphrase mode (security-requirements.md S2, S3) with real WebCrypto (`crypto.subtle` in Node)
 * and real IndexedDB semantics (fake-indexeddb). PBKDF2 runs 1,000 rounds here for speed; one
 * test derives with the production default.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openBatonDb, type BatonDb } from '../store/db';
import { deriveKeyBytes, fromBase64, importVaultKey, PBKDF2_ITERATIONS, randomBytes } from './crypto';
import { memorySession } from './session';
import { Vault } from './vault';

const KEYS = {
  openai: 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123',
  anthropic: 'sk-ant-api03-ZyXwVuTsRqPoNmLk9876',
  google: 'AIzaSyD-GooGleKey_abcdefghijklmn',
};
const ORIGIN = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
};
const NOW = '2026-11-30T08:00:00.000Z';
const FAST = 1_000;

let n = 0;
let db: BatonDb | undefined;
afterEach(() => db?.close());

async function setup(iterations = FAST) {
  db = await openBatonDb(`vault-${++n}`);
  const session = memorySession();
  const vault = new Vault(db, { session, iterations });
  for (const id of ['openai', 'anthropic', 'google'] as const) await vault.setKey(id, KEYS[id], ORIGIN[id], NOW);
  return { db, session, vault };
}

/** Everything the database holds, as JSON, plus the session slot. */
async function dump(d: BatonDb, session?: { value: string | undefined }): Promise<string> {
  const stores = ['conversations', 'turns', 'disclosures', 'vault', 'settings'] as const;
  const all: Record<string, unknown> = {};
  for (const s of stores) all[s] = await d.getAll(s);
  return JSON.stringify({ all, session: session?.value ?? null });
}

/** Any key, or any 12-character piece of one, found in `text` (S2's "key material"). */
function keyMaterial(text: string): string[] {
  const found: string[] = [];
  for (const k of Object.values(KEYS))
    for (let i = 0; i + 12 <= k.length; i++) if (text.includes(k.slice(i, i + 12))) found.push(k.slice(i, i + 12));
  return found;
}

const lockedCode = { code: 'locked' };

describe('S2 passphrase mode at rest', () => {
  it('S2 the production PBKDF2 default is at least 600,000 iterations, and a vault made without options uses it', async () => {
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    db = await openBatonDb(`vault-${++n}`);
    const vault = new Vault(db);
    await vault.setKey('openai', KEYS.openai, ORIGIN.openai, NOW);
    await vault.setPassphrase('correct horse battery');
    expect(await vault.status()).toEqual({ passphrase: true, locked: false, iterations: PBKDF2_ITERATIONS });
    const rec = await db.get('vault', 'openai');
    expect(rec && rec.version === 2 && rec.kdf).toEqual({
      name: 'PBKDF2',
      hash: 'SHA-256',
      iterations: PBKDF2_ITERATIONS,
    });
  });

  it('S2 each key record holds only version, PBKDF2/SHA-256 params, a 16-byte salt, a 12-byte IV and ciphertext; no key material anywhere', async () => {
    const { db, session, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    const recs = await db.getAll('vault');
    expect(recs).toHaveLength(3);
    for (const r of recs) {
      expect(Object.keys(r).sort()).toEqual([
        'boundOrigin',
        'ciphertext',
        'iv',
        'kdf',
        'providerId',
        'salt',
        'savedAt',
        'version',
      ]);
      if (r.version !== 2) throw new Error('not sealed');
      expect(r.kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: FAST });
      expect(fromBase64(r.salt)).toHaveLength(16);
      expect(fromBase64(r.iv)).toHaveLength(12);
      // AES-GCM: ciphertext = plaintext length + 16-byte tag.
      expect(fromBase64(r.ciphertext)).toHaveLength(
        new TextEncoder().encode(KEYS[r.providerId as keyof typeof KEYS]).length + 16,
      );
    }
    expect(keyMaterial(await dump(db, session))).toEqual([]);
    // Still usable while unlocked.
    expect(await vault.getKey('anthropic')).toEqual({ secret: KEYS.anthropic, boundOrigin: ORIGIN.anthropic });
  });

  it('S2 sealing the same key twice gives different IVs and ciphertexts', async () => {
    const { db, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    const a = await db.get('vault', 'openai');
    await vault.setKey('openai', KEYS.openai, ORIGIN.openai, NOW);
    const b = await db.get('vault', 'openai');
    if (a?.version !== 2 || b?.version !== 2) throw new Error('not sealed');
    expect(b.iv).not.toBe(a.iv);
    expect(b.ciphertext).not.toBe(a.ciphertext);
    expect(b.salt).toBe(a.salt);
  });

  it('S2 the derived CryptoKey is non-extractable: exportKey rejects (the helper and the key the vault holds)', async () => {
    const key = await importVaultKey(await deriveKeyBytes('pw-pw-pw-pw', randomBytes(16), FAST));
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    const { vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    const held = (vault as unknown as { key: CryptoKey }).key;
    expect(held).toBeInstanceOf(CryptoKey);
    expect(held.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', held)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('jwk', held)).rejects.toThrow();
  });

  it('S2 a sealed record moved to another origin no longer decrypts (the origin is bound as additional data)', async () => {
    const { db, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    const rec = (await db.get('vault', 'openai'))!;
    await db.put('vault', { ...rec, boundOrigin: 'https://evil.example' });
    await expect(vault.getKey('openai')).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('S3 lock semantics', () => {
  it('S3 a wrong passphrase gives one generic error (unlock, change, remove) and changes nothing stored', async () => {
    const { db, session, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    await vault.lock();
    const before = await dump(db, session);
    const errors: unknown[] = [];
    for (const attempt of [
      () => vault.unlock('wrong'),
      () => vault.setPassphrase('new one here', 'wrong'),
      () => vault.setPassphrase('new one here'),
      () => vault.removePassphrase('wrong'),
    ])
      errors.push(
        await attempt().then(
          () => 'resolved',
          (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
        ),
      );
    expect(errors).toEqual(Array(4).fill({ code: 'locked', message: 'That passphrase does not unlock the keys.' }));
    expect(await dump(db, session)).toBe(before);
    expect(await vault.status()).toEqual({ passphrase: true, locked: true, iterations: FAST });
  });

  it('S3 locked: getKey and setKey refuse with `locked`, the status shows keys without masks, unlock brings them back', async () => {
    const { db, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    await vault.lock();
    await expect(vault.getKey('openai')).rejects.toMatchObject(lockedCode);
    await expect(vault.getKey('custom-none')).rejects.toMatchObject(lockedCode);
    await expect(vault.setKey('openai', 'sk-new-key-0000000000000', ORIGIN.openai, NOW)).rejects.toMatchObject(
      lockedCode,
    );
    expect(await vault.describe('openai')).toEqual({ boundOrigin: ORIGIN.openai });
    expect(await vault.allSecrets()).toEqual([]);
    expect(await db.get('settings', 'vaultSession')).toBeUndefined();
    await vault.unlock('correct horse battery');
    expect(await vault.getKey('openai')).toEqual({ secret: KEYS.openai, boundOrigin: ORIGIN.openai });
    expect(await vault.describe('google')).toEqual({
      masked: `••••${KEYS.google.slice(-4)}`,
      boundOrigin: ORIGIN.google,
    });
    expect((await vault.allSecrets()).sort()).toEqual(Object.values(KEYS).sort());
  });

  it('S3 a worker restart (a new Vault, same session slot) needs no passphrase; a browser restart (session cleared) is locked', async () => {
    const { db, session, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    const restarted = new Vault(db, { session, iterations: FAST });
    expect(await restarted.status()).toEqual({ passphrase: true, locked: false, iterations: FAST });
    expect(await restarted.getKey('google')).toEqual({ secret: KEYS.google, boundOrigin: ORIGIN.google });
    // What `chrome.storage.session` holds is a random secret, not key material.
    expect(keyMaterial(session.value ?? '')).toEqual([]);
    expect(JSON.parse(session.value!)).toEqual({ id: expect.any(String), secret: expect.any(String) });

    await session.clear();
    // Even the instance that holds the key in memory follows the session slot.
    await expect(restarted.getKey('google')).rejects.toMatchObject(lockedCode);
    await expect(new Vault(db, { session, iterations: FAST }).getKey('google')).rejects.toMatchObject(lockedCode);
  });

  it('S3 a session slot that does not match the stored session record does not unlock', async () => {
    const { db, session, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    const stale = session.value!;
    await vault.lock();
    await vault.unlock('correct horse battery');
    session.value = stale;
    await expect(new Vault(db, { session, iterations: FAST }).getKey('openai')).rejects.toMatchObject(lockedCode);
  });

  it('S3 changing the passphrase re-seals every key under a new salt; only the new one unlocks', async () => {
    const { db, vault } = await setup();
    await vault.setPassphrase('first passphrase');
    const salt1 = (await db.get('vault', 'openai')) as { salt: string };
    await vault.setPassphrase('second passphrase', 'first passphrase');
    const salt2 = (await db.get('vault', 'openai')) as { salt: string };
    expect(salt2.salt).not.toBe(salt1.salt);
    await vault.lock();
    await expect(vault.unlock('first passphrase')).rejects.toMatchObject(lockedCode);
    await vault.unlock('second passphrase');
    expect(await vault.getKey('anthropic')).toEqual({ secret: KEYS.anthropic, boundOrigin: ORIGIN.anthropic });
  });

  it('S3 removing the passphrase stores plain records again and forgets the session', async () => {
    const { db, session, vault } = await setup();
    await vault.setPassphrase('correct horse battery');
    await vault.removePassphrase('correct horse battery');
    expect(await vault.status()).toEqual({ passphrase: false, locked: false });
    expect(await db.get('vault', 'openai')).toEqual({
      providerId: 'openai',
      version: 1,
      secret: KEYS.openai,
      boundOrigin: ORIGIN.openai,
      savedAt: NOW,
    });
    expect(await db.get('settings', 'vault')).toBeUndefined();
    expect(await db.get('settings', 'vaultSession')).toBeUndefined();
    expect(session.value).toBeUndefined();
  });
});
