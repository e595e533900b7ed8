// @vitest-environment happy-dom
/**
 * docs/disclosure.md, a stale side panel: a composer send the background refuses with
 * `confirmation_required` (the preview was stale or missing, or the confirmation was for another
 * provider) opens the confirmation with a fresh preview of exactly that send — never an error;
 * Cancel sends nothing and keeps the draft; Confirm names the provider it was shown for. When that
 * fresh preview needs no confirmation, the same send goes again once, unconfirmed. Left-out turns
 * that no longer exist are said in one line and dropped from the toggles.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta, RequestInput } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';
import { MockRequestError, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { previewRow, samplePreview } from '../testing/preview-fixture';
import { staleExclusionsLine } from './disclosure-format';

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
const ORIGIN: Record<string, string> = { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com' };
const OPENAI = { providerId: 'openai', model: 'gpt-5' };

/** The preview of a send of the draft to `p.target` (perTurn u1, a1, draft). */
function preview(p: RequestInput<'previewSend'>, over: Partial<DisclosurePreview> = {}): DisclosurePreview {
  return samplePreview({
    target: { providerId: p.target.providerId, api: 'x', model: p.target.model, origin: ORIGIN[p.target.providerId]! },
    estimatedInputTokens: 20,
    estimateSource: 'estimate',
    estimatedCostUsd: undefined,
    contextWindow: 200000,
    inputBudget: 184000,
    thinkingDropped: 0,
    blocksDropped: 0,
    perTurn: [
      previewRow('u1', 'user', 'First question'),
      previewRow('a1', 'assistant', 'First answer'),
      { ...previewRow('draft', 'user', p.text ?? ''), draft: true },
    ],
    delivery: { mode: 'snapshot', detail: 'the bounded snapshot' },
    body: { model: p.target.model },
    ...over,
  });
}

const refuse = (message = 'has not received this conversation yet: confirm the disclosure first.') => {
  throw new MockRequestError({ code: 'confirmation_required', message });
};

const open = (extra: MockHandlers): Promise<MockConnector> => openConversation(meta, TURNS, extra);

const type = (text: string) => fireEvent.input(screen.getByLabelText('Message'), { target: { value: text } });
const draft = () => (screen.getByLabelText('Message') as HTMLTextAreaElement).value;
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const line = () => screen.findByText((_, el) => el?.hasAttribute('data-disclosure-summary') ?? false);

describe('a composer send refused as confirmation_required (docs/disclosure.md)', () => {
  it('a stale preview said "no confirmation": the refusal opens the dialog with a fresh preview of that send; Cancel sends nothing and keeps the draft; Confirm sends confirmedFor', async () => {
    // The preview was made before another window's change: this panel believes OpenAI has the conversation.
    let seenElsewhere = false;
    const m = await open({
      previewSend: (p) => preview(p, { needsConfirmation: seenElsewhere }),
      sendMessage: (p) => {
        if (!p.confirmedDisclosure) {
          seenElsewhere = true;
          refuse();
        }
        return { userTurnId: 'u2' };
      },
    });
    type('Next');
    await line();
    const asked = m.callsOf('previewSend').length;
    fireEvent.click(sendButton());
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to OpenAI?' });
    expect(within(dialog).getByText(/2 earlier turns and your new message/)).toBeTruthy();
    // The fresh preview is of exactly the refused send.
    expect(m.callsOf('previewSend').slice(asked)).toEqual([{ conversationId: 'c1', target: OPENAI, text: 'Next' }]);
    expect(m.callsOf('sendMessage')).toEqual([{ conversationId: 'c1', text: 'Next', target: OPENAI }]);
    // Never an error, never a spinner behind the dialog.
    expect(document.querySelector('[data-error-code]')).toBeNull();
    expect(document.querySelector('p.phase')!.textContent).toBe('');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('sendMessage')).toHaveLength(1);
    expect(draft()).toBe('Next');

    // Now the preview says so: the dialog opens before any send.
    fireEvent.click(sendButton());
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(2));
    expect(m.callsOf('sendMessage')[1]).toEqual({
      conversationId: 'c1',
      text: 'Next',
      target: OPENAI,
      confirmedDisclosure: true,
      confirmedFor: { providerId: 'openai', origin: 'https://api.openai.com' },
    });
    await waitFor(() => expect(draft()).toBe(''));
    expect(document.querySelector('[data-error-code]')).toBeNull();
  });

  it('the preview request had failed: the refusal still opens the dialog (fresh preview), and Confirm sends', async () => {
    let previewUp = false;
    const m = await open({
      previewSend: (p) => (previewUp ? preview(p, { needsConfirmation: true }) : refuse('no preview')),
      sendMessage: (p) => {
        previewUp = true;
        return p.confirmedDisclosure ? { userTurnId: 'u2' } : refuse();
      },
    });
    type('Next');
    fireEvent.click(sendButton());
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to OpenAI?' });
    expect(document.querySelector('[data-error-code]')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() =>
      expect(m.callsOf('sendMessage').at(-1)).toMatchObject({
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'openai', origin: 'https://api.openai.com' },
      }),
    );
    await waitFor(() => expect(draft()).toBe(''));
  });

  it('no preview can be had at all: the refusal is shown as an error and the draft stays', async () => {
    const m = await open({ previewSend: () => refuse('no preview'), sendMessage: () => refuse() });
    type('Next');
    fireEvent.click(sendButton());
    await waitFor(() => expect(document.querySelector('[data-error-code="confirmation_required"]')).not.toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('sendMessage')).toHaveLength(1);
    expect(draft()).toBe('Next');
  });

  it('confirmed for OpenAI, the target became Anthropic: the background refuses, the dialog asks again for Anthropic, and only that confirmation sends', async () => {
    const m = await open({
      previewSend: (p) => preview(p, { needsConfirmation: true }),
      sendMessage: (p) =>
        p.confirmedDisclosure && p.confirmedFor?.providerId === p.target.providerId
          ? { userTurnId: 'u2' }
          : refuse('confirmed for another provider'),
    });
    type('Next');
    await line();
    fireEvent.click(sendButton());
    const first = await screen.findByRole('dialog', { name: 'Send this conversation to OpenAI?' });
    // The dialog is modal, but the target may still change under it (another path, a reload).
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'anthropic' } });
    fireEvent.input(screen.getByLabelText('Model'), { target: { value: 'claude-sonnet-4-5' } });
    fireEvent.click(within(first).getByRole('button', { name: 'Disclose and send' }));
    const again = await screen.findByRole('dialog', { name: 'Send this conversation to Anthropic?' });
    expect(within(again).getByText('at https://api.anthropic.com')).toBeTruthy();
    const anthropic = { providerId: 'anthropic', model: 'claude-sonnet-4-5' };
    expect(m.callsOf('sendMessage')).toEqual([
      {
        conversationId: 'c1',
        text: 'Next',
        target: anthropic,
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'openai', origin: 'https://api.openai.com' },
      },
    ]);
    expect(document.querySelector('[data-error-code]')).toBeNull();
    fireEvent.click(within(again).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(2));
    expect(m.callsOf('sendMessage')[1]).toEqual({
      conversationId: 'c1',
      text: 'Next',
      target: anthropic,
      confirmedDisclosure: true,
      confirmedFor: { providerId: 'anthropic', origin: 'https://api.anthropic.com' },
    });
    await waitFor(() => expect(draft()).toBe(''));
  });
});

describe('refused, but the fresh preview needs no confirmation (another window sent to that provider meanwhile, docs/disclosure.md)', () => {
  /** The background refuses the first unconfirmed send; by then another window has sent the conversation to OpenAI. */
  const racing = () => {
    let sentElsewhere = false;
    const first = () => !sentElsewhere && (sentElsewhere = true);
    return open({
      previewSend: (p) => preview(p, { needsConfirmation: false }),
      sendMessage: (p) => (first() && !p.confirmedDisclosure ? refuse() : { userTurnId: 'u2' }),
    });
  };

  it('sends the same message again, once, claiming no confirmation: no dialog with wrong words, no error', async () => {
    const m = await racing();
    type('Next');
    await line();
    fireEvent.click(screen.getByRole('button', { name: /3 of 3 turns/ }));
    fireEvent.click(screen.getByLabelText('Send turn 1 (You)'));
    await waitFor(() => expect(m.callsOf('previewSend').at(-1)).toMatchObject({ excludeTurns: ['u1'] }));
    const asked = m.callsOf('previewSend').length;
    fireEvent.click(sendButton());
    await waitFor(() => expect(draft()).toBe(''));
    const plain = { conversationId: 'c1', text: 'Next', target: OPENAI, excludeTurns: ['u1'] };
    expect(m.callsOf('sendMessage')).toEqual([plain, plain]);
    // The fresh preview was of exactly the refused send, left-out turn included.
    expect(m.callsOf('previewSend')[asked]).toEqual({
      conversationId: 'c1',
      target: OPENAI,
      text: 'Next',
      excludeTurns: ['u1'],
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('[data-error-code]')).toBeNull();
  });

  it('refused again with a fresh preview that still needs none: shown as an error, the draft stays, no third send', async () => {
    const m = await open({ previewSend: (p) => preview(p, { needsConfirmation: false }), sendMessage: () => refuse() });
    type('Next');
    await line();
    fireEvent.click(sendButton());
    await waitFor(() => expect(document.querySelector('[data-error-code="confirmation_required"]')).not.toBeNull());
    expect(m.callsOf('sendMessage')).toEqual([
      { conversationId: 'c1', text: 'Next', target: OPENAI },
      { conversationId: 'c1', text: 'Next', target: OPENAI },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(draft()).toBe('Next');
  });

  it('refused again and now the provider does need it: the dialog opens (its words true) and only Confirm sends', async () => {
    // The second, unconfirmed send is refused because the provider's record is gone again: now it needs the confirmation.
    const m: MockConnector = await open({
      previewSend: (p) => preview(p, { needsConfirmation: m.callsOf('sendMessage').length === 2 }),
      sendMessage: (p) => (p.confirmedDisclosure ? { userTurnId: 'u2' } : refuse()),
    });
    type('Next');
    await line();
    fireEvent.click(sendButton());
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to OpenAI?' });
    expect(m.callsOf('sendMessage')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() =>
      expect(m.callsOf('sendMessage').at(-1)).toMatchObject({
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'openai', origin: 'https://api.openai.com' },
      }),
    );
    await waitFor(() => expect(draft()).toBe(''));
  });

  it('the draft changed while the fresh preview was asked for: nothing is sent again, the new draft stays', async () => {
    let release: () => void = () => undefined;
    const m = await racing();
    type('Next');
    await line();
    m.handlers.previewSend = (p) => new Promise((r) => (release = () => r(preview(p, { needsConfirmation: false }))));
    fireEvent.click(sendButton());
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    await waitFor(() => expect(m.callsOf('previewSend').at(-1)).toMatchObject({ text: 'Next' }));
    type('Next, longer');
    release();
    await new Promise((r) => setTimeout(r, 50));
    expect(m.callsOf('sendMessage')).toHaveLength(1);
    expect(draft()).toBe('Next, longer');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a confirmation belongs to its conversation (docs/disclosure.md)', () => {
  it('the open conversation changed under the dialog: Confirm sends nothing', async () => {
    const other: ConversationMeta = { ...meta, id: 'c2', title: 'Chat c2' };
    const m = await open({
      listConversations: () => [meta, other],
      getConversation: (p) => ({ meta: p.id === 'c2' ? other : meta, turns: p.id === 'c2' ? [] : TURNS, busy: false }),
      previewSend: (p) => preview(p, { needsConfirmation: p.conversationId === 'c1' }),
      sendMessage: () => ({ userTurnId: 'u2' }),
    });
    type('Next');
    await line();
    fireEvent.click(sendButton());
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(document.querySelector('[data-conversation-id="c2"]')!).getByRole('button'));
    await waitFor(() => expect(m.callsOf('getConversation').at(-1)).toMatchObject({ id: 'c2' }));
    await waitFor(() => expect(document.querySelectorAll('[data-turn-id]')).toHaveLength(0));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disclose and send' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('sendMessage')).toEqual([]);
  });
});

describe('left-out turns that no longer exist (docs/disclosure.md)', () => {
  it('the bar says so in one line, the toggles drop them, and the send carries only what exists', async () => {
    let deleted = false;
    const m = await open({
      previewSend: (p) => {
        const gone = deleted ? (p.excludeTurns ?? []).filter((id) => id === 'u1' || id === 'a1') : [];
        return preview(p, gone.length ? { unknownExclusions: { turns: gone, blocks: [] } } : {});
      },
      sendMessage: () => ({ userTurnId: 'u2' }),
    });
    type('Next');
    fireEvent.click(await screen.findByRole('button', { name: /3 of 3 turns/ }));
    fireEvent.click(screen.getByLabelText('Send turn 1 (You)'));
    fireEvent.click(screen.getByLabelText('Send turn 2 (Answer)'));
    await waitFor(() => expect(m.callsOf('previewSend').at(-1)).toMatchObject({ excludeTurns: ['u1', 'a1'] }));
    expect(document.querySelector('[data-disclosure-stale]')).toBeNull();
    // Another window removed both turns; the next refresh reports them.
    deleted = true;
    type('Next one');
    const note = await screen.findByText('2 left-out turns no longer exist — the rest is unchanged');
    expect(note.getAttribute('role')).toBe('status');
    await waitFor(() =>
      expect(m.callsOf('previewSend').at(-1)).toEqual({ conversationId: 'c1', target: OPENAI, text: 'Next one' }),
    );
    fireEvent.click(sendButton());
    await waitFor(() =>
      expect(m.callsOf('sendMessage')).toEqual([{ conversationId: 'c1', text: 'Next one', target: OPENAI }]),
    );
  });

  it('the line, for turns and blocks', () => {
    expect(staleExclusionsLine(undefined)).toBeUndefined();
    expect(staleExclusionsLine({ turns: 0, blocks: 0 })).toBeUndefined();
    expect(staleExclusionsLine({ turns: 1, blocks: 0 })).toBe(
      '1 left-out turn no longer exists — the rest is unchanged',
    );
    expect(staleExclusionsLine({ turns: 2, blocks: 0 })).toBe(
      '2 left-out turns no longer exist — the rest is unchanged',
    );
    expect(staleExclusionsLine({ turns: 1, blocks: 2 })).toBe(
      '1 left-out turn and 2 left-out blocks no longer exist — the rest is unchanged',
    );
    expect(staleExclusionsLine({ turns: 0, blocks: 1 })).toBe(
      '1 left-out block no longer exists — the rest is unchanged',
    );
  });
});
