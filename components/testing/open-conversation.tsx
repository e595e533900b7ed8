/**
 * Component tests of the side panel: render it on a mock background that holds one stored
 * conversation and open that conversation, as a person would (click it in the list).
 */
import { fireEvent, render, screen, within } from '@testing-library/preact';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { SidePanel } from '../side-panel/side-panel';
import { mockConnector, sampleSettings, type MockConnector, type MockHandlers } from './mock-connector';

/**
 * Renders the side panel on a mock background whose only conversation is `meta` with `turns`,
 * opens it and waits until its turns are shown. Defaults: `sampleSettings()`, the model list
 * `gpt-5`; `handlers` add to or replace them.
 */
export async function openConversation(
  meta: ConversationMeta,
  turns: Turn[],
  handlers: MockHandlers = {},
): Promise<MockConnector> {
  const m = mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => [meta],
    listModels: () => [{ id: 'gpt-5' }],
    getConversation: () => ({ meta, turns, busy: false }),
    ...handlers,
  });
  render(<SidePanel connector={m.connector} />);
  await screen.findByLabelText('Provider');
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
