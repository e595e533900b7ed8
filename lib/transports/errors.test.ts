/** parseRetryAfter and classifyError on errors that need no server (the live table is provider-errors.test.ts). */
import { describe, expect, it } from 'vitest';
import { classifyError, parseRetryAfter, TransportError } from './errors';

const headers = (h: Record<string, string>) => new Headers(h);

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  it.each([
    [{ 'retry-after-ms': '1500.4', 'retry-after': '9' }, 1500],
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after': 'Mon, 30 Nov 2026 12:00:45 GMT' }, 45_000],
    [{ 'retry-after': 'Mon, 30 Nov 2026 11:00:00 GMT' }, 0],
    [{ 'retry-after': '86400' }, 60_000],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j → %s', (h, expected) => {
    expect(parseRetryAfter(headers(h), now)).toBe(expected);
  });
});

describe('classifyError', () => {
  it('returns a TransportError unchanged', () => {
    const e = new TransportError('timeout', 'slow', { retryable: true });
    expect(classifyError(e)).toBe(e);
  });

  it('N3 a fetch that refused a redirect (undici cause chain) is a provider error naming the redirect', () => {
    const err = new Error('Connection error.', {
      cause: new TypeError('fetch failed', { cause: new Error('unexpected redirect') }),
    });
    expect(classifyError(err)).toMatchObject({
      code: 'provider_error',
      retryable: false,
      providerType: 'redirect',
      message: expect.stringMatching(/redirect/),
    });
  });

  it('a bare network failure is retryable; an SDK timeout is a timeout', () => {
    expect(classifyError(new TypeError('Failed to fetch'))).toMatchObject({ code: 'network', retryable: true });
    class APIConnectionTimeoutError extends Error {}
    expect(classifyError(new APIConnectionTimeoutError('Request timed out.'))).toMatchObject({
      code: 'timeout',
      retryable: true,
    });
  });

  it('reads a Gemini ApiError message (JSON body, no headers), including API_KEY_INVALID on a 400', () => {
    const body = {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
      },
    };
    const err = Object.assign(new Error(JSON.stringify(body)), { status: 400 });
    expect(classifyError(err, { api: 'gemini-generate-content' })).toMatchObject({
      code: 'invalid_key',
      status: 400,
      providerType: 'INVALID_ARGUMENT',
    });
  });

  it('uses headers seen by the fetch when the SDK error has none', () => {
    const err = Object.assign(
      new Error(JSON.stringify({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } })),
      { status: 503 },
    );
    expect(
      classifyError(err, { api: 'gemini-generate-content', headers: headers({ 'retry-after': '3' }) }),
    ).toMatchObject({ code: 'overloaded', retryable: true, retryAfterMs: 3000 });
  });

  it('an OpenAI error event inside a stream (no status) is classified by its type', () => {
    const err = Object.assign(new Error('stream'), {
      status: undefined,
      error: { message: 'Overloaded', type: 'overloaded_error', code: null },
    });
    expect(classifyError(err, { api: 'openai-chat' })).toMatchObject({
      code: 'overloaded',
      retryable: true,
      status: undefined,
    });
  });

  it('removes the given secrets from the message and keeps it ≤ 500 characters (S4, P5)', () => {
    const key = 'sk-ant-api03-SECRETSECRETSECRET';
    const err = Object.assign(new Error('x'), {
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: `bad ${key} ${'z'.repeat(900)}` } },
    });
    const t = classifyError(err, { secrets: [key] });
    expect(t.message).not.toContain('SECRETSECRET');
    expect(t.message.length).toBeLessThanOrEqual(500);
    expect(t.toProtocolError()).toEqual({ code: 'bad_request', message: t.message });
  });

  it('toProtocolError rounds retryAfterMs up to seconds', () => {
    expect(
      new TransportError('rate_limited', 'slow down', { retryable: true, retryAfterMs: 1200 }).toProtocolError(),
    ).toEqual({ code: 'rate_limited', message: 'slow down', retryAfterSec: 2 });
  });
});
