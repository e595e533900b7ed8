import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTurn } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import type { ReadContext } from '../types';
import {
  createOpenAIResponsesStreamAssembler,
  readOpenAIResponsesResponse,
  readOpenAIResponsesStreamEvents,
} from './read-openai-responses';

const ctx: ReadContext = { provider: 'openai', requestedModel: 'gpt-5.5' };
const resp = (status: string, output: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  id: 'resp_1',
  object: 'response',
  status,
  model: 'gpt-5.5-2026-04-23',
  output,
  ...extra,
});

function run(events: unknown[], c: ReadContext = ctx): Turn {
  const a = createOpenAIResponsesStreamAssembler(c);
  for (const e of events) a.push(e);
  return decodeTurn(a.finish());
}

describe('createOpenAIResponsesStreamAssembler (synthetic streams)', () => {
  const commentary = {
    id: 'msg_a',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    phase: 'commentary',
    content: [{ type: 'output_text', text: 'Looking it up.', annotations: [] }],
  };
  const cite = { type: 'url_citation', start_index: 0, end_index: 4, url: 'https://example.com', title: 'Ex' };
  const finalMsg = {
    id: 'msg_b',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    phase: 'final_answer',
    content: [{ type: 'output_text', text: 'Done.', annotations: [cite] }],
  };

  it('keeps several message items as separate text blocks with their phase; annotations become citations', () => {
    const events = [
      { type: 'response.created', response: resp('in_progress') },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...commentary, status: 'in_progress', content: [] },
      },
      {
        type: 'response.content_part.added',
        output_index: 0,
        item_id: 'msg_a',
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_a', content_index: 0, delta: 'Looking ' },
      { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_a', content_index: 0, delta: 'it up.' },
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { ...finalMsg, status: 'in_progress', content: [] },
      },
      { type: 'response.output_text.delta', item_id: 'msg_b', content_index: 0, delta: 'Done.' },
      {
        type: 'response.output_text.annotation.added',
        item_id: 'msg_b',
        content_index: 0,
        annotation_index: 0,
        annotation: cite,
      },
    ];
    const a = createOpenAIResponsesStreamAssembler(ctx);
    events.forEach((e) => a.push(e));
    const snap = decodeTurn(a.snapshot());
    const blocks = [
      { type: 'text', text: 'Looking it up.', meta: { itemId: 'msg_a', phase: 'commentary' } },
      { type: 'text', text: 'Done.', citations: [cite], meta: { itemId: 'msg_b', phase: 'final_answer' } },
    ];
    expect(snap.status).toBe('streaming');
    expect(snap.blocks).toEqual(blocks);
    a.push({ type: 'response.output_item.done', output_index: 0, item: commentary });
    a.push({ type: 'response.output_item.done', output_index: 1, item: finalMsg });
    a.push({
      type: 'response.completed',
      response: resp('completed', [commentary, finalMsg], { usage: { input_tokens: 5, output_tokens: 7 } }),
    });
    expect(a.done).toBe(true);
    const turn = a.finish();
    expect(turn).toEqual({
      id: 'resp_1',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5-2026-04-23', requestedModel: 'gpt-5.5' },
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 5, outputTokens: 7 },
      blocks,
      native: { api: 'openai-responses', payload: [commentary, finalMsg] },
      meta: { responseId: 'resp_1', rawStopReason: 'completed' },
    });
    expect(
      readOpenAIResponsesResponse(
        resp('completed', [commentary, finalMsg], { usage: { input_tokens: 5, output_tokens: 7 } }),
        ctx,
      ),
    ).toEqual(turn);
  });

  it('drops the encrypted_content of an unfinished reasoning item (R-K3) and keeps its summary as partial thinking', () => {
    const turn = run([
      { type: 'response.created', response: resp('in_progress') },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAA-incomplete' },
      },
      {
        type: 'response.reasoning_summary_text.delta',
        output_index: 0,
        item_id: 'rs_1',
        summary_index: 0,
        delta: 'Plan',
      },
      {
        type: 'response.reasoning_summary_text.delta',
        output_index: 0,
        item_id: 'rs_1',
        summary_index: 1,
        delta: 'Check',
      },
    ]);
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([{ type: 'thinking', text: 'Plan\n\nCheck', meta: { itemId: 'rs_1', partial: true } }]);
    expect(turn.native!.payload).toEqual([
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [
          { type: 'summary_text', text: 'Plan' },
          { type: 'summary_text', text: 'Check' },
        ],
      },
    ]);
  });

  it('a streamed refusal gives stopReason refusal', () => {
    const item = {
      id: 'msg_r',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'refusal', refusal: 'No.' }],
    };
    const turn = run([
      { type: 'response.created', response: resp('in_progress') },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.refusal.delta', output_index: 0, content_index: 0, delta: 'No.' },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: resp('completed', [item]) },
    ]);
    expect(turn.stopReason).toBe('refusal');
    expect(turn.blocks).toEqual([{ type: 'text', text: 'No.', meta: { itemId: 'msg_r', refusal: true } }]);
  });

  it('never throws on malformed events; lists them in meta.warnings; ignores events after the end', () => {
    const a = createOpenAIResponsesStreamAssembler(ctx);
    expect(() => {
      a.push(null);
      a.push('{');
      a.push({ delta: 'x' });
      a.push(JSON.parse('{"type":"response.output_text.delta","__proto__":{"x":1}}'));
      a.push({ type: 'response.output_text.delta', output_index: 7, delta: 'orphan' });
      a.push({ type: 'response.completed', response: resp('completed') });
      a.push({
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'late' }] },
      });
    }).not.toThrow();
    const turn = decodeTurn(a.finish());
    expect(turn.blocks).toEqual([]);
    expect(turn.status).toBe('complete');
    expect(turn.meta!.warnings).toEqual([
      'event 0: expected an object, got null',
      'event 1: not JSON',
      'event 2: no type',
      'event 3: ignored, __proto__: forbidden key',
    ]);
  });

  it('an error event before any output: error turn without blocks or native', () => {
    expect(run([{ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null }])).toEqual({
      id: 'assistant',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
      status: 'error',
      error: { type: 'rate_limit_exceeded', message: 'Slow down' },
      blocks: [],
    });
  });
});

describe('readOpenAIResponsesStreamEvents', () => {
  it('splits at each response.created and suffixes a given turn id', () => {
    const one = (id: string, status: string) => [
      { type: 'response.created', response: { ...resp('in_progress'), id } },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { id: `m_${id}`, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: id }] },
      },
      ...(status ? [{ type: `response.${status}`, response: { ...resp(status), id } }] : []),
    ];
    const turns = readOpenAIResponsesStreamEvents(
      [...one('a', 'completed'), ...one('b', ''), ...one('c', 'incomplete')],
      { provider: 'openai', turnId: 'x' },
    );
    expect(
      turns.map((t) => [
        t.id,
        t.status,
        t.meta?.responseId,
        t.blocks[0]?.type === 'text' ? t.blocks[0].text : undefined,
      ]),
    ).toEqual([
      ['x-1', 'complete', 'a', 'a'],
      ['x-2', 'interrupted', 'b', 'b'],
      ['x-3', 'complete', 'c', 'c'],
    ]);
  });
});

describe('readOpenAIResponsesResponse (synthetic)', () => {
  it('a failed response is an error turn with the output so far', () => {
    const item = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Part' }] };
    const turn = readOpenAIResponsesResponse(
      resp('failed', [item], { error: { code: 'server_error', message: 'Oops' } }),
      ctx,
    );
    expect(turn).toMatchObject({
      status: 'error',
      error: { type: 'server_error', message: 'Oops' },
      blocks: [{ type: 'text', text: 'Part' }],
      meta: { rawStopReason: 'failed' },
    });
    expect(turn.stopReason).toBeUndefined();
  });

  it('a cancelled response is stopped; an error body is an error turn', () => {
    expect(readOpenAIResponsesResponse(resp('cancelled'), ctx).status).toBe('stopped');
    expect(readOpenAIResponsesResponse({ error: { code: 'invalid_prompt', message: 'Bad' } }, ctx)).toMatchObject({
      status: 'error',
      error: { type: 'invalid_prompt', message: 'Bad' },
      blocks: [],
    });
  });

  it.each([
    ['not an object', null, ctx, '', /expected object/],
    ['no output', { id: 'r', model: 'm' }, ctx, 'output', /required field missing/],
    ['item without type', resp('completed', [{ id: 'x' }]), ctx, 'output[0].type', /required field missing/],
    [
      'function call without call_id',
      resp('completed', [{ type: 'function_call', name: 'f', arguments: '{}' }]),
      ctx,
      'output[0].call_id',
      /required field missing/,
    ],
    [
      'message content not an array',
      resp('completed', [{ type: 'message', role: 'assistant', content: 5 }]),
      ctx,
      'output[0].content',
      /expected array/,
    ],
    ['no model anywhere', { id: 'r', output: [] }, { provider: 'openai' }, 'model', /no model/],
  ])('%s → TranscriptError at %j', (_n, body, c, path, problem) => {
    let err: unknown;
    try {
      readOpenAIResponsesResponse(body, c);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TranscriptError);
    expect((err as TranscriptError).path).toBe(path);
    expect((err as TranscriptError).problem).toMatch(problem);
  });
});
