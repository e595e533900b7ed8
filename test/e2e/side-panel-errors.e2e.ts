/**
 * docs/side-panel.md's error states, as a person sees them in the side panel: for each injected failure the
 * panel shows a sentence they can act on (invalid key → a link to the options page, rate limited
 * → when to retry, overloaded, context too long → what to do, blocked by safety, network down,
 * endpoint not permitted, quota), never raw JSON as model text and never an empty bubble.
 * Request counts and retry policy are `injected-errors.e2e.ts`'s concern; here only the UI.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeApi, Reply } from '../fake-providers';
import { E2E_KEYS, type BuiltinId } from './fakes';
import { waitFor } from './harness';
import { request } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('side-panel-errors.e2e.ts');

const TARGETS: Record<BuiltinId, { model: string; api: FakeApi }> = {
  openai: { model: 'gpt-5.5', api: 'openai-responses' },
  anthropic: { model: 'claude-sonnet-4-6', api: 'anthropic-messages' },
  google: { model: 'gemini-3-pro-preview', api: 'gemini-generate-content' },
};

/** Raw provider JSON that must never be shown as text (a provider's error type may appear in the details line). */
const RAW = /[{}]|"(?:error|message|type|code)"\s*:/;

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.skipIf(!HAS_CHROMIUM)('side panel error states', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  /**
   * Sends in a new chat on `provider` with `replies` queued; waits for the final state. Returns
   * the error code, the notice's visible text and the answer bubble's visible text.
   */
  async function failWith(provider: BuiltinId, text: string, ...replies: Reply[]) {
    s.fakes[provider].enqueue(TARGETS[provider].api, ...replies);
    await s.panel.newChat();
    await s.panel.choose(provider, TARGETS[provider].model);
    await s.panel.send(text);
    expect(await s.panel.waitForAnswer(1, 30_000)).toBe('error');
    const notice = s.page.locator('.retry-bar [data-error-code]');
    await notice.waitFor();
    const bubble = (await s.page.locator('[data-turn-id][data-role="assistant"]').last().innerText()).trim();
    // Never an empty bubble: the turn says something besides its role and model label.
    expect(bubble.split('\n').filter((l) => l.trim()).length, bubble).toBeGreaterThan(1);
    expect(bubble).not.toMatch(RAW);
    const shown = await notice.innerText();
    expect(shown).not.toMatch(RAW);
    expect(await s.page.locator('.retry-bar').getByRole('button', { name: 'Retry', exact: true }).isVisible()).toBe(
      true,
    );
    return { code: await notice.getAttribute('data-error-code'), shown, bubble };
  }

  it('invalid key: says the key was rejected and links to the options page, which opens', async () => {
    const r = await failWith('openai', 'Bad key?', { kind: 'error', status: 401 });
    expect(r.code).toBe('invalid_key');
    expect(r.shown).toContain('The provider rejected the API key. Check it, or enter a new one, in the options page.');
    // `options_ui` (not in a tab): Chrome shows it on chrome://extensions/?options=<id>.
    const isOptions = (url: string) =>
      url === `chrome-extension://${s.browser.extensionId}/options.html` ||
      url === `chrome://extensions/?options=${s.browser.extensionId}`;
    const opened = s.browser.context.waitForEvent('page', { predicate: (p) => isOptions(p.url()), timeout: 10_000 });
    await s.page.locator('.retry-bar').getByRole('button', { name: 'Open options', exact: true }).click();
    const options = await opened;
    await options.close();
  });

  it('rate limited: says when to try again', async () => {
    const r = await failWith(
      'anthropic',
      'Too fast?',
      ...Array.from({ length: 4 }, () => ({ kind: 'error' as const, status: 429, headers: { 'retry-after': '1' } })),
    );
    expect(r.code).toBe('rate_limited');
    expect(r.shown).toContain('The provider is limiting how fast you can send requests. Try again in 1 second.');
  });

  it('overloaded: says so, when to try again, and suggests another provider', async () => {
    const r = await failWith(
      'google',
      'Busy?',
      ...Array.from({ length: 4 }, () => ({ kind: 'error' as const, status: 503, headers: { 'retry-after': '1' } })),
    );
    expect(r.code).toBe('overloaded');
    expect(r.shown).toContain('The provider is overloaded right now. Try again in 1 second. Or pick another provider.');
  });

  it('context too long: says what to do', async () => {
    const r = await failWith('openai', 'Too long?', {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 400000 tokens.",
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      },
    });
    expect(r.code).toBe('context_too_long');
    expect(r.shown).toContain(
      'This conversation is too long for the selected model. Pick a model with a larger context window, remove large attachments, or start a new chat',
    );
  });

  it('blocked by safety: a blocked prompt says the safety filter blocked it', async () => {
    const r = await failWith('google', 'Something blocked', {
      kind: 'events',
      events: [
        {
          promptFeedback: { blockReason: 'SAFETY' },
          usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
          modelVersion: 'gemini-3-pro-preview',
        },
      ],
    });
    expect(r.code).toBe('blocked');
    expect(r.shown).toContain("The provider's safety filter blocked this request or its answer.");
    expect(r.bubble).toMatch(/blocked/i);
  });

  it('quota: says the account is out of credit and that retrying will not help', async () => {
    const r = await failWith('openai', 'Out of credit?', {
      kind: 'error',
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          param: null,
        },
      },
    });
    expect(r.code).toBe('quota');
    expect(r.shown).toContain('run out of quota or credit');
    expect(r.shown).toContain('retrying will not help');
  });

  it('network down: says the provider could not be reached', async () => {
    // A key is bound to its provider's origin (N2): saved again for the dead address, and back after.
    const pointAt = async (baseUrl: string) => {
      await request(s.page, 'setBaseUrl', { providerId: 'google', baseUrl });
      await request(s.page, 'setKey', { providerId: 'google', key: E2E_KEYS.google });
    };
    await pointAt(`http://127.0.0.1:${await closedPort()}`);
    try {
      const r = await failWith('google', 'Anyone there?');
      expect(r.code).toBe('network');
      expect(r.shown).toContain(
        'Could not reach the provider. Check your internet connection (or that the local server is running) and try again.',
      );
    } finally {
      await pointAt(s.fakes.baseUrls.google);
    }
  });

  it('endpoint not permitted: nothing is sent, the panel says so and links to the options page', async () => {
    // An endpoint whose host permission is missing (as after the person revoked it): written
    // straight into the settings, since saving it through Baton asks for the permission first.
    const baseUrl = `http://localhost:${s.fakes.custom.port}/compat/v1`;
    await s.browser.evalInWorker(async (baseUrl) => {
      type Rec = { key: string; value: { endpoints: unknown[] } };
      type Db = {
        get(store: string, key: string): Promise<Rec | undefined>;
        put(store: string, v: unknown): Promise<unknown>;
      };
      const { db } = await (globalThis as unknown as { batonReady: Promise<{ db: Db }> }).batonReady;
      const empty: Rec = { key: 'providers', value: { endpoints: [] } };
      const rec = (await db.get('settings', 'providers')) ?? empty;
      rec.value.endpoints.push({ id: 'custom-revoked', name: 'Revoked host', baseUrl, flavor: 'generic' });
      await db.put('settings', rec);
    }, baseUrl);
    await s.page.reload();
    await s.panel.ready();
    const before = s.fakes.custom.requests.length;
    await s.panel.newChat();
    await s.panel.choose('custom-revoked', 'llama3');
    await s.panel.send('Is this allowed?');
    const notice = s.page.locator('[data-error-code="endpoint_not_permitted"]');
    await notice.waitFor();
    const shown = await notice.innerText();
    expect(shown).toContain('Baton has no permission to reach this address, so nothing was sent.');
    expect(shown).not.toMatch(RAW);
    expect(await notice.getByRole('button', { name: 'Open options', exact: true }).isVisible()).toBe(true);
    expect(s.fakes.custom.requests.length).toBe(before);
    // No empty answer bubble was left behind.
    await waitFor(
      'the panel idle',
      async () => !(await s.page.getByRole('button', { name: 'Stop', exact: true }).isVisible()),
    );
    for (const t of await s.page.locator('[data-turn-id][data-role="assistant"]').allInnerTexts())
      expect(t.trim().split('\n').length).toBeGreaterThan(1);
  });
});
