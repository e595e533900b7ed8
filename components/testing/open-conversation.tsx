/**
 * Component tests of the side panel: render it on a mock background that holds one stored
 * conversation and open that conversation, as a person would (click it in the list).
 */
import { fireEvent, render, screen, within } from '@testing-library/preact';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { SidePanel } from '../side-panel/side-panel';
import { mockConnector, sampleSettings, type MockConnector, type MockHandlers } from './mock-connector';

/** When the conversations of {@link conversationMeta} were created and last changed. */
export const T0 = '2026-01-01T10:00:00.000Z';

/** A conversation's list entry: `id`, titled "Chat <id>", no turns, created at {@link T0}; `over` changes any field. */
export function conversationMeta(id: string, over: Partial<ConversationMeta> = {}): ConversationMeta {
  return { id, title: `Chat ${id}`, createdAt: T0, updatedAt: T0, turnCount: 0, preview: '', ...over };
}

/**
 * Renders the side panel on a mock background and waits until its provider picker shows.
 * Defaults: `sampleSettings()`, the list `conversations`, the model list `gpt-5`; `handlers` add
 * to or replace them. `openOptions`: what *Open options* does (absent: no such button).
 */
export async function renderPanel(
  handlers: MockHandlers = {},
  { conversations = [], openOptions }: { conversations?: ConversationMeta[]; openOptions?: () => void } = {},
): Promise<MockConnector> {
  const m = mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => conversations,
    listModels: () => [{ id: 'gpt-5' }],
    ...handlers,
  });
  render(<SidePanel connector={m.connector} {...(openOptions ? { openOptions } : {})} />);
  await screen.findByLabelText('Provider');
  return m;
}

/**
 * Renders the side panel (as {@link renderPanel}) on a mock background whose only conversation is
 * `meta` with `turns`, opens it as a person would (a click in the list) and waits until its turns
 * are shown.
 */
export async function openConversation(
  meta: ConversationMeta,
  turns: Turn[],
  handlers: MockHandlers = {},
  options: { openOptions?: () => void } = {},
): Promise<MockConnector> {
  const m = await renderPanel(
    { getConversation: () => ({ meta, turns, busy: false }), ...handlers },
    { conversations: [meta], ...options },
  );
  fireEvent.click(within(document.querySelector(`[data-conversation-id="${meta.id}"]`)!).getByRole('button'));
  await screen.findAllByRole('article');
  return m;
}

/**
 * Opens the chat head's "Conversation actions" menu (docs/side-panel.md) and returns its item named `name`
 * (e.g. "Rename conversation", "Delete conversation", "Export as Markdown"); click it to run it.
 */
export function conversationAction(name: string): HTMLElement {
  const button = screen.getByRole('button', { name: 'Conversation actions' });
  if (button.getAttribute('aria-expanded') !== 'true') fireEvent.click(button);
  return within(screen.getByRole('menu', { name: 'Conversation actions' })).getByRole('menuitem', { name });
}
