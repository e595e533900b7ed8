import { describe, it, expect } from 'vitest';
import { decodeTurn } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import {
  readGeminiGenerateContentResponse,
  readGeminiGenerateContentStreamEvents,
} from './read-gemini-generate-content';
import { hasShared, listFixtures, loadCassette, loadChunks, loadJson, responseToChunks } from './fixtures.test-helper';

if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

const API = 'gemini-generate-content';
const ctx = { provider: 'google' };
type Obj = Record<string, unknown>;
const origin = (model: string) => ({ provider: 'google', api: API, model });

const STREAM_FILES = [
  'function-call-thought-signature.chunks.jsonl',
  'parallel-function-calls-with-thought.chunks.jsonl',
  'reasoning-thought-signature.chunks.jsonl',
  'text.chunks.jsonl',
];
const CASSETTES = [
  'llm-cassette-gemini25-tool-chain.json',
  'llm-cassette-gemini3-function-call-thought-signature.json',
];
const RESPONSES = ['function-call-thought-signature.response.json', 'reasoning-thought-signature.response.json'];

/** Every recorded stream (one response each). */
function allStreams(): { name: string; events: unknown[] }[] {
  return [
    ...STREAM_FILES.map((name) => ({ name, events: loadChunks(name) })),
    ...CASSETTES.flatMap((f) => loadCassette(f).map((i, k) => ({ name: `${f}[${k}]`, events: i.events }))),
  ];
}

type Chunk = { candidates?: { finishReason?: string; content?: { parts?: Obj[] } }[] };
const partsOf = (e: unknown) => (e as Chunk).candidates?.[0]?.content?.parts ?? [];
const textOf = (turn: Turn) => turn.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
const sigOf = (events: unknown[], i: number) => partsOf(events[i])[0]!.thoughtSignature as string;

describe.skipIf(!hasShared)('Gemini recorded fixtures', () => {
  it('covers every file in recorded-streams/gemini', () => {
    expect(listFixtures()).toEqual([...STREAM_FILES, ...CASSETTES, ...RESPONSES].sort());
  });

  it('every recorded stream and response reads into turns that pass decodeTurn', () => {
    const turns: Turn[] = [];
    for (const { events } of allStreams()) turns.push(...readGeminiGenerateContentStreamEvents(events, ctx));
    for (const f of RESPONSES) turns.push(readGeminiGenerateContentResponse(loadJson(f), ctx));
    for (const t of turns) expect(decodeTurn(t)).toEqual(t);
    expect(turns.map((t) => t.status)).toEqual(Array<string>(4 + 5 + 2).fill('complete'));
  });

  it('text.chunks.jsonl → joined text, then the empty text part that carries the signature (G-E2)', () => {
    const events = loadChunks('text.chunks.jsonl');
    const signature = sigOf(events, 2);
    const text = 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y';
    expect(readGeminiGenerateContentStreamEvents(events, ctx)).toEqual([
      {
        id: 'bH6LaZW8Fp_3nsEPqtaSwQ4',
        role: 'assistant',
        origin: origin('gemini-3-pro-preview'),
        status: 'complete',
        stopReason: 'end_turn',
        usage: { inputTokens: 9, outputTokens: 23, reasoningTokens: 185 },
        blocks: [
          { type: 'text', text },
          { type: 'text', text: '', signature },
        ],
        native: { api: API, payload: [{ text }, { text: '', thoughtSignature: signature }] },
        meta: { responseId: 'bH6LaZW8Fp_3nsEPqtaSwQ4', rawStopReason: 'STOP' },
      },
    ]);
  });

  it('reasoning-thought-signature.chunks.jsonl → same pattern; the response keeps the signature on its text part', () => {
    const events = loadChunks('reasoning-thought-signature.chunks.jsonl');
    const [turn] = readGeminiGenerateContentStreamEvents(events, ctx);
    expect(turn!.blocks).toEqual([
      { type: 'text', text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y' },
      { type: 'text', text: '', signature: sigOf(events, 2) },
    ]);
    expect(turn!.usage).toEqual({ inputTokens: 9, outputTokens: 23, reasoningTokens: 302 });

    const response = loadJson('reasoning-thought-signature.response.json') as {
      candidates: { content: { parts: Obj[] } }[];
    };
    const part = response.candidates[0]!.content.parts[0]!;
    expect(readGeminiGenerateContentResponse(response, ctx)).toEqual({
      id: 'DniLab2dFPeSxN8PpqXY4Ag',
      role: 'assistant',
      origin: origin('gemini-3-pro-preview'),
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 9, outputTokens: 29, reasoningTokens: 258 },
      blocks: [{ type: 'text', text: part.text, signature: part.thoughtSignature }],
      native: { api: API, payload: response.candidates[0]!.content.parts },
      meta: { responseId: 'DniLab2dFPeSxN8PpqXY4Ag', rawStopReason: 'STOP' },
    });
  });

  it('function-call-thought-signature: stream and response give the same turn shape; no id → <name>_<index>', () => {
    const events = loadChunks('function-call-thought-signature.chunks.jsonl');
    const signature = sigOf(events, 0);
    const call = {
      functionCall: { name: 'weather', args: { location: 'San Francisco' } },
      thoughtSignature: signature,
    };
    expect(
      readGeminiGenerateContentStreamEvents(events, {
        provider: 'google',
        requestedModel: 'gemini-3-pro',
        endpoint: 'https://vertex.example',
      }),
    ).toEqual([
      {
        id: 'QHiLaa6LBrb8vdIPoNztsAg',
        role: 'assistant',
        origin: {
          ...origin('gemini-3-pro-preview'),
          requestedModel: 'gemini-3-pro',
          endpoint: 'https://vertex.example',
        },
        status: 'complete',
        stopReason: 'tool_use',
        usage: { inputTokens: 29, outputTokens: 15, reasoningTokens: 804 },
        blocks: [
          {
            type: 'tool_call',
            id: 'weather_0',
            name: 'weather',
            input: { location: 'San Francisco' },
            signature,
            meta: { generatedId: true },
          },
        ],
        // The trailing empty, unsigned text part of the last chunk is an empty delta: nothing is added.
        native: { api: API, payload: [call] },
        meta: { responseId: 'QHiLaa6LBrb8vdIPoNztsAg', rawStopReason: 'STOP' },
      },
    ]);
    const response = loadJson('function-call-thought-signature.response.json') as {
      candidates: { content: { parts: Obj[] } }[];
    };
    const turn = readGeminiGenerateContentResponse(response, ctx);
    expect(turn.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'weather_0',
        name: 'weather',
        input: { location: 'San Francisco' },
        signature: response.candidates[0]!.content.parts[0]!.thoughtSignature,
        meta: { generatedId: true },
      },
    ]);
    expect(turn.meta).toEqual({
      responseId: 'JniLacKqGqH0xs0P0O776As',
      rawStopReason: 'STOP',
      finishMessage: 'Model generated function call(s).',
    });
    expect(turn.native).toEqual({ api: API, payload: response.candidates[0]!.content.parts });
  });

  it('parallel-function-calls-with-thought: thought summary, signed first call, three calls with streamed partialArgs', () => {
    const events = loadChunks('parallel-function-calls-with-thought.chunks.jsonl');
    const [turn] = readGeminiGenerateContentStreamEvents(events, ctx);
    const thought = partsOf(events[0])[0]!.text as string;
    const signature = sigOf(events, 1);
    const screen = (id: string, k: number) => ({
      type: 'tool_call',
      id: `read_screen_${k}`,
      name: 'read_screen',
      input: { id },
      meta: { generatedId: true },
    });
    expect(turn).toEqual({
      id: '_vr4aYiWEJnYodAPkujX0QM',
      role: 'assistant',
      origin: origin('gemini-3-flash-preview'),
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 249, outputTokens: 58, reasoningTokens: 183 },
      blocks: [
        { type: 'thinking', text: thought },
        {
          type: 'tool_call',
          id: 'read_theme_0',
          name: 'read_theme',
          input: {},
          signature,
          meta: { generatedId: true },
        },
        screen('A', 1),
        screen('B', 2),
        screen('C', 3),
      ],
      native: {
        api: API,
        payload: [
          { text: thought, thought: true },
          { functionCall: { name: 'read_theme' }, thoughtSignature: signature },
          { functionCall: { name: 'read_screen', args: { id: 'A' } } },
          { functionCall: { name: 'read_screen', args: { id: 'B' } } },
          { functionCall: { name: 'read_screen', args: { id: 'C' } } },
        ],
      },
      meta: { responseId: '_vr4aYiWEJnYodAPkujX0QM', rawStopReason: 'STOP' },
    });
  });

  it('llm-cassette-gemini25-tool-chain.json → three responses: thought + signed call, unsigned call, text', () => {
    const turns = loadCassette('llm-cassette-gemini25-tool-chain.json').map((i) =>
      readGeminiGenerateContentStreamEvents(i.events, ctx),
    );
    expect(turns.map((t) => t.length)).toEqual([1, 1, 1]);
    const [[first], [second], [third]] = turns as [[Turn], [Turn], [Turn]];
    expect(first.blocks.map((b) => b.type)).toEqual(['thinking', 'tool_call']);
    expect(first.blocks[1]).toMatchObject({
      id: 'pelican_name_generator_0',
      name: 'pelican_name_generator',
      input: {},
      signature: expect.stringMatching(/^ClgBEU0yD8/),
    });
    expect(second.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'pelican_name_generator_0',
        name: 'pelican_name_generator',
        input: {},
        meta: { generatedId: true },
      },
    ]);
    expect(third).toMatchObject({
      stopReason: 'end_turn',
      blocks: [{ type: 'text', text: 'How about Charles and Sammy?' }],
      usage: { inputTokens: 137, outputTokens: 6 },
    });
  });

  it('llm-cassette-gemini3-function-call-thought-signature.json → the signature the client replayed is the one we keep', () => {
    const [first, second] = loadCassette('llm-cassette-gemini3-function-call-thought-signature.json');
    const [call] = readGeminiGenerateContentStreamEvents(first!.events, ctx);
    const replayed = (second!.request as { contents: { parts: Obj[] }[] }).contents[1]!.parts[1]!;
    expect((call!.blocks[0] as { signature: string }).signature).toBe(replayed.thoughtSignature);
    expect((call!.blocks[0] as { input: unknown }).input).toEqual((replayed.function_call as Obj).args);
    const [answer] = readGeminiGenerateContentStreamEvents(second!.events, ctx);
    expect(textOf(answer!)).toBe('5 times 3 is 15.');
  });

  it.each(RESPONSES)('%s streamed equals the response read whole', (name) => {
    const response = loadJson(name) as Obj;
    expect(readGeminiGenerateContentStreamEvents(responseToChunks(response), ctx)).toEqual([
      readGeminiGenerateContentResponse(response, ctx),
    ]);
  });

  it('every recorded stream cut before its finishReason chunk ends interrupted with the text so far', () => {
    let checked = 0;
    for (const { name, events } of allStreams()) {
      const k = events.findIndex((e) => typeof (e as Chunk).candidates?.[0]?.finishReason === 'string');
      expect(k, name).toBeGreaterThanOrEqual(0);
      if (k === 0) continue; // a one-chunk response: nothing precedes its finishReason
      checked++;
      const [cut] = readGeminiGenerateContentStreamEvents(events.slice(0, k), ctx);
      expect(cut!.status, name).toBe('interrupted');
      const expected = events.slice(0, k).flatMap((e) =>
        partsOf(e)
          .filter((p) => typeof p.text === 'string' && !p.thought)
          .map((p) => p.text),
      );
      expect(textOf(cut!), name).toBe(expected.join(''));
      expect(cut!.stopReason, name).toBeUndefined();
      expect(decodeTurn(cut)).toEqual(cut);
    }
    expect(checked).toBe(8); // all but the one-chunk second response of the 2.5 cassette
  });

  it('an error chunk injected after the first text gives status error with the partial text kept (P3)', () => {
    const error = {
      error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
    };
    let checked = 0;
    for (const { name, events } of allStreams()) {
      const k = events.findIndex((e) =>
        partsOf(e).some((p) => typeof p.text === 'string' && p.text !== '' && !p.thought),
      );
      if (k < 0) continue;
      const [turn] = readGeminiGenerateContentStreamEvents(
        [...events.slice(0, k + 1), error, ...events.slice(k + 1)],
        ctx,
      );
      expect(turn!.status, name).toBe('error');
      expect(turn!.error, name).toEqual({
        type: 'UNAVAILABLE',
        message: 'The model is overloaded. Please try again later.',
      });
      expect(textOf(turn!), name).toBe(
        partsOf(events[k])
          .map((p) => p.text ?? '')
          .join(''),
      );
      expect(JSON.stringify(turn!.blocks), name).not.toContain('overloaded');
      expect(decodeTurn(turn)).toEqual(turn);
      checked++;
    }
    expect(checked).toBe(4);
  });

  it('a streamed call cut inside its partialArgs is kept partial with the pieces received', () => {
    const events = loadChunks('parallel-function-calls-with-thought.chunks.jsonl');
    const [turn] = readGeminiGenerateContentStreamEvents(events.slice(0, 4), ctx); // name, then "A" with willContinue
    expect(turn!.status).toBe('interrupted');
    expect(turn!.blocks[2]).toEqual({
      type: 'tool_call',
      id: 'read_screen_1',
      name: 'read_screen',
      input: { id: 'A' },
      meta: {
        generatedId: true,
        partial: true,
        rawArguments: '[{"jsonPath":"$.id","stringValue":"A","willContinue":true}]',
      },
    });
  });
});
