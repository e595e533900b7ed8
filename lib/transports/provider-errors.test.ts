/**
 * P1 and P2 against the fake providers through the real SDKs: each HTTP status gives the right
 * error code and request count under Baton's retry policy (instant sleep), `retry-after`
 * is honoured up to the cap, and quota errors are never retried.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startFakeProviders, type FakeProviders, type Reply } from '../../test/fake-providers';
import { loadNeutralTranscript } from '../../test/fixtures/transcripts';
import type { WireApi } from '../transcript/schema';
import { TransportError } from './errors';
import { withRetries, type RetryInfo } from './retry';
import { streamRequest } from './stream';
import { APIS, bodyFor, connectionFor, FAKE_API, MODELS } from './transports.test-helper';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const simple = loadNeutralTranscript('simple-text');

/** One user send: streamRequest under withRetries with an instant sleep. */
async function send(api: WireApi): Promise<{ error?: TransportError; retries: RetryInfo[]; requests: number }> {
  const retries: RetryInfo[] = [];
  const conn = connectionFor(fake, api);
  const body = bodyFor(simple, api);
  try {
    await withRetries(
      () => streamRequest(conn, body, { model: MODELS[api], signal: new AbortController().signal, onEvent: () => {} }),
      { sleep: async () => {}, random: () => 0.5, onRetry: (info) => retries.push(info) },
    );
    return { retries, requests: fake.requests.length };
  } catch (e) {
    expect(e).toBeInstanceOf(TransportError);
    return { error: e as TransportError, retries, requests: fake.requests.length };
  }
}

const errorsFor = (api: WireApi, reply: Reply, times = 5) =>
  fake.enqueue(FAKE_API[api], ...Array.from({ length: times }, () => reply));

describe.each(APIS)('P1 on %s', (api) => {
  it.each([
    [400, 'bad_request'],
    [401, 'invalid_key'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [413, 'context_too_long'],
  ] as const)('HTTP %i → exactly 1 request, %s, not retryable', async (status, code) => {
    errorsFor(api, { kind: 'error', status });
    const r = await send(api);
    expect(r.error).toMatchObject({ code, status, retryable: false });
    expect([r.requests, r.retries.length]).toEqual([1, 0]);
  });

  it.each([
    [408, 'provider_error'],
    [409, 'provider_error'],
    [429, 'rate_limited'],
    [500, 'provider_error'],
    [502, 'provider_error'],
    [503, 'overloaded'],
    [504, 'provider_error'],
    [529, 'overloaded'],
  ] as const)('HTTP %i → %s, retried with backoff: 1 + 3 requests in all', async (status, code) => {
    // 429 with a retry-after so Anthropic's rule (no retry-after = spend limit) does not apply.
    errorsFor(api, { kind: 'error', status, headers: status === 429 ? { 'retry-after': '2' } : {} });
    const r = await send(api);
    expect(r.error).toMatchObject({ code, status, retryable: true });
    expect(r.requests).toBe(4);
    // Exponential backoff (1 s, 2 s, 4 s at the middle of the jitter range), or the provider's 2 s.
    expect(r.retries.map((i) => [i.attempt, i.delayMs])).toEqual(
      status === 429
        ? [
            [2, 2000],
            [3, 2000],
            [4, 2000],
          ]
        : [
            [2, 750],
            [3, 1500],
            [4, 3000],
          ],
    );
  });

  it('a transient error followed by success: the send completes on the second request', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'error', status: 500 });
    const r = await send(api);
    expect(r.error).toBeUndefined();
    expect([r.requests, r.retries.length]).toEqual([2, 1]);
  });
});

describe('retry-after (P1)', () => {
  it.each([
    ['retry-after seconds', () => ({ 'retry-after': '7' }), 7000],
    ['retry-after-ms first', () => ({ 'retry-after-ms': '1500', 'retry-after': '7' }), 1500],
    ['an HTTP date', () => ({ 'retry-after': new Date(Date.now() + 30_000).toUTCString() }), 30_000],
    ['capped at 60 s', () => ({ 'retry-after': '3600' }), 60_000],
  ])('%s', async (_name, headers, expected) => {
    fake.enqueue('openai-chat', { kind: 'error', status: 429, headers: headers() }, { kind: 'text' });
    const r = await send('openai-chat');
    expect(r.error).toBeUndefined();
    expect(r.retries).toHaveLength(1);
    // HTTP dates have 1 s resolution.
    expect(Math.abs(r.retries[0]!.delayMs - expected)).toBeLessThanOrEqual(expected === 30_000 ? 1000 : 0);
  });
});

describe('quota is not a rate limit (P2): 1 request, no retry', () => {
  it.each([
    [
      'OpenAI Responses insufficient_quota',
      'openai-responses',
      {
        kind: 'error',
        status: 429,
        body: errorBody(
          'openai-responses',
          429,
          'You exceeded your current quota, please check your plan and billing details.',
          'insufficient_quota',
          'insufficient_quota',
        ),
      },
    ],
    [
      'OpenAI-compatible insufficient_quota',
      'openai-chat',
      {
        kind: 'error',
        status: 429,
        body: errorBody(
          'openai-chat',
          429,
          'You exceeded your current quota, please check your plan and billing details.',
          'insufficient_quota',
          'insufficient_quota',
        ),
      },
    ],
    [
      'Anthropic spend-limit 429 without retry-after',
      'anthropic-messages',
      {
        kind: 'error',
        status: 429,
        body: errorBody(
          'anthropic-messages',
          429,
          'You have reached your specified API usage limits.',
          'rate_limit_error',
        ),
      },
    ],
    [
      'Gemini RESOURCE_EXHAUSTED with quota wording',
      'gemini-generate-content',
      {
        kind: 'error',
        status: 429,
        body: errorBody(
          'gemini-generate-content',
          429,
          'You exceeded your current quota, please check your plan and billing details.',
        ),
      },
    ],
  ] as const)('%s', async (_name, api, reply) => {
    fake.enqueue(FAKE_API[api], reply, { kind: 'text' });
    const r = await send(api);
    expect(r.error).toMatchObject({ code: 'quota', status: 429, retryable: false });
    expect(r.error!.message).toMatch(/quota|billing|limit/i);
    expect([r.requests, r.retries.length]).toEqual([1, 0]);
  });

  it('a Gemini per-minute quota with RetryInfo is a rate limit, retried after the given delay', async () => {
    const body = {
      error: {
        code: 429,
        message: 'You exceeded your current quota. Please retry in 12s.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' },
        ],
      },
    };
    fake.enqueue('gemini-generate-content', { kind: 'error', status: 429, body }, { kind: 'text' });
    const r = await send('gemini-generate-content');
    expect(r.error).toBeUndefined();
    expect(r.retries.map((i) => [i.error.code, i.delayMs])).toEqual([['rate_limited', 12_000]]);
  });
});

describe('error hygiene (P5)', () => {
  it('a 413 with a non-JSON (proxy) body maps to context_too_long with plain text', async () => {
    fake.enqueue('anthropic-messages', {
      kind: 'error',
      status: 413,
      body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>cloudflare</center></body></html>',
    });
    const r = await send('anthropic-messages');
    expect(r.error).toMatchObject({ code: 'context_too_long', status: 413, retryable: false });
    expect(r.error!.message).not.toMatch(/[<>]/);
    expect(r.error!.message).toContain('413 Request Entity Too Large');
  });

  it('a 400 about context length is context_too_long; a long message is cut to 500 characters', async () => {
    fake.enqueue('openai-responses', {
      kind: 'error',
      status: 400,
      body: errorBody(
        'openai-responses',
        400,
        `This model's maximum context length is 128000 tokens. ${'x'.repeat(2000)}`,
        'invalid_request_error',
        'context_length_exceeded',
      ),
    });
    const r = await send('openai-responses');
    expect(r.error).toMatchObject({ code: 'context_too_long', retryable: false });
    expect(r.error!.message.length).toBeLessThanOrEqual(500);
  });

  it('an unreachable provider is a retryable network error (4 attempts)', async () => {
    const closed = await startFakeProviders();
    await closed.close();
    const conn = { ...connectionFor(fake, 'openai-chat'), baseUrl: `${closed.url}/compat/v1` };
    let attempts = 0;
    const err = await withRetries(
      () => {
        attempts++;
        return streamRequest(conn, bodyFor(simple, 'openai-chat'), {
          model: MODELS['openai-chat'],
          signal: new AbortController().signal,
          onEvent: () => {},
        });
      },
      { sleep: async () => {} },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'network', retryable: true });
    expect(attempts).toBe(4);
  });
});
