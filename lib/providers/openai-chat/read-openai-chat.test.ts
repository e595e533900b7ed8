import { describe, it, expect } from 'vitest';
import { decodeTranscript, decodeTurn } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import { HAS_SHARED, clone, listFixtures, loadCassette, loadResponse, loadStreamEvents } from './fixtures.test-helper';
import {
  createOpenAIChatStreamAssembler,
  readOpenAIChatHistory,
  readOpenAIChatResponse,
  readOpenAIChatStreamEvents,
} from './read-openai-chat';

if (!HAS_SHARED) console.warn('skipping: ../shared/fixtures not found');

const API = 'openai-chat';
const ctx = { provider: 'openai' };

type Chunk = { id?: string; choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[] };

/** Every recorded stream of this API: fixture files and the streamed bodies of cassettes. */
function allStreams(): { name: string; events: unknown[] }[] {
  const out: { name: string; events: unknown[] }[] = [];
  for (const f of listFixtures(API)) {
    if (f.endsWith('.chunks.jsonl') || f.endsWith('.sse')) out.push({ name: f, events: loadStreamEvents(API, f) });
    if (f.endsWith('.yaml'))
      loadCassette(API, f).forEach((it, i) => {
        if (it.events) out.push({ name: `${f}#${i}`, events: it.events });
      });
  }
  return out;
}

/** The events before the first chunk with a finish_reason (or before `[DONE]` when there is none). */
function cutBeforeTerminal(events: unknown[]): unknown[] {
  const i = events.findIndex((e) =>
    (e as Chunk).choices?.some((c) => typeof c.finish_reason === 'string' && c.finish_reason),
  );
  const end = i >= 0 ? i : events.indexOf('[DONE]');
  expect(end).toBeGreaterThan(0);
  return events.slice(0, end);
}

const contentOf = (events: unknown[]) => events.map((e) => (e as Chunk).choices?.[0]?.delta?.content ?? '').join('');

function assemble(events: unknown[]): Turn {
  const a = createOpenAIChatStreamAssembler(ctx);
  for (const e of events) a.push(e);
  return a.finish();
}

describe.skipIf(!HAS_SHARED)('openai-chat recorded streams', () => {
  it('covers every fixture file of the API', () => {
    expect(listFixtures(API)).toEqual([
      'anthropic-compat-tool-call.sse',
      'deepseek-reasoning-tool-calls.chunks.jsonl',
      'groq-tool-call.chunks.jsonl',
      'llm-cassette-openrouter-kimi-tool-call.yaml',
      'llm-cassette-tool-chain.yaml',
      'llm-cassette-tool-use-streaming.yaml',
      'text.chunks.jsonl',
      'text.response.json',
    ]);
  });

  it.each(allStreams().map((s) => [s.name, s.events] as const))(
    '%s: one complete turn that decodes; cut before the end → interrupted, content kept',
    (_name, events) => {
      const turns = readOpenAIChatStreamEvents(events, ctx);
      expect(turns).toHaveLength(1);
      const full = decodeTurn(turns[0]);
      expect(full.status).toBe('complete');
      expect(full.blocks.length).toBeGreaterThan(0);

      const cut = decodeTurn(assemble(cutBeforeTerminal(events)));
      expect(cut.status).toBe('interrupted');
      expect(cut.stopReason).toBeUndefined();
      // In every fixture the terminal chunk carries no content, so nothing is lost by the cut.
      expect(cut.blocks).toEqual(full.blocks);
    },
  );

  it('anthropic-compat-tool-call.sse: text then a tool call at index 1, whole turn', () => {
    const turn = assemble(loadStreamEvents(API, 'anthropic-compat-tool-call.sse'));
    const nativeMessage = {
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [
        { id: 'toolu_sanitized', type: 'function', function: { name: 'read_file', arguments: '{"path": "a.txt"}' } },
      ],
    };
    expect(turn).toEqual({
      id: 'msg_sanitized',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-chat', model: 'claude-haiku-4-5-20251001' },
      status: 'complete',
      stopReason: 'tool_use',
      blocks: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_call', id: 'toolu_sanitized', name: 'read_file', input: { path: 'a.txt' } },
      ],
      native: { api: 'openai-chat', payload: nativeMessage },
      meta: { responseId: 'msg_sanitized', rawStopReason: 'tool_calls' },
    });
    // Stream = the equivalent complete response.
    const response = {
      id: 'msg_sanitized',
      object: 'chat.completion',
      model: 'claude-haiku-4-5-20251001',
      choices: [{ index: 0, message: nativeMessage, finish_reason: 'tool_calls' }],
    };
    expect(readOpenAIChatResponse(response, ctx)).toEqual(turn);
  });

  it('anthropic-compat-tool-call.sse cut inside the arguments: tool call kept as partial', () => {
    const events = loadStreamEvents(API, 'anthropic-compat-tool-call.sse');
    const cut = events.slice(0, 6); // arguments so far: '{"pa'
    const turn = decodeTurn(assemble(cut));
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([
      { type: 'text', text: 'Reading it.' },
      {
        type: 'tool_call',
        id: 'toolu_sanitized',
        name: 'read_file',
        input: {},
        meta: { partial: true, rawArguments: '{"pa' },
      },
    ]);
  });

  it('groq-tool-call.chunks.jsonl: whole turn with usage from the final chunk', () => {
    const [turn] = readOpenAIChatStreamEvents(loadStreamEvents(API, 'groq-tool-call.chunks.jsonl'), {
      provider: 'groq',
      requestedModel: 'llama-3.3-70b-versatile',
    });
    expect(turn).toEqual({
      id: 'chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f',
      role: 'assistant',
      origin: { provider: 'groq', api: 'openai-chat', model: 'llama-3.3-70b-versatile' },
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 210, outputTokens: 15 },
      blocks: [{ type: 'tool_call', id: 'tk85n1k4m', name: 'weather', input: {} }],
      native: {
        api: 'openai-chat',
        payload: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'tk85n1k4m', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
      },
      meta: { responseId: 'chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f', rawStopReason: 'tool_calls' },
    });
  });

  it('deepseek-reasoning-tool-calls.chunks.jsonl: reasoning_content → thinking scoped to the origin, tool call, usage', () => {
    const events = loadStreamEvents(API, 'deepseek-reasoning-tool-calls.chunks.jsonl');
    const reasoning = events
      .map(
        (e) =>
          (e as { choices: { delta: { reasoning_content?: string | null } }[] }).choices[0]?.delta.reasoning_content ??
          '',
      )
      .join('');
    expect(reasoning).toMatch(/^The user is asking for the weather in San Francisco\./);
    const turn = assemble(events);
    const ctxDeepseek = { provider: 'deepseek', endpoint: 'https://api.deepseek.com' };
    const nativeMessage = {
      role: 'assistant',
      content: '',
      reasoning_content: reasoning,
      tool_calls: [
        {
          id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
          type: 'function',
          function: { name: 'weather', arguments: '{"location": "San Francisco"}' },
        },
      ],
    };
    const expected: Turn = {
      id: 'cca85624-4056-401f-b220-d77601d1f70d',
      role: 'assistant',
      origin: {
        provider: 'deepseek',
        api: 'openai-chat',
        model: 'deepseek-reasoner',
        endpoint: 'https://api.deepseek.com',
      },
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 339, outputTokens: 83, cacheReadTokens: 320, reasoningTokens: 39 },
      blocks: [
        { type: 'thinking', text: reasoning, meta: { field: 'reasoning_content' } },
        {
          type: 'tool_call',
          id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
          name: 'weather',
          input: { location: 'San Francisco' },
        },
      ],
      native: { api: 'openai-chat', payload: nativeMessage },
      meta: { responseId: 'cca85624-4056-401f-b220-d77601d1f70d', rawStopReason: 'tool_calls' },
    };
    const a = createOpenAIChatStreamAssembler(ctxDeepseek);
    events.forEach((e) => a.push(e));
    expect(a.finish()).toEqual(expected);
    expect(turn.origin?.provider).toBe('openai');

    const last = events[events.length - 1] as { usage: unknown };
    const response = {
      id: 'cca85624-4056-401f-b220-d77601d1f70d',
      object: 'chat.completion',
      model: 'deepseek-reasoner',
      choices: [{ index: 0, message: nativeMessage, finish_reason: 'tool_calls' }],
      usage: last.usage,
    };
    expect(readOpenAIChatResponse(response, ctxDeepseek)).toEqual(expected);
  });

  it('deepseek stream cut inside the reasoning: partial thinking kept, interrupted', () => {
    const events = loadStreamEvents(API, 'deepseek-reasoning-tool-calls.chunks.jsonl').slice(0, 4);
    const turn = decodeTurn(assemble(events));
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([{ type: 'thinking', text: 'The user is', meta: { field: 'reasoning_content' } }]);
  });

  it('text.chunks.jsonl: text assembled, usage chunk after finish_reason read, equals the equivalent response', () => {
    const events = loadStreamEvents(API, 'text.chunks.jsonl');
    const text = contentOf(events);
    expect(text.length).toBeGreaterThan(1000);
    const turn = assemble(events);
    const usage = (events[events.length - 1] as { usage: unknown }).usage;
    expect(turn).toEqual({
      id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-4.1-nano-2025-04-14' },
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 16, outputTokens: 300, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [{ type: 'text', text }],
      native: { api: 'openai-chat', payload: { role: 'assistant', content: text, refusal: null } },
      meta: { responseId: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0', rawStopReason: 'stop' },
    });
    const response = {
      id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
      object: 'chat.completion',
      model: 'gpt-4.1-nano-2025-04-14',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage,
    };
    expect(readOpenAIChatResponse(response, ctx)).toEqual(turn);
  });

  it('text.chunks.jsonl ending right after finish_reason (no usage chunk): complete, no usage', () => {
    const events = loadStreamEvents(API, 'text.chunks.jsonl');
    const turn = assemble(events.slice(0, -1));
    expect(turn.status).toBe('complete');
    expect(turn.usage).toBeUndefined();
    expect(turn.stopReason).toBe('end_turn');
  });

  it('text.chunks.jsonl with an error event injected after 5 deltas: status error, partial text kept, no error JSON as text (P3)', () => {
    const events = loadStreamEvents(API, 'text.chunks.jsonl');
    const injected = [
      ...events.slice(0, 6),
      { error: { message: 'The server is overloaded', type: 'server_error', code: null } },
      ...events.slice(6),
    ];
    const a = createOpenAIChatStreamAssembler(ctx);
    injected.forEach((e) => a.push(e));
    expect(a.done).toBe(true);
    const turn = decodeTurn(a.finish());
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ type: 'server_error', message: 'The server is overloaded' });
    expect(turn.blocks).toEqual([{ type: 'text', text: contentOf(events.slice(0, 6)) }]);
    expect(contentOf(events.slice(0, 6))).toBe('**Holiday Name:** Harmony');
    expect(JSON.stringify(turn.blocks)).not.toContain('overloaded');
    expect(turn.stopReason).toBeUndefined();
  });

  it('text.response.json: whole turn', () => {
    const body = loadResponse(API, 'text.response.json') as { choices: { message: { content: string } }[] };
    const text = body.choices[0]!.message.content;
    expect(text.startsWith('**Holiday Name:** Galaxy Day')).toBe(true);
    const turn = readOpenAIChatResponse(body, {
      provider: 'openai',
      requestedModel: 'gpt-4.1-nano',
      createdAt: '2026-02-12T22:04:43Z',
    });
    expect(turn).toEqual({
      id: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU',
      role: 'assistant',
      origin: {
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-nano-2025-04-14',
        requestedModel: 'gpt-4.1-nano',
      },
      createdAt: '2026-02-12T22:04:43Z',
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 16, outputTokens: 363, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [{ type: 'text', text }],
      native: { api: 'openai-chat', payload: { role: 'assistant', content: text, refusal: null, annotations: [] } },
      meta: { responseId: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU', rawStopReason: 'stop' },
    });
    expect(decodeTurn(turn)).toEqual(turn);
  });

  it('llm-cassette-openrouter-kimi-tool-call.yaml: tool call with id "0" and no finish_reason, then the answer; both streams in one file give two turns', () => {
    const [first, second] = loadCassette(API, 'llm-cassette-openrouter-kimi-tool-call.yaml');
    const orCtx = { provider: 'openrouter', requestedModel: 'moonshotai/kimi-k2' };
    const turns = readOpenAIChatStreamEvents([...first!.events!, ...second!.events!], orCtx);
    expect(turns.map((t) => decodeTurn(t))).toHaveLength(2);
    expect(turns[0]).toEqual({
      id: 'gen-1753242299-QZRAt5HJHd1ptY8sdS0s',
      role: 'assistant',
      origin: { provider: 'openrouter', api: 'openai-chat', model: 'moonshotai/kimi-k2' },
      status: 'complete',
      usage: { inputTokens: 57, outputTokens: 17, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [{ type: 'tool_call', id: '0', name: 'llm_version', input: {} }],
      native: {
        api: 'openai-chat',
        payload: {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: '0', type: 'function', function: { name: 'llm_version', arguments: '{}' } }],
        },
      },
      meta: {
        responseId: 'gen-1753242299-QZRAt5HJHd1ptY8sdS0s',
        upstreamProvider: 'Novita',
        warnings: ['stream ended with [DONE] but no finish_reason'],
      },
    });
    expect(turns[1]).toMatchObject({
      id: 'gen-1753242300-j60LWi6MpN4lMZw1zTHK',
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 107, outputTokens: 15 },
      blocks: [{ type: 'text', text: 'The current version of *llm* is **0.fixed-version**.' }],
      meta: {
        responseId: 'gen-1753242300-j60LWi6MpN4lMZw1zTHK',
        rawStopReason: 'stop',
        nativeFinishReason: 'stop',
        upstreamProvider: 'Moonshot AI',
      },
    });
  });

  it('llm-cassette-tool-use-streaming.yaml: streamed multiply call with usage, then the answer', () => {
    const [first, second] = loadCassette(API, 'llm-cassette-tool-use-streaming.yaml');
    const [call] = readOpenAIChatStreamEvents(first!.events!, { provider: 'openai', requestedModel: 'gpt-4o-mini' });
    expect(call).toMatchObject({
      origin: {
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4o-mini-2024-07-18',
        requestedModel: 'gpt-4o-mini',
      },
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 54, outputTokens: 20, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [
        { type: 'tool_call', id: 'call_1EYWDzueHEp8OsB8jJSEp7WB', name: 'multiply', input: { a: 1231, b: 2331 } },
      ],
    });
    expect(
      (call!.native!.payload as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]!.function
        .arguments,
    ).toBe('{"a":1231,"b":2331}');
    const [answer] = readOpenAIChatStreamEvents(second!.events!, ctx);
    expect(answer!.blocks).toEqual([
      { type: 'text', text: 'The result of \\( 1231 \\times 2331 \\) is \\( 2,869,461 \\).' },
    ]);
  });

  it('llm-cassette-tool-chain.yaml: three non-streamed responses', () => {
    const turns = loadCassette(API, 'llm-cassette-tool-chain.yaml').map((it) =>
      readOpenAIChatResponse(it.response, ctx),
    );
    expect(turns[0]).toEqual({
      id: 'chatcmpl-BWpGNGdPONTwxHkZVxbqctQSBDmTn',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini-2024-07-18' },
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 92, outputTokens: 17, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [
        {
          type: 'tool_call',
          id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG',
          name: 'lookup_population',
          input: { country: 'Crumpet' },
        },
      ],
      native: {
        api: 'openai-chat',
        payload: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG',
              type: 'function',
              function: { name: 'lookup_population', arguments: '{"country":"Crumpet"}' },
            },
          ],
          refusal: null,
          annotations: [],
        },
      },
      meta: { responseId: 'chatcmpl-BWpGNGdPONTwxHkZVxbqctQSBDmTn', rawStopReason: 'tool_calls' },
    });
    expect(turns[1]!.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'call_aq9UyiSFkzX6W8Ydc33DoI9Y',
        name: 'can_have_dragons',
        input: { population: 123124 },
      },
    ]);
    expect(turns[2]).toMatchObject({
      stopReason: 'end_turn',
      blocks: [{ type: 'text', text: 'YES' }],
      usage: { inputTokens: 146, outputTokens: 3 },
    });
  });

  it('llm-cassette-tool-chain.yaml: the last request body reads into the exact history', () => {
    const bodies = loadCassette(API, 'llm-cassette-tool-chain.yaml').map((it) => it.request);
    const t = readOpenAIChatHistory(bodies[2]);
    const origin = { provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini' } as const;
    const body = bodies[2] as { messages: unknown[] };
    expect(t).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'imported',
      source: { kind: 'openai-chat' },
      tools: [
        {
          name: 'lookup_population',
          description: 'Returns the current population of the specified fictional country',
          inputSchema: { properties: { country: { type: 'string' } }, required: ['country'], type: 'object' },
        },
        {
          name: 'can_have_dragons',
          description: 'Returns True if the specified population can have dragons, False otherwise',
          inputSchema: { properties: { population: { type: 'integer' } }, required: ['population'], type: 'object' },
        },
      ],
      turns: [
        {
          id: 't1',
          role: 'user',
          blocks: [{ type: 'text', text: 'Can the country of Crumpet have dragons? Answer with only YES or NO' }],
        },
        {
          id: 't2',
          role: 'assistant',
          origin,
          blocks: [
            {
              type: 'tool_call',
              id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG',
              name: 'lookup_population',
              input: { country: 'Crumpet' },
            },
          ],
          native: { api: 'openai-chat', payload: body.messages[1] },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: 'call_TTY8UFNo7rNCaOBUNtlRSvMG', content: '123124' }],
        },
        {
          id: 't4',
          role: 'assistant',
          origin,
          blocks: [
            {
              type: 'tool_call',
              id: 'call_aq9UyiSFkzX6W8Ydc33DoI9Y',
              name: 'can_have_dragons',
              input: { population: 123124 },
            },
          ],
          native: { api: 'openai-chat', payload: body.messages[3] },
        },
        {
          id: 't5',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: 'call_aq9UyiSFkzX6W8Ydc33DoI9Y', content: 'true' }],
        },
      ],
    });
    expect(decodeTranscript(clone(t))).toEqual(t);
  });

  it('every cassette request body reads into a transcript that decodes', () => {
    for (const f of listFixtures(API).filter((n) => n.endsWith('.yaml')))
      for (const it of loadCassette(API, f)) {
        const t = readOpenAIChatHistory(it.request);
        expect(decodeTranscript(clone(t))).toEqual(t);
        expect(t.turns.length).toBe(
          (it.request as { messages: unknown[] }).messages.length - countMergedTools(it.request),
        );
      }
  });
});

/** Tool messages that directly follow another tool message share its turn. */
function countMergedTools(body: unknown): number {
  const roles = (body as { messages: { role: string }[] }).messages.map((m) => m.role);
  return roles.filter((r, i) => r === 'tool' && roles[i - 1] === 'tool').length;
}
