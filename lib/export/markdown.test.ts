import { describe, expect, it } from 'vitest';
import type { Transcript } from '../transcript/schema';
import { withVersions } from '../transcript/versions';
import { fenced, transcriptsToMarkdown, transcriptToMarkdown } from './markdown';

const claude = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;

const agent: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'claude-code:s1',
  title: 'Fix   the\nbuild',
  createdAt: '2026-01-02T03:04:05.000Z',
  source: { kind: 'claude-code', id: 's1' },
  system: 'Be brief.',
  tools: [
    { name: 'Bash', inputSchema: { type: 'object' } },
    { name: 'Read', inputSchema: { type: 'object' } },
  ],
  turns: [
    {
      id: 'u1',
      role: 'user',
      blocks: [
        { type: 'text', text: 'Why does `npm test` fail?' },
        { type: 'image', mediaType: 'image/png', data: 'AAAA' },
      ],
    },
    {
      id: 'a1',
      role: 'assistant',
      origin: claude,
      blocks: [
        { type: 'thinking', text: 'Run the tests.', signature: 'SIG-SECRET-OPAQUE' },
        { type: 'redacted_thinking', data: 'OPAQUE' },
        { type: 'tool_call', id: 'toolu_1', name: 'Bash', input: { command: 'echo ```' } },
      ],
      native: { api: 'anthropic-messages', payload: [{ type: 'text', text: 'NATIVE-PAYLOAD' }] },
    },
    {
      id: 't1',
      role: 'tool',
      blocks: [{ type: 'tool_result', callId: 'toolu_1', content: 'exit 1\n', isError: true }],
    },
    {
      id: 't2',
      role: 'tool',
      blocks: [
        {
          type: 'tool_result',
          callId: 'toolu_2',
          content: [
            { type: 'text', text: 'ok' },
            { type: 'image', mediaType: 'image/jpeg', url: 'https://x.test/a.jpg' },
          ],
        },
      ],
    },
    {
      id: 'a2',
      role: 'assistant',
      origin: claude,
      status: 'interrupted',
      blocks: [
        {
          type: 'provider_item',
          api: 'anthropic-messages',
          item: { type: 'server_tool_use' },
          text: 'web_search: oslo',
        },
        { type: 'provider_item', api: 'openai-responses', item: { type: 'x' } },
        { type: 'text', text: '', signature: 'EMPTY-SIGNED' },
        { type: 'text', text: 'The **test** is broken.' },
      ],
    },
    {
      id: 'a3',
      role: 'assistant',
      origin: claude,
      status: 'error',
      error: { type: 'blocked', message: 'Prompt blocked' },
      blocks: [],
    },
    {
      id: 'u2',
      role: 'user',
      blocks: [{ type: 'document', mediaType: 'application/pdf', title: 'spec.pdf', url: 'https://x.test/spec.pdf' }],
    },
  ],
};

describe('transcriptToMarkdown', () => {
  it('renders every block kind, labelled and fenced, without opaque state', () => {
    expect(transcriptToMarkdown(agent)).toBe(
      [
        '# Fix the build',
        '',
        '_from claude-code `s1` · created 2026-01-02T03:04:05.000Z · 7 turns_',
        '',
        '**Instructions** (system prompt)',
        '',
        '```text',
        'Be brief.',
        '```',
        '',
        '**Tools offered:** `Bash`, `Read`',
        '',
        '## You',
        '',
        'Why does `npm test` fail?',
        '',
        '_[Image: image/png, 3 bytes, not included in this export]_',
        '',
        '## Assistant · claude-sonnet-4-5 (anthropic)',
        '',
        '**Thinking**',
        '',
        '```text',
        'Run the tests.',
        '```',
        '',
        '**Thinking** _(redacted by the provider; not readable)_',
        '',
        '**Tool call** `Bash` (id `toolu_1`)',
        '',
        '````json',
        '{',
        '  "command": "echo ```"',
        '}',
        '````',
        '',
        '## Tool',
        '',
        '**Tool result** for `toolu_1` (error)',
        '',
        '```text',
        'exit 1',
        '```',
        '',
        '## Tool',
        '',
        '**Tool result** for `toolu_2`',
        '',
        '```text',
        'ok',
        '```',
        '',
        '_[Image: image/jpeg, `https://x.test/a.jpg`]_',
        '',
        '## Assistant · claude-sonnet-4-5 (anthropic)',
        '',
        '**Provider item** (anthropic-messages)',
        '',
        '```text',
        'web_search: oslo',
        '```',
        '',
        '_[Provider item (openai-responses) with no readable text]_',
        '',
        'The **test** is broken.',
        '',
        '_(interrupted)_',
        '',
        '## Assistant · claude-sonnet-4-5 (anthropic)',
        '',
        '_(error)_',
        '',
        '**Error** (blocked): Prompt blocked',
        '',
        '## You',
        '',
        '_[Document: spec.pdf, application/pdf, `https://x.test/spec.pdf`]_',
        '',
      ].join('\n'),
    );
    const md = transcriptToMarkdown(agent);
    for (const opaque of ['SIG-SECRET-OPAQUE', 'OPAQUE', 'NATIVE-PAYLOAD', 'EMPTY-SIGNED', 'AAAA'])
      expect(md).not.toContain(opaque);
  });

  it('joins several conversations with a thematic break; an untitled one gets a heading', () => {
    const plain: Transcript = {
      format: 'baton.transcript',
      version: 1,
      id: 'c2',
      turns: [{ id: 'u', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }],
    };
    expect(transcriptsToMarkdown([plain, { ...plain, title: 'Second', turns: [] }])).toBe(
      '# Conversation\n\n_1 turn_\n\n## You\n\nhi\n\n---\n\n# Second\n\n_0 turns_\n',
    );
    expect(transcriptsToMarkdown([])).toBe('');
  });
});

describe('versions (docs/transcript.md#versions-and-branches)', () => {
  it('writes the active path only and says how many other versions exist', () => {
    const path: Transcript['turns'] = [
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Question' }] },
      { id: 'a2', role: 'assistant', origin: claude, blocks: [{ type: 'text', text: 'Second answer' }] },
    ];
    const other = { id: 'a1', role: 'assistant', origin: claude, blocks: [{ type: 'text', text: 'First answer' }] };
    const tree = {
      turns: [
        { parentId: null, turn: path[0]! },
        { parentId: 'u1', turn: other as Transcript['turns'][number] },
        { parentId: 'u1', turn: path[1]! },
      ],
      leaf: 'a2',
    };
    const t = withVersions({ format: 'baton.transcript', version: 1, id: 'v', title: 'V', turns: path }, tree);
    const md = transcriptToMarkdown(t);
    expect(md).toContain('Second answer');
    expect(md).not.toContain('First answer');
    expect(md).toMatch(/1 other version not shown \(the Baton JSON export keeps them\)/);
    expect(transcriptToMarkdown({ ...t, meta: {} })).not.toMatch(/other version/);
  });
});

describe('fenced', () => {
  it('uses a fence longer than any backtick run inside', () => {
    expect(fenced('a ```` b', 'text')).toBe('`````text\na ```` b\n`````');
    expect(fenced('plain\n')).toBe('```\nplain\n```');
  });
});
