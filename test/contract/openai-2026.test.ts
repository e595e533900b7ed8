import { describe, expect, it } from 'vitest';
import { validateOpenAIChatRequest } from './openai-chat';
import { validateOpenAIResponsesRequest } from './openai-responses';
import type { Violation } from './types';

const ids = (v: Violation[]) => v.map((x) => `${x.rule} ${x.path}`);
const TOOL = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } };
const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  stream: true,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
const responses = (
  model: string,
  extra: Record<string, unknown> = {},
  input: unknown[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
) => ({
  model,
  stream: true,
  store: false,
  input,
  ...extra,
});

describe('Chat Completions, 2026 models', () => {
  it("C-T9: function tools with a reasoning effort other than none, with the API's 400 text", () => {
    const v = validateOpenAIChatRequest(chat('gpt-5.6-sol', { tools: [TOOL], reasoning_effort: 'medium' }));
    expect(ids(v)).toEqual(['C-T9 tools']);
    expect(v[0]!.apiMessage).toBe(
      "Function tools with reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
    );
    expect(validateOpenAIChatRequest(chat('gpt-5.6-sol', { tools: [TOOL], reasoning_effort: 'none' }))).toEqual([]);
    expect(validateOpenAIChatRequest(chat('gpt-5.2', { tools: [TOOL], reasoning_effort: 'high' }))).toEqual([]);
    // Other backends serving the same names keep their own rules.
    expect(
      validateOpenAIChatRequest(chat('gpt-5.6-sol', { tools: [TOOL], reasoning_effort: 'medium' }), {
        provider: 'openrouter',
      }),
    ).toEqual([]);
  });

  it('C-T9 C-S1: GPT-6 Astra, GPT-6.1 Sol and GPT-6.2 take no tools on Chat and no effort none', () => {
    for (const model of ['gpt-6-astra', 'gpt-6.1-sol', 'gpt-6.2-sol', 'gpt-6.2-astra']) {
      expect(ids(validateOpenAIChatRequest(chat(model, { tools: [TOOL], reasoning_effort: 'low' })))).toEqual([
        'C-T9 tools',
      ]);
      expect(ids(validateOpenAIChatRequest(chat(model, { reasoning_effort: 'none' })))).toEqual([
        'C-S1 reasoning_effort',
      ]);
    }
    expect(validateOpenAIChatRequest(chat('gpt-6-sol', { tools: [TOOL], reasoning_effort: 'none' }))).toEqual([]);
  });

  it('C-S1: sampling parameters only at effort none', () => {
    const sampled = { temperature: 0.2, top_p: 0.9, top_logprobs: 2, logprobs: true };
    expect(ids(validateOpenAIChatRequest(chat('gpt-5.4', { ...sampled, reasoning_effort: 'low' })))).toEqual([
      'C-S1 temperature',
      'C-S1 top_p',
      'C-S1 top_logprobs',
      'C-S1 logprobs',
    ]);
    expect(validateOpenAIChatRequest(chat('gpt-5.4', { ...sampled, reasoning_effort: 'none' }))).toEqual([]);
    expect(validateOpenAIChatRequest(chat('gpt-4o', sampled))).toEqual([]);
  });
});

describe('Responses, 2026 models', () => {
  it('R-S1: sampling parameters and the logprobs include only at effort none', () => {
    const body = responses('gpt-6-sol', {
      temperature: 1,
      top_p: 1,
      include: ['message.output_text.logprobs'],
      reasoning: { effort: 'medium' },
    });
    expect(ids(validateOpenAIResponsesRequest(body))).toEqual(['R-S1 temperature', 'R-S1 top_p', 'R-S1 include']);
    expect(validateOpenAIResponsesRequest({ ...body, reasoning: { effort: 'none' } })).toEqual([]);
    expect(ids(validateOpenAIResponsesRequest(responses('gpt-6.2-sol', { reasoning: { effort: 'none' } })))).toEqual([
      'R-S1 reasoning.effort',
    ]);
  });

  it('R-P1: phase only on assistant messages', () => {
    const input = [
      { type: 'message', role: 'user', phase: 'commentary', content: [{ type: 'input_text', text: 'Hi' }] },
      { type: 'message', role: 'assistant', phase: 'final_answer', content: [{ type: 'output_text', text: 'Hello' }] },
      {
        type: 'message',
        role: 'developer',
        phase: 'final_answer',
        content: [{ type: 'input_text', text: 'Be brief' }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'More' }] },
    ];
    expect(ids(validateOpenAIResponsesRequest(responses('gpt-5.5', {}, input)))).toEqual([
      'R-P1 input[0].phase',
      'R-P1 input[2].phase',
    ]);
  });

  it('R-X1: a compaction_trigger is the final input item', () => {
    const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] };
    expect(validateOpenAIResponsesRequest(responses('gpt-5.5', {}, [user, { type: 'compaction_trigger' }]))).toEqual(
      [],
    );
    expect(
      ids(validateOpenAIResponsesRequest(responses('gpt-5.5', {}, [{ type: 'compaction_trigger' }, user]))),
    ).toEqual(['R-X1 input[0]']);
  });
});
