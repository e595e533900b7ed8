/**
 * docs/security.md fuzz suite, stream readers: cut, duplicated, reordered, junk-laden, prototype-named,
 * huge-number and huge-delta event sequences for every wire API → the assembler never throws,
 * and every snapshot and the final turn decode with the transcript decoder; the final status is
 * `complete`, `interrupted` or `error`. Seeds: fuzz-config.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WIRE_API_MODULES } from '../../lib/providers/index';
import { decodeTurn } from '../../lib/transcript/codec';
import type { WireApi } from '../../lib/transcript/schema';
import { fuzzParams } from './fuzz-config';
import { applyEdits, sequenceEditArb, type Json } from './mutate';

/** One realistic stream per API: text, reasoning with its signature, a tool call in pieces, usage, a stop reason. */
const BASE: Record<WireApi, Json[]> = {
  'anthropic-messages': [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBsig' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello ' } },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } },
    },
    { type: 'content_block_stop', index: 1 },
    {
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
    },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"q":' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"x"}' } },
    { type: 'content_block_stop', index: 2 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } },
    { type: 'message_stop' },
  ],
  'openai-chat': [
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'gpt-x',
      choices: [
        { index: 0, delta: { role: 'assistant', content: '', reasoning_content: 'Think.' }, finish_reason: null },
      ],
    },
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'gpt-x',
      choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }],
    },
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'gpt-x',
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } },
            ],
          },
          finish_reason: null,
        },
      ],
    },
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'gpt-x',
      choices: [
        { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }, finish_reason: null },
      ],
    },
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'gpt-x',
      choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
    },
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'gpt-x',
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 2 },
        completion_tokens_details: { reasoning_tokens: 1 },
      },
    },
    '[DONE]',
  ],
  'openai-responses': [
    { type: 'response.created', response: { id: 'resp_1', model: 'gpt-x', status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'Plan.' },
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Plan.' }],
        encrypted_content: 'ENC',
      },
    },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] },
    },
    {
      type: 'response.content_part.added',
      output_index: 1,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    },
    { type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Hello' },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '' },
    },
    { type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"q":"x"}' },
    {
      type: 'response.output_item.done',
      output_index: 2,
      item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' },
    },
    {
      type: 'response.completed',
      response: {
        id: 'resp_1',
        model: 'gpt-x',
        status: 'completed',
        output: [],
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          input_tokens_details: { cached_tokens: 1 },
          output_tokens_details: { reasoning_tokens: 2 },
        },
      },
    },
  ],
  'gemini-generate-content': [
    {
      responseId: 'r1',
      modelVersion: 'gemini-x',
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Think.', thought: true, thoughtSignature: 'c2ln' }] } },
      ],
    },
    {
      responseId: 'r1',
      modelVersion: 'gemini-x',
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] } }],
    },
    {
      responseId: 'r1',
      modelVersion: 'gemini-x',
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'c2ln2' }],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 1 },
    },
  ],
  'gemini-interactions': [
    { event_type: 'interaction.created', interaction: { id: 'v1_1', status: 'in_progress', model: 'gemini-x' } },
    { event_type: 'interaction.status_update', interaction_id: 'v1_1', status: 'in_progress' },
    { event_type: 'step.start', index: 0, step: { type: 'thought' } },
    {
      event_type: 'step.delta',
      index: 0,
      delta: { type: 'thought_summary', content: { type: 'text', text: 'Think.' } },
    },
    { event_type: 'step.delta', index: 0, delta: { type: 'thought_signature', signature: 'c2ln' } },
    { event_type: 'step.stop', index: 0 },
    { event_type: 'step.start', index: 1, step: { type: 'model_output' } },
    { event_type: 'step.delta', index: 1, delta: { type: 'text', text: 'Hello ' } },
    { event_type: 'step.delta', index: 1, delta: { type: 'text', text: 'there.' } },
    { event_type: 'step.stop', index: 1 },
    {
      event_type: 'step.start',
      index: 2,
      step: { id: 'fc1', signature: '', type: 'function_call', name: 'get_weather', arguments: {} },
    },
    { event_type: 'step.delta', index: 2, delta: { type: 'arguments_delta', arguments: '{"city":' } },
    { event_type: 'step.delta', index: 2, delta: { type: 'arguments_delta', arguments: '"Oslo"}' } },
    { event_type: 'step.stop', index: 2 },
    {
      event_type: 'interaction.completed',
      interaction: {
        id: 'v1_1',
        status: 'requires_action',
        model: 'gemini-x',
        usage: { total_input_tokens: 12, total_output_tokens: 9, total_thought_tokens: 4 },
      },
    },
  ],
};

const FINAL = new Set(['complete', 'interrupted', 'error']);

describe('fuzz (docs/security.md): mutated stream event sequences never make a reader throw or produce a turn that fails to decode', () => {
  for (const api of Object.keys(BASE) as WireApi[]) {
    it(`${api}: assembler`, () => {
      const module = WIRE_API_MODULES[api];
      fc.assert(
        fc.property(fc.array(sequenceEditArb, { minLength: 1, maxLength: 6 }), (edits) => {
          const events = applyEdits(BASE[api], edits);
          const a = module.createStreamAssembler({ provider: 'p', requestedModel: 'm' });
          events.forEach((e, i) => {
            a.push(e);
            if (i % 4 === 0) decodeTurn(a.snapshot()); // throws (fails the property) when a snapshot is invalid
          });
          const turn = decodeTurn(a.finish());
          expect(FINAL.has(turn.status ?? '')).toBe(true);
          expect(() => structuredClone(turn)).not.toThrow();
        }),
        fuzzParams(60),
      );
    });

    it(`${api}: a recorded stream (several responses) → every turn decodes`, () => {
      const module = WIRE_API_MODULES[api];
      fc.assert(
        fc.property(fc.array(sequenceEditArb, { minLength: 1, maxLength: 6 }), (edits) => {
          const events = applyEdits([...BASE[api], ...BASE[api]], edits);
          for (const turn of module.readStreamEvents(events, { provider: 'p', requestedModel: 'm', turnId: 't' })) {
            const decoded = decodeTurn(turn);
            expect(FINAL.has(decoded.status ?? '')).toBe(true);
          }
        }),
        fuzzParams(25),
      );
    });
  }
});
