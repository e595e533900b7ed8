import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { lookupModel } from '../../models/registry';
import { ReportBuilder } from '../../transcript/report';
import type { Block, Transcript } from '../../transcript/schema';
import { convertChecked, fatesOf } from '../convert.test-helper';
import {
  assistantDocuments,
  cacheControlOrder,
  noPrefill,
  toolChoiceFor,
  userCitations,
} from './convert-anthropic-messages-2026';
import {
  assistant,
  CLAUDE,
  convert,
  expectValid,
  text,
  transcript,
  user,
} from './convert-anthropic-messages.test-helper';
import type { AnthropicMessagesBody, DraftMessage } from './convert-anthropic-messages-types';
import { readAnthropicMessagesHistory } from './read-anthropic-messages-history';
import { readAnthropicMessagesResponse } from './read-anthropic-messages-response';
import { readAnthropicMessagesStreamEvents } from './read-anthropic-messages-stream';

const thinking = (t: string, signature: string): Block => ({ type: 'thinking', text: t, signature });
const on = (model: string) => ({ model, thinking: true, maxOutputTokens: 8000 });
const origin = (model: string) => ({ provider: 'anthropic', api: 'anthropic-messages' as const, model });
const emptyReport = () => new ReportBuilder(transcript([]));
const bytes = (v: unknown) => JSON.stringify(v);

/** Two exchanges with Claude thinking on the first answer. */
function thinkingTwice(model: string, meta?: Record<string, unknown>): Transcript {
  return transcript([
    user('u1', text('Plan a trip.')),
    assistant(
      'a1',
      origin(model),
      [thinking('Think about trains.', 'sig-a1'), text('Take the train.')],
      meta ? { meta } : {},
    ),
    user('u2', text('And back?')),
  ]);
}

describe('API version 2026-10-21 (A-V1..A-V5)', () => {
  it('A-V1: sampling parameters asked for are left out, with a warning', () => {
    const out = convertToAnthropicWith({ temperature: 0.2, top_k: 5 });
    for (const key of ['temperature', 'top_p', 'top_k']) expect(out.body).not.toHaveProperty(key);
    expect(out.report.warnings).toContain(
      'temperature left out: the API refuses sampling parameters under version 2026-10-21 (A-V1)',
    );
    expect(out.report.warnings).toContain(
      'top_k left out: the API refuses sampling parameters under version 2026-10-21 (A-V1)',
    );
    expectValid(out.body);
  });

  it('A-V2: a document never stays in an assistant message: plain text becomes text, anything else is dropped', () => {
    const report = new ReportBuilder(transcript([assistant('a', CLAUDE, [text('x'), text('y')])]));
    const messages: DraftMessage[] = [
      {
        role: 'user',
        blocks: [
          { block: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Kept in user.' } } },
        ],
      },
      {
        role: 'assistant',
        blocks: [
          {
            block: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Notes.' } },
            ref: { turn: 'a', index: 0 },
          },
          {
            block: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
            ref: { turn: 'a', index: 1 },
          },
        ],
      },
    ];
    const out = assistantDocuments(messages, report);
    expect(out[0]).toBe(messages[0]);
    expect(out[1]!.blocks.map((d) => d.block)).toEqual([{ type: 'text', text: 'Notes.' }]);
    const r = report.finish();
    expect(fatesOf(r, 'a', 0)[0]!.detail).toMatch(/A-V2/);
    expect(fatesOf(r, 'a', 1)[0]!.fate).toBe('dropped');
  });

  it('A-V2: a same-origin document item of an assistant turn is not replayed as a document', () => {
    const doc = {
      type: 'provider_item',
      api: 'anthropic-messages',
      item: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Spec' } },
      text: 'Spec',
    } as Block;
    const out = convert(
      transcript([user('u1', text('Hi')), assistant('a1', CLAUDE, [doc, text('Read it.')]), user('u2', text('Go on'))]),
    );
    const assistantTypes = out.body.messages
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => (m.content as { type: string }[]).map((b) => b.type));
    expect(assistantTypes).not.toContain('document');
    expectValid(out.body);
  });

  it('A-V3: user text never carries citations, directly or inside a search_result', () => {
    const cited = {
      type: 'text',
      text: 'Quoted.',
      citations: [
        { type: 'char_location', cited_text: 'Q', document_index: 0, start_char_index: 0, end_char_index: 1 },
      ],
    } as Block;
    const out = convert(transcript([user('u1', cited)]));
    expect(out.body.messages[0]!.content).toEqual([{ type: 'text', text: 'Quoted.' }]);
    expectValid(out.body);
    const report = new ReportBuilder(transcript([user('u', text('a'))]));
    const search = {
      type: 'search_result',
      source: 's',
      title: 't',
      content: [{ type: 'text', text: 'r', citations: [{ type: 'x' }] }],
    };
    const [m] = userCitations([{ role: 'user', blocks: [{ block: search, ref: { turn: 'u', index: 0 } }] }], report);
    expect(m!.blocks[0]!.block).toEqual({ ...search, content: [{ type: 'text', text: 'r' }] });
    expect(fatesOf(report.finish(), 'u', 0)[0]!.detail).toMatch(/A-V3/);
  });

  it('A-V4: a model without prefill never gets a request that ends on an assistant message', () => {
    const t = transcript([
      user('u1', text('Write a haiku.')),
      assistant('a1', origin('claude-opus-5'), [text('Autumn wind')], { status: 'interrupted' }),
    ]);
    for (const model of ['claude-opus-5', 'claude-sonnet-5-5', 'claude-fable-5-2']) {
      const out = convert(t, { model });
      expect(out.body.messages.at(-1)!.role, model).toBe('user');
      expect(validateFor(out.body)).toEqual([]);
    }
    const draft: DraftMessage[] = [
      { role: 'user', blocks: [{ block: { type: 'text', text: 'Hi' } }] },
      { role: 'assistant', blocks: [{ block: { type: 'text', text: 'Prefill' }, ref: { turn: 'a1', index: 0 } }] },
    ];
    const report = new ReportBuilder(t);
    expect(noPrefill(draft, lookupModel('claude-opus-5'), report)).toHaveLength(1);
    expect(fatesOf(report.finish(), 'a1', 0)[0]).toEqual({
      fate: 'dropped',
      detail: 'claude-opus-5 takes no prefill: the request may not end on an assistant message (A-V4)',
    });
    expect(noPrefill(draft, lookupModel('claude-opus-4-8'), emptyReport())).toBe(draft);
  });

  it('A-V5: adaptive thinking (never budget_tokens) on Opus 4.7+, Sonnet 5.x and Fable; no forced tool use on Sonnet 5.5', () => {
    for (const model of ['claude-opus-4-7', 'claude-opus-5', 'claude-sonnet-5-5', 'claude-fable-5-1']) {
      const out = convert(transcript([user('u1', text('Hi'))]), on(model));
      expect(out.body.thinking, model).toEqual({ type: 'adaptive' });
      expect(validateFor(out.body)).toEqual([]);
    }
    expect(convert(transcript([user('u1', text('Hi'))]), on('claude-haiku-4-5')).body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4000,
    });
    const report = emptyReport();
    expect(toolChoiceFor({ type: 'any' }, lookupModel('claude-sonnet-5-5'), report)).toEqual({ type: 'auto' });
    expect(report.finish().warnings).toEqual([
      'claude-sonnet-5-5 refuses forced tool use: tool_choice any sent as auto (A-V5)',
    ]);
    expect(toolChoiceFor({ type: 'tool', name: 'x' }, lookupModel('claude-sonnet-5'), emptyReport())).toEqual({
      type: 'tool',
      name: 'x',
    });
  });
});

describe('preserved thinking (A-B1..A-B6)', () => {
  it('A-B1: thinking of another Claude model is dropped and reported, even one the target might read', () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', origin('claude-opus-5'), [thinking('T', 'sig'), text('A')]),
      user('u2', text('Q2')),
    ]);
    const out = convert(t, on('claude-fable-5-1'));
    expect(bytes(out.body.messages)).not.toContain('sig');
    expect(fatesOf(out.report, 'a1', 0)[0]!.fate).toBe('dropped');
  });

  it('A-B2 (X9): converting twice, or with one more turn, gives the same bytes for every earlier message', () => {
    const t = thinkingTwice('claude-opus-5');
    const a = convert(t, on('claude-opus-5'));
    const b = convert(t, on('claude-opus-5'));
    expect(bytes(a.body)).toBe(bytes(b.body));
    const longer = transcript([
      ...t.turns,
      assistant('a2', origin('claude-opus-5'), [text('Same way.')]),
      user('u3', text('Thanks')),
    ]);
    const c = convert(longer, on('claude-opus-5'));
    expect(bytes(c.body.messages.slice(0, a.body.messages.length - 1))).toBe(bytes(a.body.messages.slice(0, -1)));
    expect(bytes(c.body.messages[a.body.messages.length - 1])).toBe(bytes(a.body.messages.at(-1)));
  });

  it('A-B3: replayed thinking goes with drop_block and the beta header; not when the policy says error, nor without replayed thinking', () => {
    const out = convert(thinkingTwice(CLAUDE.model), on(CLAUDE.model));
    expect(out.body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4000,
      block_binding: { prefix_mismatch_behavior: 'drop_block' },
    });
    expect(out.headers).toEqual({ 'anthropic-beta': 'thinking-binding-controls-2026-08-01' });
    expectValid(out.body);
    const strict = convert(thinkingTwice(CLAUDE.model), { ...on(CLAUDE.model), prefixMismatchBehavior: 'error' });
    expect(strict.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(strict.headers).toBeUndefined();
    const fresh = convert(transcript([user('u1', text('Hi'))]), on(CLAUDE.model));
    expect(fresh.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(fresh.headers).toBeUndefined();
    // Thinking off: the field does not exist for `disabled`.
    expect(convert(thinkingTwice(CLAUDE.model)).headers).toBeUndefined();
  });

  it("A-B4: thinking imported from Claude Code or claude.ai is never sent as thinking; Baton's own later answers keep theirs", () => {
    const imported = transcript(
      [
        user('u1', text('Q')),
        assistant('a1', CLAUDE, [thinking('Imported.', 'sig-imported'), text('A')]),
        user('u2', text('Q2')),
        assistant('a2', CLAUDE, [thinking('Mine.', 'sig-mine'), text('B')], { meta: { responseId: 'msg_1' } }),
        user('u3', text('Q3')),
      ],
      { source: { kind: 'claude-code' } },
    );
    const out = convert(imported, on(CLAUDE.model));
    expect(bytes(out.body.messages)).not.toContain('sig-imported');
    expect(bytes(out.body.messages)).toContain('sig-mine');
    expect(fatesOf(out.report, 'a1', 0)[0]!.detail).toMatch(/A-B4/);
    const marked = convert(thinkingTwice(CLAUDE.model, { importedFrom: 'claude-web' }), on(CLAUDE.model));
    expect(bytes(marked.body.messages)).not.toContain('sig-a1');
    expectValid(out.body);
  });

  it('A-B5: a block the API reported dropped is not sent again (path mapped through the request that produced the answer)', () => {
    const first = thinkingTwice(CLAUDE.model);
    const request = convert(first, on(CLAUDE.model));
    // messages[1] is a1's assistant message; its content[0] is the thinking block.
    expect((request.body.messages[1]!.content as { type: string }[])[0]!.type).toBe('thinking');
    const answer = readAnthropicMessagesResponse(
      {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: CLAUDE.model,
        content: [{ type: 'text', text: 'Train again.' }],
        stop_reason: 'end_turn',
        input_transformations: [
          { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
        ],
        usage: { input_tokens: 5, output_tokens: 3 },
      },
      { provider: 'anthropic', turnId: 'a2' },
    );
    expect(answer.meta?.inputTransformations).toEqual([
      { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
    ]);
    const next = transcript([...first.turns, answer, user('u3', text('Thanks'))]);
    const out = convert(next, on(CLAUDE.model));
    expect(bytes(out.body.messages)).not.toContain('sig-a1');
    expect(fatesOf(out.report, 'a1', 0)[0]!.detail).toMatch(
      /dropped this block from an earlier request \(prefix_binding_mismatch, answer a2\).*A-B5/,
    );
    expectValid(out.body);
  });

  it('A-B5: blocks placed on the answer against the body sent win over its paths (a send that left turns out)', () => {
    // Two Claude answers with thinking; the send that produced a3 left a1's exchange out, so its
    // messages.1.content.0 was a2's thinking, not a1's. Re-converting the turns before a3 would
    // place the path on a1; the placement stored when the answer came in names a2.
    const turns = [
      ...thinkingTwice(CLAUDE.model).turns,
      assistant('a2', origin(CLAUDE.model), [thinking('Think about return trains.', 'sig-a2'), text('Same train.')]),
      user('u3', text('Cheaper?')),
    ];
    const placed = [{ turn: 'a2', index: 0, reason: 'prefix_binding_mismatch' }];
    const answer = assistant('a3', origin(CLAUDE.model), [text('Bus.')], {
      meta: {
        inputTransformations: [
          { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
        ],
        droppedThinking: placed,
      },
    });
    const out = convert(transcript([...turns, answer, user('u4', text('Thanks'))]), on(CLAUDE.model));
    expect(bytes(out.body.messages)).toContain('sig-a1');
    expect(bytes(out.body.messages)).not.toContain('sig-a2');
    expect(fatesOf(out.report, 'a2', 0)[0]!.detail).toMatch(/answer a3\).*A-B5/);
    expectValid(out.body);
    // Without the placement the path is mapped through the full history: a1's block instead.
    const { droppedThinking: _, ...pathsOnly } = answer.meta!;
    const byPath = convert(
      transcript([...turns, { ...answer, meta: pathsOnly }, user('u4', text('Thanks'))]),
      on(CLAUDE.model),
    );
    expect(bytes(byPath.body.messages)).not.toContain('sig-a1');
  });

  it('A-B5: the stream reader keeps input_transformations from message_start, replaced by a final message_delta that carries them', () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_s',
        type: 'message',
        role: 'assistant',
        model: CLAUDE.model,
        content: [],
        input_transformations: [],
      },
    };
    const stop = [
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
      { type: 'message_stop' },
    ];
    const [plain] = readAnthropicMessagesStreamEvents([start, ...stop], { provider: 'anthropic' });
    expect(plain!.meta?.inputTransformations).toEqual([]);
    const fallback = [{ type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'model_binding_mismatch' }];
    const [after] = readAnthropicMessagesStreamEvents(
      [start, { ...stop[0], input_transformations: fallback }, stop[1]],
      { provider: 'anthropic' },
    );
    expect(after!.meta?.inputTransformations).toEqual(fallback);
  });

  it('A-B6: a signed thinking block with empty text (display: omitted) replays unchanged, native or rebuilt', () => {
    const omitted = { type: 'thinking', thinking: '', signature: 'sig-omitted' };
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', CLAUDE, [{ type: 'thinking', text: '', signature: 'sig-omitted' }, text('A')], {
        native: { api: 'anthropic-messages', payload: [omitted, { type: 'text', text: 'A' }] },
      }),
      user('u2', text('Q2')),
      assistant('a2', CLAUDE, [{ type: 'thinking', text: '', signature: 'sig-omitted-2' }, text('B')]),
      user('u3', text('Q3')),
    ]);
    const out = convert(t, on(CLAUDE.model));
    expect((out.body.messages[1]!.content as unknown[])[0]).toEqual(omitted);
    expect((out.body.messages[3]!.content as unknown[])[0]).toEqual({
      type: 'thinking',
      thinking: '',
      signature: 'sig-omitted-2',
    });
    expectValid(out.body);
  });
});

describe('mid-conversation system, compaction, server tools, caching (A-M1, A-P1, A-P2, A-S1, A-S2)', () => {
  const history = {
    model: 'claude-opus-4-8',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'From now on answer in French.' },
      { role: 'assistant', content: 'Bonjour.' },
      { role: 'user', content: 'Merci' },
    ],
  };

  it('A-M1: a system message read from a history is a system message again on Opus 4.8+, labelled user text elsewhere', () => {
    const t = readAnthropicMessagesHistory(history);
    const newer = convert(t, { model: 'claude-opus-4-8' });
    expect(newer.body.messages.map((m) => m.role)).toEqual(['user', 'system', 'assistant', 'user']);
    expect(newer.body.messages[1]).toEqual({ role: 'system', content: 'From now on answer in French.' });
    expect(validateFor(newer.body)).toEqual([]);
    const older = convert(t, { model: 'claude-sonnet-4-6' });
    expect(older.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(bytes(older.body.messages[0])).toContain('[System message]');
    expect(validateFor(older.body)).toEqual([]);
    const gpt = convertChecked('openai-chat', t, 'gpt-4.1');
    expect(bytes(gpt.body.messages)).toContain('[System message]');
    expect(gpt.body.messages.some((m: { role: string }, i: number) => m.role === 'system' && i > 0)).toBe(false);
  });

  const compaction = {
    type: 'compaction',
    content: 'Earlier: planned a trip to Oslo.',
    encrypted_content: 'ENC-SECRET',
    signature: 'SIG-SECRET',
  };
  const compacted = () =>
    transcript([
      user('u1', text('Plan Oslo.')),
      assistant('a1', CLAUDE, [text('Sure.')]),
      user('u2', text('Compact, please.')),
      assistant('a2', CLAUDE, [
        {
          type: 'provider_item',
          api: 'anthropic-messages',
          item: compaction,
          text: compaction.content,
          meta: { anthropicBeta: 'compact-2026-09-04' },
        },
      ]),
      user('u3', text('Now the hotel?')),
    ]);

  it('A-P1: the compaction block opens the history, with no synthetic user turn before it; the turns it summarises go', () => {
    const out = convert(compacted());
    expect(out.body.messages[0]).toEqual({ role: 'assistant', content: [compaction] });
    expect(out.body.messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Now the hotel?' }] });
    expect(out.report.synthesized).toEqual([]);
    for (const turn of ['u1', 'a1', 'u2']) expect(fatesOf(out.report, turn, 0)[0]!.detail).toMatch(/A-P1/);
    expect(validateFor(out.body)).toEqual([]);
  });

  it('A-P2: a replayed compaction block brings its beta header; a block without content is dropped', () => {
    expect(convert(compacted()).headers).toEqual({ 'anthropic-beta': 'compact-2026-09-04' });
    const failed = transcript([
      user('u1', text('Q')),
      assistant('a1', CLAUDE, [
        { type: 'provider_item', api: 'anthropic-messages', item: { type: 'compaction', content: null } },
        text('A'),
      ]),
      user('u2', text('Q2')),
    ]);
    const out = convert(failed);
    expect(bytes(out.body)).not.toContain('compaction');
    expect(out.headers).toBeUndefined();
    expect(fatesOf(out.report, 'a1', 0)).toEqual([
      {
        fate: 'dropped',
        detail: 'compaction block without content: compaction failed and there is nothing to replay (A-P2)',
      },
    ]);
  });

  it('A-P2: every other target gets the summary as labelled user text, never encrypted_content or the signature', () => {
    for (const [api, model] of [
      ['openai-chat', 'gpt-4.1'],
      ['openai-responses', 'gpt-5.5'],
      ['gemini-generate-content', 'gemini-2.5-flash'],
    ] as const) {
      const out = convertChecked(api, compacted(), model);
      const json = bytes(out.body);
      expect(json, api).toContain('Summary of the earlier conversation');
      expect(json, api).not.toMatch(/ENC-SECRET|SIG-SECRET/);
      expect(fatesOf(out.report, 'a2', 0)[0]!.detail).toMatch(/labelled user text \(A-P2\)/);
    }
    const other = convert(compacted(), { model: 'claude-opus-5' });
    expect(other.body.messages[0]!.role).toBe('user');
    expect(bytes(other.body)).not.toMatch(/ENC-SECRET|SIG-SECRET/);
  });

  it('A-S1: server tool blocks replay verbatim to their origin only, call before result, ids unmapped; elsewhere as labelled text', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_01ABC', name: 'web_search', input: { query: 'oslo hotels' } };
    const result = {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01ABC',
      content: [{ type: 'web_search_result', url: 'https://h.example', title: 'Hotel', encrypted_content: 'ENC-PAGE' }],
    };
    const t = transcript([
      user('u1', text('Find hotels')),
      assistant('a1', CLAUDE, [
        { type: 'provider_item', api: 'anthropic-messages', item: use, text: '[web_search] {"query":"oslo hotels"}' },
        { type: 'provider_item', api: 'anthropic-messages', item: result, text: 'Hotel https://h.example' },
        text('Found one.'),
      ]),
      user('u2', text('Book it')),
    ]);
    const same = convert(t);
    expect(same.body.messages[1]!.content).toEqual([use, result, { type: 'text', text: 'Found one.' }]);
    expectValid(same.body);
    const other = convert(t, { model: 'claude-opus-5' });
    expect(bytes(other.body)).not.toContain('ENC-PAGE');
    expect(fatesOf(other.report, 'a1', 1)[0]!.fate).toBe('converted');
    const gpt = convertChecked('openai-responses', t, 'gpt-5.5');
    expect(bytes(gpt.body)).not.toContain('ENC-PAGE');
  });

  it('A-S2: replayed cache_control keeps at most 4 breakpoints and never a 1h entry after a 5m one', () => {
    const block = (ttl?: string) => ({
      type: 'text',
      text: 'x',
      cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' },
    });
    const body: AnthropicMessagesBody = {
      model: 'm',
      max_tokens: 1,
      stream: true,
      messages: [{ role: 'user', content: [block('1h'), block(), block('1h'), block(), block(), block()] }],
    };
    const report = emptyReport();
    cacheControlOrder(body, report);
    const ttls = (body.messages[0]!.content as { cache_control?: { ttl?: string } }[]).map((b) =>
      b.cache_control ? (b.cache_control.ttl ?? '5m') : '-',
    );
    expect(ttls).toEqual(['1h', '5m', '-', '5m', '5m', '-']);
    expect(report.finish().warnings[0]).toMatch(/A-S2/);
  });
});

/** Converts the default transcript with sampling fields a caller might pass (A-V1). */
function convertToAnthropicWith(extra: Record<string, unknown>) {
  return convert(transcript([user('u1', text('Hi'))]), extra as never);
}

/** The contract validator's verdict on a body (its model-specific rules read `body.model`). */
function validateFor(body: AnthropicMessagesBody) {
  return validateRequest('anthropic-messages', body);
}
