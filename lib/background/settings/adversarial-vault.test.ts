/**
 * Adversarial passphrase requests through the real router, handlers and vault (S2, S3, M3):
 * empty, short and over-long passphrases, NFC vs NFD of one passphrase, unlock while unlocked,
 * lock while locked, a second passphrase without the current one, remove while locked, keys saved
 * while locked. Real stores over fake-indexeddb; no request leaves (no send here).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { memorySession } from '../../vault/session';
import { callFrom, createTestBackground, NOW } from '../background.test-helper';
import { BUILTIN } from '../core/providers';
import type { Transport } from '../core/transport';

const KEY = 'sk-proj-AdversarialVaultKey-0123456789';
const PASS = 'correct horse battery';
const LOCKED = { ok: false, error: { code: 'locked', message: 'That passphrase does not unlock the keys.' } };
const state = (passphrase: boolean, locked: boolean) => ({ ok: true, data: { passphrase, locked } });

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The shared background without fake providers: one OpenAI key on its real origin, no sending. */
async function setup() {
  const transport: Transport = {
    streamRequest: async () => {
      throw new Error('no request may leave in these tests');
    },
    withRetries: (attempt) => attempt(),
    listModels: async () => [],
    countTokens: async () => {
      throw new Error('no count request in these tests');
    },
  };
  const bg = await createTestBackground(undefined, {
    name: 'adv-vault',
    transport,
    keys: { openai: KEY },
    vault: { session: memorySession(), iterations: 1_000 },
  });
  db = bg.db;
  const { vault } = bg;
  const call = callFrom(bg.h, 'options.html');
  const theDb = db;
  /** The raw vault and settings records (to prove a refused request wrote nothing). */
  const dump = async () => JSON.stringify([await theDb.getAll('vault'), await theDb.getAll('settings')]);
  return { call, vault, dump };
}

const code = (r: Reply<unknown>) => (r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`);

describe('passphrase requests: adversarial input', () => {
  it('M3 empty, short and over-long passphrases are refused by the schema and write nothing; 1,000 characters work', async () => {
    const { call, dump, vault } = await setup();
    const before = await dump();
    expect(code(await call('setPassphrase', { passphrase: '' }))).toBe(
      'bad_request: setPassphrase: passphrase: Too small: expected string to have >=8 characters',
    );
    expect(code(await call('setPassphrase', { passphrase: '1234567' }))).toBe(
      'bad_request: setPassphrase: passphrase: Too small: expected string to have >=8 characters',
    );
    expect(code(await call('setPassphrase', { passphrase: 'x'.repeat(1_001) }))).toBe(
      'bad_request: setPassphrase: passphrase: Too big: expected string to have <=1000 characters',
    );
    expect(code(await call('setPassphrase', { passphrase: 42 }))).toBe(
      'bad_request: setPassphrase: passphrase: Invalid input: expected string, received number',
    );
    expect(code(await call('unlockVault', { passphrase: '' }))).toBe(
      'bad_request: unlockVault: passphrase: Too small: expected string to have >=1 characters',
    );
    expect(code(await call('unlockVault', { passphrase: 'y'.repeat(100_000) }))).toBe(
      'bad_request: unlockVault: passphrase: Too big: expected string to have <=1000 characters',
    );
    expect(await dump()).toBe(before);
    const long = `${'ü'.repeat(500)}${'😀'.repeat(250)}`;
    expect(long.length).toBe(1_000);
    expect(await call('setPassphrase', { passphrase: long })).toEqual(state(true, false));
    expect(await call('lockVault', {})).toEqual(state(true, true));
    expect(await call('unlockVault', { passphrase: long })).toEqual(state(true, false));
    expect(await vault.getKey('openai')).toEqual({ secret: KEY, boundOrigin: BUILTIN.openai.origin });
  });

  it('NFC and NFD of the same passphrase are the same passphrase (normalised to NFC); a different one is not', async () => {
    const { call, vault } = await setup();
    const nfd = 'Cre\u0300me bru\u0302le\u0301e 2026';
    const nfc = nfd.normalize('NFC');
    expect(nfc).not.toBe(nfd);
    expect(await call('setPassphrase', { passphrase: nfd })).toEqual(state(true, false));
    await call('lockVault', {});
    expect(await call('unlockVault', { passphrase: nfc })).toEqual(state(true, false));
    await call('lockVault', {});
    expect(await call('unlockVault', { passphrase: nfd })).toEqual(state(true, false));
    // Changing it with the other form as `current` works too; removal likewise.
    expect(await call('setPassphrase', { passphrase: PASS, current: nfc })).toEqual(state(true, false));
    await call('lockVault', {});
    expect(await call('unlockVault', { passphrase: 'Creme brulee 2026' })).toEqual(LOCKED);
    expect(await call('unlockVault', { passphrase: nfc })).toEqual(LOCKED);
    expect(await call('unlockVault', { passphrase: PASS })).toEqual(state(true, false));
    expect(await vault.getKey('openai')).toEqual({ secret: KEY, boundOrigin: BUILTIN.openai.origin });
  });

  it('unlock while unlocked, lock while locked, unlock or lock without a passphrase: defined answers, nothing lost', async () => {
    const { call, vault } = await setup();
    expect(await call('lockVault', {})).toEqual(state(false, false));
    expect(await call('unlockVault', { passphrase: PASS })).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'No passphrase is set.' },
    });
    expect(await call('removePassphrase', { passphrase: PASS })).toEqual(state(false, false));
    await call('setPassphrase', { passphrase: PASS });
    expect(await call('unlockVault', { passphrase: PASS })).toEqual(state(true, false));
    // A wrong passphrase while unlocked is refused and does not lock.
    expect(await call('unlockVault', { passphrase: 'not the passphrase' })).toEqual(LOCKED);
    expect(await call('vaultStatus', {})).toEqual(state(true, false));
    expect(await call('lockVault', {})).toEqual(state(true, true));
    expect(await call('lockVault', {})).toEqual(state(true, true));
    expect(await call('unlockVault', { passphrase: PASS })).toEqual(state(true, false));
    expect(await vault.getKey('openai')).toEqual({ secret: KEY, boundOrigin: BUILTIN.openai.origin });
  });

  it('S3 a second passphrase without (or with a wrong) current one is refused and changes nothing, locked or unlocked', async () => {
    const { call, dump } = await setup();
    await call('setPassphrase', { passphrase: PASS });
    const sealed = await dump();
    expect(await call('setPassphrase', { passphrase: 'another passphrase' })).toEqual(LOCKED);
    expect(await call('setPassphrase', { passphrase: 'another passphrase', current: '' })).toEqual(LOCKED);
    expect(await call('setPassphrase', { passphrase: 'another passphrase', current: 'wrong one!' })).toEqual(LOCKED);
    expect(await call('vaultStatus', {})).toEqual(state(true, false));
    await call('lockVault', {});
    const locked = await dump();
    expect(await call('setPassphrase', { passphrase: 'another passphrase' })).toEqual(LOCKED);
    expect(await dump()).toBe(locked);
    expect(await call('unlockVault', { passphrase: 'another passphrase' })).toEqual(LOCKED);
    expect(await call('unlockVault', { passphrase: PASS })).toEqual(state(true, false));
    expect(sealed).not.toContain(KEY);
  });

  it('S3 keys saved or deleted while locked are refused or harmless; remove while locked needs the passphrase and then unlocks for good', async () => {
    const { call, dump, vault } = await setup();
    await call('setPassphrase', { passphrase: PASS });
    await call('lockVault', {});
    const before = await dump();
    expect(await call('setKey', { providerId: 'anthropic', key: 'sk-ant-saved-while-locked-0123456789' })).toEqual({
      ok: false,
      error: { code: 'locked', message: 'Baton is locked. Unlock it with your passphrase in the options page.' },
    });
    expect(await call('setKey', { providerId: 'openai', key: 'sk-proj-replaced-while-locked-0123' })).toMatchObject({
      ok: false,
      error: { code: 'locked' },
    });
    expect(await dump()).toBe(before);
    expect(await call('removePassphrase', { passphrase: 'not the passphrase' })).toEqual(LOCKED);
    expect(await dump()).toBe(before);
    expect(await call('removePassphrase', { passphrase: PASS })).toEqual(state(false, false));
    expect(await vault.getKey('openai')).toEqual({ secret: KEY, boundOrigin: BUILTIN.openai.origin });
    expect(await vault.getKey('anthropic')).toBeUndefined();
  });

  it('S2 a double-submitted "Set passphrase" (slow session storage) sets one passphrase; a key saved afterwards opens after lock and unlock', async () => {
    const inner = memorySession();
    let slow = true;
    const session = {
      get: () => inner.get(),
      clear: () => inner.clear(),
      set: async (v: string) => {
        // The first call's session write finishes last.
        if (slow) {
          slow = false;
          await new Promise((r) => setTimeout(r, 50));
        }
        return inner.set(v);
      },
    };
    // The shared background with no key saved, its vault on the slow session.
    const bg = await createTestBackground(undefined, { name: 'adv-vault', vault: { session, iterations: 1_000 } });
    db = bg.db;
    const { vault } = bg;
    const both = await Promise.allSettled([vault.setPassphrase(PASS), vault.setPassphrase(PASS)]);
    expect(both.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).message))).toEqual([
      'ok',
      'That passphrase does not unlock the keys.',
    ]);
    await vault.setKey('openai', KEY, BUILTIN.openai.origin, NOW);
    await vault.lock();
    await vault.unlock(PASS);
    expect(await vault.getKey('openai')).toEqual({ secret: KEY, boundOrigin: BUILTIN.openai.origin });
  });
});
