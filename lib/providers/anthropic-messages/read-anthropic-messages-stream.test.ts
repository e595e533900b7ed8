import { describe, it, expect } from 'vitest';
import { TranscriptError } from '../../transcript/codec';
import {
  createAnthropicMessagesStreamAssembler,
  readAnthropicMessagesResponse,
  readAnthropicMessagesStreamEvents,
} from './read-anthropic-messages';

const API = 'anthropic-messages';
const ctx = { provider: 'anthropic' };
type Obj = Record<string, unknown>;
const origin = (model: string) => ({ provider: 'anthropic', api: API, model });

describe('Anthropic stream assembler (hand-written events)', () => {
  const start = (model = 'claude-x', id = 'msg_1') => ({
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  const end = (stop_reason: string, extra: Obj = {}) => [
    { type: 'message_delta', delta: { stop_reason, stop_sequence: null, ...extra }, usage: { output_tokens: 7 } },
    { type: 'message_stop' },
  ];

  it('snapshot() shows the partial turn while streaming and earlier snapshots stay unchanged', () => {
    const a = createAnthropicMessagesStreamAssembler({
      provider: 'anthropic',
      turnId: 'a1',
      createdAt: '2026-11-30T05:03:33Z',
    });
    a.push(start());
    a.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } });
    const first = a.snapshot();
    expect(first).toEqual({
      id: 'a1',
      role: 'assistant',
      createdAt: '2026-11-30T05:03:33Z',
      origin: origin('claude-x'),
      status: 'streaming',
      usage: { inputTokens: 10, outputTokens: 1 },
      blocks: [{ type: 'text', text: 'Hel' }],
      native: { api: API, payload: [{ type: 'text', text: 'Hel' }] },
      meta: { responseId: 'msg_1' },
    });
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } });
    expect(a.done).toBe(false);
    expect(first.blocks).toEqual([{ type: 'text', text: 'Hel' }]);
    a.push({ type: 'content_block_stop', index: 0 });
    for (const e of end('end_turn')) a.push(e);
    expect(a.done).toBe(true);
    expect(a.snapshot().status).toBe('complete');
    expect(a.finish()).toMatchObject({
      status: 'complete',
      stopReason: 'end_turn',
      blocks: [{ type: 'text', text: 'Hello' }],
      usage: { inputTokens: 10, outputTokens: 7 },
    });
  });

  it('keeps redacted thinking, MCP tool use and results, pause_turn', () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' };
    const mcpUse = { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 'srv', input: {} };
    const mcpResult = {
      type: 'mcp_tool_result',
      tool_use_id: 'mcptoolu_1',
      is_error: false,
      content: [{ type: 'text', text: 'hi' }],
    };
    const events = [
      start(),
      { type: 'content_block_start', index: 0, content_block: redacted },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: mcpUse },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"text":' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"hi"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: mcpResult },
      { type: 'content_block_stop', index: 2 },
      ...end('pause_turn'),
    ];
    const [turn] = readAnthropicMessagesStreamEvents(events, ctx);
    expect(turn!.blocks).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'provider_item', api: API, item: { ...mcpUse, input: { text: 'hi' } }, text: '[srv/echo] {"text":"hi"}' },
      { type: 'provider_item', api: API, item: mcpResult, text: 'hi' },
    ]);
    expect(turn!.stopReason).toBe('pause_turn');
    expect(turn!.meta!.rawStopReason).toBe('pause_turn');
  });

  it('streams a compaction block through compaction_delta', () => {
    const events = [
      start(),
      { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'compaction_delta', content: 'Summary.', encrypted_content: 'enc' },
      },
      { type: 'content_block_stop', index: 0 },
      ...end('compaction'),
    ];
    const [turn] = readAnthropicMessagesStreamEvents(events, ctx);
    expect(turn!.blocks).toEqual([
      {
        type: 'provider_item',
        api: API,
        item: { type: 'compaction', content: 'Summary.', encrypted_content: 'enc' },
        text: 'Summary.',
        meta: { anthropicBeta: 'compact-2026-09-04' },
      },
    ]); // A-P2
    expect(turn!.stopReason).toBe('pause_turn');
    expect(turn!.meta!.rawStopReason).toBe('compaction');
  });

  it('max_tokens inside tool JSON: the call is partial with its raw text, input {}', () => {
    const events = [
      start(),
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_9', name: 'write', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"path":"a.txt","body":"ab' },
      },
      { type: 'content_block_stop', index: 0 },
      ...end('max_tokens'),
    ];
    const [turn] = readAnthropicMessagesStreamEvents(events, ctx);
    expect(turn!.status).toBe('complete');
    expect(turn!.stopReason).toBe('max_tokens');
    expect(turn!.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_9',
        name: 'write',
        input: {},
        meta: { partial: true, rawArguments: '{"path":"a.txt","body":"ab' },
      },
    ]);
    expect(turn!.meta!.warnings).toEqual(['event 3: tool input of content[0] is not valid JSON']);
  });

  it('maps model_context_window_exceeded to max_tokens and unknown stop reasons to other, raw kept', () => {
    for (const [raw, mapped] of [
      ['model_context_window_exceeded', 'max_tokens'],
      ['stop_sequence', 'stop_sequence'],
      ['brand_new', 'other'],
    ] as const) {
      const [turn] = readAnthropicMessagesStreamEvents(
        [start(), ...end(raw, raw === 'stop_sequence' ? { stop_sequence: '###' } : {})],
        ctx,
      );
      expect(turn!.stopReason).toBe(mapped);
      expect(turn!.meta!.rawStopReason).toBe(raw);
      if (raw === 'stop_sequence') expect(turn!.meta!.stopSequence).toBe('###');
    }
  });

  it('records unusable events as warnings and never throws', () => {
    const a = createAnthropicMessagesStreamAssembler(ctx);
    a.push('garbage');
    a.push(start());
    a.push({ type: 'content_block_delta', index: 5, delta: { type: 'text_delta', text: 'x' } });
    a.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'x' } });
    a.push({ type: 'surprise' });
    a.push(start('claude-x', 'msg_2'));
    const turn = a.finish();
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([{ type: 'text', text: '' }]);
    expect(turn.meta!.warnings).toEqual([
      'event 0: not a stream event object',
      'event 2: content_block_delta for unknown index 5 ignored',
      'event 4: thinking_delta for a text block ignored',
      'event 5: unknown event type "surprise" ignored',
      'event 6: second message_start ignored (one assembler reads one message)',
    ]);
  });

  it('an error before any message gives an error turn attributed to the requested model', () => {
    const turns = readAnthropicMessagesStreamEvents(
      [{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
      {
        provider: 'anthropic',
        requestedModel: 'claude-sonnet-4-5',
      },
    );
    expect(turns).toEqual([
      {
        id: 'assistant',
        role: 'assistant',
        origin: origin('claude-sonnet-4-5'),
        status: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
        blocks: [],
        native: { api: API, payload: [] },
      },
    ]);
  });

  it('numbers turn ids when several messages share ctx.turnId', () => {
    const turns = readAnthropicMessagesStreamEvents(
      [start(), ...end('end_turn'), start('claude-x', 'msg_2'), ...end('end_turn')],
      { provider: 'anthropic', turnId: 'r' },
    );
    expect(turns.map((t) => t.id)).toEqual(['r-1', 'r-2']);
    expect(readAnthropicMessagesStreamEvents([], ctx)).toEqual([]);
  });
});

describe('readAnthropicMessagesResponse', () => {
  it('reads an error body into an error turn', () => {
    expect(
      readAnthropicMessagesResponse(
        { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
        { provider: 'anthropic', requestedModel: 'm' },
      ),
    ).toEqual({
      id: 'assistant',
      role: 'assistant',
      origin: origin('m'),
      status: 'error',
      error: { type: 'invalid_request_error', message: 'bad' },
      blocks: [],
    });
  });

  it('keeps unknown future block types as provider_item', () => {
    const turn = readAnthropicMessagesResponse(
      { id: 'msg_1', model: 'm', content: [{ type: 'hologram', x: 1 }], stop_reason: 'end_turn' },
      ctx,
    );
    expect(turn.blocks).toEqual([{ type: 'provider_item', api: API, item: { type: 'hologram', x: 1 } }]);
  });

  it.each([
    [null, '', 'expected an Anthropic Messages response object'],
    [{ id: 'm', model: 'm' }, 'content', 'required array missing'],
    [{ type: 'completion', content: [] }, 'type', 'expected "message", got "completion"'],
    [{ model: 'm', content: [{ type: 'text', text: 3 }] }, 'content[0].text', 'expected string, got 3'],
    [
      { model: 'm', content: [{ type: 'tool_use', name: 'f', input: {} }] },
      'content[0].id',
      'required field missing (expected string)',
    ],
    [{ model: 'm', content: [42] }, 'content[0]', 'expected object, got 42'],
  ])('rejects %j at %s', (response, path, problem) => {
    const run = () => readAnthropicMessagesResponse(response, ctx);
    expect(run).toThrow(TranscriptError);
    try {
      run();
    } catch (e) {
      expect({ path: (e as TranscriptError).path, problem: (e as TranscriptError).problem }).toEqual({ path, problem });
    }
  });
});
