import { describe, expect, it } from 'vitest';
import type { Block } from '../../transcript/schema';
import {
  assistant,
  CLAUDE,
  convert,
  expectValid,
  GEMINI,
  GPT,
  kept,
  MODEL,
  OTHER_CLAUDE,
  reportOf,
  text,
  tool,
  transcript,
  user,
} from './convert-anthropic-messages.test-helper';

const REPLAYED = { fate: 'replayed-native', detail: 'same-origin content replayed verbatim (A-K1)' };
const replayed = (turn: string, index: number) => ({ turn, index, fates: [REPLAYED] });

describe('same-origin replay', () => {
  const nativeContent = [
    { type: 'thinking', thinking: 'Look it up.', signature: 'sig-A' },
    { type: 'text', text: 'Checking.', citations: null },
    { type: 'tool_use', id: 'toolu_01', name: 'lookup', input: { q: 'x' }, caller: { type: 'direct' } },
  ];
  const blocks: Block[] = [
    { type: 'thinking', text: 'Look it up.', signature: 'sig-A' },
    { type: 'text', text: 'Checking.' },
    { type: 'tool_call', id: 'toolu_01', name: 'lookup', input: { q: 'x' } },
  ];
  const loop = (origin = CLAUDE) =>
    transcript(
      [
        user('u1', text('Find x')),
        assistant('a1', origin, blocks, { native: { api: 'anthropic-messages', payload: nativeContent } }),
        tool('t1', { type: 'tool_result', callId: 'toolu_01', content: 'x=1' }),
      ],
      { tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] },
    );

  it('sends the native content verbatim and reports every block replayed-native', () => {
    const out = convert(loop());
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Find x' }] },
      { role: 'assistant', content: nativeContent },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'x=1' }] },
    ]);
    expect(out.report).toEqual({
      ...reportOf(3, 5),
      blocks: [kept('u1'), replayed('a1', 0), replayed('a1', 1), replayed('a1', 2), kept('t1')],
    });
    expectValid(out.body);
  });

  it('matches the origin by requestedModel as well as model', () => {
    const out = convert(loop({ ...CLAUDE, model: 'claude-sonnet-4-5-20250929', requestedModel: MODEL }));
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: nativeContent });
  });

  it('keeps the loop thinking when the native content starts with thinking (A-K2)', () => {
    const out = convert(loop(), { thinking: true, maxOutputTokens: 8000 });
    expect(out.body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4000,
      block_binding: { prefix_mismatch_behavior: 'drop_block' },
    }); // A-B3
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: nativeContent });
    expect(out.report.warnings).toEqual([]);
    expectValid(out.body);
  });

  it('accepts a string payload as one text block', () => {
    const t = transcript([
      user('u1', text('Hi')),
      assistant('a1', CLAUDE, [text('Hello.')], { native: { api: 'anthropic-messages', payload: 'Hello.' } }),
      user('u2', text('Bye')),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
    expect(out.report.blocks[1]).toEqual(replayed('a1', 0));
  });

  it('rebuilds from the blocks, with a warning, when the payload is not a content array', () => {
    const t = transcript([
      user('u1', text('Hi')),
      assistant('a1', CLAUDE, [text('Hello.')], {
        native: { api: 'anthropic-messages', payload: { content: 'Hello.' } },
      }),
      user('u2', text('Bye')),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
    expect(out.report.blocks[1]).toEqual(kept('a1'));
    expect(out.report.warnings).toEqual([
      'turn a1: its native payload is not an Anthropic content array; rebuilt from its blocks',
    ]);
  });
});

describe('cross-origin', () => {
  it("drops another Claude model's thinking, redacted thinking, citations and server-tool items (X3, A-K5, A-C1)", () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', OTHER_CLAUDE, [
        { type: 'thinking', text: 'hmm', signature: 'sig-other' },
        { type: 'redacted_thinking', data: 'opaque' },
        {
          type: 'provider_item',
          api: 'anthropic-messages',
          item: { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: {} },
        },
        { type: 'text', text: 'Answer.', citations: [{ type: 'char_location', document_index: 0 }] },
      ]),
      user('u2', text('More')),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Answer.' }] },
      { role: 'user', content: [{ type: 'text', text: 'More' }] },
    ]);
    const other = 'anthropic/claude-opus-4-1-20250805 (anthropic-messages)';
    expect(out.report.blocks).toEqual([
      kept('u1'),
      {
        turn: 'a1',
        index: 0,
        fates: [
          { fate: 'dropped', detail: `reasoning from ${other} cannot be replayed to another model (X3, A-K6, R-K6)` },
        ],
      },
      {
        turn: 'a1',
        index: 1,
        fates: [{ fate: 'dropped', detail: `redacted thinking is opaque state of ${other} (X3)` }],
      },
      {
        turn: 'a1',
        index: 2,
        fates: [{ fate: 'dropped', detail: `anthropic-messages item has no meaning outside ${other}` }],
      },
      { turn: 'a1', index: 3, fates: [{ fate: 'converted', detail: 'citations dropped, text kept (A-C1, G-C1)' }] },
      kept('u2'),
    ]);
    expectValid(out.body);
  });

  it('sends foreign reasoning as labelled text when asked, never as thinking (A-K6)', () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', GPT, [{ type: 'thinking', text: 'Plan.', signature: 'gAAAA-enc' }, text('A.')]),
      user('u2', text('More')),
    ]);
    const out = convert(t, { foreignReasoning: 'text' });
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: '[Reasoning by openai/gpt-5.5 (openai-responses), shared as plain text]\n```\nPlan.\n```',
        },
        { type: 'text', text: 'A.' },
      ],
    });
    expectValid(out.body);
  });

  it("strips a Gemini call's signature and maps nothing else (X3, G-K5)", () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', GEMINI, [
        { type: 'tool_call', id: 'call_1', name: 'lookup', input: { q: 1 }, signature: 'c2ln' },
      ]),
      tool('t1', { type: 'tool_result', callId: 'call_1', content: '1' }),
      assistant('a2', GEMINI, [text('One.')]),
      user('u2', text('Thanks')),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Q' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 1 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '1' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'One.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
    expect(out.report.blocks[1]).toEqual({
      turn: 'a1',
      index: 0,
      fates: [
        {
          fate: 'converted',
          detail: 'signature dropped: opaque state of google/gemini-3-pro-preview (gemini-generate-content) (X3, G-K5)',
        },
      ],
    });
    expectValid(out.body);
  });
});

describe('thinking', () => {
  const hi = () => transcript([user('u1', text('Hi'))]);

  it('asks for a budget of half of max_tokens on a budget model', () => {
    const out = convert(hi(), { thinking: true, maxOutputTokens: 8000 });
    expect(out.body).toEqual({
      model: MODEL,
      max_tokens: 8000,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: 4000 },
    });
    expectValid(out.body);
  });

  it('asks for adaptive thinking on an adaptive model', () => {
    const out = convert(hi(), { model: 'claude-opus-4-6', thinking: true });
    expect(out.body.thinking).toEqual({ type: 'adaptive' });
  });

  it('switches thinking off, with a warning, when max_tokens leaves no room for a budget', () => {
    const out = convert(hi(), { thinking: true, maxOutputTokens: 1024 });
    expect(out.body.thinking).toBeUndefined();
    expect(out.report.warnings).toEqual([
      'thinking off: max_tokens 1024 leaves no room for the minimum thinking budget of 1024 tokens',
    ]);
  });

  it('switches thinking off, with a warning, for a model without a thinking control', () => {
    const out = convert(hi(), { model: 'claude-3-5-haiku-20241022', thinking: true });
    expect(out.body.thinking).toBeUndefined();
    expect(out.report.warnings).toEqual([
      'thinking off: the model registry lists no Anthropic thinking control for claude-3-5-haiku-20241022',
    ]);
  });

  it('switches thinking off when the last assistant message of a tool loop cannot start with thinking (A-K2)', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', GPT, [
        { type: 'thinking', text: 'plan', signature: 'enc' },
        { type: 'tool_call', id: 'call_1', name: 'run', input: {} },
      ]),
      tool('t1', { type: 'tool_result', callId: 'call_1', content: 'done' }),
    ]);
    const out = convert(t, { thinking: true, maxOutputTokens: 8000 });
    expect(out.body.thinking).toBeUndefined();
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_1', name: 'run', input: {} }],
    });
    expect(out.report.warnings).toEqual([
      'thinking off for this request: a tool loop is in progress and its last assistant message does not start with a thinking block from this model (A-K2)',
    ]);
    expectValid(out.body);
  });

  it('keeps thinking on when the tool loop is over', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', GPT, [{ type: 'tool_call', id: 'call_1', name: 'run', input: {} }]),
      tool('t1', { type: 'tool_result', callId: 'call_1', content: 'done' }),
      assistant('a2', GPT, [text('Done.')]),
      user('u2', text('Next')),
    ]);
    const out = convert(t, { thinking: true, maxOutputTokens: 8000 });
    expect(out.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(out.report.warnings).toEqual([]);
    expectValid(out.body);
  });

  it('drops thinking from a merged assistant message that does not start with it (A-K3)', () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', GPT, [text('First part.')]),
      assistant('a2', CLAUDE, [{ type: 'thinking', text: 'More.', signature: 'sig' }, text('Second part.')]),
      user('u2', text('Ok')),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'First part.' },
        { type: 'text', text: 'Second part.' },
      ],
    });
    expect(out.report.blocks[2]).toEqual({
      turn: 'a2',
      index: 0,
      fates: [
        {
          fate: 'dropped',
          detail:
            'thinking dropped: the message does not start with thinking once merged with the turn before it (A-K3)',
        },
      ],
    });
    expectValid(out.body);
  });

  it('warns that a model which always thinks cannot have thinking switched off', () => {
    const out = convert(hi(), { model: 'claude-opus-5-5' });
    expect(out.body.thinking).toBeUndefined();
    expect(out.report.warnings).toEqual(['claude-opus-5-5 always thinks: thinking cannot be switched off for it']);
  });
});

describe('empty opaque values', () => {
  it('drops same-origin redacted thinking whose data is empty: there is nothing to replay (A-K1)', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [{ type: 'redacted_thinking', data: '' }, text('answer')]),
      user('u2', text('q')),
    ]);
    const out = convert(t);
    expect(out).toEqual({
      api: 'anthropic-messages',
      model: MODEL,
      body: {
        model: MODEL,
        max_tokens: 1000,
        stream: true,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
        ],
      },
      report: {
        ...reportOf(3, 4),
        blocks: [
          kept('u1'),
          {
            turn: 'a1',
            index: 0,
            fates: [{ fate: 'dropped', detail: 'redacted thinking with empty data has nothing to replay (A-K1)' }],
          },
          kept('a1', 1),
          kept('u2'),
        ],
      },
    });
    expectValid(out.body);
  });
});
