/** countTokens against the fake providers' count endpoints: the wire shape, the key header, the fake's checks, errors. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProviders, type FakeProviders } from '../../test/fake-providers';
import { fakeTokenCount } from '../../test/fake-providers/count-tokens';
import { countTokens, hasCountEndpoint } from './count';
import { connectionFor } from './transports.test-helper';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const ANTHROPIC = {
  model: 'claude-sonnet-4-6',
  system: 'Be brief.',
  messages: [{ role: 'user', content: 'Say hello.' }],
};
const GEMINI = {
  generateContentRequest: {
    model: 'models/gemini-2.5-flash',
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }],
  },
};

describe('countTokens', () => {
  it('Anthropic: POST /v1/messages/count_tokens with the body as given, the key in x-api-key → input_tokens', async () => {
    const n = await countTokens(connectionFor(fake, 'anthropic-messages'), ANTHROPIC, { model: 'claude-sonnet-4-6' });
    const [r] = fake.requests;
    expect(fake.requests).toHaveLength(1);
    expect([r!.method, r!.path, r!.api, r!.status]).toEqual([
      'POST',
      '/v1/messages/count_tokens',
      'anthropic-count-tokens',
      200,
    ]);
    expect(r!.body).toEqual(ANTHROPIC);
    expect(r!.headers['x-api-key']).toBe(fake.keys.anthropic);
    expect(r!.headers.authorization).toBeUndefined();
    expect(r!.keyViolations).toEqual([]);
    expect(n).toBe(fakeTokenCount(JSON.stringify(ANTHROPIC)));
  });

  it('Gemini: POST /v1beta/models/<model>:countTokens with generateContentRequest, the key in x-goog-api-key → totalTokens', async () => {
    const n = await countTokens(connectionFor(fake, 'gemini-generate-content'), GEMINI, { model: 'gemini-2.5-flash' });
    const [r] = fake.requests;
    expect([r!.method, r!.path, r!.api, r!.model, r!.status]).toEqual([
      'POST',
      '/v1beta/models/gemini-2.5-flash:countTokens',
      'gemini-count-tokens',
      'gemini-2.5-flash',
      200,
    ]);
    expect(r!.body).toEqual(GEMINI);
    expect(r!.query).toEqual({});
    expect(r!.headers['x-goog-api-key']).toBe(fake.keys.google);
    expect(r!.keyViolations).toEqual([]);
    expect(n).toBe(fakeTokenCount(JSON.stringify(GEMINI)));
  });

  it('the fake refuses what the real endpoint refuses: max_tokens and stream on Anthropic (400 → bad_request, no retry)', async () => {
    const err = await countTokens(
      connectionFor(fake, 'anthropic-messages'),
      { ...ANTHROPIC, max_tokens: 100, stream: true },
      { model: 'claude-sonnet-4-6' },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'bad_request', status: 400 });
    expect(String((err as Error).message)).toMatch(
      /max_tokens: Extra inputs are not permitted.*stream: Extra inputs are not permitted/,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('the fake judges the messages by the contract validator (A-E1: an empty text block)', async () => {
    const body = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] };
    await expect(
      countTokens(connectionFor(fake, 'anthropic-messages'), body, { model: 'claude-sonnet-4-6' }),
    ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('A-E1') });
  });

  it('Gemini: a generateContentRequest naming another model is refused', async () => {
    const body = { generateContentRequest: { ...GEMINI.generateContentRequest, model: 'models/gemini-3-pro-preview' } };
    await expect(
      countTokens(connectionFor(fake, 'gemini-generate-content'), body, { model: 'gemini-2.5-flash' }),
    ).rejects.toMatchObject({ code: 'bad_request', status: 400 });
  });

  it.each(['anthropic-messages', 'gemini-generate-content'] as const)(
    '%s: a wrong key is invalid_key, the key redacted from the message',
    async (api) => {
      const wrong = 'sk-wrong-key-0123456789abcdef';
      const err = (await countTokens(
        connectionFor(fake, api, wrong),
        api === 'anthropic-messages' ? ANTHROPIC : GEMINI,
        { model: api === 'anthropic-messages' ? 'claude-sonnet-4-6' : 'gemini-2.5-flash' },
      ).catch((e: unknown) => e)) as Error & { code: string };
      expect(err.code).toBe('invalid_key');
      expect(err.message).not.toContain(wrong.slice(0, 12));
    },
  );

  it('maps provider errors like a send: 429 with retry-after → rate_limited; 529 → overloaded', async () => {
    fake.enqueue(
      'anthropic-count-tokens',
      { kind: 'error', status: 429, headers: { 'retry-after': '7' } },
      { kind: 'error', status: 529 },
    );
    await expect(
      countTokens(connectionFor(fake, 'anthropic-messages'), ANTHROPIC, { model: 'claude-sonnet-4-6' }),
    ).rejects.toMatchObject({ code: 'rate_limited', retryAfterMs: 7000 });
    await expect(
      countTokens(connectionFor(fake, 'anthropic-messages'), ANTHROPIC, { model: 'claude-sonnet-4-6' }),
    ).rejects.toMatchObject({ code: 'overloaded' });
  });

  it('Gemini: a 503 is overloaded, a quota 429 is quota', async () => {
    fake.enqueue(
      'gemini-count-tokens',
      { kind: 'error', status: 503 },
      {
        kind: 'error',
        status: 429,
        body: {
          error: {
            code: 429,
            message: 'You exceeded your current quota, please check your plan and billing details.',
            status: 'RESOURCE_EXHAUSTED',
          },
        },
      },
    );
    await expect(
      countTokens(connectionFor(fake, 'gemini-generate-content'), GEMINI, { model: 'gemini-2.5-flash' }),
    ).rejects.toMatchObject({ code: 'overloaded', status: 503 });
    await expect(
      countTokens(connectionFor(fake, 'gemini-generate-content'), GEMINI, { model: 'gemini-2.5-flash' }),
    ).rejects.toMatchObject({ code: 'quota', status: 429 });
  });

  it('an answer without a count is a provider_error', async () => {
    fake.enqueue('anthropic-count-tokens', { kind: 'json', body: { tokens: 12 } });
    await expect(
      countTokens(connectionFor(fake, 'anthropic-messages'), ANTHROPIC, { model: 'claude-sonnet-4-6' }),
    ).rejects.toMatchObject({ code: 'provider_error' });
  });

  it('times out after timeoutMs, closing the connection', async () => {
    fake.enqueue('gemini-count-tokens', { kind: 'stall', ms: 2000 });
    await expect(
      countTokens(connectionFor(fake, 'gemini-generate-content'), GEMINI, { model: 'gemini-2.5-flash', timeoutMs: 50 }),
    ).rejects.toMatchObject({ code: 'timeout' });
    await fake.waitForDisconnects(1, 1000);
  });

  it('OpenAI Responses and Chat (and every compatible endpoint) have no count endpoint: refused, no request', async () => {
    expect([
      hasCountEndpoint('openai-responses'),
      hasCountEndpoint('openai-chat'),
      hasCountEndpoint('anthropic-messages'),
      hasCountEndpoint('gemini-generate-content'),
    ]).toEqual([false, false, true, true]);
    await expect(
      countTokens(connectionFor(fake, 'openai-chat'), { model: 'gpt-4.1-mini' }, { model: 'gpt-4.1-mini' }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    expect(fake.requests).toHaveLength(0);
  });
});
