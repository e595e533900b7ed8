import { describe, expect, it } from 'vitest';
import type { Block } from '../../transcript/schema';
import {
  assistant,
  CLAUDE,
  convert,
  expectValid,
  kept,
  MODEL,
  reportOf,
  text,
  tool,
  transcript,
  user,
} from './convert-anthropic-messages.test-helper';

const item = (i: Record<string, unknown>, t?: string): Block => ({
  type: 'provider_item',
  api: 'anthropic-messages',
  item: i,
  ...(t !== undefined ? { text: t } : {}),
});
const base = { model: MODEL, max_tokens: 1000, stream: true } as const;

describe('same-origin provider items that are not Anthropic assistant blocks (A-R1)', () => {
  it('drops an item of an unknown type that has no text, and says so', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [text('a'), item({ type: 'web_search_call', id: 'ws_1' })]),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out).toEqual({
      api: 'anthropic-messages',
      model: MODEL,
      body: {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
          { role: 'user', content: [{ type: 'text', text: 'next' }] },
        ],
      },
      report: {
        ...reportOf(3, 4),
        blocks: [
          kept('u1'),
          kept('a1', 0),
          {
            turn: 'a1',
            index: 1,
            fates: [
              {
                fate: 'dropped',
                detail:
                  'item not replayed ("web_search_call" is not a content block type of an assistant message (A-R1)) and has no text',
              },
            ],
          },
          kept('u2'),
        ],
      },
    });
    expectValid(out.body);
  });

  it('sends the text of an unknown or malformed item, fenced and labelled', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [
        item({ type: 'web_search_call', id: 'ws_1' }, 'searched: x'),
        item({ type: 'server_tool_use', id: 'bad id', name: 'web_search', input: {} }, 'search x'),
      ]),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: '[anthropic-messages web_search_call item, as text]\n```\nsearched: x\n```' },
        { type: 'text', text: '[anthropic-messages server_tool_use item, as text]\n```\nsearch x\n```' },
      ],
    });
    expect(out.report.blocks.slice(1, 3)).toEqual([
      {
        turn: 'a1',
        index: 0,
        fates: [
          {
            fate: 'converted',
            detail:
              'item not replayed ("web_search_call" is not a content block type of an assistant message (A-R1)): its text was sent instead',
          },
        ],
      },
      {
        turn: 'a1',
        index: 1,
        fates: [
          {
            fate: 'converted',
            detail:
              'item not replayed (server_tool_use id does not match ^[a-zA-Z0-9_-]+$ (A-T1)): its text was sent instead',
          },
        ],
      },
    ]);
    expectValid(out.body);
  });

  it('never replays a client tool_use item, which would have no tool_result (A-T3)', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [text('a'), item({ type: 'tool_use', id: 'toolu_9', name: 'f', input: {} })]),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    expect(out.report.blocks[2]).toEqual({
      turn: 'a1',
      index: 1,
      fates: [
        {
          fate: 'dropped',
          detail:
            'item not replayed (a client tool_use pairs with its result only as a tool_call block (A-T3)) and has no text',
        },
      ],
    });
    expectValid(out.body);
  });

  it('sends a tool turn’s assistant-only item as user text after the tool results, never as the block itself', () => {
    const t = transcript(
      [
        user('u1', text('go')),
        assistant('a1', CLAUDE, [{ type: 'tool_call', id: 'toolu_1', name: 'f', input: {} }]),
        tool(
          't1',
          { type: 'tool_result', callId: 'toolu_1', content: 'ok' },
          item({ type: 'compaction', content: 'Summary.' }, 'Summary.'),
        ),
      ],
      { tools: [{ name: 'f', inputSchema: { type: 'object' } }] },
    );
    const out = convert(t);
    expect(out.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' },
        { type: 'text', text: '[anthropic-messages compaction item, as text]\n```\nSummary.\n```' },
      ],
    });
    expect(out.report.blocks[3]).toEqual({
      turn: 't1',
      index: 1,
      fates: [
        {
          fate: 'converted',
          detail: 'item not replayed (compaction belongs in an assistant message (A-R1)): its text was sent instead',
        },
      ],
    });
    expectValid(out.body);
  });
});

describe('a same-origin server tool result in a tool turn (A-R1, A-T2)', () => {
  const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } };
  const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] };

  it('moves into the assistant message, right after its server_tool_use', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [item(use)]),
      tool('t1', item(result)),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out).toEqual({
      api: 'anthropic-messages',
      model: MODEL,
      body: {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [use, result] },
          { role: 'user', content: [{ type: 'text', text: 'next' }] },
        ],
      },
      report: {
        ...reportOf(4, 4),
        blocks: [
          kept('u1'),
          kept('a1'),
          {
            turn: 't1',
            index: 0,
            fates: [
              {
                fate: 'converted',
                detail: 'moved into the assistant message, right after its server_tool_use srvtoolu_1 (A-R1, A-T2)',
              },
            ],
          },
          kept('u2'),
        ],
      },
    });
    expectValid(out.body);
  });

  it('moves behind its call when the turn also called a client tool, whose result stays in the user message', () => {
    const t = transcript(
      [
        user('u1', text('go')),
        assistant('a1', CLAUDE, [item(use), text('Also:'), { type: 'tool_call', id: 'toolu_1', name: 'f', input: {} }]),
        tool('t1', { type: 'tool_result', callId: 'toolu_1', content: 'ok' }, item(result)),
      ],
      { tools: [{ name: 'f', inputSchema: { type: 'object' } }] },
    );
    const out = convert(t);
    expect(out.body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          use,
          result,
          { type: 'text', text: 'Also:' },
          { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
    ]);
    expectValid(out.body);
  });

  it('is dropped, and reported, when its call is not in the assistant message before it', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [text('Hm.')]),
      tool('t1', item(result)),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hm.' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
    expect(out.report.blocks[2]).toEqual({
      turn: 't1',
      index: 0,
      fates: [
        {
          fate: 'dropped',
          detail:
            'web_search_tool_result for srvtoolu_1: its server tool call is not in the assistant message before it (A-R1, A-T2)',
        },
      ],
    });
    expectValid(out.body);
  });

  it('is dropped, and reported, when the assistant message already holds the result', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', CLAUDE, [item(use), item(result)]),
      tool('t1', item(result)),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: [use, result] });
    expect(out.report.blocks[3]).toEqual({
      turn: 't1',
      index: 0,
      fates: [
        {
          fate: 'dropped',
          detail: 'web_search_tool_result for srvtoolu_1: the assistant message already holds its result',
        },
      ],
    });
    expectValid(out.body);
  });
});
