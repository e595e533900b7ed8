/**
 * Regression tests for docs/security.md ("Hostile providers and files"), defects 1–3: what a buggy or
 * hostile endpoint sends can never make a reader throw or return a turn that fails to decode.
 */
import { describe, expect, it } from 'vitest';
import { decodeTurn } from '../transcript/codec';
import type { Turn, WireApi } from '../transcript/schema';
import { WIRE_API_MODULES } from './index';

function stream(api: WireApi, events: unknown[]): Turn {
  const a = WIRE_API_MODULES[api].createStreamAssembler({ provider: 'p', requestedModel: 'm' });
  for (const e of events) a.push(e);
  return a.finish();
}

const chatChunk = (
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  model: 'gpt-x',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

describe('docs/security.md defect 1: a finish_reason of __proto__, toString or constructor indexes a plain object', () => {
  for (const reason of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
    it(`openai-chat stream and response with finish_reason ${JSON.stringify(reason)} → stopReason "other", decodes`, () => {
      const turn = stream('openai-chat', [chatChunk({ role: 'assistant', content: 'hi' }), chatChunk({}, reason)]);
      expect(turn.stopReason).toBe('other');
      expect(turn.meta?.rawStopReason).toBe(reason);
      expect(() => structuredClone(turn)).not.toThrow();
      expect(decodeTurn(turn).stopReason).toBe('other');
      const response = WIRE_API_MODULES['openai-chat'].readResponse(
        {
          id: 'c',
          object: 'chat.completion',
          model: 'gpt-x',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: reason }],
        },
        { provider: 'p' },
      );
      expect(decodeTurn(response).stopReason).toBe('other');
    });
  }

  it('the other readers map prototype-named stop reasons to "other" too', () => {
    const reason = '__proto__';
    const anthropic = stream('anthropic-messages', [
      {
        type: 'message_start',
        message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } },
      },
      { type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ]);
    const responses = stream('openai-responses', [
      {
        type: 'response.completed',
        response: { id: 'resp_1', model: 'gpt-x', status: 'incomplete', incomplete_details: { reason }, output: [] },
      },
    ]);
    const gemini = stream('gemini-generate-content', [
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: reason }],
        modelVersion: 'gemini-x',
      },
    ]);
    for (const turn of [anthropic, responses, gemini]) {
      expect(() => decodeTurn(turn)).not.toThrow();
      expect(typeof (turn.stopReason ?? 'other')).toBe('string');
    }
  });
});

describe('docs/security.md defect 2: usage counts above 2^53 pass the readers but fail the schema', () => {
  const huge = 1e20;
  const cases: [WireApi, unknown[]][] = [
    [
      'anthropic-messages',
      [
        {
          type: 'message_start',
          message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 3, output_tokens: huge } },
        },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: huge } },
        { type: 'message_stop' },
      ],
    ],
    [
      'openai-chat',
      [
        chatChunk({ role: 'assistant', content: 'hi' }),
        chatChunk({}, 'stop', { usage: { prompt_tokens: 3, completion_tokens: huge } }),
      ],
    ],
    [
      'openai-responses',
      [
        {
          type: 'response.completed',
          response: {
            id: 'resp_1',
            model: 'gpt-x',
            status: 'completed',
            output: [],
            usage: { input_tokens: 3, output_tokens: huge },
          },
        },
      ],
    ],
    [
      'gemini-generate-content',
      [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: huge },
          modelVersion: 'gemini-x',
        },
      ],
    ],
  ];
  for (const [api, events] of cases) {
    it(`${api}: the turn decodes, the unsafe count is dropped with a note, the safe one kept`, () => {
      const turn = stream(api, events);
      const decoded = decodeTurn(turn);
      expect(decoded.usage?.outputTokens).toBeUndefined();
      expect(decoded.usage?.inputTokens).toBe(3);
      expect(JSON.stringify(decoded.meta?.warnings)).toMatch(/outputTokens/);
    });
  }
});

describe('docs/security.md defect 3: the Anthropic stream reader throws on a content_block_start before message_start', () => {
  it('content_block_start, message_start, then deltas → no throw, a decodable complete turn', () => {
    const events = [
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      {
        type: 'message_start',
        message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ];
    let turn: Turn | undefined;
    expect(() => (turn = stream('anthropic-messages', events))).not.toThrow();
    const decoded = decodeTurn(turn);
    expect(decoded.status).toBe('complete');
    expect(decoded.blocks).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(() =>
      WIRE_API_MODULES['anthropic-messages'].readStreamEvents(events, { provider: 'anthropic' }),
    ).not.toThrow();
  });
});
