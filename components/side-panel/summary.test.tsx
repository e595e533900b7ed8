// @vitest-environment happy-dom
/**
 * "Summarise them instead…" in the side panel (docs/disclosure.md, "Fitting"): offered when the preview drops
 * turns to fit; the dialog picks the summariser, shows the turns, tokens, cost and the first
 * disclosure; Summarise is the consent, Cancel and Escape send nothing; errors are readable; the
 * notice above the chat shows the active summary, its text, and "Stop using it".
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { SummaryPreview, SummaryView } from '../../lib/messaging/summary-types';
import type { Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';
import { MockRequestError, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { samplePreview as preview } from '../testing/preview-fixture';

afterEach(cleanup);

const T0 = '2026-11-30T08:00:00.000Z';
const meta: ConversationMeta = { id: 'c1', title: 'Chat c1', createdAt: T0, updatedAt: T0, turnCount: 2, preview: '' };
const TURNS: Turn[] = [
  { id: 'u1', role: 'user', createdAt: T0, blocks: [{ type: 'text', text: 'First question' }] },
  {
    id: 'a1',
    role: 'assistant',
    origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
    status: 'complete',
    blocks: [
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'First answer' },
    ],
  },
];

const open = (extra: MockHandlers = {}): Promise<MockConnector> =>
  openConversation(meta, TURNS, { sendMessage: () => ({ userTurnId: 'u2' }), ...extra });

const type = (text: string) => fireEvent.input(screen.getByLabelText('Message'), { target: { value: text } });
const line = () => screen.findByText((_, el) => el?.hasAttribute('data-disclosure-summary') ?? false);
const DROPPING = { droppedByReason: { 'over-max-turns': 2 }, includedTurns: 1 };
const OPENAI = { providerId: 'openai', model: 'gpt-5' };

function summaryPreview(over: Partial<SummaryPreview> = {}): SummaryPreview {
  return {
    turnIds: ['u1', 'a1'],
    viaSummary: 0,
    summariser: { providerId: 'openai', api: 'openai-responses', model: 'gpt-5', origin: 'https://api.openai.com' },
    estimatedInputTokens: 1234,
    maxOutputTokens: 2048,
    estimatedCostUsd: 0.0421,
    needsConfirmation: false,
    allowed: true,
    fits: true,
    body: {},
    ...over,
  };
}

const SUMMARY: SummaryView = {
  id: 's1',
  replaces: ['u1', 'a1'],
  hashes: [
    ['u1', 'h1'],
    ['a1', 'h2'],
  ],
  text: 'We talked about the number 42.',
  origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-haiku-4-5' },
  at: T0,
  stale: false,
};

const offer = () => screen.findByRole('button', { name: 'Summarise them instead…' });
const dialog = () => screen.findByRole('dialog', { name: 'Summarise the earlier turns?' });

describe('summarise them instead (docs/disclosure.md, "Fitting")', () => {
  it('is offered only when the preview drops turns to fit', async () => {
    await open({ previewSend: () => preview() });
    await line();
    expect(screen.queryByRole('button', { name: 'Summarise them instead…' })).toBeNull();
    cleanup();
    await open({ previewSend: () => preview(DROPPING) });
    expect((await offer()).closest('[data-summary-offer]')?.textContent).toContain(
      'The oldest 2 turns are dropped to fit (the default).',
    );
  });

  it('picks the summariser (default the current target), shows turns, tokens, cost and the first disclosure; Summarise sends the consent', async () => {
    let version = 0;
    const m = await open({
      previewSend: () => preview(DROPPING),
      previewSummary: (p) =>
        summaryPreview(
          p.summariser.providerId === 'anthropic'
            ? {
                summariser: {
                  providerId: 'anthropic',
                  api: 'anthropic-messages',
                  model: p.summariser.model,
                  origin: 'https://api.anthropic.com',
                },
                needsConfirmation: true,
              }
            : {},
        ),
      summariseEarlier: () => (version++, SUMMARY),
    });
    type('Next');
    fireEvent.click(await offer());
    const d = await dialog();
    expect(document.activeElement).toBe(within(d).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(m.callsOf('previewSummary').at(-1)).toEqual({
        conversationId: 'c1',
        target: OPENAI,
        summariser: OPENAI,
        text: 'Next',
      }),
    );
    await within(d).findByText('2 earlier turns will be summarised.');
    expect(within(d).getByText('~1,234 tokens in, at most 2,048 out: up to ~$0.04.')).toBeTruthy();
    expect(within(d).getByText('OpenAI (https://api.openai.com) will receive those turns, model gpt-5.')).toBeTruthy();
    expect(d.querySelector('[data-summary-first-disclosure]')).toBeNull();

    fireEvent.change(within(d).getByLabelText('Summariser provider'), { target: { value: 'anthropic' } });
    fireEvent.input(within(d).getByLabelText('Summariser model'), { target: { value: 'claude-haiku-4-5' } });
    await waitFor(() =>
      expect(m.callsOf('previewSummary').at(-1)).toMatchObject({
        summariser: { providerId: 'anthropic', model: 'claude-haiku-4-5' },
      }),
    );
    expect(
      (await within(d).findByText(/Anthropic has not received this conversation before/)).hasAttribute(
        'data-summary-first-disclosure',
      ),
    ).toBe(true);
    const before = m.callsOf('previewSend').length;
    fireEvent.click(within(d).getByRole('button', { name: 'Summarise' }));
    await waitFor(() =>
      expect(m.callsOf('summariseEarlier')).toEqual([
        {
          conversationId: 'c1',
          target: OPENAI,
          summariser: { providerId: 'anthropic', model: 'claude-haiku-4-5' },
          text: 'Next',
          turnIds: ['u1', 'a1'],
          confirmedDisclosure: true,
          // Named: this confirmation authorises the summariser the dialog showed, no other (docs/disclosure.md).
          confirmedFor: { providerId: 'anthropic', origin: 'https://api.anthropic.com' },
        },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(version).toBe(1);
    // The preview is asked again, so the bar and the notice show the summary.
    await waitFor(() => expect(m.callsOf('previewSend').length).toBeGreaterThan(before));
  });

  it('Cancel and Escape send nothing', async () => {
    const m = await open({
      previewSend: () => preview(DROPPING),
      previewSummary: () => summaryPreview(),
      summariseEarlier: () => SUMMARY,
    });
    const button = await offer();
    button.focus();
    fireEvent.click(button);
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(await offer());
    fireEvent.keyDown(await dialog(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('summariseEarlier')).toEqual([]);
  });

  it('a failed summary shows a readable error and keeps the dialog; a forbidden summariser cannot be chosen', async () => {
    const m = await open({
      previewSend: () => preview(DROPPING),
      previewSummary: (p) =>
        summaryPreview(
          p.summariser.providerId === 'anthropic'
            ? { allowed: false, forbidden: 'this conversation must never go to anthropic' }
            : {},
        ),
      summariseEarlier: () => {
        throw new MockRequestError({ code: 'rate_limited', message: 'slow down', retryAfterSec: 7 });
      },
    });
    fireEvent.click(await offer());
    const d = await dialog();
    await within(d).findByText('2 earlier turns will be summarised.');
    fireEvent.click(within(d).getByRole('button', { name: 'Summarise' }));
    expect((await within(d).findByRole('alert')).textContent).toContain('Try again in 7 seconds.');
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.change(within(d).getByLabelText('Summariser provider'), { target: { value: 'anthropic' } });
    fireEvent.input(within(d).getByLabelText('Summariser model'), { target: { value: 'claude-haiku-4-5' } });
    await within(d).findByText('Not allowed: this conversation must never go to anthropic.');
    expect((within(d).getByRole('button', { name: 'Summarise' }) as HTMLButtonElement).disabled).toBe(true);
    expect(m.callsOf('summariseEarlier')).toHaveLength(1);
  });

  it('the notice above the chat shows the active summary, its text, and Stop using it', async () => {
    let active = true;
    const withSummary = (): DisclosurePreview =>
      active
        ? preview({
            summary: {
              state: 'applied',
              turnId: 'summary-u1',
              replaces: 2,
              by: { provider: 'anthropic', model: 'claude-haiku-4-5' },
            },
          })
        : preview(DROPPING);
    const m = await open({
      previewSend: withSummary,
      getSummary: () => ({ summary: SUMMARY }),
      clearSummary: () => ((active = false), null),
    });
    const notice = await screen.findByRole('region', { name: 'Summary of earlier turns' });
    expect(notice.textContent).toContain('Earlier 2 turns are sent as a summary written by claude-haiku-4-5');
    fireEvent.click(within(notice).getByRole('button', { name: 'View summary' }));
    await within(notice).findByText('We talked about the number 42.');
    fireEvent.click(within(notice).getByRole('button', { name: 'Stop using it' }));
    await waitFor(() => expect(m.callsOf('clearSummary')).toEqual([{ conversationId: 'c1' }]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Summary of earlier turns' })).toBeNull());
    expect(await offer()).toBeTruthy();
  });

  it('a summary stored or cleared elsewhere (summaryUpdated) refreshes this panel’s preview and notice; another conversation’s does not', async () => {
    let active = false;
    const m = await open({
      previewSend: () =>
        active
          ? preview({
              summary: {
                state: 'applied',
                turnId: 'summary-u1',
                replaces: 2,
                by: { provider: 'anthropic', model: 'claude-haiku-4-5' },
              },
            })
          : preview(DROPPING),
      getSummary: () => (active ? { summary: SUMMARY } : {}),
    });
    expect(await offer()).toBeTruthy();
    const region = () => screen.queryByRole('region', { name: 'Summary of earlier turns' });
    expect(region()).toBeNull();
    // Another window stored a summary of this conversation.
    active = true;
    m.emit({ type: 'summaryUpdated', conversationId: 'c1' });
    await waitFor(() =>
      expect(region()?.textContent).toContain('Earlier 2 turns are sent as a summary written by claude-haiku-4-5'),
    );
    fireEvent.click(within(region()!).getByRole('button', { name: 'View summary' }));
    await within(region()!).findByText('We talked about the number 42.');
    // ...then another window stopped using it.
    active = false;
    m.emit({ type: 'summaryUpdated', conversationId: 'c1' });
    await waitFor(() => expect(region()).toBeNull());
    expect(await offer()).toBeTruthy();
    // An event of another conversation asks for nothing.
    const asked = m.calls.length;
    m.emit({ type: 'summaryUpdated', conversationId: 'c2' });
    await new Promise((r) => setTimeout(r, 400));
    expect(m.calls.length).toBe(asked);
  });

  it('the draft’s attachments go with the summary preview and request, as the bar’s preview carries them', async () => {
    const m = await open({
      previewSend: () => preview(DROPPING),
      previewSummary: () => summaryPreview(),
      summariseEarlier: () => SUMMARY,
    });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    Object.defineProperty(input, 'files', {
      value: [new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'chart.png', { type: 'image/png' })],
      configurable: true,
    });
    fireEvent.change(input);
    await screen.findByText('chart.png');
    type('Next');
    const wire = [{ kind: 'image', mediaType: 'image/png', data: 'iVBORwECAw==', name: 'chart.png' }];
    await waitFor(() => expect(m.callsOf('previewSend').at(-1)).toMatchObject({ text: 'Next', attachments: wire }));
    fireEvent.click(await offer());
    const d = await dialog();
    await within(d).findByText('2 earlier turns will be summarised.');
    expect(m.callsOf('previewSummary').at(-1)).toEqual({
      conversationId: 'c1',
      target: OPENAI,
      summariser: OPENAI,
      text: 'Next',
      attachments: wire,
    });
    fireEvent.click(within(d).getByRole('button', { name: 'Summarise' }));
    await waitFor(() =>
      expect(m.callsOf('summariseEarlier')).toEqual([
        {
          conversationId: 'c1',
          target: OPENAI,
          summariser: OPENAI,
          text: 'Next',
          attachments: wire,
          turnIds: ['u1', 'a1'],
        },
      ]),
    );
  });
});
