// @vitest-environment happy-dom
/**
 * "This conversation's policy" in the expanded disclosure preview (docs/disclosure.md): the request sent with
 * the whole conversation policy, invalid limits refused with a message and no request, the
 * preview line refreshed after saving, and the delivery toggle keeping the group's fields.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosurePolicy, DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { MockRequestError, type MockConnector } from '../testing/mock-connector';
import { openConversation } from '../testing/open-conversation';
import { previewRow, samplePreview } from '../testing/preview-fixture';

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
    blocks: [{ type: 'text', text: 'First answer' }],
  },
];

/** A preview that follows the stored conversation policy like the planner: locks, never-lists and max turns. */
function previewFor(policy: DisclosurePolicy): DisclosurePreview {
  const forbidden = policy.neverProviders?.includes('openai')
    ? 'this conversation must never go to openai'
    : policy.lockedProvider !== undefined && policy.lockedProvider !== 'openai'
      ? `this conversation is locked to ${policy.lockedProvider}`
      : undefined;
  const included = Math.min(3, policy.maxTurns ?? 3);
  return samplePreview({
    allowed: forbidden === undefined,
    ...(forbidden ? { forbidden } : {}),
    includedTurns: included,
    estimatedInputTokens: 900,
    estimatedCostUsd: undefined,
    thinkingDropped: 0,
    blocksDropped: 0,
    droppedByReason: included < 3 ? { 'over-max-turns': 3 - included } : {},
    perTurn: [previewRow('u1', 'user', 'First question')],
    delivery: { mode: 'snapshot', detail: 'the bounded snapshot' },
    body: {},
  });
}

async function open(initial: DisclosurePolicy, refuse?: string): Promise<MockConnector> {
  let stored = initial;
  const m = await openConversation(meta, TURNS, {
    previewSend: () => previewFor(stored),
    getDisclosurePolicy: () => ({ global: {}, conversation: stored }),
    setDisclosurePolicy: ({ policy }) => {
      if (refuse) throw new MockRequestError({ code: 'bad_request', message: refuse });
      stored = policy;
      return null;
    },
  });
  fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Next' } });
  fireEvent.click(await screen.findByRole('button', { name: /of 3 turns|Not sent to/ }));
  // docs/side-panel.md: the policy is the expanded sheet's "Policy" tab, which shows its form at once.
  fireEvent.click(screen.getByRole('tab', { name: 'Policy' }));
  await screen.findByRole('form', { name: 'This conversation’s policy' });
  return m;
}

const summary = () => document.querySelector('[data-disclosure-summary]')?.textContent;
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement & HTMLSelectElement;
const change = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const type = (label: string, value: string) => fireEvent.input(field(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save for this conversation' }));

describe('This conversation’s policy', () => {
  it('locks to the current provider, never-sends, limits and omits images in one request; the preview line refreshes', async () => {
    const m = await open({ delivery: 'stateful', foreignReasoning: 'text' });
    expect(summary()).toBe('3 of 3 turns · ~900 tokens · to OpenAI gpt-5');
    expect([...field('Lock to one provider').options].map((o) => o.textContent)).toEqual(['Off', 'OpenAI']);
    change('Lock to one provider', 'openai');
    fireEvent.click(screen.getByLabelText('Google Gemini'));
    type('Max turns for this conversation', '2');
    type('Max tokens for this conversation', '8000');
    change('Images', 'omit');
    const before = m.callsOf('previewSend').length;
    save();
    await waitFor(() =>
      expect(m.callsOf('setDisclosurePolicy')).toEqual([
        {
          conversationId: 'c1',
          policy: {
            delivery: 'stateful',
            foreignReasoning: 'text',
            maxTurns: 2,
            maxTokens: 8000,
            lockedProvider: 'openai',
            neverProviders: ['google'],
            images: 'omit',
          },
        },
      ]),
    );
    await waitFor(() =>
      expect(summary()).toBe('2 of 3 turns · ~900 tokens · to OpenAI gpt-5 · 1 old turn over the limit'),
    );
    expect(m.callsOf('previewSend').length).toBeGreaterThan(before);
    expect(screen.getByText('Saved for this conversation.')).toBeTruthy();
    // The form shows what is stored now.
    expect([
      field('Lock to one provider').value,
      field('Max turns for this conversation').value,
      field('Images').value,
    ]).toEqual(['openai', '2', 'omit']);
    expect((screen.getByLabelText('Google Gemini') as HTMLInputElement).checked).toBe(true);
  });

  it('refuses invalid limits with a message and sends no request', async () => {
    const m = await open({});
    type('Max turns for this conversation', 'ten');
    type('Max tokens for this conversation', '-5');
    save();
    expect(screen.getAllByRole('alert').map((e) => e.textContent)).toEqual([
      'Max turns for this conversation: enter a whole number of turns, or leave it empty for no limit.',
      'Max tokens for this conversation: enter a whole number of tokens, or leave it empty for no limit.',
    ]);
    expect(screen.getByText('Not saved: correct the fields marked above.')).toBeTruthy();
    expect(m.callsOf('setDisclosurePolicy')).toEqual([]);
  });

  it('never sending to the current provider shows the refusal in the line; unlocking and clearing restores it', async () => {
    const m = await open({ lockedProvider: 'anthropic', maxTurns: 2 });
    expect(summary()).toBe('Not sent to OpenAI: this conversation is locked to anthropic');
    expect([...field('Lock to one provider').options].map((o) => o.value)).toEqual(['', 'openai', 'anthropic']);
    expect(field('Lock to one provider').value).toBe('anthropic');
    change('Lock to one provider', '');
    type('Max turns for this conversation', '');
    save();
    await waitFor(() => expect(m.callsOf('setDisclosurePolicy')).toEqual([{ conversationId: 'c1', policy: {} }]));
    await waitFor(() => expect(summary()).toBe('3 of 3 turns · ~900 tokens · to OpenAI gpt-5'));

    fireEvent.click(screen.getByLabelText('OpenAI'));
    save();
    await waitFor(() => expect(summary()).toBe('Not sent to OpenAI: this conversation must never go to openai'));
    expect(m.callsOf('setDisclosurePolicy').at(-1)).toEqual({
      conversationId: 'c1',
      policy: { neverProviders: ['openai'] },
    });
  });

  it('the delivery toggle keeps the fields saved by the group', async () => {
    const m = await open({});
    change('Images', 'omit');
    save();
    await screen.findByText('Saved for this conversation.');
    fireEvent.click(screen.getByLabelText(/Let OpenAI store this conversation/));
    await waitFor(() =>
      expect(m.callsOf('setDisclosurePolicy').at(-1)).toEqual({
        conversationId: 'c1',
        policy: { images: 'omit', delivery: 'stateful' },
      }),
    );
  });

  it('shows the background refusal and keeps the form as typed', async () => {
    await open({}, 'Invalid disclosure policy: nope');
    type('Max turns for this conversation', '4');
    save();
    await screen.findByText('Not saved: Invalid disclosure policy: nope');
    expect(field('Max turns for this conversation').value).toBe('4');
  });
});
