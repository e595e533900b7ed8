/**
 * Scenario 6: errors injected by the fake providers, each in a new chat through the side panel:
 * the right state in the UI (`data-status`, the error notice's code, Retry), the right number of
 * requests, and the user turn never lost (P1, P2, P3). Waits stay short (`retry-after: 1`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeApi, FakeProviders, Reply } from '../fake-providers';
import { E2E_KEYS, expectKeysOnlyToTheirOrigins, expectValid, findKeyMaterial, posts, type BuiltinId } from './fakes';
import { waitFor } from './harness';
import { request, storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('injected-errors.e2e.ts');

const TARGETS: Record<BuiltinId, { model: string; api: FakeApi }> = {
  openai: { model: 'gpt-5.5', api: 'openai-responses' },
  anthropic: { model: 'claude-sonnet-4-6', api: 'anthropic-messages' },
  google: { model: 'gemini-3-pro-preview', api: 'gemini-generate-content' },
};

/**
 * A paced text stream: the events before a cut or an error event are delivered before it (without
 * pacing, a socket destroyed right after the writes may lose them all, and a request that
 * delivered nothing is rightly retried).
 */
const WORDS = {
  kind: 'text' as const,
  text: 'Partial answer that goes on and on',
  chunks: ['Partial ', 'answer ', 'that ', 'goes ', 'on ', 'and ', 'on'],
  delayMs: 30,
};
/** Events before the first text deltas are through: Responses opens with 4 structural events, Anthropic with 2, Gemini with none. */
const AFTER_DELTAS: Record<BuiltinId, number> = { openai: 7, anthropic: 5, google: 3 };

describe.skipIf(!HAS_CHROMIUM)('injected provider errors', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  /**
   * Sends `text` in a new chat on `provider` after queueing `replies` (exactly as many as the
   * requests expected: an extra request would get the default answer and show up as `complete`);
   * waits for the final state.
   * Returns the final status, the stored turns, the requests that reached the provider and the
   * error code the panel shows (if any).
   */
  async function sendWith(provider: BuiltinId, text: string, ...replies: Reply[]) {
    const fake: FakeProviders = s.fakes[provider];
    const before = posts(fake).length;
    fake.enqueue(TARGETS[provider].api, ...replies);
    await s.panel.newChat();
    await s.panel.choose(provider, TARGETS[provider].model);
    await s.panel.send(text);
    const status = await s.panel.waitForAnswer(1);
    const id = await s.panel.currentConversationId();
    const turns = await storedTurns(s.page, id);
    // P1/P3: the user turn is never lost, whatever happened to the answer.
    expect(turns[0]).toMatchObject({ role: 'user', blocks: [{ type: 'text', text }] });
    expect(turns).toHaveLength(2);
    const notice = s.page.locator('.retry-bar [data-error-code]');
    const code = (await notice.count()) ? await notice.getAttribute('data-error-code') : undefined;
    const sent = posts(fake).slice(before);
    for (const r of sent) expectValid(r);
    return { status, answer: turns[1]!, sent, code, id };
  }

  const retryOffered = () =>
    s.page.locator('.retry-bar').getByRole('button', { name: 'Retry', exact: true }).isVisible();

  it('P1 a 429 with retry-after: 1 is retried once, after the wait, and the panel says it is retrying', async () => {
    const retrying = waitFor(
      'the retrying notice',
      async () => (await s.page.locator('p.phase').innerText()).includes('retrying in 1 s'),
      15_000,
    );
    const r = await sendWith(
      'anthropic',
      'Rate limited?',
      { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'text', text: 'Through after the wait.' },
    );
    await retrying;
    expect(r.status).toBe('complete');
    expect(r.sent).toHaveLength(2);
    expect(r.sent[1]!.at - r.sent[0]!.at).toBeGreaterThanOrEqual(950);
    expect(textOf(r.answer)).toBe('Through after the wait.');
  });

  it('P1 a 500 is retried and the answer arrives: two requests', async () => {
    const r = await sendWith(
      'google',
      'Server error?',
      { kind: 'error', status: 500 },
      { kind: 'text', text: 'Recovered.' },
    );
    expect(r.status).toBe('complete');
    expect(r.sent).toHaveLength(2);
    expect(textOf(r.answer)).toBe('Recovered.');
  });

  it('P1 a persistent 529 stops after 1+3 requests with an "overloaded" error and Retry', async () => {
    const r = await sendWith(
      'anthropic',
      'Overloaded?',
      ...Array.from({ length: 4 }, () => ({ kind: 'error' as const, status: 529 })),
    );
    expect(r.status).toBe('error');
    expect(r.sent).toHaveLength(4);
    expect(r.code).toBe('overloaded');
    expect(await retryOffered()).toBe(true);
  });

  it('P2 an OpenAI insufficient_quota 429 is one request and a quota error, never retried', async () => {
    const r = await sendWith('openai', 'Out of credit?', {
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
    expect(r.status).toBe('error');
    expect(r.sent).toHaveLength(1);
    expect(r.code).toBe('quota');
  });

  it('P3 a stream cut mid-way keeps its partial text as interrupted, one request, Retry offered', async () => {
    const r = await sendWith('openai', 'Cut me off', { kind: 'cut', afterEvents: AFTER_DELTAS.openai, source: WORDS });
    expect(r.status).toBe('interrupted');
    expect(r.sent).toHaveLength(1);
    expect(textOf(r.answer).length).toBeGreaterThan(0);
    expect(WORDS.text.startsWith(textOf(r.answer))).toBe(true);
    await s.page.getByText('Response interrupted.', { exact: true }).waitFor();
    expect(await retryOffered()).toBe(true);
  });

  // The fake's default error events: Anthropic `overloaded_error`, Gemini `error.code: 503` (UNAVAILABLE), Responses `error` with `server_error`.
  for (const [provider, providerType, code] of [
    ['anthropic', 'overloaded_error', 'overloaded'],
    ['google', 'UNAVAILABLE', 'overloaded'],
    ['openai', 'server_error', 'provider_error'],
  ] as const) {
    it(`P3 an error event mid-stream (${provider}) keeps the partial text with status error, one request, Retry, no error JSON in the answer`, async () => {
      const r = await sendWith(provider, `Fail midway on ${provider}`, {
        kind: 'error-event',
        afterEvents: AFTER_DELTAS[provider],
        source: WORDS,
      });
      expect(r.status).toBe('error');
      expect(r.sent).toHaveLength(1);
      expect(textOf(r.answer)).toMatch(/^Partial/);
      expect(WORDS.text.startsWith(textOf(r.answer))).toBe(true);
      expect(r.answer.error?.type, 'the provider error type is kept').toBe(providerType);
      expect(r.code).toBe(code);
      const shown = await s.panel.turns().last().innerText();
      expect(shown).toContain('Partial');
      expect(shown).not.toMatch(/[{}]|"error"|overloaded_error|server_error/);
      expect(await retryOffered()).toBe(true);
    });
  }

  it('P1 a 401 is one request and an invalid-key error; the key echoed in the body is shown nowhere (P5)', async () => {
    const r = await sendWith('openai', 'Wrong key?', {
      kind: 'error',
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${E2E_KEYS.openai}.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
          param: null,
        },
      },
    });
    expect(r.status).toBe('error');
    expect(r.sent).toHaveLength(1);
    expect(r.code).toBe('invalid_key');
    expect(findKeyMaterial(await s.page.evaluate(() => document.body.innerHTML))).toEqual([]);
    expect(findKeyMaterial(JSON.stringify(r.answer))).toEqual([]);
  });

  it('P1 a 401 during a send marks the key invalid in the settings', async () => {
    s.fakes.openai.enqueue('openai-responses', { kind: 'error', status: 401 });
    await s.panel.newChat();
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Is my key marked?');
    expect(await s.panel.waitForAnswer(1)).toBe('error');
    const settings = await request<{ providers: { id: string; keyInvalid?: boolean }[] }>(s.page, 'getSettings', {});
    expect(settings.providers.find((p) => p.id === 'openai')?.keyInvalid).toBe(true);
  });

  it('N2 and S4: keys only to their own origins; no key material in the console, 401 and stream errors included', async () => {
    expect(expectKeysOnlyToTheirOrigins(s.fakes)).toBeGreaterThanOrEqual(14);
    expect(findKeyMaterial((await s.browser.capturedLogs(s.page)).join('\n'))).toEqual([]);
  });
});
