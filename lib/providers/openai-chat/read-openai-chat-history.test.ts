import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTranscript } from '../../transcript/codec';
import { readOpenAIChatHistory } from './read-openai-chat';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function errorOf(fn: () => unknown): TranscriptError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TranscriptError);
    return e as TranscriptError;
  }
  throw new Error('expected a TranscriptError');
}

describe('readOpenAIChatHistory', () => {
  it('reads system, tools, images, reasoning, parallel calls and their results exactly', () => {
    const assistant1 = {
      role: 'assistant',
      content: 'Checking both.',
      reasoning_content: 'Two cities, two calls.',
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Oslo","id":12345678901234567890}' },
        },
        {
          id: 'call_b',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Bergen"}' },
          extra_content: { google: { thought_signature: 'c2lnLWI=' } },
        },
      ],
    };
    const assistant2 = { role: 'assistant', content: 'Oslo 4°C, Bergen 7°C.', refusal: null };
    const body = {
      model: 'deepseek-chat',
      temperature: 0.2,
      messages: [
        { role: 'developer', content: 'Answer briefly.' },
        { role: 'system', content: [{ type: 'text', text: 'Use metric units.' }] },
        {
          role: 'user',
          name: 'ada',
          content: [
            { type: 'text', text: 'Weather here and there?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            {
              type: 'image_url',
              image_url: { url: 'https://example.com/map.jpg', detail: 'low' },
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
        assistant1,
        { role: 'tool', tool_call_id: 'call_a', content: '4°C' },
        { role: 'tool', tool_call_id: 'call_b', content: [{ type: 'text', text: '7°C' }] },
        assistant2,
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            strict: true,
          },
        },
        { type: 'custom', custom: { name: 'sql', description: 'free-form SQL' } },
      ],
    };
    const origin = { provider: 'deepseek', api: 'openai-chat', model: 'deepseek-chat' } as const;
    const t = readOpenAIChatHistory(body, { provider: 'deepseek', id: 'conv-1' });
    expect(t).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'conv-1',
      source: { kind: 'openai-chat' },
      system: 'Answer briefly.\n\nUse metric units.',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      meta: { systemRole: 'developer', nativeTools: { tools: body.tools } },
      turns: [
        {
          id: 't1',
          role: 'user',
          meta: { name: 'ada' },
          blocks: [
            { type: 'text', text: 'Weather here and there?' },
            { type: 'image', mediaType: 'image/png', data: PNG },
            {
              type: 'image',
              mediaType: 'image/jpeg',
              url: 'https://example.com/map.jpg',
              meta: { detail: 'low', extra: { cache_control: { type: 'ephemeral' } } },
            },
          ],
        },
        {
          id: 't2',
          role: 'assistant',
          origin,
          blocks: [
            { type: 'thinking', text: 'Two cities, two calls.', meta: { field: 'reasoning_content' } },
            { type: 'text', text: 'Checking both.' },
            {
              type: 'tool_call',
              id: 'call_a',
              name: 'get_weather',
              input: JSON.parse('{"city":"Oslo","id":12345678901234567890}'),
            },
            { type: 'tool_call', id: 'call_b', name: 'get_weather', input: { city: 'Bergen' }, signature: 'c2lnLWI=' },
          ],
          native: { api: 'openai-chat', payload: assistant1 },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [
            { type: 'tool_result', callId: 'call_a', content: '4°C' },
            { type: 'tool_result', callId: 'call_b', content: [{ type: 'text', text: '7°C' }] },
          ],
        },
        {
          id: 't4',
          role: 'assistant',
          origin,
          blocks: [{ type: 'text', text: 'Oslo 4°C, Bergen 7°C.' }],
          native: { api: 'openai-chat', payload: assistant2 },
        },
        { id: 't5', role: 'user', blocks: [{ type: 'text', text: 'Thanks' }] },
      ],
    });
    // The exact argument text (a large integer JSON cannot hold) survives in native.
    const native = t.turns[1]!.native!.payload as typeof assistant1;
    expect(native.tool_calls[0]!.function.arguments).toBe('{"city":"Oslo","id":12345678901234567890}');
    expect(decodeTranscript(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });

  it('uses opts.model over body.model and the default provider "openai"; transcript id defaults to "imported"', () => {
    const t = readOpenAIChatHistory(
      {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
      { model: 'gpt-4o-2024-08-06' },
    );
    expect(t.id).toBe('imported');
    expect(t.turns[1]!.origin).toEqual({ provider: 'openai', api: 'openai-chat', model: 'gpt-4o-2024-08-06' });
    expect(t.system).toBeUndefined();
    expect(t.tools).toBeUndefined();
    expect(t.meta).toBeUndefined();
  });

  it('reads a user-only history without any model', () => {
    const t = readOpenAIChatHistory({ messages: [{ role: 'user', content: 'hi' }] });
    expect(t.turns).toEqual([{ id: 't1', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }]);
  });

  it('keeps unparsable tool arguments as text with input {} and refusals as marked text', () => {
    const t = readOpenAIChatHistory({
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'err' },
        { role: 'assistant', content: null, refusal: 'I can’t help with that.' },
      ],
    });
    expect(t.turns[1]!.blocks).toEqual([
      { type: 'tool_call', id: 'c1', name: 'f', input: {}, meta: { rawArguments: '{"a":', invalidArguments: true } },
    ]);
    expect(t.turns[3]!.blocks).toEqual([{ type: 'text', text: 'I can’t help with that.', meta: { refusal: true } }]);
  });

  it('reads legacy function_call / function messages with generated ids', () => {
    const t = readOpenAIChatHistory({
      model: 'gpt-3.5-turbo-0613',
      messages: [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: null, function_call: { name: 'now', arguments: '{}' } },
        { role: 'function', name: 'now', content: '12:00' },
      ],
    });
    expect(t.turns.slice(1).map((x) => x.blocks)).toEqual([
      [
        {
          type: 'tool_call',
          id: 'now_0',
          name: 'now',
          input: {},
          meta: { generatedId: true, legacyFunctionCall: true },
        },
      ],
      [{ type: 'tool_result', callId: 'now_0', content: '12:00', meta: { legacyFunctionResult: true } }],
    ]);
  });

  it('keeps a file part with data as a document and a system message after the start with a warning', () => {
    const t = readOpenAIChatHistory({
      messages: [
        {
          role: 'user',
          content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }],
        },
        { role: 'system', content: 'Be terse.' },
      ],
    });
    expect(t.turns[0]!.blocks).toEqual([
      { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'a.pdf' },
    ]);
    expect(t.system).toBe('Be terse.');
    expect(t.meta).toEqual({
      warnings: ['messages[1]: system message inside the conversation moved to transcript.system'],
    });
  });

  it.each([
    ['not an object', [], '', /expected object, got array/],
    ['no messages', { model: 'm' }, 'messages', /required field missing/],
    ['message not an object', { messages: ['hi'] }, 'messages[0]', /expected object/],
    ['missing role', { messages: [{ content: 'x' }] }, 'messages[0].role', /required field missing/],
    [
      'unknown role',
      {
        messages: [
          { role: 'user', content: 'a' },
          { role: 'model', content: 'b' },
        ],
      },
      'messages[1].role',
      /unknown role "model"/,
    ],
    ['user content missing', { messages: [{ role: 'user' }] }, 'messages[0].content', /required field missing/],
    [
      'unknown user part type',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'video', video: {} },
            ],
          },
        ],
      },
      'messages[0].content[1].type',
      /unknown content part type "video"/,
    ],
    [
      'audio input',
      {
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }] }],
      },
      'messages[0].content[0].type',
      /audio input cannot be kept/,
    ],
    [
      'file by id only',
      { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] },
      'messages[0].content[0].file.file_data',
      /file_id cannot be kept/,
    ],
    [
      'image without url',
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
      'messages[0].content[0].image_url.url',
      /required/,
    ],
    [
      'assistant without a model',
      {
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      },
      'model',
      /no model/,
    ],
    [
      'tool call without a name',
      {
        model: 'm',
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }],
          },
        ],
      },
      'messages[0].tool_calls[0].function.name',
      /required field missing/,
    ],
    [
      'tool call without an id',
      {
        model: 'm',
        messages: [{ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] }],
      },
      'messages[0].tool_calls[0].id',
      /required field missing/,
    ],
    [
      'tool_calls not an array',
      { model: 'm', messages: [{ role: 'assistant', tool_calls: {} }] },
      'messages[0].tool_calls',
      /expected array/,
    ],
    [
      'tool message without tool_call_id',
      { messages: [{ role: 'tool', content: 'x' }] },
      'messages[0].tool_call_id',
      /required field missing/,
    ],
    [
      'tool message with a number as content',
      { messages: [{ role: 'tool', tool_call_id: 'c', content: 3 }] },
      'messages[0].content',
      /expected array, got 3/,
    ],
    [
      'function result without a call',
      { messages: [{ role: 'function', name: 'now', content: 'x' }] },
      'messages[0].name',
      /no earlier function_call/,
    ],
    ['tools not an array', { messages: [], tools: {} }, 'tools', /expected array/],
    [
      'tool parameters not an object',
      { messages: [], tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] },
      'tools[0].function.parameters',
      /expected object/,
    ],
    [
      'prototype key',
      JSON.parse('{"messages":[{"role":"user","content":"a","__proto__":{"x":1}}]}'),
      'messages[0].__proto__',
      /forbidden key/,
    ],
  ])('%s → TranscriptError at %j', (_name, body, path, problem) => {
    const err = errorOf(() => readOpenAIChatHistory(body));
    expect(err.path).toBe(path);
    expect(err.problem).toMatch(problem);
  });
});
