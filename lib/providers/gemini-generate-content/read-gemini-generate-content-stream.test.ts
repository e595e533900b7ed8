import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTurn } from '../../transcript/codec';
import {
  createGeminiGenerateContentStreamAssembler,
  readGeminiGenerateContentResponse,
  readGeminiGenerateContentStreamEvents,
} from './read-gemini-generate-content';

const API = 'gemini-generate-content';
const ctx = { provider: 'google' };
type Obj = Record<string, unknown>;
const origin = (model: string) => ({ provider: 'google', api: API, model });

/** One chunk holding `parts` for candidate 0, with optional candidate fields. */
const chunk = (parts: Obj[], cand: Obj = {}, top: Obj = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...cand }],
  modelVersion: 'gemini-x',
  responseId: 'r1',
  ...top,
});

describe('Gemini stream assembler (hand-written chunks)', () => {
  it('snapshot() shows the partial turn; earlier snapshots stay unchanged', () => {
    const a = createGeminiGenerateContentStreamAssembler({
      provider: 'google',
      turnId: 'g1',
      createdAt: '2026-11-30T05:03:33Z',
    });
    a.push(chunk([{ text: 'Hel' }]));
    const first = a.snapshot();
    expect(first).toEqual({
      id: 'g1',
      role: 'assistant',
      createdAt: '2026-11-30T05:03:33Z',
      origin: origin('gemini-x'),
      status: 'streaming',
      blocks: [{ type: 'text', text: 'Hel' }],
      native: { api: API, payload: [{ text: 'Hel' }] },
      meta: { responseId: 'r1' },
    });
    a.push(chunk([{ text: 'lo' }]));
    expect(first.blocks).toEqual([{ type: 'text', text: 'Hel' }]);
    expect(a.done).toBe(false);
    a.push(
      chunk(
        [{ text: '!' }],
        { finishReason: 'STOP' },
        { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, cachedContentTokenCount: 1 } },
      ),
    );
    expect(a.done).toBe(true);
    expect(a.finish()).toMatchObject({
      status: 'complete',
      stopReason: 'end_turn',
      blocks: [{ type: 'text', text: 'Hello!' }],
      usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 1 },
    });
  });

  it.each([
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['MAX_TOKENS', 'max_tokens'],
    ['MALFORMED_FUNCTION_CALL', 'other'],
    ['OTHER', 'other'],
  ])('finishReason %s → %s, raw kept', (raw, mapped) => {
    const [turn] = readGeminiGenerateContentStreamEvents(
      [chunk([{ text: 'partial' }]), { candidates: [{ finishReason: raw, index: 0 }], responseId: 'r1' }],
      ctx,
    );
    expect(turn).toMatchObject({
      status: 'complete',
      stopReason: mapped,
      blocks: [{ type: 'text', text: 'partial' }],
      meta: { rawStopReason: raw },
    });
  });

  it('keeps safety ratings and citation metadata (concatenated across chunks) in meta', () => {
    const ratings = [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }];
    const [turn] = readGeminiGenerateContentStreamEvents(
      [
        chunk([{ text: 'To be' }], {
          citationMetadata: { citationSources: [{ startIndex: 0, endIndex: 5, uri: 'https://a' }] },
        }),
        chunk([{ text: ' or not' }], {
          finishReason: 'RECITATION',
          safetyRatings: ratings,
          citationMetadata: { citationSources: [{ startIndex: 5, endIndex: 12, uri: 'https://b' }] },
        }),
      ],
      ctx,
    );
    expect(turn!.meta).toEqual({
      responseId: 'r1',
      rawStopReason: 'RECITATION',
      safetyRatings: ratings,
      citationMetadata: {
        citationSources: [
          { startIndex: 0, endIndex: 5, uri: 'https://a' },
          { startIndex: 5, endIndex: 12, uri: 'https://b' },
        ],
      },
    });
  });

  it('a prompt blocked with no candidates is an error turn of type blocked with no blocks (P4)', () => {
    const events = [
      {
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
        modelVersion: 'gemini-x',
        responseId: 'rb',
      },
    ];
    const a = createGeminiGenerateContentStreamAssembler(ctx);
    a.push(events[0]);
    expect(a.done).toBe(true);
    const expected = {
      id: 'rb',
      role: 'assistant',
      origin: origin('gemini-x'),
      status: 'error',
      error: { type: 'blocked', message: 'prompt blocked: PROHIBITED_CONTENT' },
      stopReason: 'content_filter',
      usage: { inputTokens: 7 },
      blocks: [],
      native: { api: API, payload: [] },
      meta: {
        responseId: 'rb',
        rawStopReason: 'PROHIBITED_CONTENT',
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
      },
    };
    expect(a.finish()).toEqual(expected);
    expect(readGeminiGenerateContentResponse(events[0], ctx)).toEqual(expected);
    expect(decodeTurn(expected)).toEqual(expected);
  });

  it('keeps a function call id when Gemini sends one, and assembles nested partialArgs', () => {
    const [turn] = readGeminiGenerateContentStreamEvents(
      [
        chunk([{ functionCall: { id: 'fc-1', name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'sig1' }]),
        chunk([{ functionCall: { name: 'save', willContinue: true } }]),
        chunk([
          {
            functionCall: {
              partialArgs: [{ jsonPath: '$.user.name', stringValue: 'Ada ', willContinue: true }],
              willContinue: true,
            },
          },
        ]),
        chunk([
          {
            functionCall: {
              partialArgs: [
                { jsonPath: '$.user.name', stringValue: 'Lovelace' },
                { jsonPath: '$.items[0]', numberValue: 3 },
                { jsonPath: "$['flag']", boolValue: false },
                { jsonPath: '$.none', nullValue: 'NULL_VALUE' },
                { jsonPath: '$.__proto__.polluted', stringValue: 'yes' },
              ],
              willContinue: true,
            },
          },
        ]),
        chunk([{ functionCall: {} }], { finishReason: 'STOP' }),
      ],
      ctx,
    );
    expect(turn!.blocks).toEqual([
      { type: 'tool_call', id: 'fc-1', name: 'lookup', input: { q: 'x' }, signature: 'sig1' },
      {
        type: 'tool_call',
        id: 'save_1',
        name: 'save',
        input: { user: { name: 'Ada Lovelace' }, items: [3], flag: false, none: null },
        meta: { generatedId: true },
      },
    ]);
    expect(turn!.stopReason).toBe('tool_use');
    expect(turn!.meta!.warnings).toEqual(['event 3: partialArgs jsonPath "$.__proto__.polluted" ignored']);
    expect(({} as Obj).polluted).toBeUndefined();
  });

  it('never merges a signed part: signed empty thought, signed text, then unsigned text stay separate', () => {
    const [turn] = readGeminiGenerateContentStreamEvents(
      [
        chunk([{ text: 'plan', thought: true }]),
        chunk([{ text: ' more', thought: true }]),
        chunk([{ text: '', thought: true, thoughtSignature: 'ts' }]),
        chunk([{ text: 'Answer', thoughtSignature: 's2' }]),
        chunk([{ text: ' tail' }], { finishReason: 'STOP' }),
      ],
      ctx,
    );
    expect(turn!.blocks).toEqual([
      { type: 'thinking', text: 'plan more' },
      { type: 'thinking', text: '', signature: 'ts' },
      { type: 'text', text: 'Answer', signature: 's2' },
      { type: 'text', text: ' tail' },
    ]);
  });

  it('keeps image output, code execution parts and unknown parts', () => {
    const image = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' }, thoughtSignature: 'img-sig' };
    const code = { executableCode: { language: 'PYTHON', code: 'print(1)' } };
    const result = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } };
    const future = { hologram: { depth: 3 } };
    const [turn] = readGeminiGenerateContentStreamEvents(
      [chunk([image, code, result, future], { finishReason: 'STOP' })],
      ctx,
    );
    expect(turn!.blocks).toEqual([
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', meta: { thoughtSignature: 'img-sig' } },
      { type: 'provider_item', api: API, item: code, text: 'print(1)' },
      { type: 'provider_item', api: API, item: result, text: '1\n' },
      { type: 'provider_item', api: API, item: future },
    ]);
  });

  it('records unusable chunks as warnings and never throws', () => {
    const a = createGeminiGenerateContentStreamAssembler(ctx);
    a.push(7);
    a.push(chunk(['oops' as unknown as Obj, { text: 'ok' }]));
    a.push({ candidates: [{ index: 1, content: { parts: [{ text: 'other' }] } }] });
    a.push({ candidates: [{ index: 1, content: { parts: [{ text: 'other' }] } }] });
    a.push(chunk([{ functionCall: { partialArgs: [] } }]));
    a.push(chunk([{ text: '' }], { finishReason: 'STOP' }));
    a.push(chunk([{ text: 'late' }], {}, { usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 9 } }));
    const turn = a.finish();
    expect(turn.blocks).toEqual([{ type: 'text', text: 'ok' }]);
    expect(turn.usage).toEqual({ inputTokens: 1, outputTokens: 9 });
    expect(turn.meta!.warnings).toEqual([
      'event 0: not a GenerateContentResponse object',
      'event 1: part is not an object',
      'candidate 1 ignored (only the first candidate is read)',
      'event 4: functionCall without a name and no call in progress ignored',
      'event 6: parts after finishReason ignored',
    ]);
  });

  it('an error chunk before any content gives an error turn attributed to the requested model', () => {
    const turns = readGeminiGenerateContentStreamEvents(
      [
        {
          error: {
            code: 429,
            message: 'Resource has been exhausted (e.g. check quota).',
            status: 'RESOURCE_EXHAUSTED',
          },
        },
        chunk([{ text: 'x' }]),
      ],
      { provider: 'google', requestedModel: 'gemini-2.5-pro' },
    );
    expect(turns).toEqual([
      {
        id: 'assistant',
        role: 'assistant',
        origin: origin('gemini-2.5-pro'),
        status: 'error',
        error: { type: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
        blocks: [],
        native: { api: API, payload: [] },
      },
      // The chunk after the failed response starts the next one (a retry in the same recording).
      {
        id: 'r1',
        role: 'assistant',
        origin: { provider: 'google', api: API, model: 'gemini-x', requestedModel: 'gemini-2.5-pro' },
        status: 'interrupted',
        blocks: [{ type: 'text', text: 'x' }],
        native: { api: API, payload: [{ text: 'x' }] },
        meta: { responseId: 'r1' },
      },
    ]);
    const a = createGeminiGenerateContentStreamAssembler(ctx);
    a.push({ error: { code: 503, message: 'overloaded' } });
    a.push(chunk([{ text: 'x' }]));
    expect(a.finish()).toMatchObject({
      status: 'error',
      error: { type: '503', message: 'overloaded' },
      blocks: [],
      meta: { warnings: ['event 1: chunk after the error ignored'] },
    });
  });

  it('splits several responses by responseId (and after a finish), numbering ids with ctx.turnId', () => {
    const events = [
      chunk([{ text: 'a' }], { finishReason: 'STOP' }),
      { usageMetadata: { promptTokenCount: 4 }, responseId: 'r1' },
      chunk([{ text: 'b' }], {}, { responseId: 'r2' }),
      chunk([{ text: 'c' }], { finishReason: 'STOP' }, { responseId: 'r2' }),
      { candidates: [{ content: { parts: [{ text: 'd' }] } }] },
    ];
    const turns = readGeminiGenerateContentStreamEvents(events, { provider: 'google', turnId: 'x' });
    expect(turns.map((t) => [t.id, t.status, t.blocks])).toEqual([
      ['x-1', 'complete', [{ type: 'text', text: 'a' }]],
      ['x-2', 'complete', [{ type: 'text', text: 'bc' }]],
      ['x-3', 'interrupted', [{ type: 'text', text: 'd' }]],
    ]);
    expect(turns[0]!.usage).toEqual({ inputTokens: 4 });
    expect(readGeminiGenerateContentStreamEvents([], ctx)).toEqual([]);
  });
});

describe('readGeminiGenerateContentResponse', () => {
  it('reads an error body into an error turn', () => {
    expect(
      readGeminiGenerateContentResponse(
        { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } },
        { provider: 'google', requestedModel: 'm' },
      ),
    ).toEqual({
      id: 'assistant',
      role: 'assistant',
      origin: origin('m'),
      status: 'error',
      error: { type: 'INVALID_ARGUMENT', message: 'bad' },
      blocks: [],
    });
  });

  it('keeps extra candidates in meta.otherCandidates', () => {
    const other = { content: { role: 'model', parts: [{ text: 'B' }] }, finishReason: 'STOP', index: 1 };
    const turn = readGeminiGenerateContentResponse(
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'A' }] }, finishReason: 'STOP', index: 0 }, other],
        modelVersion: 'g',
      },
      ctx,
    );
    expect(turn.blocks).toEqual([{ type: 'text', text: 'A' }]);
    expect(turn.meta).toEqual({ rawStopReason: 'STOP', otherCandidates: [other] });
  });

  it.each([
    [null, '', 'expected a Gemini GenerateContentResponse object'],
    [{ candidates: 'x' }, 'candidates', 'expected array'],
    [{ modelVersion: 'g' }, 'candidates', 'no candidate and no promptFeedback.blockReason'],
    [{ candidates: [{ content: { parts: {} } }] }, 'candidates[0].content.parts', 'expected array'],
    [
      { candidates: [{ content: { parts: [{ text: 5 }] } }] },
      'candidates[0].content.parts[0].text',
      'expected string, got 5',
    ],
    [{ candidates: [{ content: { parts: [3] } }] }, 'candidates[0].content.parts[0]', 'expected object, got 3'],
    [
      { candidates: [{ content: { parts: [{ functionCall: { args: {} } }] } }] },
      'candidates[0].content.parts[0].functionCall.name',
      'required field missing (expected string)',
    ],
  ])('rejects %j at %s', (response, path, problem) => {
    let error: unknown;
    try {
      readGeminiGenerateContentResponse(response, ctx);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TranscriptError);
    expect({ path: (error as TranscriptError).path, problem: (error as TranscriptError).problem }).toEqual({
      path,
      problem,
    });
  });
});
