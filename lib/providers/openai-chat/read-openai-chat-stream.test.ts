import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTurn } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import type { ReadContext } from '../types';
import {
  createOpenAIChatStreamAssembler,
  readOpenAIChatResponse,
  readOpenAIChatStreamEvents,
} from './read-openai-chat';

const ctx: ReadContext = { provider: 'openai', requestedModel: 'gpt-x' };

/** A chat.completion.chunk with one choice. */
function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: 'gpt-x-2026',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

function run(events: unknown[], c: ReadContext = ctx): Turn {
  const a = createOpenAIChatStreamAssembler(c);
  for (const e of events) a.push(e);
  return decodeTurn(a.finish());
}

describe('createOpenAIChatStreamAssembler (synthetic streams)', () => {
  it('assembles parallel tool calls by index from interleaved pieces; snapshots stream', () => {
    const events = [
      chunk({ role: 'assistant', content: null }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz"' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: ':"UTC"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
    ];
    const a = createOpenAIChatStreamAssembler(ctx);
    events.slice(0, 4).forEach((e) => a.push(e));
    expect(a.done).toBe(false);
    const snap = decodeTurn(a.snapshot());
    expect(snap.status).toBe('streaming');
    expect(snap.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'call_1',
        name: 'get_weather',
        input: {},
        meta: { rawArguments: '{"city":', partial: true },
      },
      { type: 'tool_call', id: 'call_2', name: 'get_time', input: {}, meta: { rawArguments: '{"tz"', partial: true } },
    ]);
    events.slice(4).forEach((e) => a.push(e));
    expect(a.done).toBe(true);
    const turn = a.finish();
    expect(turn).toEqual({
      id: 'chatcmpl-1',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-x-2026', requestedModel: 'gpt-x' },
      status: 'complete',
      stopReason: 'tool_use',
      blocks: [
        { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_call', id: 'call_2', name: 'get_time', input: { tz: 'UTC' } },
      ],
      native: {
        api: 'openai-chat',
        payload: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"UTC"}' } },
          ],
        },
      },
      meta: { responseId: 'chatcmpl-1', rawStopReason: 'tool_calls' },
    });
    expect(a.snapshot()).toEqual(turn);
  });

  it('a tool call cut before any argument text is partial with empty raw arguments', () => {
    const turn = run([
      chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }),
    ]);
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([
      { type: 'tool_call', id: 'c', name: 'f', input: {}, meta: { rawArguments: '', partial: true } },
    ]);
  });

  it('gives a tool call without id a generated one, and keeps Gemini thought signatures (G-K7)', () => {
    const turn = run([
      chunk({
        tool_calls: [
          {
            index: 0,
            type: 'function',
            function: { name: 'f', arguments: '{}' },
            extra_content: { google: { thought_signature: 'U0lH' } },
          },
        ],
      }),
      chunk({}, 'tool_calls'),
    ]);
    expect(turn.blocks).toEqual([
      { type: 'tool_call', id: 'call_0', name: 'f', input: {}, signature: 'U0lH', meta: { generatedId: true } },
    ]);
    expect(turn.native!.payload).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          type: 'function',
          function: { name: 'f', arguments: '{}' },
          extra_content: { google: { thought_signature: 'U0lH' } },
        },
      ],
    });
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'content_filter'],
    ['stop', 'end_turn'],
    ['insufficient_system_resource', 'other'],
  ])('finish_reason %s → stopReason %s, raw value kept', (raw, mapped) => {
    const turn = run([chunk({ content: 'Some text' }), chunk({}, raw)]);
    expect(turn.status).toBe('complete');
    expect(turn.stopReason).toBe(mapped);
    expect(turn.meta).toEqual({ responseId: 'chatcmpl-1', rawStopReason: raw });
    expect(turn.blocks).toEqual([{ type: 'text', text: 'Some text' }]);
  });

  it('a streamed refusal is marked text and stopReason refusal', () => {
    const turn = run([
      chunk({ role: 'assistant', content: null, refusal: '' }),
      chunk({ refusal: 'I can’t ' }),
      chunk({ refusal: 'help.' }),
      chunk({}, 'stop'),
    ]);
    expect(turn.stopReason).toBe('refusal');
    expect(turn.blocks).toEqual([{ type: 'text', text: 'I can’t help.', meta: { refusal: true } }]);
    expect(turn.native!.payload).toEqual({ role: 'assistant', content: null, refusal: 'I can’t help.' });
  });

  it('OpenRouter: reasoning text and reasoning_details merged by index; mid-stream error with finish_reason "error"', () => {
    const or = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
      chunk(delta, finish, { id: 'gen-1', model: 'anthropic/claude-sonnet-4.5', provider: 'Anthropic', ...extra });
    const events = [
      or({
        role: 'assistant',
        content: '',
        reasoning: 'Let me ',
        reasoning_details: [{ type: 'reasoning.text', text: 'Let me ', index: 0, format: 'anthropic-claude-v1' }],
      }),
      or({
        content: '',
        reasoning: 'think.',
        reasoning_details: [{ type: 'reasoning.text', text: 'think.', index: 0, signature: null }],
      }),
      or({ content: '', reasoning_details: [{ type: 'reasoning.text', signature: 'c2ln', index: 0 }] }),
      or({ content: 'Partial ' }),
      or({ content: 'answer' }),
    ];
    const ok = run(
      [
        ...events,
        or({}, 'stop', {
          usage: {
            prompt_tokens: 10,
            completion_tokens: 5,
            prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 3 },
          },
        }),
      ],
      { provider: 'openrouter' },
    );
    expect(ok).toEqual({
      id: 'gen-1',
      role: 'assistant',
      origin: { provider: 'openrouter', api: 'openai-chat', model: 'anthropic/claude-sonnet-4.5' },
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 3 },
      blocks: [
        { type: 'thinking', text: 'Let me think.', meta: { field: 'reasoning' } },
        { type: 'text', text: 'Partial answer' },
      ],
      native: {
        api: 'openai-chat',
        payload: {
          role: 'assistant',
          content: 'Partial answer',
          reasoning: 'Let me think.',
          reasoning_details: [
            {
              type: 'reasoning.text',
              text: 'Let me think.',
              index: 0,
              format: 'anthropic-claude-v1',
              signature: 'c2ln',
            },
          ],
        },
      },
      meta: { responseId: 'gen-1', rawStopReason: 'stop', upstreamProvider: 'Anthropic' },
    });

    const failed = run(
      [
        ...events,
        or({ content: '' }, 'error', { error: { code: 502, message: 'Upstream overloaded' } }),
        or({ content: ' more' }),
      ],
      { provider: 'openrouter' },
    );
    expect(failed.status).toBe('error');
    expect(failed.error).toEqual({ type: '502', message: 'Upstream overloaded' });
    expect(failed.blocks[1]).toEqual({ type: 'text', text: 'Partial answer' });
  });

  it('never throws on malformed events and lists them in meta.warnings', () => {
    const a = createOpenAIChatStreamAssembler(ctx);
    expect(() => {
      a.push(42);
      a.push('not json');
      a.push(JSON.parse('{"__proto__":{"polluted":true},"choices":[]}'));
      a.push({ object: 'chat.completion.chunk' });
      a.push(chunk({ content: 'ok' }));
    }).not.toThrow();
    const turn = decodeTurn(a.finish());
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([{ type: 'text', text: 'ok' }]);
    expect(turn.meta!.warnings).toEqual([
      'event 0: expected an object, got 42',
      'event 1: not JSON',
      'event 2: ignored, __proto__: forbidden key',
      'event 3: no choices',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an error before any content: error turn without blocks or native', () => {
    const turn = run([{ error: { message: 'Rate limit', type: 'rate_limit_exceeded' } }]);
    expect(turn).toEqual({
      id: 'assistant',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-x' },
      status: 'error',
      error: { type: 'rate_limit_exceeded', message: 'Rate limit' },
      blocks: [],
    });
  });

  it('reads only choice 0 and warns about the others', () => {
    const turn = run([
      chunk({ content: 'A' }),
      { id: 'chatcmpl-1', model: 'gpt-x-2026', choices: [{ index: 1, delta: { content: 'B' }, finish_reason: null }] },
      chunk({}, 'stop'),
    ]);
    expect(turn.blocks).toEqual([{ type: 'text', text: 'A' }]);
    expect(turn.meta!.warnings).toEqual(['choice 1 not read: only choice 0 becomes the turn']);
  });
});

describe('readOpenAIChatStreamEvents', () => {
  it('splits at a new chunk id and after [DONE]; suffixes a given turn id', () => {
    const events = [
      chunk({ content: 'one' }),
      chunk({}, 'stop'),
      '[DONE]',
      chunk({ content: 'two' }, null, { id: 'chatcmpl-1' }), // same id as before, but after [DONE]
      chunk({ content: 'three' }, null, { id: 'chatcmpl-3' }),
    ];
    const turns = readOpenAIChatStreamEvents(events, { provider: 'openai', turnId: 'r' });
    expect(turns.map((t) => [t.id, t.status, t.blocks])).toEqual([
      ['r-1', 'complete', [{ type: 'text', text: 'one' }]],
      ['r-2', 'interrupted', [{ type: 'text', text: 'two' }]],
      ['r-3', 'interrupted', [{ type: 'text', text: 'three' }]],
    ]);
  });

  it('returns no turns for no events', () => {
    expect(readOpenAIChatStreamEvents([], ctx)).toEqual([]);
  });
});

describe('readOpenAIChatResponse (synthetic)', () => {
  const base = { id: 'chatcmpl-9', object: 'chat.completion', model: 'gpt-x-2026' };

  it('annotations become citations; custom tool calls stay provider items', () => {
    const message = {
      role: 'assistant',
      content: 'See the docs.',
      annotations: [
        {
          type: 'url_citation',
          url_citation: { start_index: 0, end_index: 3, url: 'https://example.com', title: 'Docs' },
        },
      ],
      tool_calls: [{ id: 'call_c', type: 'custom', custom: { name: 'sql', input: 'SELECT 1' } }],
    };
    const turn = readOpenAIChatResponse(
      { ...base, choices: [{ index: 0, message, finish_reason: 'tool_calls' }] },
      ctx,
    );
    expect(turn.blocks).toEqual([
      { type: 'text', text: 'See the docs.', citations: message.annotations },
      { type: 'provider_item', api: 'openai-chat', item: message.tool_calls[0], text: 'SELECT 1' },
    ]);
    expect(turn.native).toEqual({ api: 'openai-chat', payload: message });
  });

  it('an error body gives an error turn', () => {
    const turn = readOpenAIChatResponse({ error: { message: 'Bad gateway', code: 502 } }, ctx);
    expect(turn).toEqual({
      id: 'assistant',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-x' },
      status: 'error',
      error: { type: '502', message: 'Bad gateway' },
      blocks: [],
    });
  });

  it('warns about choices it does not read', () => {
    const m = { role: 'assistant', content: 'a' };
    const turn = readOpenAIChatResponse(
      {
        ...base,
        choices: [
          { index: 0, message: m, finish_reason: 'stop' },
          { index: 1, message: m, finish_reason: 'stop' },
        ],
      },
      ctx,
    );
    expect(turn.meta).toEqual({
      responseId: 'chatcmpl-9',
      rawStopReason: 'stop',
      warnings: ['choices[1..1] not read: only choices[0] becomes the turn'],
    });
  });

  it.each([
    ['not an object', 'x', {}, '', /expected object/],
    ['no choices', { ...base }, ctx, 'choices', /required field missing/],
    ['empty choices', { ...base, choices: [] }, ctx, 'choices', /at least one/],
    ['no message', { ...base, choices: [{ index: 0 }] }, ctx, 'choices[0].message', /required field missing/],
    [
      'wrong role',
      { ...base, choices: [{ message: { role: 'user', content: 'a' } }] },
      ctx,
      'choices[0].message.role',
      /expected "assistant"/,
    ],
    [
      'no model anywhere',
      { id: 'x', choices: [{ message: { role: 'assistant', content: 'a' } }] },
      { provider: 'openai' },
      'model',
      /no model/,
    ],
    [
      'tool call function missing',
      { ...base, choices: [{ message: { role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] } }] },
      ctx,
      'choices[0].message.tool_calls[0].function',
      /required field missing/,
    ],
    [
      'content a number',
      { ...base, choices: [{ message: { role: 'assistant', content: 5 } }] },
      ctx,
      'choices[0].message.content',
      /expected string, array or null/,
    ],
  ])('%s → TranscriptError at %j', (_n, body, c, path, problem) => {
    let err: unknown;
    try {
      readOpenAIChatResponse(body, c as ReadContext);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TranscriptError);
    expect((err as TranscriptError).path).toBe(path);
    expect((err as TranscriptError).problem).toMatch(problem);
  });
});
