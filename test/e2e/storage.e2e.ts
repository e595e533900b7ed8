/**
 * Storage lifecycle in Chromium: D3 (the service worker, holding the database at its version,
 * closes its connection on `versionchange`, so a newer version opens at once instead of being
 * blocked) and D5 (the side panel asks for persistent storage once and records the answer).
 * The other D3 cases (a holder that does not close → "close other Baton pages"; `terminated` →
 * reopen) are tested on fake-indexeddb in lib/store/db-lifecycle.test.ts: producing them here
 * would need a second build with a higher schema version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_VERSION } from '../../lib/store/db';
import { PERSIST_RECORD_KEY } from '../../lib/ui/persist';
import { ExtensionBrowser } from './harness';
import { request, SidePanel } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('storage.e2e.ts');

describe.skipIf(!HAS_CHROMIUM)('storage lifecycle', () => {
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    browser = await ExtensionBrowser.launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('D5 the side panel asks for persistent storage once and records the answer', async () => {
    const page = await browser.openPage('sidepanel.html');
    await new SidePanel(page).ready();
    const recorded = await page.evaluate((k) => localStorage.getItem(k), PERSIST_RECORD_KEY);
    expect(JSON.parse(recorded ?? 'null')).toEqual({
      result: expect.stringMatching(/^(granted|denied)$/),
      at: expect.any(String),
    });
    await page.close();
  });

  it('D3 the worker holding version N closes on `blocking`: a page opening N+1 is not blocked and upgrades within 5 s', async () => {
    const page = await browser.openPage('options.html');
    // The worker has the database open (it answered a request that reads it).
    await request(page, 'getSettings', {});
    const result = await page.evaluate(
      (version) =>
        new Promise<{ ms: number; blocked: boolean; version: number }>((resolve, reject) => {
          const started = performance.now();
          let blocked = false;
          const open = indexedDB.open('baton', version);
          open.onblocked = () => void (blocked = true);
          open.onupgradeneeded = () => undefined;
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            db.close();
            resolve({ ms: performance.now() - started, blocked, version: db.version });
          };
          setTimeout(() => reject(new Error(`still waiting after 5 s (blocked: ${blocked})`)), 5_000);
        }),
      DB_VERSION + 1,
    );
    expect(result.version).toBe(DB_VERSION + 1);
    expect(result.blocked).toBe(false);
    expect(result.ms).toBeLessThan(5_000);
    expect(browser.logs.filter((l) => /uncaught/i.test(l))).toEqual([]);
  });
});
