// @vitest-environment happy-dom
/**
 * docs/disclosure.md: Regenerate, Retry and Edit-and-resend refused with `confirmation_required` open the
 * first-disclosure dialog with the preview of that action; Cancel sends nothing and changes
 * nothing; "Disclose and send" re-issues the same action with `confirmedDisclosure: true`.
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

afterEach(cleanup);

const T0 = '2026-11-30T08:00:00.000Z';
const meta: ConversationMeta = { id: 'c1', title: 'Chat c1', createdAt: T0, updatedAt: T0, turnCount: 2, preview: '' };
const TARGET = { providerId: 'openai', model: 'gpt-5' };
/** What "Disclose and send" names: the provider and origin the dialog showed (docs/disclosure.md). */
const FOR_OPENAI = { providerId: 'openai', origin: 'https://api.openai.com' };
const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (id: string, text: string, over: Partial<Turn> = {}): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
  status: 'complete',
  blocks: [{ type: 'text', text }],
  ...over,
});

/** The preview of a regenerate over [u1]: one turn, no draft. */
const PREVIEW: DisclosurePreview = samplePreview({
  turns: 1,
  includedTurns: 1,
  estimatedInputTokens: 12,
  estimatedCostUsd: undefined,
  thinkingDropped: 0,
  blocksDropped: 0,
  perTurn: [previewRow('u1', 'user', 'Remember 42.', 12)],
  delivery: { mode: 'snapshot', detail: 'the bounded snapshot' },
  needsConfirmation: true,
  body: { model: 'gpt-5', input: [] },
});

const refuse = () => {
  throw new MockRequestError({
    code: 'confirmation_required',
    message: 'openai (https://api.openai.com) has not received this conversation yet: confirm the disclosure first.',
  });
};
/** Refuses unless the request carries `confirmedDisclosure: true`. */
function gated<T>(ok: T) {
  return (p: { confirmedDisclosure?: boolean }): T => (p.confirmedDisclosure ? ok : refuse());
}

const openWith = (turns: Turn[], extra: MockHandlers): Promise<MockConnector> => openConversation(meta, turns, extra);
const turnEl = (id: string) => document.querySelector(`[data-turn-id="${id}"]`) as HTMLElement | null;
const previewsAsked = (m: MockConnector) =>
  m.callsOf('previewSend').filter((p: RequestInput<'previewSend'>) => p.resend);

describe('Regenerate on a provider that has not received the conversation', () => {
  it('opens the confirmation with the regenerate preview; Cancel sends nothing and keeps the answer; Confirm regenerates with confirmedDisclosure', async () => {
    const m = await openWith([user('u1', 'Remember 42.'), answer('a1', 'Noted, says Claude.')], {
      regenerateTurn: gated(null),
      previewSend: () => PREVIEW,
    });
    fireEvent.click(within(turnEl('a1')!).getByRole('button', { name: 'Regenerate answer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to OpenAI?' });
    expect(within(dialog).getByText('1 of 1 turns of this conversation, to answer again')).toBeTruthy();
    expect(previewsAsked(m)).toEqual([{ conversationId: 'c1', target: TARGET, resend: { kind: 'regenerate' } }]);
    expect(m.callsOf('regenerateTurn')).toEqual([{ conversationId: 'c1', target: TARGET }]);
    // No error notice and no spinner behind the dialog.
    expect(document.querySelector('[data-error-code]')).toBeNull();
    expect(document.querySelector('p.phase')!.textContent).toBe('');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('regenerateTurn')).toHaveLength(1);
    expect(turnEl('a1')).not.toBeNull();

    fireEvent.click(within(turnEl('a1')!).getByRole('button', { name: 'Regenerate answer' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() =>
      expect(m.callsOf('regenerateTurn')).toEqual([
        { conversationId: 'c1', target: TARGET },
        { conversationId: 'c1', target: TARGET },
        { conversationId: 'c1', target: TARGET, confirmedDisclosure: true, confirmedFor: FOR_OPENAI },
      ]),
    );
    await waitFor(() => expect(turnEl('a1')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('another refusal shows its error and no dialog', async () => {
    const m = await openWith([user('u1', 'q'), answer('a1', 'x')], {
      regenerateTurn: () => {
        throw new MockRequestError({ code: 'no_key', message: 'Add a key for this provider first.' });
      },
      previewSend: () => PREVIEW,
    });
    fireEvent.click(within(turnEl('a1')!).getByRole('button', { name: 'Regenerate answer' }));
    await waitFor(() => expect(document.querySelector('[data-error-code="no_key"]')).not.toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(previewsAsked(m)).toEqual([]);
  });
});

describe('Retry and Edit-and-resend ask the same way', () => {
  it('Retry: the retry preview, then retryTurn with confirmedDisclosure', async () => {
    const m = await openWith(
      [user('u1', 'q'), answer('a1', 'part', { status: 'error', error: { type: 'network', message: 'cut' } })],
      { retryTurn: gated(null), previewSend: () => PREVIEW },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const dialog = await screen.findByRole('dialog');
    expect(previewsAsked(m)).toEqual([{ conversationId: 'c1', target: TARGET, resend: { kind: 'retry' } }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() =>
      expect(m.callsOf('retryTurn')).toEqual([
        { conversationId: 'c1', target: TARGET },
        { conversationId: 'c1', target: TARGET, confirmedDisclosure: true, confirmedFor: FOR_OPENAI },
      ]),
    );
  });

  it('Edit: the edit preview with the new text; Cancel keeps the words in the message box; Confirm resends with confirmedDisclosure', async () => {
    const m = await openWith([user('u1', 'old'), answer('a1', 'x')], {
      editAndResend: gated({ userTurnId: 'u2' }),
      previewSend: () => PREVIEW,
    });
    const edit = () => {
      fireEvent.click(within(turnEl('u1')!).getByRole('button', { name: 'Edit and resend' }));
      fireEvent.input(screen.getByLabelText('Edit message'), { target: { value: 'new words' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save and resend' }));
    };
    edit();
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(previewsAsked(m)).toEqual([
      { conversationId: 'c1', target: TARGET, resend: { kind: 'edit', turnId: 'u1' }, text: 'new words' },
    ]);
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('new words');
    expect(turnEl('u1')).not.toBeNull();

    edit();
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disclose and send' }));
    const call = { conversationId: 'c1', turnId: 'u1', text: 'new words', target: TARGET };
    await waitFor(() =>
      expect(m.callsOf('editAndResend')).toEqual([
        call,
        call,
        { ...call, confirmedDisclosure: true, confirmedFor: FOR_OPENAI },
      ]),
    );
  });
});

describe('a confirmation names the provider it was shown for', () => {
  it('the endpoint moved after the dialog opened: the confirmed Retry is refused and the dialog asks again for the new origin, never an error', async () => {
    let origin = 'https://api.openai.com';
    const m = await openWith(
      [user('u1', 'q'), answer('a1', 'part', { status: 'error', error: { type: 'network', message: 'cut' } })],
      {
        previewSend: () => ({ ...PREVIEW, target: { ...PREVIEW.target, origin } }),
        retryTurn: (p) => {
          // Another window points OpenAI at a proxy while the first dialog is open.
          if (p.confirmedDisclosure && origin === 'https://api.openai.com') origin = 'https://proxy.example';
          return p.confirmedDisclosure && p.confirmedFor?.origin === origin ? null : refuse();
        },
      },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disclose and send' }));
    const again = await screen.findByRole('dialog');
    await within(again).findByText('at https://proxy.example');
    expect(document.querySelector('[data-error-code="confirmation_required"]')).toBeNull();
    fireEvent.click(within(again).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() => expect(m.callsOf('retryTurn')).toHaveLength(3));
    expect(m.callsOf('retryTurn').map((c) => c.confirmedFor?.origin)).toEqual([
      undefined,
      'https://api.openai.com',
      'https://proxy.example',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
