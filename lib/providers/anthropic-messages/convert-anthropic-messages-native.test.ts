import { describe, expect, it } from 'vitest';
import type { Block } from '../../transcript/schema';
import { assistantBlockProblem } from './convert-anthropic-messages-native';
import {
  assistant,
  CLAUDE,
  convert,
  expectValid,
  kept,
  reportOf,
  text,
  tool,
  transcript,
  user,
} from './convert-anthropic-messages.test-helper';

const STUB = {
  name: 'f',
  description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
  input_schema: { type: 'object', properties: {} },
};
const stubSynth = { kind: 'stub-tool', detail: 'f: used in the history but not defined by the request (X8, A-T6)' };

/** A same-origin tool loop whose assistant turn carries `payload` as its native content. */
function loop(
  payload: unknown,
  blocks: Block[] = [text('calling'), { type: 'tool_call', id: 'c1', name: 'f', input: {} }],
) {
  return transcript([
    user('u1', text('go')),
    assistant('a1', CLAUDE, blocks, { native: { api: 'anthropic-messages', payload } }),
    tool('t1', { type: 'tool_result', callId: 'c1', content: 'ok' }),
  ]);
}

/** The body every rebuilt `loop()` gives: the blocks, not the payload. */
const rebuilt = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1000,
  stream: true,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'calling' },
        { type: 'tool_use', id: 'c1', name: 'f', input: {} },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'ok' }] },
  ],
  tools: [STUB],
  tool_choice: { type: 'none' },
};

const rebuiltReport = (warning: string) => ({
  ...reportOf(3, 4),
  blocks: [kept('u1'), kept('a1', 0), kept('a1', 1), kept('t1')],
  synthesized: [stubSynth],
  warnings: [warning],
});

describe('same-origin native content is checked before it is replayed (A-K1, A-T3, A-T4)', () => {
  it('rebuilds from the blocks when a string payload leaves out the turn’s tool call', () => {
    const out = convert(loop('hello'));
    expect(out).toEqual({
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-5',
      body: rebuilt,
      report: rebuiltReport(
        "turn a1: its native content was not replayed (its tool_use ids [] are not the turn's tool calls [c1]); rebuilt from its blocks",
      ),
    });
    expectValid(out.body);
  });

  it('rebuilds from the blocks when the payload holds malformed blocks', () => {
    const out = convert(loop([{ type: 'text', text: 5 }, { type: 'tool_use' }]));
    expect(out.body).toEqual(rebuilt);
    expect(out.report).toEqual(
      rebuiltReport(
        'turn a1: its native content was not replayed (content[0]: text block without non-blank string text (A-E1)); rebuilt from its blocks',
      ),
    );
    expectValid(out.body);
  });

  it('rebuilds when the payload names a tool_use the turn does not have', () => {
    const payload = [
      { type: 'text', text: 'calling' },
      { type: 'tool_use', id: 'c1', name: 'f', input: {} },
      { type: 'tool_use', id: 'c2', name: 'f', input: {} },
    ];
    const out = convert(loop(payload));
    expect(out.body).toEqual(rebuilt);
    expect(out.report.warnings).toEqual([
      "turn a1: its native content was not replayed (its tool_use ids [c1, c2] are not the turn's tool calls [c1]); rebuilt from its blocks",
    ]);
    expectValid(out.body);
  });

  it('rebuilds when the payload does not stand for every block, so the report never claims a missing block was replayed', () => {
    const payload = [{ type: 'tool_use', id: 'c1', name: 'f', input: {} }];
    const out = convert(loop(payload));
    expect(out.body).toEqual(rebuilt);
    expect(out.report).toEqual(
      rebuiltReport(
        'turn a1: its native content was not replayed (it has 1 content blocks for 2 input blocks); rebuilt from its blocks',
      ),
    );
  });

  it('rebuilds when a block of the payload differs from its input block', () => {
    const payload = [
      { type: 'text', text: 'something else' },
      { type: 'tool_use', id: 'c1', name: 'f', input: {} },
    ];
    const out = convert(loop(payload));
    expect(out.body).toEqual(rebuilt);
    expect(out.report.warnings).toEqual([
      'turn a1: its native content was not replayed (content[0] does not match block 0 (text)); rebuilt from its blocks',
    ]);
  });

  it('still replays a payload that matches the blocks', () => {
    const payload = [
      { type: 'text', text: 'calling', citations: null },
      { type: 'tool_use', id: 'c1', name: 'f', input: {} },
    ];
    const out = convert(loop(payload));
    expect(out.body.messages[1]).toEqual({ role: 'assistant', content: payload });
    const replayed = { fate: 'replayed-native', detail: 'same-origin content replayed verbatim (A-K1)' };
    expect(out.report.blocks).toEqual([
      kept('u1'),
      { turn: 'a1', index: 0, fates: [replayed] },
      { turn: 'a1', index: 1, fates: [replayed] },
      kept('t1'),
    ]);
    expect(out.report.warnings).toEqual([]);
    expectValid(out.body);
  });
});

describe('assistantBlockProblem', () => {
  it.each([
    [{ type: 'text', text: 'Hi' }, undefined],
    [{ type: 'text', text: ' ' }, 'text block without non-blank string text (A-E1)'],
    [{ type: 'text', text: 'Hi', citations: 'x' }, 'text citations are not an array (A-C1)'],
    [{ type: 'thinking', thinking: '', signature: 'sig' }, undefined],
    [{ type: 'thinking', thinking: 'x', signature: '' }, 'thinking block without its signature (A-K1)'],
    [{ type: 'thinking', signature: 'sig' }, 'thinking block without string thinking'],
    [{ type: 'redacted_thinking', data: '' }, 'redacted_thinking block with empty data (A-K1)'],
    [{ type: 'redacted_thinking', data: 'EmwK' }, undefined],
    [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }, undefined],
    [{ type: 'tool_use', id: 'a.b', name: 'f', input: {} }, 'tool_use id does not match ^[a-zA-Z0-9_-]+$ (A-T1)'],
    [{ type: 'tool_use', id: 'a', name: 'f.g', input: {} }, 'tool_use without a valid name (A-T8)'],
    [{ type: 'tool_use', id: 'a', name: 'f', input: [1] }, 'tool_use input is not a JSON object (A-T9)'],
    [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } }, undefined],
    [{ type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', input: {} }, 'mcp_tool_use without a server_name'],
    [{ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }, undefined],
    [{ type: 'web_search_tool_result', content: [] }, 'web_search_tool_result without a valid tool_use_id (A-T1)'],
    [{ type: 'compaction', content: 'Summary.' }, undefined],
    [
      { type: 'web_search_call', id: 'ws_1' },
      '"web_search_call" is not a content block type of an assistant message (A-R1)',
    ],
    [
      { type: 'tool_result', tool_use_id: 'a' },
      '"tool_result" is not a content block type of an assistant message (A-R1)',
    ],
    ['text', 'not an object with a string type'],
  ])('%j → %s', (block, problem) => {
    expect(assistantBlockProblem(block)).toBe(problem);
  });
});

describe('same-origin citations that point at documents (A-C1)', () => {
  const cite = {
    type: 'char_location',
    document_index: 0,
    document_title: null,
    cited_text: 'x',
    start_char_index: 0,
    end_char_index: 1,
  };
  const turns = (...first: Block[]) => [
    user('u1', ...first, text('Summarise.')),
    assistant('a1', CLAUDE, [{ type: 'text', text: 'It says x.', citations: [cite] }]),
    user('u2', text('More.')),
  ];

  it('are left out, text kept, when the request holds no document they could point at', () => {
    const out = convert(transcript(turns()));
    expect(out).toEqual({
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-5',
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1000,
        stream: true,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Summarise.' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'It says x.' }] },
          { role: 'user', content: [{ type: 'text', text: 'More.' }] },
        ],
      },
      report: {
        ...reportOf(3, 3),
        blocks: [
          kept('u1'),
          {
            turn: 'a1',
            index: 0,
            fates: [
              {
                fate: 'converted',
                detail:
                  'citations left out, text kept: they point at a document that is not in this request (0 documents, A-C1)',
              },
            ],
          },
          kept('u2'),
        ],
      },
    });
    expectValid(out.body);
  });

  it('stay when the document is in the request', () => {
    const doc: Block = { type: 'document', mediaType: 'text/plain', data: btoa('x marks the spot') };
    const out = convert(transcript(turns(doc)));
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'It says x.', citations: [cite] }],
    });
    expect(out.report.warnings).toEqual([]);
    expectValid(out.body);
  });
});
