// @vitest-environment happy-dom
/**
 * Versions of a message in the side panel (docs/transcript.md#versions-and-branches): "Previous
 * version" / "Next version" and an "n / m" label on a turn with several versions, switching
 * reloads the conversation along that branch, Edit on every user message, and deleting one
 * version is undoable: nothing is sent before the 8 s undo window ends, the delete is sent when it
 * ends (fake timers), and never after an Undo.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta, ConversationView } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const meta: ConversationMeta = {
  id: 'c1',
  title: 'Chat',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  turnCount: 4,
  preview: '',
};
const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (id: string, text: string, provider = 'openai'): Turn => ({
  id,
  role: 'assistant',
  origin: { provider, api: 'openai-responses', model: 'gpt-5' },
  blocks: [{ type: 'text', text }],
});

/** A mock background with two answers to u2: `a2` (OpenAI) and `a2b` (Anthropic); `leaf` is the active one. */
function twoAnswers() {
  let leaf = 'a2b';
  const view = (): ConversationView => ({
    meta,
    busy: false,
    turns: [
      user('u1', 'one'),
      answer('a1', 'first'),
      user('u2', 'two'),
      leaf === 'a2' ? answer('a2', 'OpenAI said') : answer('a2b', 'Anthropic said', 'anthropic'),
    ],
    versions:
      leaf === 'a2' ? { a2: { index: 1, count: 2, next: 'a2b' } } : { a2b: { index: 2, count: 2, previous: 'a2' } },
  });
  return {
    getConversation: () => view(),
    selectVersion: ({ turnId }: { turnId: string }) => {
      leaf = turnId;
      return meta;
    },
    deleteVersion: () => meta,
  };
}

const turnOf = (id: string) => document.querySelector<HTMLElement>(`[data-turn-id="${id}"]`)!;

describe('versions of a message', () => {
  it('shows n / m with Previous version and Next version, and switching shows the other branch', async () => {
    const m = await openConversation(meta, [], twoAnswers());
    await screen.findByText('Anthropic said');
    const nav = within(turnOf('a2b')).getByRole('group', { name: 'Versions' });
    expect(nav.textContent).toContain('2 / 2');
    expect(within(nav).getByRole('button', { name: 'Next version' })).toHaveProperty('disabled', true);
    fireEvent.click(within(nav).getByRole('button', { name: 'Previous version' }));
    await screen.findByText('OpenAI said');
    expect(m.callsOf('selectVersion')).toEqual([{ conversationId: 'c1', turnId: 'a2' }]);
    expect(screen.queryByText('Anthropic said')).toBeNull();
    const nav1 = within(turnOf('a2')).getByRole('group', { name: 'Versions' });
    expect(nav1.textContent).toContain('1 / 2');
    expect(within(nav1).getByRole('button', { name: 'Previous version' })).toHaveProperty('disabled', true);
    // A turn with one version has no version controls.
    expect(within(turnOf('u2')).queryByRole('group', { name: 'Versions' })).toBeNull();
  });

  it('offers Edit on every user message, not only the last', async () => {
    await openConversation(meta, [], twoAnswers());
    await screen.findByText('Anthropic said');
    for (const id of ['u1', 'u2'])
      expect(within(turnOf(id)).getByRole('button', { name: 'Edit and resend' })).toBeTruthy();
  });

  it('deleting a version shows the other one at once and is undoable; nothing is deleted before the window ends', async () => {
    const m = await openConversation(meta, [], twoAnswers());
    await screen.findByText('Anthropic said');
    fireEvent.click(within(turnOf('a2b')).getByRole('button', { name: 'Delete this version' }));
    await screen.findByText('OpenAI said');
    const toast = await screen.findByText('Deleted a version.');
    fireEvent.click(within(toast.parentElement!).getByRole('button', { name: 'Undo' }));
    await screen.findByText('Anthropic said');
    expect(m.callsOf('selectVersion').map((p) => p.turnId)).toEqual(['a2', 'a2b']);
    expect(m.callsOf('deleteVersion')).toEqual([]);
    await waitFor(() => expect(screen.queryByText('Deleted a version.')).toBeNull());
  });

  /** Deletes the shown version `a2b` with fake timers on (only `setTimeout`/`clearTimeout`, the undo window's clock). */
  async function deleteShownVersion(): Promise<
    ReturnType<typeof twoAnswers> & { m: Awaited<ReturnType<typeof openConversation>> }
  > {
    const handlers = twoAnswers();
    const m = await openConversation(meta, [], handlers);
    await screen.findByText('Anthropic said');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(within(turnOf('a2b')).getByRole('button', { name: 'Delete this version' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getByText('OpenAI said')).toBeTruthy();
    expect(screen.getByText('Deleted a version.')).toBeTruthy();
    return { ...handlers, m };
  }

  it('the delete of a version is sent when the 8 s undo window ends, not before', async () => {
    const { m } = await deleteShownVersion();
    await vi.advanceTimersByTimeAsync(7_900);
    expect(m.callsOf('deleteVersion')).toEqual([]);
    expect(screen.getByText('Deleted a version.')).toBeTruthy();
    const reads = m.callsOf('getConversation').length;
    await vi.advanceTimersByTimeAsync(200);
    expect(m.callsOf('deleteVersion')).toEqual([{ conversationId: 'c1', turnId: 'a2b' }]);
    expect(screen.queryByText('Deleted a version.')).toBeNull();
    // Once carried out, the conversation is read again (its version labels change).
    expect(m.callsOf('getConversation').length).toBeGreaterThan(reads);
  });

  it('after Undo the delete is never sent, even long after the window', async () => {
    const { m } = await deleteShownVersion();
    await vi.advanceTimersByTimeAsync(3_000);
    fireEvent.click(
      within(screen.getByText('Deleted a version.').parentElement!).getByRole('button', { name: 'Undo' }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getByText('Anthropic said')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(m.callsOf('deleteVersion')).toEqual([]);
    expect(screen.queryByText('Deleted a version.')).toBeNull();
  });
});
