/**
 * streamRequest with the real SDKs against the fake providers: text into complete turns, the
 * wire body equal to the converter's body, keys only in their own header (N2), redirects
 * refused (N3), timeouts (P5), stop (L5), errors in the middle of a stream (P3), no key
 * material in error messages (S4).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeProviders, type FakeProviders } from '../../test/fake-providers';
import { loadNeutralTranscript, loadNeutralTranscripts } from '../../test/fixtures/transcripts';
import { isAbortError, TransportError } from './errors';
import { listModels } from './models';
import { streamRequest } from './stream';
import {
  APIS,
  bodyFor,
  connectionFor,
  FAKE_API,
  keyFragments,
  MODELS,
  PROVIDERS,
  runStream,
} from './transports.test-helper';

const TEXT = 'Hello from the fake provider.';
const KEY_HEADER = {
  'anthropic-messages': 'x-api-key',
  'openai-responses': 'authorization',
  'openai-chat': 'authorization',
  'gemini-generate-content': 'x-goog-api-key',
  'gemini-interactions': 'x-goog-api-key',
} as const;

let fake: FakeProviders;
let other: FakeProviders;
beforeAll(async () => {
  [fake, other] = await Promise.all([startFakeProviders(), startFakeProviders()]);
});
afterAll(() => Promise.all([fake.close(), other.close()]));
beforeEach(() => {
  fake.reset();
  other.reset();
});

const simple = loadNeutralTranscript('simple-text');
/** A scripted answer long enough that 3 events never include the terminal one. */
const LONG = { kind: 'text' as const, chunks: ['one ', 'two ', 'three ', 'four ', 'five'] };

describe.each(APIS)('%s', (api) => {
  const conn = () => connectionFor(fake, api);

  it('streams the scripted text into a complete turn, sending the converter body unchanged with the key in its own header (N2)', async () => {
    const body = bodyFor(simple, api);
    const run = await runStream(conn(), body);
    expect(run.error).toBeUndefined();
    expect(run.turn.status).toBe('complete');
    // Responses keeps the output item id (replayed on the same origin).
    expect(run.turn.blocks).toEqual([
      { type: 'text', text: TEXT, ...(api === 'openai-responses' ? { meta: { itemId: 'msg_fake1' } } : {}) },
    ]);
    expect(run.turn.origin).toMatchObject({ provider: PROVIDERS[api], api });
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    const expected = api === 'gemini-generate-content' ? body : { ...body, stream: true };
    expect(req!.body).toEqual(expected);
    expect(req!.violations).toEqual([]);
    expect(req!.keyViolations).toEqual([]);
    const key = conn().apiKey;
    const carrying = Object.entries(req!.headers)
      .filter(([, v]) => v.includes(key))
      .map(([k]) => k);
    expect(carrying).toEqual([KEY_HEADER[api]]);
    if (api === 'gemini-generate-content')
      expect(req).toMatchObject({ path: `/v1beta/models/${MODELS[api]}:streamGenerateContent`, query: { alt: 'sse' } });
  });

  it('stops on abort: the call rejects with an AbortError and the server sees the disconnect before its stream ends (L5)', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'text', chunks: ['one ', 'two ', 'three ', 'four'], delayMs: 300 });
    const controller = new AbortController();
    const run = await runStream(conn(), bodyFor(simple, api), {
      signal: controller.signal,
      onEvent: () => controller.abort(),
    });
    // A disconnect is a client gone before the last chunk, 900 ms after the first (a finished stream is none):
    // the abort reached the server within L5's second, measured by the fake's pacing, not by this test's clock.
    await fake.waitForDisconnects(1);
    expect(isAbortError(run.error)).toBe(true);
    expect(run.events).toHaveLength(1);
    expect(run.turn.status).toBe('interrupted');
  });

  it('times out when nothing arrives within firstByteTimeoutMs (P5), closing the connection', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'stall', ms: 3000 });
    const run = await runStream(conn(), bodyFor(simple, api), { firstByteTimeoutMs: 50 });
    expect(run.error).toBeInstanceOf(TransportError);
    expect(run.error).toMatchObject({ code: 'timeout', retryable: true, midStream: false });
    await fake.waitForDisconnects(1, 1000);
  });

  it('times out on a gap longer than idleTimeoutMs between events, keeping what arrived (P5)', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'stall', ms: 3000, afterEvents: 3, source: LONG });
    const run = await runStream(conn(), bodyFor(simple, api), { idleTimeoutMs: 50 });
    expect(run.error).toMatchObject({ code: 'timeout', retryable: false, midStream: true });
    expect(run.events.length).toBeGreaterThan(0);
    expect(run.turn.status).toBe('interrupted');
    await fake.waitForDisconnects(1, 1000);
  });

  it('an error event mid-stream reaches the assembler (status error, partial kept) and throws a non-retryable error (P3)', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'error-event', afterEvents: api === 'openai-responses' ? 7 : 3 });
    const run = await runStream(conn(), bodyFor(simple, api));
    expect(run.error).toBeInstanceOf(TransportError);
    expect(run.error).toMatchObject({ midStream: true, retryable: false });
    expect(['overloaded', 'provider_error']).toContain((run.error as TransportError).code);
    expect(run.turn.status).toBe('error');
    expect(run.turn.error?.type).toBeTruthy();
    expect(run.turn.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('')).not.toContain('{');
  });

  it('a stream cut mid-way ends as interrupted with a mid-stream network error', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'cut', afterEvents: 3, source: LONG });
    const run = await runStream(conn(), bodyFor(simple, api));
    expect(run.turn.status).toBe('interrupted');
    expect(run.error).toMatchObject({ code: 'network', midStream: true, retryable: false });
  });

  it('N3 refuses a redirect: a provider error naming it, and the target receives nothing (x-api-key and x-goog-api-key included)', async () => {
    fake.enqueue(FAKE_API[api], { kind: 'error', status: 302, headers: { location: `${other.url}/v1/messages` } });
    const run = await runStream(conn(), bodyFor(simple, api));
    expect(run.error).toBeInstanceOf(TransportError);
    expect(run.error).toMatchObject({ code: 'provider_error', retryable: false });
    expect((run.error as Error).message).toMatch(/redirect/i);
    expect(fake.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('a 401 whose body echoes the key gives invalid_key with no key material in the message (S4)', async () => {
    const wrongKey = 'sk-wrong-key-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const run = await runStream(connectionFor(fake, api, wrongKey), bodyFor(simple, api));
    expect(run.error).toMatchObject({ code: 'invalid_key', status: 401, retryable: false });
    const err = run.error as TransportError;
    const dump = `${err.message} ${JSON.stringify(err)} ${String(err.stack)}`;
    for (const fragment of keyFragments(wrongKey)) expect(dump).not.toContain(fragment);
    expect(err.message.length).toBeLessThanOrEqual(500);
    if (api === 'openai-responses') expect(JSON.stringify(fake.requests[0]!.headers)).toContain(wrongKey); // the fake did see it (and echoed it)
  });
});

describe('the wire body equals the converter body', () => {
  const transcripts = loadNeutralTranscripts();
  const targets = [
    ...APIS.map((api) => ({ api, model: MODELS[api], thinking: false })),
    { api: 'anthropic-messages' as const, model: 'claude-sonnet-4-6', thinking: true },
    { api: 'openai-responses' as const, model: 'gpt-5.5', thinking: true },
    { api: 'gemini-generate-content' as const, model: 'gemini-3-pro-preview', thinking: true },
    { api: 'gemini-generate-content' as const, model: 'gemini-2.5-flash', thinking: true },
  ];

  it.each(Object.keys(transcripts))(
    'for %s on every API (tools, images, signatures, thinking config)',
    async (name) => {
      for (const target of targets) {
        fake.reset();
        const body = bodyFor(transcripts[name]!, target.api, target.model, target.thinking);
        const conn = connectionFor(fake, target.api);
        await streamRequest(conn, body, {
          model: target.model,
          signal: new AbortController().signal,
          onEvent: () => {},
        });
        const sent = fake.requests[0]!;
        expect(sent.body, `${name} → ${target.api} ${target.model}`).toEqual(
          target.api === 'gemini-generate-content' ? body : { ...body, stream: true },
        );
        expect(sent.violations).toEqual([]);
        if (target.api === 'gemini-generate-content') expect(sent.model).toBe(target.model);
      }
    },
  );

  it('refuses a Gemini field the SDK would drop, before any request', async () => {
    const body = { ...bodyFor(simple, 'gemini-generate-content'), labels: { a: 'b' } };
    const run = await runStream(connectionFor(fake, 'gemini-generate-content'), body);
    expect(run.error).toMatchObject({ code: 'internal', message: expect.stringContaining('body.labels') });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('events and errors of the consumer', () => {
  it('passes Gemini chunks as the raw JSON of each data line (fields the SDK would rename are kept)', async () => {
    const chunk = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Hi' }] },
          finishReason: 'STOP',
          finishMessage: 'done',
          citationMetadata: { citationSources: [{ uri: 'https://example.com' }] },
        },
      ],
      responseId: 'r1',
    };
    fake.enqueue('gemini-generate-content', { kind: 'events', events: [chunk] });
    const run = await runStream(
      connectionFor(fake, 'gemini-generate-content'),
      bodyFor(simple, 'gemini-generate-content'),
    );
    expect(run.events).toEqual([chunk]);
  });

  it('an onEvent that throws aborts the request and its error comes back unchanged', async () => {
    fake.enqueue('anthropic-messages', { kind: 'text', chunks: ['a', 'b', 'c'], delayMs: 300 });
    const boom = new Error('consumer failed');
    await expect(
      streamRequest(connectionFor(fake, 'anthropic-messages'), bodyFor(simple, 'anthropic-messages'), {
        model: MODELS['anthropic-messages'],
        signal: new AbortController().signal,
        onEvent: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    await fake.waitForDisconnects(1, 1000);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runStream(connectionFor(fake, 'openai-responses'), bodyFor(simple, 'openai-responses'), {
      signal: controller.signal,
    });
    expect(isAbortError(run.error)).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('keys (N2, S4)', () => {
  it('nothing printed to the console during failing calls holds key material (S4)', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    );
    try {
      const keys: string[] = [];
      for (const api of APIS) {
        const wrong = `${api}-wrong-key-0123456789abcdefghij`;
        keys.push(wrong, connectionFor(fake, api).apiKey);
        await runStream(connectionFor(fake, api, wrong), bodyFor(simple, api));
        fake.enqueue(FAKE_API[api], { kind: 'error-event', afterEvents: 2 });
        await runStream(connectionFor(fake, api), bodyFor(simple, api));
        await listModels(connectionFor(fake, api, wrong)).catch(() => undefined);
      }
      const printed = spies
        .flatMap((s) =>
          s.mock.calls.map((args) =>
            args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a))).join(' '),
          ),
        )
        .join('\n');
      for (const key of keys) for (const fragment of keyFragments(key)) expect(printed).not.toContain(fragment);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });

  it('an OpenAI-compatible endpoint without a key gets no Authorization header at all', async () => {
    const run = await runStream({ ...connectionFor(fake, 'openai-chat'), apiKey: '' }, bodyFor(simple, 'openai-chat'));
    expect(run.error).toMatchObject({ code: 'invalid_key' });
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });
});
