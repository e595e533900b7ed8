/**
 * Queued replies of the fake providers: recorded fixtures, tool-call and thinking answers (read
 * back by Baton's own stream assemblers), HTTP errors, cuts, mid-stream error events, stalls,
 * pacing and disconnect detection.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicMessagesStreamAssembler } from '../../lib/providers/anthropic-messages/read-anthropic-messages';
import { createGeminiGenerateContentStreamAssembler } from '../../lib/providers/gemini-generate-content/read-gemini-generate-content';
import { createOpenAIChatStreamAssembler } from '../../lib/providers/openai-chat/read-openai-chat';
import { createOpenAIResponsesStreamAssembler } from '../../lib/providers/openai-responses/read-openai-responses';
import { DEFAULT_FIXTURES_DIR, startFakeProviders } from './server';
import {
  ANTHROPIC_BODY,
  anthropicClient,
  CHAT_BODY,
  GEMINI_CONTENTS,
  geminiClient,
  openaiClient,
  RESPONSES_BODY,
} from './sdk-clients.test-helper';
import type { FakeProviders } from './types';

const has = fs.existsSync(DEFAULT_FIXTURES_DIR);
if (!has) console.warn('skipping: ../shared/fixtures not found');

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** Collects every event an SDK stream yields (and the error it ends with, if any). */
async function drain<T>(stream: AsyncIterable<T>): Promise<{ events: T[]; error?: unknown }> {
  const events: T[] = [];
  try {
    for await (const ev of stream) events.push(ev);
  } catch (error) {
    return { events, error };
  }
  return { events };
}

const rawFetch = (path: string, init: RequestInit & { api?: 'anthropic' } = {}) =>
  fetch(`${fake.url}${path}`, {
    method: 'POST',
    ...init,
    headers: {
      'x-api-key': fake.keys.anthropic,
      'anthropic-version': '2023-06-01',
      ...(init.headers as Record<string, string>),
    },
  });

describe.skipIf(!has)('recorded fixtures', () => {
  it('replays anthropic/text.chunks.jsonl event for event', async () => {
    fake.enqueue('anthropic-messages', { kind: 'fixture', file: 'anthropic/text.chunks.jsonl' });
    const { events } = await drain(await anthropicClient(fake).messages.create({ ...ANTHROPIC_BODY, stream: true }));
    const recorded = fs
      .readFileSync(`${DEFAULT_FIXTURES_DIR}/anthropic/text.chunks.jsonl`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string });
    // The SDK drops `ping` (it is framed as `event: ping`).
    expect(events).toEqual(recorded.filter((e) => e.type !== 'ping'));
  });

  it('replays a raw .sse file and a non-stream .response.json', async () => {
    fake.configure({ chatProvider: 'anthropic-compat' });
    fake.enqueue(
      'openai-chat',
      { kind: 'fixture', file: 'openai-chat/anthropic-compat-tool-call.sse' },
      { kind: 'fixture', file: 'openai-chat/text.response.json' },
    );
    const { events } = await drain(await openaiClient(fake).chat.completions.create({ ...CHAT_BODY, stream: true }));
    expect(
      events
        .flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []))
        .some((t) => t.function?.name === 'read_file'),
    ).toBe(true);
    const json = await openaiClient(fake).chat.completions.create(CHAT_BODY);
    expect(json).toEqual(JSON.parse(fs.readFileSync(`${DEFAULT_FIXTURES_DIR}/openai-chat/text.response.json`, 'utf8')));
    fake.configure({ chatProvider: 'openai' });
  });

  it('replays the response body of a YAML cassette (Responses) and a Gemini JSON-array cassette', async () => {
    fake.enqueue('openai-responses', {
      kind: 'fixture',
      file: 'openai-responses/llm-cassette-function-call-streaming.yaml',
    });
    const { events } = await drain(await openaiClient(fake).responses.create({ ...RESPONSES_BODY, stream: true }));
    expect(events[0]).toMatchObject({ type: 'response.created', sequence_number: 0 });
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
    fake.enqueue('gemini-generate-content', { kind: 'fixture', file: 'gemini/llm-cassette-gemini25-tool-chain.json' });
    const gem = await drain(
      await geminiClient(fake).models.generateContentStream({ model: 'gemini-2.5-flash', contents: GEMINI_CONTENTS }),
    );
    expect(gem.error).toBeUndefined();
    expect(gem.events.flatMap((c) => c.functionCalls ?? []).map((c) => c.name)).toContain('pelican_name_generator');
  });

  it('answers 500 naming the mistake when a stream fixture is used for a non-stream request', async () => {
    fake.enqueue('anthropic-messages', { kind: 'fixture', file: 'anthropic/text.chunks.jsonl' });
    const res = await rawFetch('/v1/messages', { body: JSON.stringify(ANTHROPIC_BODY) });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('misconfigured');
  });
});

describe('tool-call and thinking answers read back into complete turns', () => {
  const call = { id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Oslo', days: 2 } };

  it('Anthropic: thinking with signature, text and a tool_use', async () => {
    fake.enqueue('anthropic-messages', {
      kind: 'thinking',
      thinking: 'Check the weather.',
      signature: 'sig-anthropic-1',
      text: 'Let me look.',
      calls: [{ ...call, id: 'toolu_weather_1' }],
    });
    const asm = createAnthropicMessagesStreamAssembler({ provider: 'anthropic' });
    for (const ev of (await drain(await anthropicClient(fake).messages.create({ ...ANTHROPIC_BODY, stream: true })))
      .events)
      asm.push(ev);
    const turn = asm.finish();
    expect(turn.status).toBe('complete');
    expect(turn.blocks).toEqual([
      { type: 'thinking', text: 'Check the weather.', signature: 'sig-anthropic-1' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_call', id: 'toolu_weather_1', name: 'get_weather', input: { city: 'Oslo', days: 2 } },
    ]);
  });

  it('Chat: a tool call streamed in pieces', async () => {
    fake.enqueue('openai-chat', { kind: 'tool-call', calls: [call] });
    const asm = createOpenAIChatStreamAssembler({ provider: 'openai' });
    for (const ev of (await drain(await openaiClient(fake).chat.completions.create({ ...CHAT_BODY, stream: true })))
      .events)
      asm.push(ev);
    const turn = asm.finish();
    expect(turn.status).toBe('complete');
    expect(turn.blocks).toEqual([
      { type: 'tool_call', id: 'call_weather_1', name: 'get_weather', input: { city: 'Oslo', days: 2 } },
    ]);
  });

  it('Responses: reasoning with encrypted_content, then a function call', async () => {
    fake.enqueue('openai-responses', {
      kind: 'thinking',
      thinking: 'Think.',
      signature: 'enc-1',
      text: 'Calling.',
      calls: [call],
    });
    const asm = createOpenAIResponsesStreamAssembler({ provider: 'openai' });
    for (const ev of (await drain(await openaiClient(fake).responses.create({ ...RESPONSES_BODY, stream: true })))
      .events)
      asm.push(ev);
    const turn = asm.finish();
    expect(turn.status).toBe('complete');
    expect(turn.blocks.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(turn.blocks[0]).toMatchObject({ type: 'thinking', text: 'Think.', signature: 'enc-1' });
    expect(turn.blocks[2]).toMatchObject({
      type: 'tool_call',
      id: 'call_weather_1',
      name: 'get_weather',
      input: { city: 'Oslo', days: 2 },
    });
  });

  it('Gemini: a thought, then a signed function call', async () => {
    fake.enqueue('gemini-generate-content', {
      kind: 'thinking',
      thinking: 'Think.',
      signature: 'gsig-1',
      text: '',
      calls: [call],
    });
    const asm = createGeminiGenerateContentStreamAssembler({ provider: 'google' });
    const stream = await geminiClient(fake).models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: GEMINI_CONTENTS,
    });
    for (const chunk of (await drain(stream)).events) asm.push(JSON.parse(JSON.stringify(chunk)));
    const turn = asm.finish();
    expect(turn.status).toBe('complete');
    expect(turn.blocks).toEqual([
      { type: 'thinking', text: 'Think.' },
      {
        type: 'tool_call',
        id: 'call_weather_1',
        name: 'get_weather',
        input: { city: 'Oslo', days: 2 },
        signature: 'gsig-1',
      },
    ]);
  });
});

describe('errors', () => {
  it('sends the provider-shaped default body and the given headers', async () => {
    fake.enqueue('anthropic-messages', { kind: 'error', status: 429, headers: { 'retry-after': '7' } });
    const res = await rawFetch('/v1/messages', { body: JSON.stringify({ ...ANTHROPIC_BODY, stream: true }) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'fake provider error (HTTP 429)' },
    });
  });

  it('sends a non-JSON body as HTML, and a redirect with Location and no body', async () => {
    fake.enqueue('anthropic-messages', {
      kind: 'error',
      status: 413,
      body: '<html><body>413 Request Entity Too Large</body></html>',
    });
    fake.enqueue('anthropic-messages', {
      kind: 'error',
      status: 302,
      headers: { location: 'http://127.0.0.1:1/elsewhere' },
    });
    const big = await rawFetch('/v1/messages', { body: JSON.stringify(ANTHROPIC_BODY) });
    expect([big.status, big.headers.get('content-type'), await big.text()]).toEqual([
      413,
      'text/html',
      '<html><body>413 Request Entity Too Large</body></html>',
    ]);
    const moved = await rawFetch('/v1/messages', { body: JSON.stringify(ANTHROPIC_BODY), redirect: 'manual' });
    expect([moved.status, moved.headers.get('location'), await moved.text()]).toEqual([
      302,
      'http://127.0.0.1:1/elsewhere',
      '',
    ]);
  });

  it('an error event mid-stream: the SDK surfaces it after the first events', async () => {
    fake.enqueue('anthropic-messages', { kind: 'error-event', afterEvents: 4 });
    const { events, error } = await drain(
      await anthropicClient(fake).messages.create({ ...ANTHROPIC_BODY, stream: true }),
    );
    expect(events.map((e) => e.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta']); // the 4th event was the ping
    expect(error).toMatchObject({ type: 'overloaded_error' });
  });

  it('a cut mid-stream leaves the stream without its terminal event and is not counted as a client disconnect', async () => {
    fake.enqueue('openai-chat', { kind: 'cut', afterEvents: 2 });
    const { events } = await drain(await openaiClient(fake).chat.completions.create({ ...CHAT_BODY, stream: true }));
    expect(events.length).toBeLessThanOrEqual(2);
    expect(events.some((e) => e.choices[0]?.finish_reason)).toBe(false);
    expect(fake.disconnects).toBe(0);
  });
});

describe('pacing, stalls and disconnects', () => {
  it('delayMs spaces the events out', async () => {
    fake.enqueue('gemini-generate-content', { kind: 'text', chunks: ['a', 'b', 'c'], delayMs: 40 });
    const started = Date.now();
    const { events } = await drain(
      await geminiClient(fake).models.generateContentStream({ model: 'gemini-2.5-flash', contents: GEMINI_CONTENTS }),
    );
    expect(events.map((e) => e.text).join('')).toBe('abc');
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
  });

  it('a client that gives up during a stall is seen as a disconnect (L5)', async () => {
    fake.enqueue('anthropic-messages', { kind: 'stall', ms: 5_000, afterEvents: 2 });
    const controller = new AbortController();
    const stream = await anthropicClient(fake).messages.create(
      { ...ANTHROPIC_BODY, stream: true },
      { signal: controller.signal },
    );
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of stream) {
        seen.push(ev.type);
        controller.abort();
      }
    })().catch(() => undefined);
    await fake.waitForDisconnects(1);
    await reading;
    expect(seen).toEqual(['message_start']);
    expect(fake.requests[0]!.disconnected).toBe(true);
  });

  it('a stall before the headers holds the response back', async () => {
    fake.enqueue('openai-responses', { kind: 'stall', ms: 60 });
    const started = Date.now();
    const { events } = await drain(await openaiClient(fake).responses.create({ ...RESPONSES_BODY, stream: true }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
  });

  it('raw events are framed by the API (event: lines for Responses) and reset() forgets everything', async () => {
    fake.enqueue('openai-responses', {
      kind: 'events',
      events: [
        {
          type: 'response.failed',
          response: { id: 'r1', status: 'failed', error: { code: 'server_error', message: 'boom' } },
        },
      ],
    });
    fake.enqueue('openai-responses', { kind: 'text' });
    const res = await fetch(`${fake.openaiBaseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.keys.openai}` },
      body: JSON.stringify({ ...RESPONSES_BODY, stream: true }),
    });
    expect(await res.text()).toBe(
      'event: response.failed\ndata: {"type":"response.failed","response":{"id":"r1","status":"failed","error":{"code":"server_error","message":"boom"}}}\n\n',
    );
    fake.reset();
    expect([fake.requests.length, fake.disconnects]).toEqual([0, 0]);
    const again = await openaiClient(fake).responses.create(RESPONSES_BODY);
    expect(again.output_text).toBe('Hello from the fake provider.');
  });
});
