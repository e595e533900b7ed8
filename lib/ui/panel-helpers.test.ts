import { describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import { attachmentVerdict, fileProblem, formatBytes, toBase64 } from './attachments';
import { arrangeConversations } from './conversation-list';
import { conversationMarkdown, fence, turnMarkdown } from './export-markdown';
import { loadTheme, nextTheme } from './theme';

describe('attachments', () => {
  it('takes images and PDFs up to 15 MB', () => {
    expect(fileProblem({ name: 'a.png', type: 'image/png', size: 10 })).toBeUndefined();
    expect(fileProblem({ name: 'a.pdf', type: 'application/pdf', size: 15_000_000 })).toBeUndefined();
    expect(fileProblem({ name: 'a.svg', type: 'image/svg+xml', size: 10 })).toBe(
      'a.svg cannot be attached: only images (PNG, JPEG, GIF, WebP) and PDF documents can.',
    );
    expect(fileProblem({ name: 'big.png', type: 'image/png', size: 15_000_001 })).toBe(
      'big.png is too large (14.3 MB; at most 14.3 MB).',
    );
    expect(fileProblem({ name: 'e.png', type: 'image/png', size: 0 })).toBe('e.png is empty.');
    expect([formatBytes(512), formatBytes(2048), formatBytes(3 * 1024 * 1024)]).toEqual(['512 B', '2 KB', '3.0 MB']);
  });

  it('encodes standard base64, also for large inputs', () => {
    expect(toBase64(new TextEncoder().encode('hello'))).toBe('aGVsbG8=');
    const big = new Uint8Array(100_000).map((_, i) => i % 256);
    expect(toBase64(big)).toBe(Buffer.from(big).toString('base64'));
  });

  it('blocks what a known model refuses, warns for an unknown one', () => {
    const img = [{ kind: 'image' as const }];
    const both = [{ kind: 'image' as const }, { kind: 'document' as const }];
    expect(attachmentVerdict(img, 'm', { vision: true, pdf: false, contextWindow: 1, known: true })).toEqual({
      blocked: false,
    });
    expect(attachmentVerdict(both, 'm', { vision: true, pdf: false, contextWindow: 1, known: true })).toEqual({
      blocked: true,
      note: 'm does not accept PDF documents. Remove the attachment, or choose a model that accepts PDF documents.',
    });
    expect(attachmentVerdict(both, 'm', { vision: false, pdf: false, contextWindow: 1, known: false })).toEqual({
      blocked: false,
      note: 'Baton does not know whether m accepts images or PDF documents; the provider may refuse the message.',
    });
    expect(attachmentVerdict(img, 'm', undefined)).toEqual({ blocked: false });
    expect(attachmentVerdict([], 'm', { vision: false, pdf: false, contextWindow: 1, known: true })).toEqual({
      blocked: false,
    });
  });
});

describe('conversation list order and search', () => {
  const c = (id: string, title: string, updatedAt: string, pinned?: boolean): ConversationMeta => ({
    id,
    title,
    createdAt: updatedAt,
    updatedAt,
    turnCount: 1,
    preview: '',
    ...(pinned ? { pinned } : {}),
  });
  const list = [
    c('a', 'Café ideas', '2026-01-01T00:00:00Z'),
    c('b', 'Budget', '2026-01-03T00:00:00Z'),
    c('p', 'Pinned plan', '2026-01-02T00:00:00Z', true),
    c('d', 'cafe   LIST', '2026-01-04T00:00:00Z'),
  ];
  it('pinned first, newest first; every query word must appear, ignoring case and accents', () => {
    expect(arrangeConversations(list).map((x) => x.id)).toEqual(['p', 'd', 'b', 'a']);
    expect(arrangeConversations(list, 'CAFE').map((x) => x.id)).toEqual(['d', 'a']);
    expect(arrangeConversations(list, 'café list').map((x) => x.id)).toEqual(['d']);
    expect(arrangeConversations(list, '  ').map((x) => x.id)).toEqual(['p', 'd', 'b', 'a']);
  });
});

describe('Markdown export', () => {
  it('fences with a fence longer than any backtick run inside', () => {
    expect(fence('a ``` b', 'md')).toBe('````md\na ``` b\n````');
    expect(fence('plain')).toBe('```\nplain\n```');
  });

  it('writes a conversation with who said what, tool calls fenced, thinking left out', () => {
    const turns: Turn[] = [
      {
        id: 'u',
        role: 'user',
        blocks: [
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
          { type: 'text', text: 'What is this?' },
        ],
      },
      {
        id: 'a',
        role: 'assistant',
        origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
        blocks: [
          { type: 'thinking', text: 'secret plan', signature: 's' },
          { type: 'tool_call', id: 'c1', name: 'lookup', input: { q: 'x' } },
        ],
      },
      { id: 't', role: 'tool', blocks: [{ type: 'tool_result', callId: 'c1', content: 'found' }] },
      {
        id: 'a2',
        role: 'assistant',
        origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
        status: 'stopped',
        blocks: [{ type: 'text', text: 'A chart.' }],
      },
    ];
    expect(turnMarkdown(turns[0]!)).toBe('[Image attached: image/png]\n\nWhat is this?');
    expect(
      conversationMarkdown('My  chat', turns, [
        { id: 'anthropic', name: 'Anthropic', api: 'anthropic-messages', hasKey: true },
      ]),
    ).toBe(
      [
        '# My chat',
        '## You\n\n[Image attached: image/png]\n\nWhat is this?',
        '## Assistant (Anthropic · claude-sonnet-4-5)\n\n**Tool call: lookup**\n\n```json\n{\n  "q": "x"\n}\n```',
        '## Tool\n\n**Tool result for c1**\n\n```\nfound\n```',
        '## Assistant (openai · gpt-5)\n\nA chart.\n\n_(stopped)_',
      ].join('\n\n') + '\n',
    );
  });
});

describe('conversation Markdown with instructions', () => {
  it('puts the instructions, labelled and fenced, under the title; none when blank', () => {
    const turns: Turn[] = [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hi' }] }];
    expect(conversationMarkdown('Chat', turns, [], 'Use ``` fences\nwhen needed.')).toBe(
      '# Chat\n\n**Instructions** (system prompt)\n\n````text\nUse ``` fences\nwhen needed.\n````\n\n## You\n\nHi\n',
    );
    expect(conversationMarkdown('Chat', turns, [], '  \n')).toBe('# Chat\n\n## You\n\nHi\n');
  });
});

describe('theme choice', () => {
  it('cycles auto → light → dark and reads only known values', () => {
    expect([nextTheme('auto'), nextTheme('light'), nextTheme('dark')]).toEqual(['light', 'dark', 'auto']);
    expect(loadTheme({ getItem: () => 'dark' })).toBe('dark');
    expect(loadTheme({ getItem: () => 'purple' })).toBe('auto');
    expect(
      loadTheme({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe('auto');
    expect(loadTheme(undefined)).toBe('auto');
  });
});
