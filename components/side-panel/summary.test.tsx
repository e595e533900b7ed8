// @vitest-environment happy-dom
/**
 * "Summarise them instead…" in the side panel (issue 6, "Fitting"): offered when the preview drops
 * turns to fit; the dialog picks the summariser, shows the turns, tokens, cost and the first
 * disclosure; Summarise is the consent, Cancel and Escape send nothing; errors are readable; the
 * notice above the chat shows the active summary, its text, and "Stop using it".
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { SummaryPreview, SummaryView } from '../../lib/messaging/summary-types';
import type { Turn } from '../../lib/transcript/schema';
import { mockConnector, MockRequestError, sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { SidePanel } from './side-panel';

afterEach(cleanup);

const T0 = '2026-11-30T08:00:00.000Z';
const meta: ConversationMeta = { id: 'c1', title: 'Chat c1', createdAt: T0, updatedAt: T0, turnCount: 2, preview: '' };
const TURNS: Turn[] = [
  { id: 'u1', role: 'user', createdAt: T0, blocks: [{ type: 'text', text: 'First question' }] },
  { id: 'a1', role: 'assistant', origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' }, status: 'complete', blocks: [{ type: 'thinking', text: 'hmm' }, { type: 'text', text: 'First answer' }] },
];
const BODY = { model: 'gpt-5', input: [{ role: 'user', content: [{ type: 'input_text', text: 'First question' }] }], store: false };

function preview(over: Partial<DisclosurePreview> = {}): DisclosurePreview {
  return {
    target: { providerId: 'openai', api: 'openai-responses', model: 'gpt-5', origin: 'https://api.openai.com' },
    allowed: true,
    turns: 3,
    includedTurns: 3,
    estimatedInputTokens: 3240,
    exactCountAvailable: false,
    estimateSource: 'tokenizer',
    estimatedCostUsd: 0.0123,
    contextWindow: 400000,
    maxOutputTokens: 16000,
    inputBudget: 384000,
    fits: true,
    thinkingDropped: 1,
    imagesOmitted: 0,
    blocksDropped: 1,
    droppedByReason: {},
    convertedBlocks: 0,
    perTurn: [
      { id: 'u1', role: 'user', included: true, pinned: false, tokens: 5, preview: 'First question', blocks: [{ index: 0, type: 'text', fate: 'kept', detail: '' }] },
      {
        id: 'a1', role: 'assistant', included: true, pinned: false, tokens: 7, preview: 'First answer',
        blocks: [{ index: 0, type: 'thinking', fate: 'dropped', detail: 'reasoning from another model' }, { index: 1, type: 'text', fate: 'kept', detail: '' }],
      },
      { id: 'draft', role: 'user', draft: true, included: true, pinned: false, tokens: 3, preview: 'Next', blocks: [{ index: 0, type: 'text', fate: 'kept', detail: '' }] },
    ],
    delivery: { mode: 'snapshot', detail: 'the conversation sends the bounded snapshot every time' },
    needsConfirmation: false,
    body: BODY,
    ...over,
  };
}

async function open(extra: MockHandlers = {}): Promise<MockConnector> {
  const m = mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => [meta],
    listModels: () => [{ id: 'gpt-5' }],
    getConversation: () => ({ meta, turns: TURNS, busy: false }),
    sendMessage: () => ({ userTurnId: 'u2' }),
    ...extra,
  });
  render(<SidePanel connector={m.connector} />);
  await screen.findByLabelText('Provider');
  fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
  await screen.findAllByRole('article');
  return m;
}

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
  id: 's1', replaces: ['u1', 'a1'], hashes: [['u1', 'h1'], ['a1', 'h2']], text: 'We talked about the number 42.',
  origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-haiku-4-5' }, at: T0, stale: false,
};

const offer = () => screen.findByRole('button', { name: 'Summarise them instead…' });
const dialog = () => screen.findByRole('dialog', { name: 'Summarise the earlier turns?' });

describe('summarise them instead (issue 6, "Fitting")', () => {
  it('is offered only when the preview drops turns to fit', async () => {
    await open({ previewSend: () => preview() });
    await line();
    expect(screen.queryByRole('button', { name: 'Summarise them instead…' })).toBeNull();
    cleanup();
    await open({ previewSend: () => preview(DROPPING) });
    expect((await offer()).closest('[data-summary-offer]')?.textContent).toContain('The oldest 2 turns are dropped to fit (the default).');
  });

  it('picks the summariser (default the current target), shows turns, tokens, cost and the first disclosure; Summarise sends the consent', async () => {
    let version = 0;
    const m = await open({
      previewSend: () => preview(DROPPING),
      previewSummary: (p) => summaryPreview(p.summariser.providerId === 'anthropic'
        ? { summariser: { providerId: 'anthropic', api: 'anthropic-messages', model: p.summariser.model, origin: 'https://api.anthropic.com' }, needsConfirmation: true }
        : {}),
      summariseEarlier: () => (version++, SUMMARY),
    });
    type('Next');
    fireEvent.click(await offer());
    const d = await dialog();
    expect(document.activeElement).toBe(within(d).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(m.callsOf('previewSummary').at(-1)).toEqual({ conversationId: 'c1', target: OPENAI, summariser: OPENAI, text: 'Next' }));
    await within(d).findByText('2 earlier turns will be summarised.');
    expect(within(d).getByText('~1,234 tokens in, at most 2,048 out: up to ~$0.04.')).toBeTruthy();
    expect(within(d).getByText('OpenAI (https://api.openai.com) will receive those turns, model gpt-5.')).toBeTruthy();
    expect(d.querySelector('[data-summary-first-disclosure]')).toBeNull();

    fireEvent.change(within(d).getByLabelText('Summariser provider'), { target: { value: 'anthropic' } });
    fireEvent.input(within(d).getByLabelText('Summariser model'), { target: { value: 'claude-haiku-4-5' } });
    await waitFor(() => expect(m.callsOf('previewSummary').at(-1)).toMatchObject({ summariser: { providerId: 'anthropic', model: 'claude-haiku-4-5' } }));
    expect((await within(d).findByText(/Anthropic has not received this conversation before/)).hasAttribute('data-summary-first-disclosure')).toBe(true);
    const before = m.callsOf('previewSend').length;
    fireEvent.click(within(d).getByRole('button', { name: 'Summarise' }));
    await waitFor(() => expect(m.callsOf('summariseEarlier')).toEqual([
      { conversationId: 'c1', target: OPENAI, summariser: { providerId: 'anthropic', model: 'claude-haiku-4-5' }, text: 'Next', turnIds: ['u1', 'a1'], confirmedDisclosure: true, confirmedFor: { providerId: 'anthropic', origin: 'https://api.anthropic.com' } },
    ]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(version).toBe(1);
    // The preview is asked again, so the bar and the notice show the summary.
    await waitFor(() => expect(m.callsOf('previewSend').length).toBeGreaterThan(before));
  });

  it('Cancel and Escape send nothing', async () => {
    const m = await open({ previewSend: () => preview(DROPPING), previewSummary: () => summaryPreview(), summariseEarlier: () => SUMMARY });
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
      previewSummary: (p) => summaryPreview(p.summariser.providerId === 'anthropic' ? { allowed: false, forbidden: 'this conversation must never go to anthropic' } : {}),
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
        ? preview({ summary: { state: 'applied', turnId: 'summary-u1', replaces: 2, by: { provider: 'anthropic', model: 'claude-haiku-4-5' } } })
        : preview(DROPPING);
    const m = await open({ previewSend: withSummary, getSummary: () => ({ summary: SUMMARY }), clearSummary: () => ((active = false), null) });
    const notice = await screen.findByRole('region', { name: 'Summary of earlier turns' });
    expect(notice.textContent).toContain('Earlier 2 turns are sent as a summary written by claude-haiku-4-5');
    fireEvent.click(within(notice).getByRole('button', { name: 'View summary' }));
    await within(notice).findByText('We talked about the number 42.');
    fireEvent.click(within(notice).getByRole('button', { name: 'Stop using it' }));
    await waitFor(() => expect(m.callsOf('clearSummary')).toEqual([{ conversationId: 'c1' }]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Summary of earlier turns' })).toBeNull());
    expect(await offer()).toBeTruthy();
  });
});
