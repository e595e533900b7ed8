import { describe, expect, it } from 'vitest';
import { lookupModel } from '../../models/registry';
import { IdMap, MISTRAL_ID_POLICY } from '../../transcript/ids';
import type { Origin } from '../../transcript/schema';
import { isMistralFamily } from './convert-to-openai-chat';
import {
  assistant,
  call,
  CLAUDE,
  convert,
  expectValid,
  fates,
  result,
  text,
  tool,
  transcript,
  user,
} from './convert-to-openai-chat.test-helper';

const origin = (provider: string, model: string): Origin => ({ provider, api: 'openai-chat', model });

/** user → Claude call → result → user: the shape that needs M-2 on Mistral. */
const toolThenUser = () =>
  transcript(
    [
      user('u1', text('Weather?')),
      assistant('a1', CLAUDE, [call('toolu_01A', 'get_weather', { city: 'Oslo' })]),
      tool('t1', result('toolu_01A', '4°C')),
      user('u2', text('Thanks. And tomorrow?')),
    ],
    { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] },
  );

const mistralId = (original: string) => new IdMap(MISTRAL_ID_POLICY).assign(original);

describe('Mistral (M-1, M-2, M-5)', () => {
  it('sends 9-character ids, a named tool message, an assistant turn between tool and user, max_tokens and no stream_options', () => {
    const r = convert(toolThenUser(), { model: 'mistral-large-latest', provider: 'mistral' });
    const id = mistralId('toolu_01A');
    expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(r.body).toEqual({
      model: 'mistral-large-latest',
      stream: true,
      max_tokens: 1000,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: id, content: '4°C', name: 'get_weather' },
        { role: 'assistant', content: 'I have processed the tool results.' },
        { role: 'user', content: 'Thanks. And tomorrow?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    });
    expect(r.report).toEqual({
      input: { format: 'baton', turns: 4, blocks: 4 },
      blocks: [
        fates('u1', 0),
        fates('a1', 0, { fate: 'id-mapped', detail: `toolu_01A → ${id}` }),
        fates('t1', 0, { fate: 'id-mapped', detail: `toolu_01A → ${id}` }),
        fates('u2', 0),
      ],
      synthesized: [
        {
          kind: 'text',
          detail:
            'assistant message "I have processed the tool results." between a tool message and a user message (M-2)',
        },
      ],
      warnings: [],
    });
    expectValid(r.body, 'mistral');
  });

  it('drops same-origin reasoning, which Mistral does not take as input (M-4)', () => {
    const model = 'mistral-large-latest';
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', origin('mistral', model), [{ type: 'thinking', text: 'T' }, text('A')]),
      user('u2', text('Q2')),
    ]);
    const r = convert(t, { model, provider: 'mistral' });
    expect(r.body.messages[1]).toEqual({ role: 'assistant', content: 'A' });
    expect(r.report.blocks[1]).toEqual(
      fates('a1', 0, { fate: 'dropped', detail: 'reasoning input is not accepted by Mistral (M-4)' }),
    );
  });

  it('applies M-1 ids to Mistral models behind OpenRouter (OR-1), Ollama (O-3) and other endpoints, and only to them', () => {
    const id = mistralId('toolu_01A');
    const idOf = (r: ReturnType<typeof convert>) =>
      r.body.messages[2]?.role === 'tool' ? r.body.messages[2].tool_call_id : undefined;
    const or = convert(toolThenUser(), { model: 'mistralai/mistral-large', provider: 'openrouter' });
    expect(idOf(or)).toBe(id);
    expectValid(or.body, 'openrouter');
    const orOther = convert(toolThenUser(), { model: 'anthropic/claude-sonnet-4.5', provider: 'openrouter' });
    expect(idOf(orOther)).toBe('toolu_01A');
    const ollama = convert(toolThenUser(), { model: 'devstral:24b', provider: 'ollama' });
    expect(idOf(ollama)).toBe(id);
    expect(ollama.body.stream_options).toEqual({ include_usage: true });
    expect(ollama.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']); // M-2 is Mistral's own API rule
    expectValid(ollama.body, 'ollama');
    expect(idOf(convert(toolThenUser(), { model: 'llama3.1', provider: 'ollama' }))).toBe('toolu_01A');
    expect(idOf(convert(toolThenUser(), { model: 'mistral-nemo', provider: 'lmstudio' }))).toBe(id);
    expect(
      ['mistral-small3.1', 'hf.co/mistralai/Magistral-Small', 'mixtral:8x7b', 'codestral'].every(isMistralFamily),
    ).toBe(true);
    expect(['llama3.1', 'qwen3', 'gemma3'].some(isMistralFamily)).toBe(false);
  });
});

describe('DeepSeek (D-1, D-2, D-3)', () => {
  it('thinking model: reasoning_content "" on foreign tool-call turns, same-origin reasoning as reasoning_content', () => {
    const ds = origin('deepseek', 'deepseek-reasoner');
    const t = transcript([
      user('u1', text('Weather?')),
      assistant('a1', CLAUDE, [
        { type: 'thinking', text: 'Claude thinks', signature: 's' },
        call('toolu_01A', 'get_weather', { city: 'Oslo' }),
      ]),
      tool('t1', result('toolu_01A', '4°C')),
      assistant('a2', ds, [
        { type: 'thinking', text: 'Need tomorrow too.', meta: { field: 'reasoning_content' } },
        call('call_2', 'get_weather', { city: 'Oslo', day: 1 }),
      ]),
      tool('t2', result('call_2', '2°C')),
      assistant('a3', ds, [{ type: 'thinking', text: 'Summarise.' }, text('4°C today, 2°C tomorrow.')]),
      user('u2', text('Thanks')),
    ]);
    const r = convert(t, { model: 'deepseek-reasoner', provider: 'deepseek' });
    expect(r.body).toEqual({
      model: 'deepseek-reasoner',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 1000,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
          reasoning_content: '',
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '4°C' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo","day":1}' } },
          ],
          reasoning_content: 'Need tomorrow too.',
        },
        { role: 'tool', tool_call_id: 'call_2', content: '2°C' },
        { role: 'assistant', content: '4°C today, 2°C tomorrow.', reasoning_content: 'Summarise.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      tool_choice: 'none',
    });
    expect(r.report.synthesized).toEqual([
      { kind: 'stub-tool', detail: 'get_weather: used in the history but not defined by the request (X8, A-T6)' },
      { kind: 'dummy-signature', detail: 'reasoning_content "" on the tool-call message of turn a1 (D-1, D-3)' },
    ]);
    expectValid(r.body, 'deepseek');
  });

  it('non-thinking deepseek-chat gets no reasoning_content; thinking: true switches thinking mode on', () => {
    const own = origin('deepseek', 'deepseek-chat');
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', own, [{ type: 'thinking', text: 'T' }, call('c1', 'f')]),
      tool('t1', result('c1', 'ok')),
      user('u2', text('Next')),
    ]);
    const off = convert(t, { model: 'deepseek-chat', provider: 'deepseek' });
    expect(off.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(off.body.thinking).toBeUndefined();
    expect(off.report.blocks[1]).toEqual(
      fates('a1', 0, {
        fate: 'dropped',
        detail: 'reasoning_content is not sent to a DeepSeek model outside thinking mode (D-2, D-3)',
      }),
    );
    expectValid(off.body, 'deepseek');
    const on = convert(t, { model: 'deepseek-chat', provider: 'deepseek', thinking: true });
    expect(on.body.thinking).toEqual({ type: 'enabled' });
    expect(on.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      reasoning_content: 'T',
    });
    expectValid(on.body, 'deepseek');
  });
});

describe('Groq (D-G1, D-G2)', () => {
  it('sends same-origin reasoning as `reasoning`, never as reasoning_content', () => {
    const model = 'openai/gpt-oss-120b';
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', origin('groq', model), [{ type: 'thinking', text: 'Plan.' }, call('c1', 'f')]),
      tool('t1', result('c1', 'ok')),
    ]);
    const r = convert(t, { model, provider: 'groq' });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      reasoning: 'Plan.',
    });
    expect(r.body.reasoning_effort).toBe(lookupModel(model, 'groq').minReasoningEffort);
    expectValid(r.body, 'groq');
  });
});

describe("Gemini's OpenAI-compatible endpoint (G-K4, G-K7)", () => {
  const gemini = (model: string) => origin('google', model);

  it('keeps a same-origin signature on the call and gives a foreign Gemini 3 step the documented dummy', () => {
    const model = 'gemini-3-pro-preview';
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', gemini(model), [call('fc_1', 'f', {}, { signature: 'c2ln' }), call('fc_2', 'f', { b: 1 })]),
      tool('t1', result('fc_1', 'one'), result('fc_2', 'two')),
      assistant('a2', CLAUDE, [call('toolu_3', 'f', { c: 1 }), call('toolu_4', 'f')]),
      tool('t2', result('toolu_3', 'three'), result('toolu_4', 'four')),
    ]);
    const r = convert(t, { model, provider: 'google' });
    const fn = (args: string) => ({ name: 'f', arguments: args });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'fc_1', type: 'function', function: fn('{}'), extra_content: { google: { thought_signature: 'c2ln' } } },
        { id: 'fc_2', type: 'function', function: fn('{"b":1}') },
      ],
    });
    expect(r.body.messages[4]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'toolu_3',
          type: 'function',
          function: fn('{"c":1}'),
          extra_content: { google: { thought_signature: 'skip_thought_signature_validator' } },
        },
        { id: 'toolu_4', type: 'function', function: fn('{}') },
      ],
    });
    expect(r.report.synthesized.filter((s) => s.kind === 'dummy-signature')).toEqual([
      { kind: 'dummy-signature', detail: 'skip_thought_signature_validator on call toolu_3 of turn a2 (G-K4)' },
    ]);
    expect(r.body.stream_options).toBeUndefined();
    expectValid(r.body, 'google');
  });

  it('treats an empty signature as none: left out of the call, and a native message carrying one is rebuilt (G-K1)', () => {
    const model = 'gemini-2.5-flash';
    const payload = {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'fc_1',
          type: 'function',
          function: { name: 'f', arguments: '{}' },
          extra_content: { google: { thought_signature: '' } },
        },
      ],
    };
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', gemini(model), [call('fc_1', 'f', {}, { signature: '' })], {
        native: { api: 'openai-chat', payload },
      }),
      tool('t1', result('fc_1', 'one')),
    ]);
    const r = convert(t, { model, provider: 'google' });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'fc_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(r.report.blocks[1]).toEqual(
      fates('a1', 0, {
        fate: 'converted',
        detail: 'empty signature left out: an empty signature is no signature (G-K1)',
      }),
    );
    expectValid(r.body, 'google');
  });

  it('adds no dummy signature for Gemini 2.5, turns image URLs into placeholders, and switches thinking off with reasoning_effort none', () => {
    const model = 'gemini-2.5-flash';
    const t = transcript([
      user('u1', text('See'), { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' }),
      assistant('a1', CLAUDE, [call('toolu_1', 'f')]),
      tool('t1', result('toolu_1', 'ok')),
    ]);
    const r = convert(t, { model, provider: 'google' });
    expect(r.body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'See' },
        { type: 'text', text: '[image omitted: the API takes only inline image data, not URLs]' },
      ],
    });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(r.body.reasoning_effort).toBe(lookupModel(model, 'google').canDisableThinking ? 'none' : undefined);
    expect(r.body.max_tokens).toBe(1000);
  });
});
