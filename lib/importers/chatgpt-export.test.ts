/**
 * ChatGPT export import: the mapping → turns rules, and the malformed trees of
 * security-requirements.md I3 (cycles, dangling parents, missing or unknown current_node,
 * object-valued parts, duplicate ids), each ending with a linearised conversation or a
 * per-conversation skip reason. How fast a 20,000-node tree imports is a bench row
 * (bench/importers.ts), not a timed test.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../transcript/codec';
import { chatgptRingAndChain } from '../../bench/importers';
import { importFile } from './import-file';

const enc = (s: string) => new TextEncoder().encode(s);
const run = (doc: unknown) => importFile('chatgpt-export', enc(JSON.stringify(doc)));

type Msg = Record<string, unknown>;
function node(id: string, parent: string | null, role: string, content: Msg | string, extra: Msg = {}) {
  const c = typeof content === 'string' ? { content_type: 'text', parts: [content] } : content;
  return {
    id,
    parent,
    children: [],
    message: {
      id,
      author: { role, ...(extra.name ? { name: extra.name } : {}) },
      content: c,
      create_time: extra.time ?? 1700000000,
      recipient: extra.recipient ?? 'all',
      metadata: extra.metadata ?? {},
      ...(extra.status ? { status: extra.status } : {}),
    },
  };
}
function conv(id: string, nodes: ReturnType<typeof node>[], current: string | undefined, extra: Msg = {}) {
  return {
    id,
    title: `Title ${id}`,
    create_time: 1700000000.5,
    ...(current !== undefined ? { current_node: current } : {}),
    mapping: Object.fromEntries(nodes.map((n) => [n.id, n])),
    ...extra,
  };
}
const root = { id: 'root', parent: null, children: [] };
const withRoot = (c: ReturnType<typeof conv>) => ({ ...c, mapping: { root, ...c.mapping } });

describe('ChatGPT export: mapping → turns', () => {
  it('maps text, code, tool calls and results, and skips system and hidden nodes (whole output)', () => {
    const doc = [
      withRoot(
        conv(
          'c1',
          [
            node('sys', 'root', 'system', '', { metadata: { is_visually_hidden_from_conversation: true } }),
            node(
              'ctx',
              'sys',
              'user',
              { content_type: 'user_editable_context', user_profile: 'secret profile' },
              { metadata: { is_visually_hidden_from_conversation: true } },
            ),
            node('u1', 'ctx', 'user', 'Plot y = x^2'),
            node(
              'a1',
              'u1',
              'assistant',
              { content_type: 'code', language: 'python', text: 'print(1)' },
              { recipient: 'python', metadata: { model_slug: 'gpt-4o' } },
            ),
            node('t1', 'a1', 'tool', { content_type: 'execution_output', text: '1' }, { name: 'python' }),
            node(
              'a2',
              't1',
              'assistant',
              { content_type: 'code', language: 'js', text: 'let a = 1;' },
              { metadata: { model_slug: 'gpt-4o', finish_details: { type: 'stop' } } },
            ),
            node('a3', 'a2', 'assistant', 'Done.', { metadata: { model_slug: 'gpt-4o' } }),
          ],
          'a3',
        ),
      ),
    ];
    const r = run(doc);
    expect(r).toEqual({
      skipped: [],
      conversations: [
        {
          format: 'baton.transcript',
          version: 1,
          id: 'chatgpt-export:c1',
          title: 'Title c1',
          createdAt: '2023-11-14T22:13:20.500Z',
          source: { kind: 'chatgpt-export', id: 'c1' },
          turns: [
            {
              id: 'u1',
              role: 'user',
              createdAt: '2023-11-14T22:13:20.000Z',
              blocks: [{ type: 'text', text: 'Plot y = x^2' }],
            },
            {
              id: 'a1',
              role: 'assistant',
              origin: { provider: 'chatgpt-web', api: 'web', model: 'gpt-4o' },
              createdAt: '2023-11-14T22:13:20.000Z',
              blocks: [{ type: 'tool_call', id: 'a1', name: 'python', input: { code: 'print(1)' } }],
            },
            {
              id: 't1',
              role: 'tool',
              createdAt: '2023-11-14T22:13:20.000Z',
              blocks: [{ type: 'tool_result', callId: 'a1', content: '1' }],
            },
            {
              id: 'a2',
              role: 'assistant',
              origin: { provider: 'chatgpt-web', api: 'web', model: 'gpt-4o' },
              createdAt: '2023-11-14T22:13:20.000Z',
              stopReason: 'end_turn',
              meta: { rawStopReason: 'stop' },
              blocks: [
                { type: 'text', text: '```js\nlet a = 1;\n```' },
                { type: 'text', text: 'Done.' },
              ],
            },
          ],
        },
      ],
    });
  });

  it('accepts {conversations: [...]} and a single backend-api conversation object', () => {
    const c = conv('c1', [node('u', null, 'user', 'hi'), node('a', 'u', 'assistant', 'hello')], 'a');
    expect(run({ conversations: [c] }).conversations.map((t) => t.id)).toEqual(['chatgpt-export:c1']);
    expect(run(c).conversations.map((t) => t.turns.length)).toEqual([2]);
  });

  it('rejects a document that is no export at all', () => {
    expect(() => run({ hello: 'world' })).toThrow(TranscriptError);
    expect(() => importFile('chatgpt-export', enc('{"broken":'))).toThrow(/^invalid JSON/);
  });

  it('turns object-valued parts into text: image pointers say the export has no image bytes', () => {
    const parts = [
      { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-1', width: 10, height: 20 },
      'caption',
      { content_type: 'audio_transcription', text: 'spoken words' },
      { content_type: 'audio_asset_pointer', asset_pointer: 'sediment://a1' },
      { text: 'an object with text' },
      { weird: true },
      null,
      42,
    ];
    const r = run([
      conv(
        'c1',
        [node('u', null, 'user', { content_type: 'multimodal_text', parts }), node('a', 'u', 'assistant', 'ok')],
        'a',
      ),
    ]);
    expect(r.conversations[0]!.turns[0]!.blocks).toEqual([
      { type: 'text', text: '[image file-service://file-1 (10×20): the ChatGPT export has no image bytes]' },
      { type: 'text', text: 'caption' },
      { type: 'text', text: 'spoken words' },
      { type: 'text', text: '[audio sediment://a1: not included in the ChatGPT export]' },
      { type: 'text', text: 'an object with text' },
      { type: 'text', text: '[unrecognised part not imported]' },
      { type: 'text', text: '42' },
    ]);
  });

  it('keeps thoughts and reasoning recaps as thinking of the assistant turn, with the web origin', () => {
    const r = run([
      conv(
        'c1',
        [
          node('u', null, 'user', 'why?'),
          node(
            'th',
            'u',
            'assistant',
            {
              content_type: 'thoughts',
              thoughts: [
                { summary: 'S', content: 'C' },
                { summary: 'only summary', content: '' },
              ],
            },
            { metadata: { model_slug: 'o3' } },
          ),
          node('rc', 'th', 'assistant', { content_type: 'reasoning_recap', content: 'Thought for 3s' }),
          node('a', 'rc', 'assistant', 'because'),
        ],
        'a',
      ),
    ]);
    expect(r.conversations[0]!.turns[1]).toMatchObject({
      origin: { provider: 'chatgpt-web', api: 'web', model: 'o3' },
      blocks: [
        { type: 'thinking', text: 'S\n\nC', meta: { chatgpt: 'thoughts' } },
        { type: 'thinking', text: 'only summary', meta: { chatgpt: 'thoughts' } },
        { type: 'thinking', text: 'Thought for 3s', meta: { chatgpt: 'reasoning_recap' } },
        { type: 'text', text: 'because' },
      ],
    });
  });

  it('keeps tool output nobody called for as a readable web item, and marks interrupted answers', () => {
    const r = run([
      conv(
        'c1',
        [
          node('u', null, 'user', 'draw a cat'),
          node(
            't',
            'u',
            'tool',
            {
              content_type: 'multimodal_text',
              parts: [{ content_type: 'image_asset_pointer', asset_pointer: 'sediment://img' }],
            },
            { name: 'dalle.text2im' },
          ),
          node('a', 't', 'assistant', 'Here it is', {
            status: 'in_progress',
            metadata: { finish_details: { type: 'interrupted' } },
          }),
        ],
        'a',
      ),
    ]);
    const turn = r.conversations[0]!.turns[1]!;
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks[0]).toEqual({
      type: 'provider_item',
      api: 'web',
      item: {
        author: { role: 'tool', name: 'dalle.text2im' },
        content: {
          content_type: 'multimodal_text',
          parts: [{ content_type: 'image_asset_pointer', asset_pointer: 'sediment://img' }],
        },
      },
      text: '[dalle.text2im output]\n[image sediment://img: the ChatGPT export has no image bytes]',
    });
  });
});

describe('ChatGPT export: malformed trees (I3)', () => {
  const good = conv('good', [node('u', null, 'user', 'fine'), node('a', 'u', 'assistant', 'yes')], 'a');

  it('skips a conversation whose branch has a cycle, and still imports the others', () => {
    const cyclic = conv('loop', [node('x', 'y', 'user', 'x'), node('y', 'x', 'assistant', 'y')], 'x');
    const self = conv('self', [node('s', 's', 'user', 'me')], 's');
    const r = run([cyclic, good, self]);
    expect(r.conversations.map((t) => t.id)).toEqual(['chatgpt-export:good']);
    expect(r.skipped).toEqual([
      { id: 'loop', title: 'Title loop', reason: 'mapping: cycle: node "x" is its own ancestor' },
      { id: 'self', title: 'Title self', reason: 'mapping: cycle: node "s" is its own ancestor' },
    ]);
  });

  it('a 20,000-node cycle is skipped and a 20,000-node chain imports every node, in order', () => {
    const n = 20_000;
    const r = importFile('chatgpt-export', chatgptRingAndChain(n));
    expect(r.skipped.map((s) => s.id)).toEqual(['ring']);
    expect(r.conversations).toHaveLength(1);
    const turns = r.conversations[0]!.turns;
    expect(turns).toHaveLength(n);
    expect(turns.map((t) => t.id)).toEqual(Array.from({ length: n }, (_, i) => `c${i}`));
    expect(turns.every((t, i) => t.role === (i % 2 ? 'assistant' : 'user'))).toBe(true);
  });

  it('starts the branch below a dangling parent, with a warning', () => {
    const r = run([conv('d', [node('u', 'gone', 'user', 'hi'), node('a', 'u', 'assistant', 'hello')], 'a')]);
    expect(r.conversations[0]!.turns.map((x) => x.id)).toEqual(['u', 'a']);
    expect(r.conversations[0]!.meta).toEqual({
      importWarnings: ['node "u" has parent "gone", which is not in the mapping: the branch starts there'],
    });
  });

  it('follows the newest leaf when current_node is missing or unknown', () => {
    const nodes = [
      node('u', null, 'user', 'q'),
      node('old', 'u', 'assistant', 'first try', { time: 1700000001 }),
      node('new', 'u', 'assistant', 'second try', { time: 1700000009 }),
    ];
    for (const current of [undefined, 'nope']) {
      const t = run([conv('c', nodes, current)]).conversations[0]!;
      expect(t.turns.map((x) => x.id)).toEqual(['u', 'new']);
      expect(t.meta?.importWarnings).toEqual([
        current === undefined
          ? 'current_node missing: followed the newest leaf "new"'
          : 'current_node "nope" is not in the mapping: followed the newest leaf "new"',
      ]);
    }
  });

  it('skips a conversation with an unknown current_node and no leaf to fall back on', () => {
    const r = run([conv('c', [node('x', 'y', 'user', 'x'), node('y', 'x', 'assistant', 'y')], 'nope')]);
    expect(r.skipped).toEqual([
      { id: 'c', title: 'Title c', reason: 'current_node: unknown node "nope" and no leaf message to fall back on' },
    ]);
  });

  it('handles duplicate ids: repeated conversation ids, repeated mapping keys, repeated node and message ids', () => {
    const a = conv('same', [node('u', null, 'user', 'one'), node('a', 'u', 'assistant', 'A')], 'a');
    const b = conv('same', [node('u', null, 'user', 'two'), node('a', 'u', 'assistant', 'B')], 'a');
    const r = run([a, b]);
    expect(r.conversations.map((t) => t.turns[0]!.blocks[0])).toEqual([{ type: 'text', text: 'one' }]);
    expect(r.skipped).toEqual([
      { id: 'same', title: 'Title same', reason: 'duplicate conversation id "chatgpt-export:same" in the same file' },
    ]);

    // The same mapping key twice in the JSON text: the parser keeps the last; the tree stays linear.
    const text = `[{"id":"k","current_node":"a","mapping":{"u":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["first"]}}},"u":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["second"]}}},"a":{"parent":"u","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["ok"]}}}}}]`;
    const k = importFile('chatgpt-export', enc(text)).conversations[0]!;
    expect(k.turns.map((x) => [x.id, x.blocks])).toEqual([
      ['u', [{ type: 'text', text: 'second' }]],
      ['a', [{ type: 'text', text: 'ok' }]],
    ]);

    // Nodes whose own id / message id fields collide: turn ids come from the mapping keys.
    const dup = conv('ids', [node('u', null, 'user', 'q'), node('a', 'u', 'assistant', 'r')], 'a');
    (dup.mapping.a as { id: string; message: { id: string } }).id = 'u';
    (dup.mapping.a as { id: string; message: { id: string } }).message.id = 'u';
    expect(run([dup]).conversations[0]!.turns.map((x) => x.id)).toEqual(['u', 'a']);
  });

  it('skips a conversation that has no mapping or whose mapping is not an object, with the reason', () => {
    const r = run([{ id: 'none', title: 'No tree' }, { id: 'arr', mapping: [1, 2] }, 'not an object', good]);
    expect(r.conversations.map((t) => t.id)).toEqual(['chatgpt-export:good']);
    expect(r.skipped).toEqual([
      { id: 'none', title: 'No tree', reason: 'mapping: missing: the conversation has no message tree' },
      { id: 'arr', reason: 'mapping: expected an object of nodes' },
      { reason: 'conversations[2]: expected an object' },
    ]);
  });

  it('skips a conversation with no visible message', () => {
    const r = run([conv('empty', [node('s', null, 'system', 'You are ChatGPT')], 's')]);
    expect(r.skipped).toEqual([{ id: 'empty', title: 'Title empty', reason: 'turns: no importable messages' }]);
  });
});
