/**
 * The fakes enforce the 2026 OpenAI and Gemini rules the way the real APIs do: the same 400 texts
 * (C-T9, G-T7, G-K12, G-G1), and Baton's own converted bodies for the same histories pass.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { convertTranscript } from '../../lib/providers';
import { decodeTranscript } from '../../lib/transcript/codec';
import { startFakeProviders } from './server';
import { geminiClient, openaiClient } from './sdk-clients.test-helper';
import type { FakeProviders } from './types';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function failure(p: Promise<unknown>): Promise<{ status?: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { status?: number; message: string };
  }
  throw new Error('expected the call to fail');
}

const TOOL = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
};
const history = decodeTranscript({
  format: 'baton.transcript',
  version: 1,
  id: 'h',
  tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Weather in Oslo?' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
      blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
    },
    { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'toolu_1', content: '4°C' }] },
    { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'And Bergen?' }] },
  ],
});

describe('Chat Completions on the 2026 models', () => {
  it("C-T9: tools with a reasoning effort → the API's own 400 text", async () => {
    const err = await failure(
      openaiClient(fake).chat.completions.create({
        model: 'gpt-5.6-sol',
        stream: true,
        reasoning_effort: 'medium',
        tools: [TOOL],
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain(
      "Function tools with reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
    );
  });

  it("C-T9: Baton's converted body for the same model and history is accepted", async () => {
    for (const model of ['gpt-5.6-sol', 'gpt-6.2-sol']) {
      const { body } = convertTranscript(history, { api: 'openai-chat', model, thinking: true });
      const stream = await openaiClient(fake).chat.completions.create(body as never);
      for await (const _ of stream as unknown as AsyncIterable<unknown>) void _;
    }
    expect(fake.requests.map((r) => [r.status, r.violations])).toEqual([
      [200, []],
      [200, []],
    ]);
  });
});

describe('Gemini generateContent 2026', () => {
  const call = { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'Read', args: {} } }] };
  const answer = (id: string) => ({
    role: 'user',
    parts: [{ functionResponse: { id, name: 'Read', response: { output: 'x' } } }],
  });
  const user = { role: 'user', parts: [{ text: 'Read it.' }] };

  it("G-K12: a call without its signature → the API's exact text", async () => {
    const err = await failure(
      geminiClient(fake).models.generateContentStream({
        model: 'gemini-3.7-flash',
        contents: [user, call, answer('call_1')],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:Read` , position 2.',
    );
  });

  it("G-T7: a response id that matches no call id → the API's exact text", async () => {
    const signed = { role: 'model', parts: [{ ...call.parts[0], thoughtSignature: 'c2ln' }] };
    const err = await failure(
      geminiClient(fake).models.generateContentStream({
        model: 'gemini-3.7-flash',
        contents: [user, signed, answer('call_2')],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain('functionResponse.id does not match functionCall.id');
  });

  it("G-T8 G-G1: Baton's converted body (minted ids, dummy signature, thinking level) is accepted", async () => {
    const { body } = convertTranscript(history, { api: 'gemini-generate-content', model: 'gemini-3.8-flash' });
    const { contents, generationConfig, ...config } = body as {
      contents: never;
      generationConfig: Record<string, unknown>;
    };
    const stream = await geminiClient(fake).models.generateContentStream({
      model: 'gemini-3.8-flash',
      contents,
      config: { ...config, ...generationConfig },
    });
    for await (const _ of stream) void _;
    expect(fake.requests.map((r) => [r.status, r.violations])).toEqual([[200, []]]);
  });
});
