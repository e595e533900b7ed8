/**
 * Passphrase mode in Chromium (security-requirements.md S2, S3): the passphrase is set through
 * the options page; then all extension storage holds no key material, Lock and a simulated
 * browser restart (storage.session cleared) refuse every send with `locked` and zero requests,
 * and a service-worker stop after unlocking does not ask for the passphrase again.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_KEYS, findKeyMaterial, startFakes, type FakeSet } from './fakes';
import { ExtensionBrowser, waitFor } from './harness';
import { configureProviders, readDb, request, type PageChrome } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('vault.e2e.ts');

const PASS = 'e2e passphrase 7Tq!';

/** Every record of every store of the `baton` database, and every chrome.storage area, as one JSON text. */
function dumpAllStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('baton');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const stores: Record<string, unknown[]> = {};
    for (const name of [...db.objectStoreNames]) {
      stores[name] = await new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(name, 'readonly').objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    }
    db.close();
    const c = (globalThis as unknown as { chrome: PageChrome }).chrome;
    const chromeStorage = {
      sync: await c.storage.sync.get(null),
      local: await c.storage.local.get(null),
      session: await c.storage.session.get(null),
    };
    return JSON.stringify({ stores, chromeStorage });
  });
}

/** Sends one request and returns the raw reply (`{ok, data}` or `{ok: false, error}`). */
function rawRequest(
  page: Page,
  type: string,
  payload: unknown,
): Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }> {
  return page.evaluate((m) => (globalThis as unknown as { chrome: PageChrome }).chrome.runtime.sendMessage(m), {
    type,
    payload,
  }) as never;
}

describe.skipIf(!HAS_CHROMIUM)('passphrase mode', () => {
  let fakes: FakeSet;
  let browser: ExtensionBrowser;
  let page: Page;
  let conversationId: string;

  const totalRequests = () => fakes.all().reduce((n, f) => n + f.requests.length, 0);
  const vaultMode = () => page.locator('[data-vault]').getAttribute('data-vault');
  const expectRefusedLocked = async () => {
    fakes.reset();
    const send = await rawRequest(page, 'sendMessage', {
      conversationId,
      text: 'Should not leave',
      target: { providerId: 'openai', model: 'gpt-5.5' },
    });
    expect(send.ok ? 'ok' : send.error?.code).toBe('locked');
    for (const providerId of ['openai', 'anthropic', 'google']) {
      const test = await rawRequest(page, 'testKey', { providerId });
      expect(test.ok ? 'ok' : test.error?.code, providerId).toBe('locked');
    }
    // Nothing written, nothing sent.
    expect((await readDb(page)).turns.filter((t) => t.conversationId === conversationId)).toEqual([]);
    expect(totalRequests()).toBe(0);
  };
  const unlockInUi = async () => {
    await page.getByLabel('Passphrase to unlock', { exact: true }).fill(PASS);
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await waitFor('unlocked', async () => (await vaultMode()) === 'unlocked');
  };

  beforeAll(async () => {
    fakes = await startFakes();
    browser = await ExtensionBrowser.launch();
    page = await browser.openPage('options.html');
    await configureProviders(page, fakes);
    await page.reload();
    await page.getByRole('button', { name: 'Set passphrase', exact: true }).waitFor();
    conversationId = (await request<{ id: string }>(page, 'createConversation', {})).id;
  });
  afterAll(async () => {
    await browser?.close();
    await fakes?.close();
  });

  it('S2 after setting a passphrase, a dump of all extension storage (IndexedDB + chrome.storage) has no key material; records are sealed', async () => {
    expect(findKeyMaterial(await dumpAllStorage(page))).not.toEqual([]); // the dump does see plain keys before
    await page.getByLabel('New passphrase', { exact: true }).fill(PASS);
    await page.getByLabel('Repeat new passphrase', { exact: true }).fill(PASS);
    await page.getByRole('button', { name: 'Set passphrase', exact: true }).click();
    await waitFor('unlocked', async () => (await vaultMode()) === 'unlocked');

    const dump = await dumpAllStorage(page);
    expect(findKeyMaterial(dump)).toEqual([]);
    expect(dump).not.toContain(PASS);
    const vault = (JSON.parse(dump) as { stores: { vault: Record<string, unknown>[] } }).stores.vault;
    expect(vault.map((r) => r.providerId).sort()).toEqual(['anthropic', 'google', 'openai']);
    for (const r of vault) {
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
      expect(r.kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 });
    }
    // Unlocked, the keys work: the options page shows their masks, Test key reaches the fake.
    await page.reload();
    await waitFor(
      'masked key shown',
      async () =>
        (await page.locator('section[data-provider="openai"] p.key-status').innerText()) ===
        `Key saved: ••••${E2E_KEYS.openai.slice(-4)}`,
    );
    expect(await request<{ ok: boolean }>(page, 'testKey', { providerId: 'openai' })).toMatchObject({ ok: true });
  });

  it('S3 after Lock, a send and every key test are refused `locked` with zero requests; a wrong passphrase changes nothing', async () => {
    await page.getByRole('button', { name: 'Lock now', exact: true }).click();
    await waitFor('locked', async () => (await vaultMode()) === 'locked');
    await expectRefusedLocked();

    const before = await dumpAllStorage(page);
    await page.getByLabel('Passphrase to unlock', { exact: true }).fill('not the passphrase');
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await waitFor(
      'the generic error',
      async () =>
        (await page.locator('[data-vault] p.note').innerText()) === 'That passphrase does not unlock the keys.',
    );
    expect(await vaultMode()).toBe('locked');
    expect(await dumpAllStorage(page)).toBe(before);
  });

  it('S3 after unlock, a service-worker stop (CDP) does not ask for the passphrase again', async () => {
    await unlockInUi();
    await browser.stopServiceWorker();
    fakes.reset();
    expect(await request(page, 'vaultStatus', {})).toEqual({ passphrase: true, locked: false });
    expect(await request<{ ok: boolean }>(page, 'testKey', { providerId: 'anthropic' })).toMatchObject({ ok: true });
    expect(fakes.anthropic.requests.length).toBe(1);
    expect(JSON.stringify(fakes.anthropic.requests[0]!.headers)).toContain(E2E_KEYS.anthropic);
  });

  it('S3 a simulated browser restart (storage.session cleared) locks: sends refused `locked`, zero requests', async () => {
    await browser.evalInWorker(async () => {
      await (
        globalThis as unknown as { chrome: { storage: { session: { clear(): Promise<void> } } } }
      ).chrome.storage.session.clear();
    }, undefined);
    expect(await request(page, 'vaultStatus', {})).toEqual({ passphrase: true, locked: true });
    await expectRefusedLocked();
    // And once more after a worker stop on top: still locked.
    await browser.stopServiceWorker();
    await expectRefusedLocked();
  });

  it('S4 no key material or passphrase in the console output', async () => {
    const logs = (await browser.capturedLogs(page)).join('\n');
    expect(findKeyMaterial(logs)).toEqual([]);
    expect(logs).not.toContain(PASS);
  });
});
