/**
 * Scenario 1: keys and endpoints set through the options page UI, pointing at the fake
 * providers. Proves S5 (masked keys, no full key in the DOM), S1 (no key in chrome.storage), N2
 * (each key only to its own origin, a custom endpoint gets no existing key) and M4 (a second
 * extension gets no response).
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  E2E_KEYS,
  expectKeysOnlyToTheirOrigins,
  findKeyMaterial,
  PROVIDER_NAMES,
  startFakes,
  type BuiltinId,
  type FakeSet,
} from './fakes';
import { ExtensionBrowser, waitFor } from './harness';
import { request, type PageChrome } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';
import { probeBaton, writeProbeExtension } from './probe-extension';

warnIfNoChromium('options-keys.e2e.ts');

const BUILTINS: BuiltinId[] = ['openai', 'anthropic', 'google'];

describe.skipIf(!HAS_CHROMIUM)('options page: keys and endpoints', () => {
  let fakes: FakeSet;
  let browser: ExtensionBrowser;
  let page: Page;
  let probeDir: string;

  beforeAll(async () => {
    fakes = await startFakes();
    probeDir = writeProbeExtension();
    browser = await ExtensionBrowser.launch({ extraExtensions: [probeDir] });
    page = await browser.openPage('options.html');
    await page.getByRole('button', { name: 'Delete all data', exact: true }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await fakes?.close();
    if (probeDir) fs.rmSync(probeDir, { recursive: true, force: true });
  });

  const section = (id: string) => page.locator(`section[data-provider="${id}"]`);
  const note = (id: string) => section(id).locator('p.note');
  const keyStatus = (id: string) => section(id).locator('p.key-status');
  // Every password field (the three key fields and the vault passphrase, S2) is empty after a save.
  const passwordValues = () =>
    page.locator('input[type="password"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

  it('S5 base URLs and keys saved through the UI: only a masked key (last 4) is shown and no piece of a key stays in the DOM', async () => {
    for (const id of BUILTINS) {
      const name = PROVIDER_NAMES[id];
      // docs/side-panel.md: each provider is a group named after it, holding the textboxes "Base URL" and "API key".
      const group = page.getByRole('group', { name, exact: true });
      await group.getByRole('textbox', { name: 'Base URL', exact: true }).fill(fakes.baseUrls[id]);
      await group.getByRole('button', { name: 'Save base URL', exact: true }).click();
      await waitFor(`${id} base URL saved`, async () =>
        (await section(id).innerText()).includes(`Address: ${fakes.baseUrls[id]}`),
      );
      await group.getByRole('textbox', { name: 'API key', exact: true }).fill(E2E_KEYS[id]);
      await group.getByRole('button', { name: 'Save key', exact: true }).click();
      await waitFor(`${id} key saved`, async () => (await keyStatus(id).innerText()).startsWith('Key saved'));
      expect(await keyStatus(id).innerText()).toBe(`Key saved: ••••${E2E_KEYS[id].slice(-4)}`);
    }
    // No 5-character piece of any key (so at most its last 4 characters) in the markup or the text; the inputs are cleared.
    const html = await page.evaluate(() => document.body.innerHTML);
    const text = await page.evaluate(() => document.body.innerText);
    expect(findKeyMaterial(html, 5)).toEqual([]);
    expect(findKeyMaterial(text, 5)).toEqual([]);
    const values = await passwordValues();
    expect(values.length).toBeGreaterThanOrEqual(3);
    expect(values.filter((v) => v !== '')).toEqual([]);

    // A fresh load shows the same masked forms and nothing more.
    await page.reload();
    for (const id of BUILTINS)
      await waitFor(
        `${id} masked key after reload`,
        async () => (await keyStatus(id).innerText()) === `Key saved: ••••${E2E_KEYS[id].slice(-4)}`,
      );
    expect(findKeyMaterial(await page.evaluate(() => document.body.innerHTML), 5)).toEqual([]);
  });

  it('N2 "Test key" calls each provider\'s model list on its own origin with its own key', async () => {
    for (const id of BUILTINS) {
      await section(id).getByRole('button', { name: 'Test key', exact: true }).click();
      await waitFor(`${id} key test`, async () =>
        /^The key works \(\d+ models available\)\.$/.test(await note(id).innerText()),
      );
    }
    expect(fakes.openai.requests.map((r) => `${r.method} ${r.api}`)).toEqual(['GET openai-models']);
    expect(fakes.anthropic.requests.map((r) => `${r.method} ${r.api}`)).toEqual(['GET anthropic-models']);
    expect(fakes.google.requests.map((r) => `${r.method} ${r.api}`)).toEqual(['GET gemini-models']);
    expect(fakes.openai.requests[0]!.headers.authorization).toBe(`Bearer ${E2E_KEYS.openai}`);
    expect(fakes.anthropic.requests[0]!.headers['x-api-key']).toBe(E2E_KEYS.anthropic);
    expect(fakes.google.requests[0]!.headers['x-goog-api-key']).toBe(E2E_KEYS.google);
    expect(expectKeysOnlyToTheirOrigins(fakes)).toBe(3);
  });

  it('N2 "Add endpoint": a custom endpoint is sent no existing key, only the key entered for it', async () => {
    await page.getByLabel('Endpoint name', { exact: true }).fill('Local compat');
    await page.getByLabel('Endpoint base URL', { exact: true }).fill(fakes.customBaseUrl);
    await page.getByRole('button', { name: 'Add endpoint', exact: true }).click();
    const custom = page.locator('section[data-provider^="custom-"]');
    await custom.waitFor();
    const customId = (await custom.getAttribute('data-provider'))!;
    expect(customId).toMatch(/^custom-[a-z0-9-]+$/);

    await custom.getByRole('button', { name: 'Test key', exact: true }).click();
    await waitFor(
      'the keyless test',
      async () => (await note(customId).innerText()) === 'No key saved for this endpoint.',
    );
    expect(fakes.custom.requests).toEqual([]);

    await page
      .getByRole('group', { name: 'Local compat', exact: true })
      .getByRole('textbox', { name: 'API key', exact: true })
      .fill(E2E_KEYS.compat);
    await custom.getByRole('button', { name: 'Save key', exact: true }).click();
    await waitFor(
      'the custom key saved',
      async () => (await keyStatus(customId).innerText()) === `Key saved: ••••${E2E_KEYS.compat.slice(-4)}`,
    );
    await custom.getByRole('button', { name: 'Test key', exact: true }).click();
    await waitFor('the custom key test', async () => (await note(customId).innerText()).startsWith('The key works'));
    expect(fakes.custom.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
      `GET /compat/v1/models Bearer ${E2E_KEYS.compat}`,
    ]);
    expectKeysOnlyToTheirOrigins(fakes);
    expect(findKeyMaterial(await page.evaluate(() => document.body.innerHTML), 5)).toEqual([]);
  });

  it('S1 chrome.storage sync, local and session hold no key material (read from a page and from the worker)', async () => {
    const fromPage = await page.evaluate(async () => {
      const s = (globalThis as unknown as { chrome: PageChrome }).chrome.storage;
      return JSON.stringify([await s.sync.get(null), await s.local.get(null), await s.session.get(null)]);
    });
    const fromWorker = await browser.evalInWorker(async () => {
      const s = (globalThis as unknown as { chrome: PageChrome }).chrome.storage;
      return JSON.stringify([await s.sync.get(null), await s.local.get(null), await s.session.get(null)]);
    }, undefined);
    // Keys are saved (the settings say so), yet none of the three storage areas holds a piece of one.
    const settings = await request<{ providers: { id: string; hasKey: boolean }[] }>(page, 'getSettings', {});
    expect(settings.providers.filter((p) => p.hasKey)).toHaveLength(4);
    expect(findKeyMaterial(fromPage)).toEqual([]);
    expect(findKeyMaterial(fromWorker)).toEqual([]);
  });

  it("M4 a second extension messaging Baton gets no response and its port is closed; Baton's own page is answered", async () => {
    const probe = await waitFor('the probe worker', () =>
      browser.context.serviceWorkers().find((w) => w.url().endsWith('/probe-sw.js')),
    );
    const result = await probeBaton(probe, browser.extensionId, { type: 'getSettings', payload: {} }, 'baton-events');
    expect(result.reply).toBeUndefined();
    expect(result.sendError).toMatch(/Could not establish connection|Receiving end does not exist/);
    expect(result.portMessages).toEqual([]);
    expect(result.portDisconnected).toBe(true);
    // Control: the same request from Baton's own page gets the settings.
    const own = await request<{ providers: unknown[] }>(page, 'getSettings', {});
    expect(own.providers.length).toBeGreaterThanOrEqual(3);
  });

  it('M4 a port from our own page under a name that is not allowlisted is disconnected at once; the allowlisted one stays open', async () => {
    const result = await page.evaluate(
      () =>
        new Promise<{ badClosed: boolean; goodClosed: boolean }>((resolve) => {
          type Port = { onDisconnect: { addListener(fn: () => void): void }; disconnect(): void };
          const runtime = (globalThis as unknown as { chrome: { runtime: { connect(o: { name: string }): Port } } })
            .chrome.runtime;
          const state = { badClosed: false, goodClosed: false };
          const bad = runtime.connect({ name: 'not-allowlisted' });
          const good = runtime.connect({ name: 'baton-events' });
          bad.onDisconnect.addListener(() => (state.badClosed = true));
          good.onDisconnect.addListener(() => (state.goodClosed = true));
          const started = Date.now();
          const poll = () => {
            if (state.badClosed && Date.now() - started > 300) {
              good.disconnect();
              resolve(state);
            } else if (Date.now() - started > 5_000) resolve(state);
            else setTimeout(poll, 25);
          };
          poll();
        }),
    );
    expect(result).toEqual({ badClosed: true, goodClosed: false });
  });

  it('S4 no key material in the console output of the worker and the pages', async () => {
    const logs = await browser.capturedLogs(page);
    expect(findKeyMaterial(logs.join('\n'))).toEqual([]);
  });
});
