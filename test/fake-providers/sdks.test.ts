/**
 * The fake providers against the real SDKs: each streams (and returns) the scripted text answer,
 * invalid bodies get a 400 in the provider's shape naming the rule, keys are checked, model
 * lists answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProviders } from './server';
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

const TEXT = 'Hello from the fake provider.';
let fake: FakeProviders;

beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** The error an SDK call rejects with. */
async function failure(p: Promise<unknown>): Promise<{ status?: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { status?: number; message: string };
  }
  throw new Error('expected the call to fail');
}

describe('each SDK streams the scripted text', () => {
  it('Anthropic messages.create({stream: true}) yields the real event sequence', async () => {
    const stream = await anthropicClient(fake).messages.create({ ...ANTHROPIC_BODY, stream: true });
    const types: string[] = [];
    let text = '';
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text;
    }
    expect(text).toBe(TEXT);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const [req] = fake.requests;
    expect(req).toMatchObject({
      api: 'anthropic-messages',
      method: 'POST',
      path: '/v1/messages',
      violations: [],
      keyViolations: [],
      status: 200,
    });
    expect(req!.body).toEqual({ ...ANTHROPIC_BODY, stream: true });
    expect(req!.headers['x-api-key']).toBe(fake.keys.anthropic);
  });

  it('OpenAI chat.completions.create({stream: true}) ends with [DONE] and reports usage when asked', async () => {
    const stream = await openaiClient(fake).chat.completions.create({
      ...CHAT_BODY,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const finishes: (string | null)[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(TEXT);
    expect(finishes.at(-1)).toBe('stop');
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number) });
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.keys.openai}`);
  });

  it('OpenAI responses.create({stream: true}) ends with response.completed', async () => {
    const stream = await openaiClient(fake).responses.create({ ...RESPONSES_BODY, stream: true });
    let text = '';
    let last = '';
    for await (const ev of stream) {
      if (ev.type === 'response.output_text.delta') text += ev.delta;
      last = ev.type;
    }
    expect(text).toBe(TEXT);
    expect(last).toBe('response.completed');
    expect(fake.requests[0]).toMatchObject({ api: 'openai-responses', path: '/v1/responses', violations: [] });
  });

  it.each(['v1', 'v1beta'])('Gemini generateContentStream over %s', async (apiVersion) => {
    const stream = await geminiClient(fake, undefined, apiVersion).models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: GEMINI_CONTENTS,
    });
    let text = '';
    let finish: string | undefined;
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      finish = chunk.candidates?.[0]?.finishReason ?? finish;
    }
    expect(text).toBe(TEXT);
    expect(finish).toBe('STOP');
    const [req] = fake.requests;
    expect(req).toMatchObject({
      api: 'gemini-generate-content',
      path: `/${apiVersion}/models/gemini-2.5-flash:streamGenerateContent`,
      query: { alt: 'sse' },
      model: 'gemini-2.5-flash',
    });
    expect(req!.headers['x-goog-api-key']).toBe(fake.keys.google);
    expect(req!.body).toEqual({ contents: GEMINI_CONTENTS });
  });
});

describe('non-stream requests get the matching JSON', () => {
  it('answers each API with its own response object', async () => {
    const msg = await anthropicClient(fake).messages.create(ANTHROPIC_BODY);
    expect(msg).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: TEXT }],
    });
    const chat = await openaiClient(fake).chat.completions.create(CHAT_BODY);
    expect(chat.choices[0]).toMatchObject({ message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' });
    const resp = await openaiClient(fake).responses.create(RESPONSES_BODY);
    expect(resp.output_text).toBe(TEXT);
    const gem = await geminiClient(fake).models.generateContent({
      model: 'gemini-2.5-flash',
      contents: GEMINI_CONTENTS,
    });
    expect(gem.text).toBe(TEXT);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/v1/messages',
      '/v1/chat/completions',
      '/v1/responses',
      '/v1beta/models/gemini-2.5-flash:generateContent',
    ]);
  });
});

describe('invalid bodies get a 400 in the provider shape naming the rule', () => {
  it('Anthropic: messages starting with assistant → invalid_request_error naming A-R3', async () => {
    const err = await failure(
      anthropicClient(fake).messages.create({
        ...ANTHROPIC_BODY,
        messages: [{ role: 'assistant', content: 'Hi' }],
        stream: true,
      }),
    );
    expect(err.status).toBe(400);
    expect((err as unknown as { error: unknown }).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('A-R3') },
    });
    expect(fake.requests[0]!.violations.map((v) => v.rule)).toContain('A-R3');
  });

  it('Chat: a tool message without a preceding call → OpenAI error naming the rule', async () => {
    const err = await failure(
      openaiClient(fake).chat.completions.create({
        model: 'gpt-4.1-mini',
        stream: true,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_1', content: 'result' },
        ],
      }),
    );
    expect(err.status).toBe(400);
    const rules = fake.requests[0]!.violations.map((v) => v.rule);
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(err.message).toContain(rule);
    expect((err as unknown as { type: string }).type).toBe('invalid_request_error');
  });

  it('Gemini: an empty parts list → INVALID_ARGUMENT naming the rule', async () => {
    const err = await failure(
      geminiClient(fake).models.generateContentStream({
        model: 'gemini-2.5-flash',
        contents: [{ role: 'user', parts: [] }],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain('INVALID_ARGUMENT');
    const rules = fake.requests[0]!.violations.map((v) => v.rule);
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(err.message).toContain(rule);
  });

  it('validation can be relaxed for chosen rules (the violation is still recorded)', async () => {
    fake.configure({ ignoreRules: ['A-R3'] });
    try {
      await anthropicClient(fake).messages.create({
        ...ANTHROPIC_BODY,
        messages: [{ role: 'assistant', content: 'Hi' }],
      });
      expect(fake.requests[0]!.status).toBe(200);
      expect(fake.requests[0]!.violations.map((v) => v.rule)).toEqual(['A-R3']);
    } finally {
      fake.configure({ ignoreRules: [] });
    }
  });
});

describe('keys', () => {
  it('a wrong key gets a 401 from each provider, in its shape', async () => {
    const a = await failure(anthropicClient(fake, 'sk-ant-wrong').messages.create({ ...ANTHROPIC_BODY, stream: true }));
    expect(a.status).toBe(401);
    expect((a as unknown as { error: unknown }).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    const o = await failure(openaiClient(fake, 'sk-wrong').chat.completions.create({ ...CHAT_BODY, stream: true }));
    expect(o.status).toBe(401);
    expect((o as unknown as { code: string }).code).toBe('invalid_api_key');
    const g = await failure(
      geminiClient(fake, 'AIzaWrong').models.generateContentStream({
        model: 'gemini-2.5-flash',
        contents: GEMINI_CONTENTS,
      }),
    );
    expect(g.status).toBe(401);
    expect(g.message).toContain('UNAUTHENTICATED');
    expect(fake.requests.map((r) => r.status)).toEqual([401, 401, 401]);
  });

  it('the OpenAI key is refused by the compat endpoint and vice versa', async () => {
    const compat = `${fake.url}/openrouter/v1`;
    const wrong = await failure(
      openaiClient(fake, fake.keys.openai, compat).chat.completions.create({ ...CHAT_BODY, stream: true }),
    );
    expect(wrong.status).toBe(401);
    const stream = await openaiClient(fake, fake.keys.compat, compat).chat.completions.create({
      ...CHAT_BODY,
      stream: true,
    });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe(TEXT);
    expect(fake.requests.map((r) => [r.flavour, r.status])).toEqual([
      ['openrouter', 401],
      ['openrouter', 200],
    ]);
  });

  it('N2: a key in the query string is refused, and a key in a foreign header is recorded', async () => {
    const q = await fetch(
      `${fake.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${fake.keys.google}`,
      {
        method: 'POST',
        body: JSON.stringify({ contents: GEMINI_CONTENTS }),
      },
    );
    expect(q.status).toBe(400);
    expect(await q.json()).toEqual({
      error: { code: 400, message: expect.stringContaining('N2'), status: 'INVALID_ARGUMENT' },
    });
    const leak = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': fake.keys.anthropic,
        'anthropic-version': '2023-06-01',
        authorization: `Bearer ${fake.keys.openai}`,
      },
      body: JSON.stringify({ ...ANTHROPIC_BODY, stream: true }),
    });
    await leak.text();
    expect(fake.requests[0]!.keyViolations).toEqual([
      'N2: API key sent as ?key= query parameter',
      'N2: google key found in query parameter key',
    ]);
    expect(fake.requests[1]!.keyViolations).toEqual([
      'N2: openai key found in header authorization of a request to anthropic-messages',
    ]);
  });
});

describe('model lists', () => {
  it('serve each provider its own list shape on the shared /v1/models path', async () => {
    const openaiIds = (await openaiClient(fake).models.list()).data.map((m) => m.id);
    expect(openaiIds).toEqual(['gpt-5.5', 'gpt-4.1-mini']);
    const anthropicIds: string[] = [];
    for await (const m of anthropicClient(fake).models.list()) anthropicIds.push(m.id);
    expect(anthropicIds).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5']);
    const geminiNames: string[] = [];
    for await (const m of await geminiClient(fake).models.list()) geminiNames.push(m.name ?? '');
    expect(geminiNames).toEqual(['models/gemini-2.5-flash', 'models/gemini-3-pro-preview']);
    expect(fake.requests.map((r) => r.api)).toEqual(['openai-models', 'anthropic-models', 'gemini-models']);
  });
});
