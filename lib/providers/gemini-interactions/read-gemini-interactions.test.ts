/**
 * Interactions readers over the real recordings in
 * `../shared/fixtures/recorded-streams/gemini-interactions/` and over hand-made event sequences:
 * GI-S1 (events), GI-S2 (status), GI-S3 (usage, unary steps), GI-E1 (errors), GI-P2 (empty ids),
 * GI-K4 (empty signatures), and the same-origin round trip of every recording.
 */
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { decodeTurn } from '../../transcript/codec';
import type { Transcript, Turn, WireApi } from '../../transcript/schema';
import { WIRE_APIS } from '../../transcript/schema';
import { convertTranscript } from '../index';
import { hasShared, listFixtures, loadEvents, loadJson } from './fixtures.test-helper';
import {
  createGeminiInteractionsStreamAssembler,
  readGeminiInteractionsResponse,
  readGeminiInteractionsStreamEvents,
} from './read-gemini-interactions';

if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

const API = 'gemini-interactions';
const ctx = { provider: 'google' };
type Obj = Record<string, unknown>;

const STREAMS = [
  'basic.chunks.jsonl',
  'multi-turn-stateful-turn1.chunks.jsonl',
  'multi-turn-stateless-turn1.chunks.jsonl',
  'tool-call-step1.chunks.jsonl',
  'tool-call-step2.chunks.jsonl',
];
const RESPONSES = [
  'basic.response.json',
  'multi-turn-stateful-turn1.response.json',
  'multi-turn-stateless-turn1.response.json',
  'structured-output.response.json',
  'tool-call-step1.response.json',
  'tool-call-step2.response.json',
];

const textOf = (turn: Turn) => turn.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
const read = (events: unknown[]) => {
  const a = createGeminiInteractionsStreamAssembler(ctx);
  for (const e of events) a.push(e);
  return a.finish();
};
/** The model steps of a recorded response (what the turn's `native` must hold). */
const stepsOf = (name: string) => loadJson(name).steps as Obj[];

/** A one-turn conversation around a read turn, so it can be converted. */
function around(turn: Turn, model = 'gemini-2.5-flash'): Transcript {
  const calls = turn.blocks.flatMap((b) => (b.type === 'tool_call' ? [b] : []));
  return {
    format: 'baton.transcript',
    version: 1,
    id: 'rt',
    tools: calls.map((c) => ({ name: c.name, inputSchema: { type: 'object', properties: {} } })),
    turns: [
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hello' }] },
      { ...turn, id: 'a1', origin: { ...turn.origin!, model } },
      ...(calls.length
        ? [
            {
              id: 't1',
              role: 'tool' as const,
              blocks: calls.map((c) => ({ type: 'tool_result' as const, callId: c.id, content: 'ok' })),
            },
          ]
        : [{ id: 'u2', role: 'user' as const, blocks: [{ type: 'text' as const, text: 'More.' }] }]),
    ],
  };
}

describe.skipIf(!hasShared)('Interactions recorded fixtures', () => {
  it('covers every file in recorded-streams/gemini-interactions (a new file fails until it is read here)', () => {
    expect(listFixtures()).toEqual([...STREAMS, ...RESPONSES].sort());
  });

  it.each(STREAMS)('%s reads whole into one complete turn that decodes', (name) => {
    const turns = readGeminiInteractionsStreamEvents(loadEvents(name), ctx);
    expect(turns).toHaveLength(1);
    const turn = turns[0]!;
    expect(decodeTurn(turn)).toEqual(turn);
    expect(turn.status).toBe('complete');
    expect(turn.origin).toEqual({ provider: 'google', api: API, model: 'gemini-2.5-flash' });
    expect(turn.blocks[0]).toMatchObject({ type: 'thinking', text: '' });
    expect((turn.blocks[0] as { signature: string }).signature.length).toBeGreaterThan(10);
  });

  it.each(STREAMS)('%s cut before its end reads as interrupted, keeping what arrived', (name) => {
    const events = loadEvents(name);
    const full = read(events);
    for (let k = 0; k < events.length; k++) {
      const turn = read(events.slice(0, k));
      expect(decodeTurn(turn)).toEqual(turn);
      expect(turn.status).toBe('interrupted');
      expect(textOf(full).startsWith(textOf(turn))).toBe(true);
    }
  });

  it.each(RESPONSES)('%s reads into the same blocks as its steps, native = the steps', (name) => {
    const turn = readGeminiInteractionsResponse(loadJson(name), ctx);
    expect(decodeTurn(turn)).toEqual(turn);
    expect(turn.status).toBe('complete');
    expect(turn.native).toEqual({ api: API, payload: stepsOf(name) });
    expect(turn.blocks).toHaveLength(stepsOf(name).length);
  });

  it.each(RESPONSES)('%s cut before its end (fewer steps, still in progress) reads as interrupted', (name) => {
    const response = loadJson(name);
    const steps = response.steps as Obj[];
    for (let k = 0; k < steps.length; k++) {
      const turn = readGeminiInteractionsResponse(
        { ...response, status: 'in_progress', steps: steps.slice(0, k) },
        ctx,
      );
      expect(decodeTurn(turn)).toEqual(turn);
      expect(turn.status).toBe('interrupted');
      expect(turn.blocks).toHaveLength(k);
    }
  });

  it('tool-call-step1: the call streams as arguments_delta, parsed at step.stop (GI-S1); requires_action is tool_use (GI-S2)', () => {
    const [turn] = readGeminiInteractionsStreamEvents(loadEvents('tool-call-step1.chunks.jsonl'), ctx);
    expect(turn!.blocks[1]).toEqual({
      type: 'tool_call',
      id: '61nzpsv4',
      name: 'getWeather',
      input: { location: 'San Francisco' },
    });
    expect(turn!.stopReason).toBe('tool_use');
    expect(turn!.meta).toMatchObject({ rawStopReason: 'requires_action' });
    // GI-S3: usage from interaction.completed.
    expect(turn!.usage).toEqual({ inputTokens: 53, outputTokens: 15, reasoningTokens: 65, cacheReadTokens: 0 });
  });

  it('GI-P2: a stateless interaction (id "") records no responseId and takes no id from it', () => {
    for (const turn of [
      ...readGeminiInteractionsStreamEvents(loadEvents('multi-turn-stateless-turn1.chunks.jsonl'), ctx),
      readGeminiInteractionsResponse(loadJson('multi-turn-stateless-turn1.response.json'), ctx),
    ]) {
      expect(turn.id).toBe('assistant');
      expect(turn.meta?.responseId).toBeUndefined();
    }
    const [stored] = readGeminiInteractionsStreamEvents(loadEvents('multi-turn-stateful-turn1.chunks.jsonl'), ctx);
    expect(stored!.meta?.responseId).toMatch(/^v1_/);
  });

  it('GI-K4: the empty signature a streamed function_call step carries never reaches a block, nor the replayed body', () => {
    const [turn] = readGeminiInteractionsStreamEvents(loadEvents('tool-call-step1.chunks.jsonl'), ctx);
    expect(turn!.blocks[1]).not.toHaveProperty('signature');
    const { body } = convertTranscript(around(turn!), { api: API, model: 'gemini-2.5-flash' });
    const call = (body.input as Obj[]).find((s) => s.type === 'function_call')!;
    expect(call).not.toHaveProperty('signature');
    expect(call).toEqual({
      id: '61nzpsv4',
      type: 'function_call',
      name: 'getWeather',
      arguments: { location: 'San Francisco' },
    });
  });

  it.each([...STREAMS, ...RESPONSES])(
    '%s round trip: read → convert to the same origin gives back its steps (GI-K1)',
    (name) => {
      const turn = name.endsWith('.jsonl')
        ? readGeminiInteractionsStreamEvents(loadEvents(name), ctx)[0]!
        : readGeminiInteractionsResponse(loadJson(name), ctx);
      const { body, report } = convertTranscript(around(turn), { api: API, model: 'gemini-2.5-flash' });
      const input = body.input as Obj[];
      const model = input.slice(1, 1 + (turn.native!.payload as unknown[]).length);
      const expected = (turn.native!.payload as Obj[]).map(({ signature, ...rest }) =>
        signature === '' ? rest : { ...rest, signature },
      );
      expect(model).toEqual(expected);
      expect(report.blocks.filter((b) => b.turn === 'a1').every((b) => b.fates[0]!.fate === 'replayed-native')).toBe(
        true,
      );
      expect(validateRequest(API, body)).toEqual([]);
    },
  );

  it.each([...STREAMS, ...RESPONSES])('%s cross trip: read → every other API passes its validator', (name) => {
    const turn = name.endsWith('.jsonl')
      ? readGeminiInteractionsStreamEvents(loadEvents(name), ctx)[0]!
      : readGeminiInteractionsResponse(loadJson(name), ctx);
    const models: Record<WireApi, string> = {
      'anthropic-messages': 'claude-sonnet-4-5',
      'openai-chat': 'gpt-4o',
      'openai-responses': 'gpt-5.5',
      'gemini-generate-content': 'gemini-2.5-flash',
      'gemini-interactions': 'gemini-3-pro-preview',
    };
    for (const api of WIRE_APIS) {
      const { body } = convertTranscript(around(turn), { api, model: models[api], maxOutputTokens: 1000 });
      expect(validateRequest(api, body, { model: models[api] }), api).toEqual([]);
    }
  });
});

const created = (id = 'v1_x') => ({
  event_type: 'interaction.created',
  interaction: { id, status: 'in_progress', model: 'gemini-3-pro-preview' },
});
const completed = (status: string, extra: Obj = {}) => ({
  event_type: 'interaction.completed',
  interaction: { id: 'v1_x', status, model: 'gemini-3-pro-preview', ...extra },
});
const textStep = (index: number, ...texts: string[]) => [
  { event_type: 'step.start', index, step: { type: 'model_output' } },
  ...texts.map((text) => ({ event_type: 'step.delta', index, delta: { type: 'text', text } })),
  { event_type: 'step.stop', index },
];

describe('GI-S1: stream events', () => {
  it('GI-S1: index ties deltas to their step; a summary and a signature make one thought; arguments are parsed at step.stop', () => {
    const turn = read([
      created(),
      { event_type: 'step.start', index: 0, step: { type: 'thought' } },
      {
        event_type: 'step.delta',
        index: 0,
        delta: { type: 'thought_summary', content: { type: 'text', text: 'Plan ' } },
      },
      {
        event_type: 'step.delta',
        index: 0,
        delta: { type: 'thought_summary', content: { type: 'text', text: 'it.' } },
      },
      { event_type: 'step.delta', index: 0, delta: { type: 'thought_signature', signature: 'c2lnMQ==' } },
      { event_type: 'step.stop', index: 0 },
      { event_type: 'step.start', index: 1, step: { type: 'function_call', id: 'a1', name: 'f', arguments: {} } },
      { event_type: 'step.start', index: 2, step: { type: 'function_call', id: 'a2', name: 'f', arguments: {} } },
      { event_type: 'step.delta', index: 2, delta: { type: 'arguments_delta', arguments: '{"n":' } },
      { event_type: 'step.delta', index: 1, delta: { type: 'arguments_delta', arguments: '{"n":1}' } },
      { event_type: 'step.delta', index: 2, delta: { type: 'arguments_delta', arguments: '2}' } },
      { event_type: 'step.stop', index: 1 },
      { event_type: 'step.stop', index: 2 },
      completed('requires_action'),
    ]);
    expect(turn.blocks).toEqual([
      { type: 'thinking', text: 'Plan it.', signature: 'c2lnMQ==' },
      { type: 'tool_call', id: 'a1', name: 'f', input: { n: 1 } },
      { type: 'tool_call', id: 'a2', name: 'f', input: { n: 2 } },
    ]);
    expect(turn.native!.payload).toEqual([
      { type: 'thought', summary: [{ type: 'text', text: 'Plan it.' }], signature: 'c2lnMQ==' },
      { type: 'function_call', id: 'a1', name: 'f', arguments: { n: 1 } },
      { type: 'function_call', id: 'a2', name: 'f', arguments: { n: 2 } },
    ]);
  });

  it('GI-S1: a call cut inside its arguments is kept, marked partial with its raw text', () => {
    const turn = read([
      created(),
      { event_type: 'step.start', index: 0, step: { type: 'function_call', id: 'a1', name: 'f', arguments: {} } },
      { event_type: 'step.delta', index: 0, delta: { type: 'arguments_delta', arguments: '{"path":"a.t' } },
    ]);
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([
      { type: 'tool_call', id: 'a1', name: 'f', input: {}, meta: { partial: true, rawArguments: '{"path":"a.t' } },
    ]);
  });

  it('GI-S1: junk events, unknown indices and events after the end are warnings, never exceptions', () => {
    const turn = read([
      created(),
      'junk',
      { event_type: 'step.delta', index: 7, delta: { type: 'text', text: 'lost' } },
      { event_type: 'mystery' },
      ...textStep(0, 'Hi'),
      completed('completed'),
      ...textStep(1, 'late'),
    ]);
    expect(turn.status).toBe('complete');
    expect(textOf(turn)).toBe('Hi');
    expect((turn.meta!.warnings as string[]).length).toBeGreaterThanOrEqual(4);
  });
});

describe('GI-S2: status', () => {
  it.each([
    ['completed', 'complete', 'end_turn'],
    ['requires_action', 'complete', 'tool_use'],
    ['incomplete', 'complete', 'max_tokens'],
    ['budget_exceeded', 'complete', 'max_tokens'],
    ['requires_continuation', 'complete', 'other'],
    ['cancelled', 'stopped', undefined],
    ['failed', 'error', undefined],
  ])('GI-S2: interaction status %s → turn %s, stop reason %s, raw value kept', (raw, status, stopReason) => {
    const turn = read([created(), ...textStep(0, 'Some text.'), completed(raw)]);
    expect(turn.status).toBe(status);
    expect(turn.stopReason).toBe(stopReason);
    expect(turn.meta!.rawStopReason).toBe(raw);
    expect(textOf(turn)).toBe('Some text.');
  });

  it('GI-S2: requires_continuation keeps the continuation token in meta', () => {
    const turn = read([
      created(),
      ...textStep(0, 'Part.'),
      completed('requires_continuation', { continuation_token: 'tok1' }),
    ]);
    expect(turn.meta!.continuationToken).toBe('tok1');
  });

  it('GI-S2: the turn is complete only after interaction.completed', () => {
    const a = createGeminiInteractionsStreamAssembler(ctx);
    for (const e of [created(), ...textStep(0, 'Hi')]) a.push(e);
    expect(a.done).toBe(false);
    expect(a.snapshot().status).toBe('streaming');
    expect(a.finish().status).toBe('interrupted');
  });
});

describe('GI-S3: usage and unary responses', () => {
  it('GI-S3: usage comes from step.stop when the stream is cut before interaction.completed', () => {
    const turn = read([
      created(),
      { event_type: 'step.start', index: 0, step: { type: 'model_output' } },
      { event_type: 'step.delta', index: 0, delta: { type: 'text', text: 'Hi' } },
      { event_type: 'step.stop', index: 0, usage: { total_input_tokens: 5, total_output_tokens: 1 } },
    ]);
    expect(turn.usage).toEqual({ inputTokens: 5, outputTokens: 1 });
  });

  it('GI-S3: user_input steps echoed in a unary response are not part of the turn', () => {
    const turn = readGeminiInteractionsResponse(
      {
        id: 'v1_y',
        status: 'completed',
        model: 'gemini-3-pro-preview',
        steps: [
          { type: 'user_input', content: [{ type: 'text', text: 'Q' }] },
          { type: 'model_output', content: [{ type: 'text', text: 'A' }] },
        ],
        usage: { total_input_tokens: 3, total_output_tokens: 1, total_thought_tokens: 0, total_cached_tokens: 2 },
      },
      ctx,
    );
    expect(turn.blocks).toEqual([{ type: 'text', text: 'A' }]);
    expect(turn.native!.payload).toEqual([{ type: 'model_output', content: [{ type: 'text', text: 'A' }] }]);
    expect(turn.usage).toEqual({ inputTokens: 3, outputTokens: 1, reasoningTokens: 0, cacheReadTokens: 2 });
  });
});

describe('GI-E1: errors', () => {
  it('GI-E1: an SSE error event (code a URI string) ends the turn as an error, keeping the partial text', () => {
    const turn = read([
      created(),
      ...textStep(0, 'Partial '),
      { event_type: 'error', error: { code: 'https://google.rpc/RESOURCE_EXHAUSTED', message: 'Quota exceeded.' } },
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ type: 'https://google.rpc/RESOURCE_EXHAUSTED', message: 'Quota exceeded.' });
    expect(textOf(turn)).toBe('Partial ');
  });

  it('GI-E1: an HTTP error body reads as an error turn; a model_output step with error does too', () => {
    const http = readGeminiInteractionsResponse(
      { error: { code: 400, message: 'Invalid input received', status: 'INVALID_ARGUMENT' } },
      { ...ctx, requestedModel: 'gemini-3-pro-preview' },
    );
    expect(http).toMatchObject({
      status: 'error',
      error: { type: 'INVALID_ARGUMENT', message: 'Invalid input received' },
    });
    const step = readGeminiInteractionsResponse(
      {
        id: 'v1_z',
        status: 'completed',
        model: 'gemini-3-pro-preview',
        steps: [
          {
            type: 'model_output',
            content: [{ type: 'text', text: 'So far' }],
            error: { code: 13, message: 'Internal' },
          },
        ],
      },
      ctx,
    );
    expect(step).toMatchObject({ status: 'error', error: { type: '13', message: 'Internal' } });
    expect(textOf(step)).toBe('So far');
  });
});
