import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTranscript } from '../../transcript/codec';
import { readOpenAIResponsesHistory } from './read-openai-responses';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('readOpenAIResponsesHistory', () => {
  it('reads instructions, tools, images, reasoning, parallel calls, outputs and custom tools exactly', () => {
    const reasoning = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Two lookups.' }],
      encrypted_content: 'gAAAAB-enc',
    };
    const commentary = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      phase: 'commentary',
      content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
    };
    const callA = {
      type: 'function_call',
      id: 'fc_a',
      call_id: 'call_a',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    };
    const callB = { type: 'function_call', call_id: 'call_b', name: 'get_weather', arguments: '{"city": "Bergen"}' };
    const custom = { type: 'custom_tool_call', call_id: 'call_sql', name: 'sql', input: 'SELECT 1' };
    const customOut = { type: 'custom_tool_call_output', call_id: 'call_sql', output: '1' };
    const answer = { role: 'assistant', content: 'Oslo 4°C, Bergen 7°C.' };
    const body = {
      model: 'gpt-5.5',
      instructions: 'Answer briefly.',
      store: false,
      input: [
        { role: 'developer', content: [{ type: 'input_text', text: 'Use metric units.' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Weather?' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'high' },
            { type: 'input_file', filename: 'notes.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
          ],
        },
        reasoning,
        commentary,
        callA,
        callB,
        custom,
        { type: 'function_call_output', call_id: 'call_a', output: '4°C' },
        { type: 'function_call_output', call_id: 'call_b', output: [{ type: 'input_text', text: '7°C' }] },
        customOut,
        answer,
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { type: 'web_search' },
      ],
    };
    const origin = { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' } as const;
    const t = readOpenAIResponsesHistory(body);
    expect(t).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'imported',
      source: { kind: 'openai-responses' },
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
          blocks: [
            { type: 'text', text: 'Weather?' },
            { type: 'image', mediaType: 'image/png', data: PNG, meta: { detail: 'high' } },
            { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'notes.pdf' },
          ],
        },
        {
          id: 't2',
          role: 'assistant',
          origin,
          blocks: [
            { type: 'thinking', text: 'Two lookups.', signature: 'gAAAAB-enc', meta: { itemId: 'rs_1' } },
            { type: 'text', text: 'Checking.', meta: { itemId: 'msg_1', phase: 'commentary' } },
            { type: 'tool_call', id: 'call_a', name: 'get_weather', input: { city: 'Oslo' }, meta: { itemId: 'fc_a' } },
            { type: 'tool_call', id: 'call_b', name: 'get_weather', input: { city: 'Bergen' } },
            { type: 'provider_item', api: 'openai-responses', item: custom, text: 'SELECT 1' },
          ],
          native: { api: 'openai-responses', payload: [reasoning, commentary, callA, callB, custom] },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [
            { type: 'tool_result', callId: 'call_a', content: '4°C' },
            { type: 'tool_result', callId: 'call_b', content: [{ type: 'text', text: '7°C' }] },
            { type: 'provider_item', api: 'openai-responses', item: customOut, text: '1' },
          ],
        },
        {
          id: 't4',
          role: 'assistant',
          origin,
          blocks: [{ type: 'text', text: 'Oslo 4°C, Bergen 7°C.' }],
          native: { api: 'openai-responses', payload: [answer] },
        },
        { id: 't5', role: 'user', blocks: [{ type: 'text', text: 'Thanks' }] },
      ],
    });
    expect(decodeTranscript(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });

  it('reads a plain string input as one user turn, with opts overriding provider, model and id', () => {
    expect(
      readOpenAIResponsesHistory({ input: 'Hello', instructions: null }, { provider: 'azure', model: 'x', id: 'c9' }),
    ).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'c9',
      source: { kind: 'openai-responses' },
      turns: [{ id: 't1', role: 'user', blocks: [{ type: 'text', text: 'Hello' }] }],
    });
    const t = readOpenAIResponsesHistory(
      { input: [{ role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] }] },
      { provider: 'azure', model: 'gpt-5' },
    );
    expect(t.turns[0]!.origin).toEqual({ provider: 'azure', api: 'openai-responses', model: 'gpt-5' });
  });

  it('keeps an image URL with a guessed media type and a file URL as a document', () => {
    const t = readOpenAIResponsesHistory({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'https://example.com/cat.webp?x=1' },
            { type: 'input_file', file_url: 'https://example.com/a.pdf' },
          ],
        },
      ],
    });
    expect(t.turns[0]!.blocks).toEqual([
      { type: 'image', mediaType: 'image/webp', url: 'https://example.com/cat.webp?x=1' },
      { type: 'document', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
    ]);
  });

  it.each([
    ['not an object', 'hi', '', /expected object/],
    ['no input', { model: 'm' }, 'input', /required field missing/],
    ['item without type or role', { input: [{ content: 'x' }] }, 'input[0].type', /required field missing/],
    [
      'unknown item type',
      { input: [{ role: 'user', content: 'a' }, { type: 'telepathy' }] },
      'input[1].type',
      /unknown input item type "telepathy"/,
    ],
    ['unknown role', { input: [{ role: 'model', content: 'a' }] }, 'input[0].role', /unknown role "model"/],
    [
      'user part of unknown type',
      { input: [{ role: 'user', content: [{ type: 'input_video' }] }] },
      'input[0].content[0].type',
      /unknown content part type/,
    ],
    [
      'audio input',
      { input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] },
      'input[0].content[0].type',
      /audio input/,
    ],
    [
      'image by file_id only',
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      'input[0].content[0].image_url',
      /file_id/,
    ],
    [
      'file by file_id only',
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] },
      'input[0].content[0].file_data',
      /file_id/,
    ],
    [
      'assistant item without a model',
      { input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }] },
      'model',
      /no model/,
    ],
    [
      'function call without call_id',
      { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      'input[0].call_id',
      /required field missing/,
    ],
    [
      'output without call_id',
      { input: [{ type: 'function_call_output', output: 'x' }] },
      'input[0].call_id',
      /required field missing/,
    ],
    [
      'output with a file part',
      { input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_file', file_data: 'x' }] }] },
      'input[0].output[0].type',
      /cannot be kept/,
    ],
    ['tool without type', { input: [], tools: [{ name: 'f' }] }, 'tools[0].type', /required field missing/],
    ['instructions not a string', { input: [], instructions: 3 }, 'instructions', /expected string or null/],
  ])('%s → TranscriptError at %j', (_n, body, path, problem) => {
    let err: unknown;
    try {
      readOpenAIResponsesHistory(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TranscriptError);
    expect((err as TranscriptError).path).toBe(path);
    expect((err as TranscriptError).problem).toMatch(problem);
  });
});
