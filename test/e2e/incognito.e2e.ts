/**
 * N6 in Chromium: Baton opts out of incognito (`incognito: not_allowed`), so an incognito
 * (off-the-record) context of the same browser can neither load Baton's pages nor message its
 * worker, and nothing done there adds a record to Baton's IndexedDB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './harness';
import { readDb, request } from './pages';
import { CHROMIUM_PATH, HAS_CHROMIUM, TEST_BUILD_DIR, warnIfNoChromium } from './paths';

warnIfNoChromium('incognito.e2e.ts');

describe.skipIf(!HAS_CHROMIUM)('incognito', () => {
  let profile: string;
  let context: BrowserContext;
  let cdp: Browser;
  let extensionId: string;

  beforeAll(async () => {
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-incognito-'));
    const ext = path.resolve(TEST_BUILD_DIR);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        `--disable-extensions-except=${ext}`,
        `--load-extension=${ext}`,
        '--remote-debugging-port=0',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    extensionId = new URL(worker.url()).host;
    const port = await waitFor('DevToolsActivePort', () =>
      fs.existsSync(path.join(profile, 'DevToolsActivePort'))
        ? fs.readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]
        : undefined,
    );
    cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await cdp?.close().catch(() => undefined);
    await context?.close().catch(() => undefined);
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  it('N6 an incognito context cannot load Baton or reach its worker; zero record delta in its IndexedDB', async () => {
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await request(options, 'createConversation', { title: 'normal window' });
    const before = await readDb(options);
    expect(before.conversations).toHaveLength(1);

    const incognito = await cdp.newContext();
    const page = await incognito.newPage();
    const loaded = await page.goto(`chrome-extension://${extensionId}/sidepanel.html`).then(
      (r) => ({ ok: r?.ok() ?? false, error: '' }),
      (e: Error) => ({ ok: false, error: e.message }),
    );
    // The same page loads in the normal context (above); in incognito Chrome blocks it.
    expect(loaded).toMatchObject({ ok: false, error: expect.stringContaining('ERR_BLOCKED_BY_CLIENT') });
    // A page in the incognito context has no channel to Baton's worker either.
    const blank = await incognito.newPage();
    const reach = await blank.evaluate(
      () => typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage,
    );
    expect(reach).toBe('undefined');
    await incognito.close();

    expect(await readDb(options)).toEqual(before);
  });
});
