import { describe, expect, it } from 'vitest';
import { validateOpenAIResponsesRequest as validate } from './openai-responses';
import type { Violation } from './types';

const ids = (v: Violation[]) => v.map((x) => `${x.rule} ${x.path}`);
const clone = <T>(v: T): T => structuredClone(v);
type Item = Record<string, unknown>;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const ENC = 'gAAAAABp-r_nDEFD_pLd6MEzoOCG8OKekq-Ev8vnbPTkSie4RovCRsX1uArYsm0yKKyAAEYh8tRzZVKU';
const fnTool = (name: string) => ({
  type: 'function',
  name,
  description: `${name} tool`,
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  strict: false,
});

/**
 * Stateless (store: false) agent loop: reasoning with encrypted content, parallel calls whose
 * outputs come in another order, an image inside a tool output, a second reasoning step.
 */
const statelessBody = {
  model: 'gpt-5.5',
  stream: true,
  store: false,
  include: ['reasoning.encrypted_content'],
  instructions: 'You are terse.',
  reasoning: { effort: 'low', summary: 'auto' },
  tools: [fnTool('get_weather'), fnTool('get_map'), { type: 'web_search' }],
  input: [
    { role: 'developer', content: 'Prefer metric units.' },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'Weather and a map of where this was taken?' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
      ],
    },
    {
      type: 'reasoning',
      id: 'rs_0429c1fc',
      encrypted_content: ENC,
      summary: [{ type: 'summary_text', text: 'Looks like Oslo.' }],
    },
    {
      type: 'function_call',
      id: 'fc_01',
      call_id: 'call_I670mAzR6AYszdoqaI96qg0k',
      name: 'get_weather',
      arguments: '{"q":"Oslo"}',
    },
    { type: 'function_call', call_id: 'call_2', name: 'get_map', arguments: '{"q":"Oslo"}' },
    {
      type: 'function_call_output',
      call_id: 'call_2',
      output: [
        { type: 'input_text', text: 'Map:' },
        { type: 'input_image', image_url: 'https://example.com/oslo.png' },
      ],
    },
    { type: 'function_call_output', call_id: 'call_I670mAzR6AYszdoqaI96qg0k', output: '4°C, snow' },
    { type: 'reasoning', encrypted_content: ENC, summary: [], content: [] },
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Oslo: 4°C, snow.', annotations: [] }],
    },
    { role: 'user', content: 'Thanks! Tomorrow?' },
  ] as Item[],
};

/** Stored (store defaults to true) conversation with an item reference. */
const storedBody = {
  model: 'gpt-5.5',
  stream: true,
  input: [
    { role: 'user', content: 'Hi' },
    { type: 'item_reference', id: 'msg_0429c1fc' },
    { id: 'rs_0429c1fd' },
    { type: 'message', role: 'assistant', id: 'msg_0429c1fe', content: [{ type: 'output_text', text: 'Hello.' }] },
    { role: 'user', content: 'Bye' },
  ] as Item[],
};

describe('validateOpenAIResponsesRequest: valid bodies', () => {
  it('accepts a stateless agent loop with reasoning, parallel calls and an image output', () => {
    expect(validate(statelessBody)).toEqual([]);
  });
  it('accepts item references with store left at its default', () => {
    expect(validate(storedBody)).toEqual([]);
  });
  it('accepts a plain string input, and a non-streaming body when told so', () => {
    expect(validate({ model: 'gpt-5.5', stream: true, input: 'Hello' })).toEqual([]);
    expect(validate({ model: 'gpt-5.5', stream: false, input: 'Hello' }, { stream: false })).toEqual([]);
  });
});

describe('validateOpenAIResponsesRequest: body and items', () => {
  it('requires model, input and stream: true', () => {
    expect(ids(validate(null))).toEqual(['R-SHAPE ']);
    expect(ids(validate({ input: [] }))).toEqual(['R-SHAPE model', 'R-SHAPE stream', 'R-SHAPE input']);
  });
  it('X6: lone surrogates', () => {
    const b = clone(statelessBody);
    b.input[9]!.content = '\uD800 tomorrow?';
    expect(ids(validate(b))).toEqual(['X6 input[9].content']);
  });
  it('R-1: item types, message roles, function_call shape', () => {
    const b = clone(statelessBody);
    b.input[0]!.role = 'tool';
    b.input.push({ type: 'tool_result', call_id: 'x' });
    (b.input[4] as Item).arguments = { q: 'Oslo' };
    expect(ids(validate(b))).toEqual(['R-1 input[0].role', 'R-1 input[4].arguments', 'R-1 input[10].type']);
  });
  it('R-1: reasoning items need a summary list', () => {
    const b = clone(statelessBody);
    delete b.input[2]!.summary;
    expect(ids(validate(b))).toEqual(['R-1 input[2].summary']);
  });
  it('X4: no blank text', () => {
    const b = clone(statelessBody);
    b.input[0]!.content = '';
    (b.input[8]!.content as { text: string }[])[0]!.text = '  ';
    b.input[6]!.output = '';
    expect(ids(validate(b))).toEqual(['X4 input[0].content', 'X4 input[6].output', 'X4 input[8].content[0].text']);
  });
  it('R-2: function_call_output output is a string or input items', () => {
    const b = clone(statelessBody);
    b.input[5]!.output = [{ type: 'output_text', text: 'x' }];
    expect(ids(validate(b))).toEqual(['R-2 input[5].output[0]']);
  });
});

describe('validateOpenAIResponsesRequest: function calls', () => {
  it('R-T1: call_id at most 64 characters; X2 beyond the portable set', () => {
    const b = clone(statelessBody);
    b.input[4]!.call_id = b.input[5]!.call_id = `call_${'x'.repeat(60)}`;
    expect(ids(validate(b))).toEqual(['R-T1 input[4].call_id', 'R-T1 input[5].call_id']);
    const c = clone(statelessBody);
    c.input[4]!.call_id = c.input[5]!.call_id = `call_${'x'.repeat(40)}`;
    expect(ids(validate(c))).toEqual(['X2 input[4].call_id', 'X2 input[5].call_id']);
  });
  it('R-T2: a function_call item id starts with fc', () => {
    const b = clone(statelessBody);
    b.input[3]!.id = 'call_I670mAzR6AYszdoqaI96qg0k';
    expect(ids(validate(b))).toEqual(['R-T2 input[3].id']);
  });
  it('R-T3: every function_call has an output', () => {
    const b = clone(statelessBody);
    b.input.splice(6, 1);
    expect(ids(validate(b))).toEqual(['R-T3 input[3].call_id']);
  });
  it('X1: outputs need an earlier call, once; call ids are unique', () => {
    const b = clone(statelessBody);
    b.input.push({ type: 'function_call_output', call_id: 'call_2', output: 'again' });
    b.input.splice(1, 0, { type: 'function_call_output', call_id: 'call_9', output: 'orphan' });
    expect(ids(validate(b))).toEqual(['X1 input[1].call_id', 'X1 input[11].call_id']);
    const c = clone(statelessBody);
    c.input[4]!.call_id = 'call_I670mAzR6AYszdoqaI96qg0k';
    expect(ids(validate(c))).toContainEqual('X1 input[4].call_id');
  });
  it('R-T4 and X5: tool names', () => {
    const b = clone(statelessBody);
    b.tools = [fnTool('get.weather'), fnTool('9map'), { type: 'web_search' }];
    b.input[3]!.name = 'get.weather';
    expect(ids(validate(b))).toEqual(['R-T4 tools[0].name', 'X5 tools[1].name', 'R-T4 input[3].name']);
  });
});

describe('validateOpenAIResponsesRequest: reasoning', () => {
  it('R-K1: a reasoning item is followed by the item it produced', () => {
    const b = clone(statelessBody);
    b.input.push({ type: 'reasoning', encrypted_content: ENC, summary: [] });
    expect(ids(validate(b))).toEqual(['R-K1 input[10]']);
  });
  it('R-K2: with store: false, reasoning carries encrypted_content and item_reference is invalid', () => {
    const b = clone(statelessBody);
    delete b.input[2]!.encrypted_content;
    b.input[7]!.encrypted_content = null;
    b.input.splice(9, 0, { type: 'item_reference', id: 'msg_1' });
    expect(ids(validate(b))).toEqual([
      'R-K2 input[2].encrypted_content',
      'R-K2 input[7].encrypted_content',
      'R-K2 input[9]',
    ]);
    expect(ids(validate({ ...clone(storedBody), store: false }))).toEqual(['R-K2 input[1]', 'R-K2 input[2]']);
  });
  it('R-K4: a replayed reasoning item carries no content', () => {
    const b = clone(statelessBody);
    b.input[2]!.content = [{ type: 'reasoning_text', text: 'raw chain of thought' }];
    expect(ids(validate(b))).toEqual(['R-K4 input[2].content']);
  });
});

describe('validateOpenAIResponsesRequest: images (R-I1)', () => {
  it('input_image needs image_url or file_id, a known type, and stays out of assistant messages', () => {
    const b = clone(statelessBody);
    const parts = b.input[1]!.content as Item[];
    parts.push({ type: 'input_image', file_id: 'file-abc' });
    parts.push({ type: 'input_image', image_url: `data:image/svg+xml;base64,${PNG}` });
    parts.push({ type: 'input_image' });
    (b.input[8]!.content as Item[]).push({ type: 'input_image', image_url: 'https://example.com/a.png' });
    expect(ids(validate(b))).toEqual([
      'R-I1 input[1].content[3].image_url',
      'R-I1 input[1].content[4]',
      'R-I1 input[8].content[1].type',
    ]);
  });
});
