// @vitest-environment happy-dom
/**
 * How turns render (docs/side-panel.md, items 4–5): one tool group per assistant turn with names, argument
 * summaries, status marks and results folded under their calls (ids only when expanded); one
 * Thinking section per turn; the origin once per turn in words; user messages as Markdown;
 * attached images as thumbnails from their bytes, enlarged in a dialog.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Block, Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';

afterEach(cleanup);

const meta = (over: Partial<ConversationMeta> = {}): ConversationMeta => ({
  id: 'c1',
  title: 'Chat',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  turnCount: 2,
  preview: '',
  ...over,
});
const user = (id: string, blocks: Block[]): Turn => ({ id, role: 'user', blocks });
const CLAUDE = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-20250514' } as const;

/** Text a person sees: everything except the content of closed <details> (their summaries stay) and hidden elements. */
function visibleText(el: Element): string {
  if (el instanceof HTMLElement && el.hidden) return '';
  let out = '';
  for (const n of el.childNodes) {
    if (n.nodeType === 3) out += n.textContent;
    else if (n instanceof Element) {
      if (el.localName === 'details' && !(el as HTMLDetailsElement).open && n.localName !== 'summary') continue;
      if (n.classList.contains('visually-hidden')) continue;
      out += visibleText(n);
    }
  }
  return out;
}

const FIVE_CALLS: Turn[] = [
  user('u1', [{ type: 'text', text: 'Find the failing test.' }]),
  {
    id: 'a1',
    role: 'assistant',
    origin: CLAUDE,
    status: 'complete',
    blocks: [
      { type: 'thinking', text: 'First look at the tree.', signature: 's1' },
      { type: 'text', text: 'Let me look.' },
      {
        type: 'tool_call',
        id: 'toolu_01AAA',
        name: 'Bash',
        input: { command: 'npm test -- --run', description: 'Run the tests' },
      },
      { type: 'thinking', text: 'Then search.', signature: 's2' },
      { type: 'tool_call', id: 'toolu_01BBB', name: 'Glob', input: { pattern: '**/*.test.ts' } },
      { type: 'tool_call', id: 'toolu_01CCC', name: 'Glob', input: { pattern: 'src/**/*.ts' } },
      { type: 'tool_call', id: 'toolu_01DDD', name: 'Read', input: { file_path: '/repo/src/a.ts' } },
      { type: 'tool_call', id: 'toolu_01EEE', name: 'Grep', input: { pattern: 'describe\\(', path: 'src' } },
    ],
  },
  {
    id: 't1',
    role: 'tool',
    blocks: [
      { type: 'tool_result', callId: 'toolu_01AAA', content: '1 failed: a.test.ts' },
      { type: 'tool_result', callId: 'toolu_01BBB', content: 'a.test.ts\nb.test.ts' },
      { type: 'tool_result', callId: 'toolu_01CCC', content: 'no such directory', isError: true },
      { type: 'tool_result', callId: 'toolu_01DDD', content: 'export const a = 1;' },
    ],
  },
  {
    id: 'a2',
    role: 'assistant',
    origin: CLAUDE,
    status: 'complete',
    blocks: [{ type: 'text', text: 'The failing test is **a.test.ts**.' }],
  },
];

describe('tool calls, calm', () => {
  it('a turn with five tool calls is one group: names and argument summaries visible, no ids, a status mark each', async () => {
    await openConversation(meta(), FIVE_CALLS);
    const a1 = document.querySelector('[data-turn-id="a1"]')!;
    const groups = a1.querySelectorAll('[data-tool-group]');
    expect(groups).toHaveLength(1);
    const seen = visibleText(a1);
    expect(seen).toContain('5 tool calls: Bash, Glob ×2, Read, Grep');
    expect(seen).toContain('npm test -- --run');
    expect(seen).toContain('**/*.test.ts');
    expect(seen).toContain('/repo/src/a.ts');
    expect(seen).not.toMatch(/toolu_/);
    // The origin once per turn, in words; never per line.
    expect(seen.match(/Anthropic/g)).toHaveLength(1);
    const rows = [...groups[0]!.querySelectorAll<HTMLElement>('details.tool-call')];
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['ok', 'ok', 'error', 'ok', 'none']);
    // Each mark is said in words to a screen reader.
    expect(rows.map((r) => r.querySelector('summary .visually-hidden')!.textContent)).toEqual([
      'ok: ',
      'ok: ',
      'error: ',
      'ok: ',
      'no result: ',
    ]);
    expect(rows.map((r) => r.querySelector('.tool-mark')!.textContent)).toEqual(['✓', '✓', '✕', '✓', '–']);
    expect(a1.querySelector('.tool-group-errors')!.textContent).toBe(' · 1 failed');
  });

  it('folds each result under its call, shows the id and the JSON only when expanded, and folds the tool turn away', async () => {
    await openConversation(meta(), FIVE_CALLS);
    const row = document.querySelectorAll<HTMLDetailsElement>('[data-turn-id="a1"] details.tool-call')[0]!;
    expect(row.open).toBe(false);
    fireEvent.click(row.querySelector('summary')!);
    row.open = true;
    const seen = visibleText(row);
    expect(seen).toContain('1 failed: a.test.ts');
    expect(seen).toContain('Call id: toolu_01AAA');
    expect(seen).toContain('"description": "Run the tests"');
    // The tool turn's results are all shown under their calls: it renders nothing of its own.
    const t1 = document.querySelector<HTMLElement>('[data-turn-id="t1"]')!;
    expect(t1.hidden).toBe(true);
    expect(t1.textContent).toBe('');
  });

  it('a result whose call is not shown (an earlier page) still renders on its own, named', async () => {
    await openConversation(meta(), [
      { id: 't0', role: 'tool', blocks: [{ type: 'tool_result', callId: 'gone', content: 'late result' }] },
      FIVE_CALLS[3]!,
    ]);
    const t0 = document.querySelector<HTMLElement>('[data-turn-id="t0"]')!;
    expect(t0.hidden).toBe(false);
    expect(t0.querySelector('details[data-block="tool_result"] summary')!.textContent).toBe('Tool result');
  });

  it('several thinking blocks of one turn fold into one Thinking section', async () => {
    await openConversation(meta(), FIVE_CALLS);
    const sections = document.querySelectorAll('[data-turn-id="a1"] details.block-thinking');
    expect(sections).toHaveLength(1);
    expect(sections[0]!.querySelector('summary')!.textContent).toBe('Thinking');
    expect(sections[0]!.textContent).toContain('First look at the tree.');
    expect(sections[0]!.textContent).toContain('Then search.');
  });
});

describe('origins in words', () => {
  it.each([
    [CLAUDE, 'Claude Sonnet 4 · Anthropic'],
    [{ provider: 'chatgpt-web', api: 'web', model: 'chatgpt' }, 'ChatGPT (web)'],
    [{ provider: 'chatgpt-web', api: 'web', model: 'gpt-4' }, 'GPT-4 · ChatGPT (web)'],
    [
      { provider: 'google', api: 'gemini-generate-content', model: 'models/gemini-2.5-flash-lite' },
      'Gemini 2.5 Flash-Lite · Google Gemini',
    ],
  ] as const)('%o → %s', async (origin, expected) => {
    await openConversation(meta(), [
      user('u1', [{ type: 'text', text: 'hi' }]),
      {
        id: 'a1',
        role: 'assistant',
        origin: { ...origin },
        status: 'complete',
        blocks: [{ type: 'text', text: 'hello' }],
      },
    ]);
    const origins = document.querySelectorAll('[data-turn-id="a1"] .turn-origin');
    expect(origins).toHaveLength(1);
    expect(origins[0]!.textContent).toBe(expected);
  });

  it('names a chat site in the provider-switch marker, never its id', async () => {
    await openConversation(meta(), [
      user('u1', [{ type: 'text', text: 'hi' }]),
      {
        id: 'a1',
        role: 'assistant',
        origin: { provider: 'chatgpt-web', api: 'web', model: 'chatgpt' },
        status: 'complete',
        blocks: [{ type: 'text', text: 'hello' }],
      },
      user('u2', [{ type: 'text', text: 'and?' }]),
      { id: 'a2', role: 'assistant', origin: CLAUDE, status: 'complete', blocks: [{ type: 'text', text: 'more' }] },
    ]);
    expect(document.querySelector('[data-provider-switch]')!.textContent).toBe(
      'Switched from ChatGPT (web) to Anthropic',
    );
  });

  it('names the models when a switch stays with one provider (another endpoint), never "from Anthropic to Anthropic"', async () => {
    await openConversation(meta(), [
      user('u1', [{ type: 'text', text: 'hi' }]),
      {
        id: 'a1',
        role: 'assistant',
        origin: { ...CLAUDE, model: 'claude-opus-4-6', endpoint: 'https://proxy.example' },
        status: 'complete',
        blocks: [{ type: 'text', text: 'hello' }],
      },
      user('u2', [{ type: 'text', text: 'and?' }]),
      { id: 'a2', role: 'assistant', origin: CLAUDE, status: 'complete', blocks: [{ type: 'text', text: 'more' }] },
    ]);
    const marker = document.querySelector('[data-provider-switch]')!.textContent!;
    expect(marker).toMatch(/^Switched from .+ · Anthropic to .+ · Anthropic$/);
    expect(marker).not.toBe('Switched from Anthropic to Anthropic');
  });

  it('names a custom endpoint by its configured name', async () => {
    await openConversation(
      meta(),
      [
        user('u1', [{ type: 'text', text: 'hi' }]),
        {
          id: 'a1',
          role: 'assistant',
          origin: { provider: 'custom-1', api: 'openai-chat', model: 'llama3.1:8b' },
          status: 'complete',
          blocks: [{ type: 'text', text: 'hello' }],
        },
      ],
      {
        getSettings: () => ({ providers: [{ id: 'custom-1', name: 'Home Ollama', api: 'openai-chat', hasKey: true }] }),
      },
    );
    expect(document.querySelector('[data-turn-id="a1"] .turn-origin')!.textContent).toBe('llama3.1:8b · Home Ollama');
  });
});

/** A real 2×1 PNG (signature, IHDR, IDAT, IEND). */
const PNG_2x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAADklEQVR4nGP4z8AAQv8BD/kD/YURmXYAAAAASUVORK5CYII=';

describe('user messages and images', () => {
  it("renders the person's message as sanitised Markdown", async () => {
    await openConversation(meta(), [
      user('u1', [
        { type: 'text', text: 'Please **fix** `a.ts`:\n\n- one\n- two <img src=x onerror="window.__pwned=1">' },
      ]),
    ]);
    const u1 = document.querySelector('[data-turn-id="u1"]')!;
    expect(u1.querySelector('strong')!.textContent).toBe('fix');
    expect(u1.querySelector('code')!.textContent).toBe('a.ts');
    expect(u1.querySelectorAll('li')).toHaveLength(2);
    expect(u1.querySelector('img')).toBeNull();
    expect(u1.textContent).toContain('<img src=x onerror="window.__pwned=1">');
  });

  it('shows an attached PNG as a thumbnail from its bytes, and enlarges it in a dialog', async () => {
    await openConversation(meta(), [
      user('u1', [
        { type: 'text', text: 'What is this?' },
        { type: 'image', mediaType: 'image/png', data: PNG_2x1 },
      ]),
    ]);
    const thumb = screen.getByRole('button', { name: /^Attached image: PNG image, 2 × 1, \d+ B\. Open larger$/ });
    const img = thumb.querySelector('img')!;
    expect(img.getAttribute('src')).toMatch(/^blob:/);
    fireEvent.click(thumb);
    const dialog = await screen.findByRole('dialog', { name: /Attached image: PNG image, 2 × 1/ });
    expect(dialog.querySelector('img')!.getAttribute('src')).toBe(img.getAttribute('src'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('never renders bytes that are not a raster image, nor fetches a remote one (R3)', async () => {
    const svg = btoa('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"/>');
    await openConversation(meta(), [
      user('u1', [
        { type: 'image', mediaType: 'image/png', data: svg },
        { type: 'image', mediaType: 'image/png', url: 'https://attacker.test/p.png' },
      ]),
      {
        id: 'a1',
        role: 'assistant',
        origin: CLAUDE,
        status: 'complete',
        blocks: [{ type: 'image', mediaType: 'image/png', data: PNG_2x1 }],
      },
    ]);
    const u1 = document.querySelector('[data-turn-id="u1"]')!;
    expect(u1.querySelector('img')).toBeNull();
    expect(u1.textContent).toContain('[Attached image attached: image/png');
    expect(u1.textContent).toContain('https://attacker.test/p.png');
    // A provider's image output shows the same way as an attachment.
    expect(document.querySelector('[data-turn-id="a1"] [data-image-thumb] img')!.getAttribute('src')).toMatch(/^blob:/);
  });
});
