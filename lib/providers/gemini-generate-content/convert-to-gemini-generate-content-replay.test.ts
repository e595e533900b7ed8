import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC,
  convert,
  DUMMY_FATE,
  GEMINI_25_FLASH,
  GEMINI_25_ORIGIN,
  GEMINI_3_ORIGIN,
  GEMINI_3_PRO,
  kept,
  native,
  OFF_3,
  OPENAI_CHAT,
  transcript,
  VERTEX_ENDPOINT,
} from './convert-gemini-generate-content.test-helper';

const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const result = (id: string, callId: string, content: string) => ({
  id,
  role: 'tool',
  blocks: [{ type: 'tool_result', callId, content }],
});
const DUMMY = 'skip_thought_signature_validator';

describe('same-origin replay', () => {
  // Shape of recorded-streams/gemini/parallel-function-calls-with-thought.chunks.jsonl, assembled.
  const parallel = [
    { text: '**Processing User Requests**', thought: true },
    { functionCall: { name: 'read_theme', args: {} }, thoughtSignature: 'AY89a18a8/Loc2wl' },
    { functionCall: { name: 'read_screen', args: { id: 'A' } } },
  ];
  const parallelTurn = {
    id: 'a1',
    role: 'assistant',
    origin: { ...GEMINI_3_ORIGIN, model: 'gemini-3-flash-preview' },
    stopReason: 'tool_use',
    native: { api: 'gemini-generate-content', payload: parallel },
    blocks: [
      { type: 'thinking', text: '**Processing User Requests**' },
      {
        type: 'tool_call',
        id: 'read_theme_0',
        name: 'read_theme',
        input: {},
        signature: 'AY89a18a8/Loc2wl',
        meta: { generatedId: true },
      },
      { type: 'tool_call', id: 'read_screen_1', name: 'read_screen', input: { id: 'A' }, meta: { generatedId: true } },
    ],
  };
  const flash3 = { ...GEMINI_3_PRO, id: 'gemini-3-flash-preview' };

  const MINTED = (id: string) => ({
    fate: 'converted',
    detail: `call id ${id} minted by Baton, sent on the call and its response (G-T8)`,
  });

  it('G-T8: sends the native parts verbatim: thought part, the signature on the first parallel call only (G-K1, G-K2), no dummy; Baton ids on the id-less calls and their responses', () => {
    const t = transcript([
      user('u1', 'Read the theme, then screens A.'),
      parallelTurn,
      {
        id: 't1',
        role: 'tool',
        blocks: [
          { type: 'tool_result', callId: 'read_theme_0', content: 'dark' },
          { type: 'tool_result', callId: 'read_screen_1', content: 'A: login' },
        ],
      },
    ]);
    expect(convert(t, flash3)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-3-flash-preview',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'Read the theme, then screens A.' }] },
          {
            role: 'model',
            parts: [
              parallel[0],
              {
                functionCall: { id: 'read_theme_0', name: 'read_theme', args: {} },
                thoughtSignature: 'AY89a18a8/Loc2wl',
              },
              { functionCall: { id: 'read_screen_1', name: 'read_screen', args: { id: 'A' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'read_theme_0', name: 'read_theme', response: { output: 'dark' } } },
              { functionResponse: { id: 'read_screen_1', name: 'read_screen', response: { output: 'A: login' } } },
            ],
          },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'read_theme',
                description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
                parametersJsonSchema: { type: 'object', properties: {} },
              },
              {
                name: 'read_screen',
                description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
                parametersJsonSchema: { type: 'object', properties: {} },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'NONE' } },
        generationConfig: OFF_3,
      },
      report: {
        input: { format: 'baton', turns: 3, blocks: 6 },
        blocks: [
          kept('u1', 0),
          native('a1', 0),
          { turn: 'a1', index: 1, fates: [MINTED('read_theme_0'), native('a1', 1).fates[0]!] },
          { turn: 'a1', index: 2, fates: [MINTED('read_screen_1'), native('a1', 2).fates[0]!] },
          kept('t1', 0),
          kept('t1', 1),
        ],
        synthesized: [
          { kind: 'stub-tool', detail: 'read_theme: used in the history but not defined by the request (X8, A-T6)' },
          { kind: 'stub-tool', detail: 'read_screen: used in the history but not defined by the request (X8, A-T6)' },
        ],
        warnings: [],
      },
    });
  });

  it('G-T7 G-T9: echoes the ids Gemini gave, and strips them on Vertex while still replaying the parts', () => {
    const parts = [{ functionCall: { id: 'fc_9', name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'c2ln' }];
    const turns = (origin: object) => [
      user('u1', 'Look it up.'),
      {
        id: 'a1',
        role: 'assistant',
        origin,
        native: { api: 'gemini-generate-content', payload: parts },
        blocks: [{ type: 'tool_call', id: 'fc_9', name: 'lookup', input: { q: 'x' }, signature: 'c2ln' }],
      },
      result('t1', 'fc_9', 'found'),
    ];
    const api = convert(transcript(turns(GEMINI_3_ORIGIN)), GEMINI_3_PRO);
    expect(api.body.contents.slice(1)).toEqual([
      { role: 'model', parts },
      { role: 'user', parts: [{ functionResponse: { id: 'fc_9', name: 'lookup', response: { output: 'found' } } }] },
    ]);
    expect(api.report.blocks).toEqual([kept('u1', 0), native('a1', 0), kept('t1', 0)]);

    const vertexOrigin = { ...GEMINI_3_ORIGIN, endpoint: 'https://us-central1-aiplatform.googleapis.com' };
    const vertex = convert(transcript(turns(vertexOrigin)), GEMINI_3_PRO, { endpoint: VERTEX_ENDPOINT });
    expect(vertex.body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'c2ln' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'found' } } }] },
    ]);
    expect(vertex.report.blocks).toEqual([
      kept('u1', 0),
      {
        turn: 'a1',
        index: 0,
        fates: [
          { fate: 'converted', detail: 'call id omitted: Vertex rejects functionCall.id (G-T3, G-T9, V-G1)' },
          { fate: 'replayed-native', detail: 'same-origin Gemini parts sent as received' },
        ],
      },
      {
        turn: 't1',
        index: 0,
        fates: [
          { fate: 'converted', detail: 'call id omitted: Vertex rejects functionResponse.id (G-T3, G-T9, V-G1)' },
        ],
      },
    ]);
    // The transcript's own native payload is never mutated.
    expect(parts[0]!.functionCall).toEqual({ id: 'fc_9', name: 'lookup', args: { q: 'x' } });
  });

  it('sends parts stored with snake_case names in the camelCase spelling of @google/genai', () => {
    const t = transcript([
      user('u1', 'Multiply.'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_3_ORIGIN,
        native: {
          api: 'gemini-generate-content',
          payload: [{ function_call: { name: 'multiply', args: { x: 5 } }, thought_signature: 'c2ln' }],
        },
        blocks: [
          {
            type: 'tool_call',
            id: 'multiply_0',
            name: 'multiply',
            input: { x: 5 },
            signature: 'c2ln',
            meta: { generatedId: true },
          },
        ],
      },
      result('t1', 'multiply_0', '15'),
    ]);
    expect(convert(t, GEMINI_3_PRO).body.contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'multiply_0', name: 'multiply', args: { x: 5 } }, thoughtSignature: 'c2ln' }],
    });
  });

  it('rebuilds from blocks, with a warning, when the native parts do not match the blocks', () => {
    const t = transcript([
      user('u1', 'Go.'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        native: { api: 'gemini-generate-content', payload: [{ text: 'no call here' }] },
        blocks: [{ type: 'tool_call', id: 'c1', name: 'go', input: {}, signature: 'c2ln' }],
      },
      result('t1', 'c1', 'gone'),
    ]);
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'c1', name: 'go', args: {} }, thoughtSignature: 'c2ln' }],
    });
    expect(report.blocks).toEqual([kept('u1', 0), kept('a1', 0), kept('t1', 0)]);
    expect(report.warnings).toEqual([
      'turn a1: its native Gemini parts were not replayed (it has fewer functionCall parts than tool calls); rebuilt from its blocks',
    ]);
  });

  it('rebuilds from blocks when the payload is not a parts array', () => {
    const t = transcript([
      user('u1', 'Hi'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        native: { api: 'gemini-generate-content', payload: 'junk' },
        blocks: [{ type: 'text', text: 'Hello' }],
      },
      user('u2', 'Bye'),
    ]);
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'Hello' }] });
    expect(report.warnings).toEqual([
      'turn a1: its native Gemini parts were not replayed (the payload is not a non-empty Gemini parts array); rebuilt from its blocks',
    ]);
  });

  it("puts a same-origin image signature back on its inlineData part, never another model's", () => {
    const PNG = 'iVBORw0KGgo=';
    const img = { type: 'image', mediaType: 'image/png', data: PNG, meta: { thoughtSignature: 'aW1n' } };
    const turns = (origin: object) => [
      user('u1', 'Draw.'),
      { id: 'a1', role: 'assistant', origin, blocks: [img] },
      user('u2', 'Nice.'),
    ];
    expect(convert(transcript(turns(GEMINI_3_ORIGIN)), GEMINI_3_PRO).body.contents[1]).toEqual({
      role: 'model',
      parts: [{ inlineData: { mimeType: 'image/png', data: PNG }, thoughtSignature: 'aW1n' }],
    });
    expect(convert(transcript(turns(GEMINI_25_ORIGIN)), GEMINI_3_PRO).body.contents[1]).toEqual({
      role: 'model',
      parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
    });
  });
});

describe('thought signatures on Gemini 3 (G-K3, G-K4)', () => {
  const call = (id: string, origin: object, signature?: string) => ({
    id: `a-${id}`,
    role: 'assistant',
    origin,
    blocks: [{ type: 'tool_call', id, name: 'step', input: { n: id }, ...(signature ? { signature } : {}) }],
  });
  const tools = [{ name: 'step', inputSchema: { type: 'object', properties: { n: { type: 'string' } } } }];

  it('G-K4 X9: signs the first call of every step with the dummy, older turns too, so earlier contents never change when a user message follows', () => {
    const t = transcript(
      [
        user('u1', 'Start.'),
        call('c0', OPENAI_CHAT),
        result('t0', 'c0', 'ok0'),
        user('u2', 'Two steps now.'),
        call('c1', OPENAI_CHAT),
        result('t1', 'c1', 'ok1'),
        call('c2', ANTHROPIC),
        result('t2', 'c2', 'ok2'),
      ],
      { tools },
    );
    const fc = (id: string) => ({ functionCall: { id, name: 'step', args: { n: id } } });
    const fr = (id: string, output: string) => ({ functionResponse: { id, name: 'step', response: { output } } });
    expect(convert(t, GEMINI_3_PRO)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-3-pro-preview',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'Start.' }] },
          { role: 'model', parts: [{ ...fc('c0'), thoughtSignature: DUMMY }] },
          { role: 'user', parts: [fr('c0', 'ok0'), { text: 'Two steps now.' }] },
          { role: 'model', parts: [{ ...fc('c1'), thoughtSignature: DUMMY }] },
          { role: 'user', parts: [fr('c1', 'ok1')] },
          { role: 'model', parts: [{ ...fc('c2'), thoughtSignature: DUMMY }] },
          { role: 'user', parts: [fr('c2', 'ok2')] },
        ],
        tools: [
          {
            functionDeclarations: [
              { name: 'step', parametersJsonSchema: { type: 'object', properties: { n: { type: 'string' } } } },
            ],
          },
        ],
        generationConfig: OFF_3,
      },
      report: {
        input: { format: 'baton', turns: 8, blocks: 8 },
        blocks: [
          kept('u1', 0),
          { turn: 'a-c0', index: 0, fates: [DUMMY_FATE] },
          kept('t0', 0),
          kept('u2', 0),
          { turn: 'a-c1', index: 0, fates: [DUMMY_FATE] },
          kept('t1', 0),
          { turn: 'a-c2', index: 0, fates: [DUMMY_FATE] },
          kept('t2', 0),
        ],
        synthesized: [
          { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call step (turn a-c0) (G-K4, X9)` },
          { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call step (turn a-c1) (G-K4, X9)` },
          { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call step (turn a-c2) (G-K4, X9)` },
        ],
        warnings: [],
      },
    });
  });

  it('never replaces a real signature; a call from another Gemini model loses its signature and gets the dummy (X3, G-K5)', () => {
    const t = transcript(
      [
        user('u1', 'Go.'),
        call('c1', GEMINI_3_ORIGIN, 'cmVhbA=='),
        result('t1', 'c1', 'ok1'),
        call('c2', GEMINI_25_ORIGIN, 'Zm9yZWlnbg=='),
        result('t2', 'c2', 'ok2'),
      ],
      {
        tools,
      },
    );
    const { body, report } = convert(t, GEMINI_3_PRO);
    expect(body.contents.filter((c) => c.role === 'model')).toEqual([
      {
        role: 'model',
        parts: [{ functionCall: { id: 'c1', name: 'step', args: { n: 'c1' } }, thoughtSignature: 'cmVhbA==' }],
      },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'c2', name: 'step', args: { n: 'c2' } }, thoughtSignature: DUMMY }],
      },
    ]);
    expect(report.blocks[3]).toEqual({
      turn: 'a-c2',
      index: 0,
      fates: [
        {
          fate: 'converted',
          detail: 'signature dropped: opaque state of google/gemini-2.5-flash (gemini-generate-content) (X3, G-K5)',
        },
        DUMMY_FATE,
      ],
    });
    expect(report.synthesized).toEqual([
      { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call step (turn a-c2) (G-K4, X9)` },
    ]);
  });

  it('adds no dummy for models that do not enforce signatures', () => {
    const t = transcript([user('u1', 'Go.'), call('c1', ANTHROPIC), result('t1', 'c1', 'ok1')], { tools });
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'c1', name: 'step', args: { n: 'c1' } } }],
    });
    expect(report.synthesized).toEqual([]);
  });
});
