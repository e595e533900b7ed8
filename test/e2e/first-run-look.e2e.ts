/**
 * First run, locked, options (docs/side-panel.md, item 6) in Chromium at 360 px, light and dark, with
 * screenshots in `test-results/screenshots/`: a new person with no key sees one call to action in
 * the panel and "Add your first key" in the options page; a locked Baton shows a lock under the
 * panel header and unlocks there with Enter. Each state is also checked for text contrast
 * (≥ 4.5:1) and for nothing sticking out sideways.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakes, type FakeSet } from './fakes';
import { ExtensionBrowser, waitFor } from './harness';
import { configureProviders, request } from './pages';
import { horizontalOverflow, lowContrast } from './panel-look';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('first-run-look.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
const TEXT = 'p, span, strong, em, summary, button, label, h1, h2, h3, h4, li, a, code, select, textarea, input';
const PASS = 'e2e passphrase 7Tq!';
const SCHEMES = ['light', 'dark'] as const;

/** Screenshot `page` as `name-<scheme>.png` at 360 px, then check contrast and sideways overflow. */
async function shoot(page: Page, name: string, scheme: 'light' | 'dark', height = 720): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize({ width: 360, height });
  // Let the page settle in the new scheme (layout, fonts) before the picture.
  await page.waitForTimeout(200);
  const file = path.join(SHOTS, `${name}-${scheme}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect(fs.statSync(file).size).toBeGreaterThan(5_000);
  const contrast = await lowContrast(page, TEXT);
  expect(contrast.checked).toBeGreaterThan(3);
  expect(contrast.low).toEqual([]);
  expect(await horizontalOverflow(page)).toEqual({ pageScrolls: false, outside: [] });
}

describe.skipIf(!HAS_CHROMIUM)('first run, locked, options at 360 px', () => {
  let browser: ExtensionBrowser;
  let fakes: FakeSet;

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    fakes = await startFakes();
    browser = await ExtensionBrowser.launch();
  });
  afterAll(async () => {
    await browser?.close();
    await fakes?.close();
  });

  it('first run: the panel shows one call to action, and it opens the options page', async () => {
    const page = await browser.openPage('sidepanel.html');
    await page.getByRole('heading', { name: 'Add your first API key', exact: true }).waitFor();
    expect(await page.getByText('Write a message below to start.').count()).toBe(0);
    expect(await page.getByText(/No provider is set up yet/).count()).toBe(0);
    expect(await page.locator('button.primary:visible').count()).toBe(1);
    for (const scheme of SCHEMES) await shoot(page, 'first-run', scheme);
    const opened = browser.context.waitForEvent('page');
    await page.getByRole('button', { name: 'Add an API key', exact: true }).click();
    const options = await opened;
    await waitFor('the options page', () => options.url().endsWith('/options.html'));
    await options.close();
    await page.close();
  });

  it('options page at 360 px: "Add your first key", then each provider as a named group', async () => {
    const page = await browser.openPage('options.html');
    await page.getByRole('heading', { name: 'Add your first key', exact: true }).waitFor();
    for (const name of ['OpenAI', 'Anthropic', 'Google Gemini']) {
      const group = page.getByRole('group', { name, exact: true });
      for (const box of ['API key', 'Base URL'])
        expect(await group.getByRole('textbox', { name: box, exact: true }).count()).toBe(1);
      for (const b of ['Save key', 'Test key', 'Save base URL'])
        expect(await group.getByRole('button', { name: b, exact: true }).count()).toBe(1);
    }
    for (const scheme of SCHEMES) await shoot(page, 'options-first-key', scheme, 900);
    await page.close();
  });

  it('empty chat: a welcome, who receives the message, and starters; an example prompt fills the composer', async () => {
    const options = await browser.openPage('options.html');
    await configureProviders(options, fakes);
    await options.close();
    const page = await browser.openPage('sidepanel.html');
    const empty = page.getByRole('region', { name: 'Start a conversation', exact: true });
    await empty.waitFor();
    // What is on the screen when the picture is taken.
    await waitFor('the target line', async () =>
      /^Your message goes to .+ · OpenAI$/.test((await empty.locator('[data-empty-target]').innerText()).trim()),
    );
    const starters = empty.getByRole('list', { name: 'Ways to start', exact: true });
    for (const name of ['Import a conversation', 'Explain some code', 'Summarise a text'])
      expect(await starters.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    expect(await starters.getByText('Continue a chat from a page', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('Write a message below to start.').count()).toBe(0);
    for (const name of ['Conversations', 'Import…', 'New chat'])
      expect(await page.getByRole('banner').getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    for (const scheme of SCHEMES) await shoot(page, 'empty-chat', scheme);
    await starters.getByRole('button', { name: 'Summarise a text', exact: true }).click();
    expect(await page.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).toMatch(/^Summarise/);
    await page.close();
  });

  it('locked: a lock under the panel header; Enter with the passphrase unlocks it there', async () => {
    const options = await browser.openPage('options.html');
    await configureProviders(options, fakes);
    await request(options, 'setPassphrase', { passphrase: PASS });
    await request(options, 'lockVault', {});
    await options.reload();
    await options.getByRole('button', { name: 'Unlock', exact: true }).waitFor();
    for (const scheme of SCHEMES) await shoot(options, 'options-locked', scheme, 900);
    await options.close();

    const page = await browser.openPage('sidepanel.html');
    const lock = page.getByRole('form', { name: 'Baton is locked', exact: true });
    await lock.waitFor();
    // Under the header, above the chat.
    const [bar, header] = await Promise.all([lock.boundingBox(), page.getByRole('banner').boundingBox()]);
    expect(bar!.y).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
    expect(bar!.y).toBeLessThan(200);
    // What is on the screen when the picture is taken: the lock as the page's content, the header's lock mark.
    expect(await lock.getByRole('heading', { name: 'Baton is locked', exact: true }).isVisible()).toBe(true);
    expect(await lock.getByRole('button', { name: 'Unlock', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('banner').getByRole('img', { name: 'Locked', exact: true }).isVisible()).toBe(true);
    for (const scheme of SCHEMES) await shoot(page, 'locked', scheme);
    await lock.getByLabel('Passphrase', { exact: true }).fill(PASS);
    await lock.getByLabel('Passphrase', { exact: true }).press('Enter');
    await waitFor('unlocked', async () => (await lock.count()) === 0);
    expect(await request(page, 'vaultStatus', {})).toEqual({ passphrase: true, locked: false });
    await page.close();
  });
});
