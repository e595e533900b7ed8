/**
 * Chat Completions on OpenAI's 2026 models (provider-rules-2026-anthropic-openai.md §2a): C-T9
 * (function tools never with a reasoning effort other than `none`; tool calling only on Responses
 * for GPT-6 Astra, GPT-6.1 Sol and GPT-6.2) and C-S1 (no sampling parameters).
 */
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { lookupModel } from '../../models/registry';
import {
  assistant,
  call,
  CLAUDE,
  convert,
  result,
  text,
  tool,
  transcript,
  user,
} from './convert-to-openai-chat.test-helper';

const TOOLS = [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
const withTools = () => transcript([user('u1', text('Weather in Oslo?'))], { tools: TOOLS });
/** History with a call but no tool definitions: the pre-pass adds stub tools (X8). */
const stubHistory = () =>
  transcript([
    user('u1', text('Weather?')),
    assistant('a1', CLAUDE, [call('toolu_1', 'get_weather', { city: 'Oslo' })]),
    tool('t1', result('toolu_1', '4°C')),
    user('u2', text('Thanks. And Bergen?')),
  ]);

describe('C-T9: function tools and reasoning effort on Chat Completions', () => {
  it('C-T9: real tools with thinking on a model that takes effort none → reasoning_effort none, tools kept, reported', () => {
    const { body, report } = convert(withTools(), { model: 'gpt-5.6-sol', thinking: true });
    expect(body.reasoning_effort).toBe('none');
    expect(body.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(report.warnings).toContain(
      'reasoning_effort set to none: gpt-5.6-sol takes function tools on Chat Completions only without reasoning (C-T9); use openai-responses to keep reasoning with tools',
    );
    expect(validateRequest('openai-chat', body)).toEqual([]);
  });

  it('C-T9: thinking off keeps tools and the lowest effort (none) untouched, no warning', () => {
    const { body, report } = convert(withTools(), { model: 'gpt-6-sol' });
    expect([body.reasoning_effort, body.tools?.length]).toEqual(['none', 1]);
    expect(report.warnings).toEqual([]);
  });

  it.each(['gpt-6.2-sol', 'gpt-6.1-sol', 'gpt-6-astra'])(
    'C-T9: %s needs Responses for tools: tools left out, effort kept, reported',
    (model) => {
      for (const thinking of [false, true]) {
        const { body, report } = convert(withTools(), { model, thinking });
        expect(body.tools).toBeUndefined();
        expect(body.reasoning_effort).toBe(thinking ? 'medium' : lookupModel(model).minReasoningEffort);
        expect(body.reasoning_effort).not.toBe('none');
        expect(report.warnings).toContain(
          `function tools left out: ${lookupModel(model).id} needs openai-responses for tool calling (C-T9); the model cannot call tools in this request`,
        );
        expect(validateRequest('openai-chat', body)).toEqual([]);
      }
    },
  );

  it('C-T9: a custom endpoint whose base URL is api.openai.com gets the same handling (it is OpenAI)', () => {
    const target = {
      provider: 'my-gateway',
      endpoint: 'https://api.openai.com/v1',
      model: 'gpt-6.2-sol',
      thinking: true,
    };
    const { body, report } = convert(withTools(), target);
    expect(body.tools).toBeUndefined();
    expect(body.reasoning_effort).not.toBe('none');
    expect(report.warnings.some((w) => w.includes('(C-T9)'))).toBe(true);
    // Another host is a generic OpenAI-compatible endpoint: its own rules, tools sent as asked.
    const other = convert(withTools(), { ...target, endpoint: 'https://gateway.example/v1' });
    expect(other.body.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
  });

  it('C-T9 C-T8: stub tools are left out and reasoning kept (Chat needs no definitions for the history)', () => {
    const { body, report } = convert(stubHistory(), { model: 'gpt-5.5', thinking: true });
    expect([body.tools, body.tool_choice, body.reasoning_effort]).toEqual([undefined, undefined, 'medium']);
    expect(body.messages.some((m) => m.role === 'assistant' && 'tool_calls' in m && m.tool_calls?.length)).toBe(true);
    expect(
      report.warnings.some(
        (w) => w.startsWith('stub tool definitions left out: gpt-5.5-2026-04-23') && w.includes('(C-T9, C-T8)'),
      ),
    ).toBe(true);
    expect(validateRequest('openai-chat', body)).toEqual([]);
  });

  it('C-T9: older models and other providers keep tools with any effort', () => {
    expect(convert(withTools(), { model: 'gpt-5.2', thinking: true }).body).toMatchObject({
      reasoning_effort: 'medium',
      tools: [{ type: 'function' }],
    });
    expect(
      convert(withTools(), { model: 'openai/gpt-6.2-sol', provider: 'openrouter', thinking: true }).body.tools,
    ).toHaveLength(1);
  });
});

describe('C-S1: sampling parameters', () => {
  it.each(['gpt-5.4', 'gpt-5.6-sol', 'gpt-6.2-astra', 'gpt-4o'])(
    'C-S1: no temperature, top_p, top_logprobs or logprobs for %s',
    (model) => {
      for (const thinking of [false, true]) {
        const { body } = convert(withTools(), { model, thinking });
        for (const key of ['temperature', 'top_p', 'top_logprobs', 'logprobs']) expect(body).not.toHaveProperty(key);
      }
    },
  );
});
