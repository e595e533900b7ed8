import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTranscript } from '../../transcript/codec';
import { readGeminiGenerateContentHistory } from './read-gemini-generate-content';
import { hasShared, loadCassette, modelFromUri } from './fixtures.test-helper';

if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

const API = 'gemini-generate-content';
type Obj = Record<string, unknown>;
const base = { format: 'baton.transcript', version: 1, id: 'imported', source: { kind: API } };
const origin = (model: string, provider = 'google') => ({ provider, api: API, model });

/** Runs `fn` and returns the TranscriptError it throws as `{path, problem}`. */
function errorOf(fn: () => unknown): { path: string; problem: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TranscriptError);
    return { path: (e as TranscriptError).path, problem: (e as TranscriptError).problem };
  }
  throw new Error('expected a TranscriptError');
}

describe.skipIf(!hasShared)('readGeminiGenerateContentHistory on recorded request bodies', () => {
  it('llm-cassette-gemini25-tool-chain.json: snake_case calls and responses with ids, signature on its part', () => {
    const interactions = loadCassette('llm-cassette-gemini25-tool-chain.json');
    const { uri, request } = interactions[2]!;
    const body = request as { contents: { parts: Obj[] }[] };
    const model = modelFromUri(uri);
    expect(model).toBe('gemini-2.5-flash');
    const signature = body.contents[1]!.parts[0]!.thoughtSignature;
    expect(readGeminiGenerateContentHistory(body, { model })).toEqual({
      ...base,
      tools: [{ name: 'pelican_name_generator', inputSchema: { properties: {}, type: 'object' } }],
      turns: [
        { id: 't1', role: 'user', blocks: [{ type: 'text', text: 'Two names for a pet pelican' }] },
        {
          id: 't2',
          role: 'assistant',
          origin: origin(model),
          blocks: [
            {
              type: 'tool_call',
              id: 'call_27db36357f594e73b557ec8f70da9e87',
              name: 'pelican_name_generator',
              input: {},
              signature,
            },
          ],
          native: { api: API, payload: body.contents[1]!.parts },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [
            {
              type: 'tool_result',
              callId: 'call_27db36357f594e73b557ec8f70da9e87',
              content: 'Charles',
              meta: { name: 'pelican_name_generator' },
            },
          ],
        },
        {
          id: 't4',
          role: 'assistant',
          origin: origin(model),
          blocks: [
            {
              type: 'tool_call',
              id: 'call_97666b91d4c14f44b94ab69dded4ab10',
              name: 'pelican_name_generator',
              input: {},
            },
          ],
          native: { api: API, payload: body.contents[3]!.parts },
        },
        {
          id: 't5',
          role: 'tool',
          blocks: [
            {
              type: 'tool_result',
              callId: 'call_97666b91d4c14f44b94ab69dded4ab10',
              content: 'Sammy',
              meta: { name: 'pelican_name_generator' },
            },
          ],
        },
      ],
    });
    expect(errorOf(() => readGeminiGenerateContentHistory(body))).toEqual({
      path: 'model',
      problem: 'no model known for the model turns: pass a model or include "model" in the body',
    });
  });

  it('llm-cassette-gemini3-function-call-thought-signature.json: a call without id gets one, and its response is paired by name', () => {
    const [, second] = loadCassette('llm-cassette-gemini3-function-call-thought-signature.json');
    const body = second!.request as { contents: { parts: Obj[] }[] };
    const t = readGeminiGenerateContentHistory(body, {
      model: modelFromUri(second!.uri),
      provider: 'vertex',
      id: 'g3',
    });
    expect(t.id).toBe('g3');
    expect(t.turns.slice(1)).toEqual([
      {
        id: 't2',
        role: 'assistant',
        origin: origin('gemini-3-flash-preview', 'vertex'),
        blocks: [
          { type: 'text', text: '' },
          {
            type: 'tool_call',
            id: 'multiply_0',
            name: 'multiply',
            input: { y: 3, x: 5 },
            signature: body.contents[1]!.parts[1]!.thoughtSignature,
            meta: { generatedId: true },
          },
        ],
        native: { api: API, payload: body.contents[1]!.parts },
      },
      {
        id: 't3',
        role: 'tool',
        blocks: [{ type: 'tool_result', callId: 'multiply_0', content: '15', meta: { name: 'multiply' } }],
      },
    ]);
    expect(t.tools).toEqual([
      {
        name: 'multiply',
        description: 'Multiply two numbers.',
        inputSchema: {
          properties: { x: { type: 'integer' }, y: { type: 'integer' } },
          required: ['x', 'y'],
          type: 'object',
        },
      },
    ]);
  });
});

describe('readGeminiGenerateContentHistory on hand-written histories', () => {
  it('parallel calls without ids, an error result, images in a function response, and text after the results', () => {
    const model = [
      { text: 'Checking', thought: true },
      { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-1' },
      { functionCall: { name: 'get_weather', args: { city: 'Bergen' } } },
      { functionCall: { name: 'radar', args: {} } },
    ];
    const body = {
      model: 'models/gemini-3-pro-preview',
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather',
              parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
            },
            { name: 'radar' },
          ],
        },
        { googleSearch: {} },
      ],
      contents: [
        {
          parts: [
            { text: 'Weather?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/r.pdf', displayName: 'Report' } },
          ],
        },
        { role: 'model', parts: model },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: '4°C' } } },
            { functionResponse: { name: 'get_weather', response: { error: { code: 404 } } } },
            {
              functionResponse: {
                name: 'radar',
                response: { ok: true },
                parts: [{ inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } }],
              },
            },
            { text: 'Thanks!' },
          ],
        },
        { role: 'model', parts: [{ text: 'Oslo 4°C.' }, { text: '', thoughtSignature: 'sig-2' }] },
      ],
    };
    const t = readGeminiGenerateContentHistory(body);
    expect(t).toEqual({
      ...base,
      system: 'Be brief.',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'radar', inputSchema: { type: 'object', properties: {} } },
      ],
      meta: { serverTools: { api: API, tools: [{ googleSearch: {} }] } },
      turns: [
        {
          id: 't1',
          role: 'user',
          blocks: [
            { type: 'text', text: 'Weather?' },
            { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
            { type: 'document', mediaType: 'application/pdf', url: 'gs://b/r.pdf', title: 'Report' },
          ],
        },
        {
          id: 't2',
          role: 'assistant',
          origin: origin('gemini-3-pro-preview'),
          blocks: [
            { type: 'thinking', text: 'Checking' },
            {
              type: 'tool_call',
              id: 'get_weather_0',
              name: 'get_weather',
              input: { city: 'Oslo' },
              signature: 'sig-1',
              meta: { generatedId: true },
            },
            {
              type: 'tool_call',
              id: 'get_weather_1',
              name: 'get_weather',
              input: { city: 'Bergen' },
              meta: { generatedId: true },
            },
            { type: 'tool_call', id: 'radar_2', name: 'radar', input: {}, meta: { generatedId: true } },
          ],
          native: { api: API, payload: model },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [
            { type: 'tool_result', callId: 'get_weather_0', content: '4°C', meta: { name: 'get_weather' } },
            {
              type: 'tool_result',
              callId: 'get_weather_1',
              content: '{"code":404}',
              isError: true,
              meta: { name: 'get_weather' },
            },
            {
              type: 'tool_result',
              callId: 'radar_2',
              content: [
                { type: 'text', text: '{"ok":true}' },
                { type: 'image', mediaType: 'image/webp', data: 'UklGRg==' },
              ],
              meta: { name: 'radar' },
            },
          ],
        },
        { id: 't4', role: 'user', blocks: [{ type: 'text', text: 'Thanks!' }] },
        {
          id: 't5',
          role: 'assistant',
          origin: origin('gemini-3-pro-preview'),
          blocks: [
            { type: 'text', text: 'Oslo 4°C.' },
            { type: 'text', text: '', signature: 'sig-2' },
          ],
          native: { api: API, payload: body.contents[3]!.parts },
        },
      ],
    });
    expect(decodeTranscript(t)).toEqual(t);
  });

  it('keeps a multi-part system instruction in meta, reads the legacy function role, ids unique across turns, orphans marked', () => {
    const system = { role: 'system', parts: [{ text: 'A' }, { text: 'B' }] };
    const t = readGeminiGenerateContentHistory(
      {
        system_instruction: system,
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'model', parts: [{ function_call: { name: 'step', args: { n: 1 } } }] },
          { role: 'function', parts: [{ function_response: { name: 'step', response: { output: 1 } } }] },
          { role: 'model', parts: [{ function_call: { name: 'step', args: { n: 2 } } }] },
          {
            role: 'user',
            parts: [
              { function_response: { name: 'step', response: { output: 'two' } } },
              { function_response: { name: 'ghost', response: {} } },
            ],
          },
        ],
      },
      { model: 'gemini-2.0-flash' },
    );
    expect(t.system).toBe('A\n\nB');
    expect(t.meta).toEqual({ nativeSystem: { api: API, payload: system } });
    expect(t.turns.map((turn) => turn.blocks)).toEqual([
      [{ type: 'text', text: 'go' }],
      [{ type: 'tool_call', id: 'step_0', name: 'step', input: { n: 1 }, meta: { generatedId: true } }],
      [{ type: 'tool_result', callId: 'step_0', content: '1', meta: { name: 'step' } }],
      [{ type: 'tool_call', id: 'step_1', name: 'step', input: { n: 2 }, meta: { generatedId: true } }],
      [
        { type: 'tool_result', callId: 'step_1', content: 'two', meta: { name: 'step' } },
        {
          type: 'tool_result',
          callId: 'ghost_2',
          content: '{}',
          meta: { name: 'ghost', generatedId: true, unmatched: true },
        },
      ],
    ]);
    expect(readGeminiGenerateContentHistory({ systemInstruction: 'Plain.', contents: [] })).toEqual({
      ...base,
      system: 'Plain.',
      turns: [],
    });
  });

  it.each([
    ['not an object', 'x', '', 'expected a Gemini generateContent request body object, got "x"'],
    ['no contents', { systemInstruction: 'a' }, 'contents', 'required array missing'],
    ['a content without parts', { contents: [{ role: 'user' }] }, 'contents[0].parts', 'required array missing'],
    [
      'an assistant role',
      { contents: [{ role: 'assistant', parts: [{ text: 'a' }] }] },
      'contents[0].role',
      'expected "user" | "model", got "assistant"',
    ],
    [
      'an unknown user part',
      { contents: [{ role: 'user', parts: [{ videoMetadata: {} }] }] },
      'contents[0].parts[0]',
      'part with keys ["videoMetadata"] cannot be kept in a user turn',
    ],
    [
      'a thought in a user turn',
      { contents: [{ parts: [{ text: 'a', thought: true }] }] },
      'contents[0].parts[0].thought',
      'thought parts cannot be kept in a user turn',
    ],
    [
      'a text that is not a string',
      { contents: [{ parts: [{ text: 1 }] }] },
      'contents[0].parts[0].text',
      'expected string, got 1',
    ],
    [
      'inlineData without data',
      { contents: [{ parts: [{ inlineData: { mimeType: 'image/png' } }] }] },
      'contents[0].parts[0].inlineData.data',
      'required field missing (expected string)',
    ],
    [
      'a function response that is an array',
      { contents: [{ parts: [{ functionResponse: { name: 'f', response: [1] } }] }] },
      'contents[0].parts[0].functionResponse.response',
      'expected object, got array',
    ],
    [
      'text in a function content',
      { contents: [{ role: 'function', parts: [{ text: 'x' }] }] },
      'contents[0].parts[0]',
      'a "function" content may hold only functionResponse parts',
    ],
    [
      'a function response inside a model turn',
      { model: 'g', contents: [{ role: 'model', parts: [{ functionResponse: { name: 'f', response: {} } }] }] },
      'contents[0].parts[0]',
      'part with keys ["functionResponse"] cannot be kept in a model turn',
    ],
    [
      'a function call without a name',
      { model: 'g', contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] },
      'contents[0].parts[0].functionCall.name',
      'required field missing (expected string)',
    ],
    [
      'a non-text system part',
      { systemInstruction: { parts: [{ inlineData: {} }] }, contents: [] },
      'systemInstruction.parts[0].text',
      'expected a text part',
    ],
    [
      'a declaration without a name',
      { tools: [{ functionDeclarations: [{}] }], contents: [] },
      'tools[0].functionDeclarations[0].name',
      'required field missing (expected string)',
    ],
    [
      'a prototype key (I2)',
      JSON.parse('{"contents":[{"parts":[{"text":"a"}],"constructor":{}}]}'),
      'contents[0].constructor',
      'forbidden key',
    ],
  ])('rejects %s', (_what, body, path, problem) => {
    expect(errorOf(() => readGeminiGenerateContentHistory(body))).toEqual({ path, problem });
  });
});
