/**
 * The fake Gemini Interactions endpoint (`POST /v1beta/interactions`, provider-rules-2026-gemini.md
 * §9): Baton's converted bodies are accepted and answered in the recorded shape (streamed and
 * not), which Baton's readers assemble; broken bodies get 400s with the API's texts; stored
 * interactions chain with `previous_interaction_id`; injected errors and cuts reach the reader.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { convertTranscript } from '../../lib/providers';
import {
  createGeminiInteractionsStreamAssembler,
  readGeminiInteractionsResponse,
} from '../../lib/providers/gemini-interactions/read-gemini-interactions';
import { decodeTranscript } from '../../lib/transcript/codec';
import type { Turn } from '../../lib/transcript/schema';
import { startFakeProviders } from './server';
import type { FakeProviders } from './types';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const MODEL = 'gemini-3-pro-preview';
const history = decodeTranscript({
  format: 'baton.transcript',
  version: 1,
  id: 'h',
  system: 'Be brief.',
  tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Weather in Oslo?' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
      blocks: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }],
    },
    { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: '4°C' }] },
    { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'And tomorrow?' }] },
  ],
});
const converted = (thinking = false) =>
  convertTranscript(history, { api: 'gemini-interactions', model: MODEL, thinking });

/** POSTs a body the way a REST client does (the key in its header, the Api-Revision header). */
async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${fake.url}/v1beta/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-goog-api-key': fake.keys.google,
      'Api-Revision': '2026-05-20',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** The SSE events of a streamed answer, parsed; a stream the server cut yields what arrived. */
async function events(res: Response): Promise<unknown[]> {
  let text = '';
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Cut by the server: keep the frames that arrived.
  }
  return text
    .split(/\n\n/)
    .map((f) => f.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice(6)) as unknown);
}

function assemble(list: unknown[]): Turn {
  const a = createGeminiInteractionsStreamAssembler({ provider: 'google', requestedModel: MODEL });
  for (const e of list) a.push(e);
  return a.finish();
}

async function errorOf(res: Response): Promise<{ status: number; message: string }> {
  const body = (await res.json()) as { error: { message: string } };
  return { status: res.status, message: body.error.message };
}

describe('fake /v1beta/interactions', () => {
  it('accepts Baton’s streaming body and answers in the recorded event shape; the stream reader assembles it', async () => {
    const { body, headers } = converted();
    const res = await post(body, headers);
    expect(res.status).toBe(200);
    const turn = assemble(await events(res));
    expect(turn.status).toBe('complete');
    expect(turn.blocks).toEqual([{ type: 'text', text: 'Hello from the fake provider.' }]);
    const [req] = fake.requests;
    expect(req).toMatchObject({ api: 'gemini-interactions', violations: [], keyViolations: [] });
    // GI-P2: a stateless request gets the empty id and is not stored.
    expect(turn.meta?.responseId).toBeUndefined();
    expect(fake.interactions.size).toBe(0);
  });

  it('answers a non-streaming request with an Interaction object the response reader reads', async () => {
    fake.enqueue('gemini-interactions', {
      kind: 'thinking',
      thinking: 'Check the tool.',
      signature: 'c2lnLWZha2U=',
      text: '',
      calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    const res = await post({ ...converted().body, stream: false });
    const turn = readGeminiInteractionsResponse(await res.json(), { provider: 'google' });
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.blocks.map((b) => b.type)).toEqual(['thinking', 'tool_call']);
    expect(turn.blocks[0]).toMatchObject({ signature: 'c2lnLWZha2U=' });
  });

  it('a thinking answer streams a signed thought; replayed to the same origin it is accepted again (GI-K1)', async () => {
    fake.enqueue('gemini-interactions', { kind: 'thinking', thinking: 'Plan.', signature: 'c2lnMQ==', text: 'Sunny.' });
    const first = assemble(await events(await post(converted(true).body)));
    const next = decodeTranscript({
      ...history,
      turns: [
        ...history.turns,
        { ...first, id: 'a2' },
        { id: 'u3', role: 'user', blocks: [{ type: 'text', text: 'Ok' }] },
      ],
    });
    const { body } = convertTranscript(next, { api: 'gemini-interactions', model: MODEL, thinking: true });
    expect(JSON.stringify(body)).toContain('c2lnMQ==');
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(fake.requests[1]!.violations).toEqual([]);
  });

  it('GI-T2: a function_result without name gets the API’s 400 "Invalid input received"', async () => {
    const body = structuredClone(converted().body) as { input: Record<string, unknown>[] };
    delete body.input.find((s) => s.type === 'function_result')!.name;
    expect(await errorOf(await post(body))).toEqual({ status: 400, message: 'Invalid input received' });
  });

  it('GI-R1: generateContent fields and a missing Api-Revision are refused with the rule named', async () => {
    const bad = await errorOf(await post({ ...converted().body, contents: [] }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('GI-R1');
    const res = await fetch(`${fake.url}/v1beta/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': fake.keys.google },
      body: JSON.stringify(converted().body),
    });
    expect((await errorOf(res)).message).toContain('Api-Revision');
  });

  it('GI-P1: previous_interaction_id with store: false is refused with the API’s text', async () => {
    const res = await post({ ...converted().body, previous_interaction_id: 'v1_x' });
    expect(await errorOf(res)).toEqual({
      status: 400,
      message: 'store=false disables previous_interaction_id and background=true',
    });
  });

  it('GI-P1, GI-P2: a stored interaction gets a v1_ id and chains; an unknown id is a 404', async () => {
    const { body } = converted();
    const first = assemble(await events(await post({ ...body, store: true })));
    const id = first.meta?.responseId as string;
    expect(id).toMatch(/^v1_fake/);
    const chained = {
      ...body,
      store: true,
      previous_interaction_id: id,
      input: [{ type: 'user_input', content: [{ type: 'text', text: 'And the day after?' }] }],
    };
    const second = assemble(await events(await post(chained)));
    expect(second.status).toBe('complete');
    const stored = fake.interactions.get(second.meta?.responseId as string)!;
    expect(stored.input).toEqual([...(body.input as unknown[]), ...chained.input]);
    const missing = await post({ ...chained, previous_interaction_id: 'v1_nope' });
    expect(missing.status).toBe(404);
  });

  it('injected errors: an SSE error event ends the turn as an error keeping the partial text (GI-E1); a cut stream is interrupted', async () => {
    fake.enqueue('gemini-interactions', {
      kind: 'error-event',
      afterEvents: 4,
      source: { kind: 'text', chunks: ['Part one, ', 'part two.'] },
    });
    const failed = assemble(await events(await post(converted().body)));
    expect(failed.status).toBe('error');
    expect(failed.blocks).toEqual([{ type: 'text', text: 'Part one, ' }]);
    expect(failed.error?.message).toContain('overloaded');

    fake.enqueue('gemini-interactions', { kind: 'cut', afterEvents: 5, source: { kind: 'text', chunks: ['A ', 'B'] } });
    const cut = assemble(await events(await post(converted().body)));
    expect(cut.status).toBe('interrupted');

    fake.enqueue('gemini-interactions', { kind: 'error', status: 429 });
    const limited = await post(converted().body);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { status: string } }).error.status).toBe('RESOURCE_EXHAUSTED');
  });

  it('serves the real recordings as a stream (a fixture reply)', async () => {
    fake.enqueue('gemini-interactions', { kind: 'fixture', file: 'gemini-interactions/tool-call-step1.chunks.jsonl' });
    const turn = assemble(await events(await post(converted().body)));
    expect(turn.blocks.map((b) => b.type)).toEqual(['thinking', 'tool_call']);
  });
});
