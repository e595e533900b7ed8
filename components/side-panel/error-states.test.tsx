// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolError } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { conversationMeta, openConversation } from '../testing/open-conversation';
import { ErrorNotice } from './error-notice';

afterEach(cleanup);

const META = conversationMeta('c1', { title: 'Chat', turnCount: 2 });
const user: Turn = { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'question' }] };
const answer = (over: Partial<Turn>, text = ''): Turn => ({
  id: 'a1',
  role: 'assistant',
  origin: { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
  status: 'complete',
  blocks: text ? [{ type: 'text', text }] : [],
  ...over,
});

async function show(turns: Turn[]) {
  await openConversation(
    META,
    turns,
    { listModels: () => [], getModelInfo: () => ({ vision: true, pdf: true, contextWindow: 1, known: true }) },
    { openOptions: () => undefined },
  );
  return document.querySelector('[data-turn-id="a1"]') as HTMLElement;
}

describe('P4: safety and finish reasons are distinct, labelled states', () => {
  const cases: [string, Turn, string, string][] = [
    [
      'Gemini promptFeedback.blockReason',
      answer({
        status: 'error',
        stopReason: 'content_filter',
        meta: { rawStopReason: 'PROHIBITED_CONTENT' },
        error: { type: 'blocked', message: 'prompt blocked: PROHIBITED_CONTENT' },
      }),
      'prompt_blocked',
      'prompt blocked: PROHIBITED_CONTENT.',
    ],
    [
      'Gemini SAFETY',
      answer({ stopReason: 'content_filter', meta: { rawStopReason: 'SAFETY' } }, 'Partial'),
      'safety',
      "The provider's content filter stopped this answer (SAFETY).",
    ],
    [
      'Gemini RECITATION',
      answer({ stopReason: 'content_filter', meta: { rawStopReason: 'RECITATION' } }, 'Partial'),
      'recitation',
      '(RECITATION)',
    ],
    [
      'Gemini BLOCKLIST',
      answer({ stopReason: 'content_filter', meta: { rawStopReason: 'BLOCKLIST' } }),
      'blocklist',
      '(BLOCKLIST)',
    ],
    ['Gemini SPII', answer({ stopReason: 'content_filter', meta: { rawStopReason: 'SPII' } }), 'spii', '(SPII)'],
    [
      'Gemini OTHER',
      answer({ stopReason: 'other', meta: { rawStopReason: 'OTHER' } }, 'x'),
      'other',
      'The answer ended early (OTHER).',
    ],
    [
      'OpenAI content_filter',
      answer(
        {
          origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' },
          stopReason: 'content_filter',
          meta: { rawStopReason: 'content_filter' },
        },
        'x',
      ),
      'content_filter',
      '(content_filter)',
    ],
    [
      'OpenAI length',
      answer(
        {
          origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' },
          stopReason: 'max_tokens',
          meta: { rawStopReason: 'length' },
        },
        'x',
      ),
      'max_tokens',
      'output limit (length)',
    ],
    [
      'Responses incomplete_details.reason',
      answer(
        {
          origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
          stopReason: 'max_tokens',
          meta: { rawStopReason: 'max_output_tokens' },
        },
        'x',
      ),
      'max_tokens',
      '(max_output_tokens)',
    ],
    [
      'Anthropic refusal',
      answer({
        origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude' },
        stopReason: 'refusal',
        meta: { rawStopReason: 'refusal' },
      }),
      'refusal',
      'The model declined to answer (refusal).',
    ],
    [
      'Anthropic max_tokens',
      answer(
        {
          origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude' },
          stopReason: 'max_tokens',
          meta: { rawStopReason: 'max_tokens' },
        },
        'x',
      ),
      'max_tokens',
      '(max_tokens)',
    ],
  ];
  for (const [name, turn, kind, words] of cases)
    it(`${name} → ${kind}`, async () => {
      const a1 = await show([user, turn]);
      const state = a1.querySelector('[data-finish]')!;
      expect(state.getAttribute('data-finish')).toBe(kind);
      expect(state.textContent).toContain(words);
      // never an empty bubble: the answer shows text or a labelled state
      expect(
        a1
          .textContent!.replace(/Assistant|Google Gemini · gemini-2.5-pro|OpenAI · gpt-\S+|claude|Copy|Regenerate/g, '')
          .trim(),
      ).not.toBe('');
    });
});

describe('never an empty bubble', () => {
  it('an empty complete answer says so', async () => {
    const a1 = await show([user, answer({})]);
    expect(a1.querySelector('[data-finish="empty"]')!.textContent).toBe(
      'Empty answer. The model returned an empty answer. Try again, or try another model.',
    );
  });

  it('a failed answer with no text says none was written, and the error explains why', async () => {
    const a1 = await show([
      user,
      answer({
        status: 'error',
        error: { type: 'context_too_long', message: 'prompt is too long: 250000 tokens > 200000 maximum' },
      }),
    ]);
    expect(a1.textContent).toContain('No answer was written.');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('too long for the selected model');
    expect(alert.textContent).toContain('start a new chat');
    expect(alert.textContent).toContain('Details: prompt is too long: 250000 tokens > 200000 maximum');
  });

  it('an answer cut by a stream error names the reason next to Retry (P3)', async () => {
    await show([
      user,
      answer(
        {
          status: 'interrupted',
          meta: {
            interruptedBy: {
              type: 'overloaded',
              message: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
            },
          },
        },
        'Half of it',
      ),
    ]);
    const bar = document.querySelector('.retry-bar')!;
    expect(within(bar as HTMLElement).getByText('Response interrupted.')).toBeTruthy();
    expect(bar.querySelector('[data-error-code]')!.getAttribute('data-error-code')).toBe('overloaded');
    expect(bar.textContent).toContain('The provider is overloaded right now.');
    expect(bar.textContent).toContain('Details: Overloaded');
    expect(document.body.textContent).not.toContain('{"');
  });
});

describe('ErrorNotice', () => {
  const notice = (e: ProtocolError, openOptions?: () => void) =>
    render(<ErrorNotice error={e} openOptions={openOptions} live />).container;

  it('says when to retry after a rate limit', () => {
    expect(notice({ code: 'rate_limited', message: '429', retryAfterSec: 42 }).textContent).toContain(
      'Try again in 42 seconds.',
    );
    cleanup();
    expect(notice({ code: 'rate_limited', message: '429', retryAfterSec: 300 }).textContent).toContain(
      'Try again in about 5 minutes.',
    );
  });

  it('an invalid key links to the options page', () => {
    const opened: number[] = [];
    const c = notice({ code: 'invalid_key', message: '401 Incorrect API key provided: [redacted]' }, () =>
      opened.push(1),
    );
    expect(c.textContent).toContain('The provider rejected the API key');
    fireEvent.click(within(c as HTMLElement).getByRole('button', { name: 'Open options' }));
    expect(opened).toEqual([1]);
  });

  it('knows when the browser is offline', () => {
    const online =
      Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine') ??
      Object.getOwnPropertyDescriptor(navigator, 'onLine');
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    try {
      expect(notice({ code: 'network', message: 'Failed to fetch' }).textContent).toContain('You are offline');
    } finally {
      if (online) Object.defineProperty(navigator, 'onLine', online);
      else delete (navigator as { onLine?: boolean }).onLine;
    }
  });

  it('P5: a provider message is shown as text, at most 500 characters, JSON reduced to its message', () => {
    const long = `<img src=x onerror=alert(1)> ${'word '.repeat(300)}`;
    const c = notice({ code: 'provider_error', message: long });
    const detail = c.querySelector('.error-detail')!;
    expect(c.querySelector('img')).toBeNull();
    expect(detail.textContent!.startsWith('Details: <img src=x onerror=alert(1)>')).toBe(true);
    expect(detail.textContent!.length).toBeLessThanOrEqual(500);
    cleanup();
    const j = notice({
      code: 'bad_request',
      message: '400 {"error":{"message":"Unsupported parameter: temperature","type":"invalid_request_error"}}',
    });
    expect(j.querySelector('.error-detail')!.textContent).toBe('Details: 400 Unsupported parameter: temperature');
  });
});
