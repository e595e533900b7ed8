/**
 * Full-text search from the side panel (docs/side-panel.md#search): asking the background, and
 * jumping to a match — open its conversation, load older pages until the turn is shown, and when
 * the turn is on another branch make its version the active one first.
 */
import type { Connector } from '../messaging/client';
import type { SearchHit } from '../messaging/search-protocol';
import type { Turn } from '../transcript/schema';

export type { SearchHit, SnippetPart } from '../messaging/search-protocol';

/** Queries shorter than this (in characters, trimmed) are left to the title filter alone. */
export const MIN_QUERY_CHARS = 2;

/** The best matches of `query` in titles and every turn's text. */
export function searchMessages(connector: Connector, query: string): Promise<SearchHit[]> {
  return connector.request('searchConversations', { query });
}

/** What {@link revealTurn} uses of the side panel's model (`ChatModel`). */
export interface RevealModel {
  readonly state: { currentId?: string | undefined; turns: readonly Turn[]; hasEarlier: boolean };
  open(id: string): Promise<void>;
  showEarlier(): Promise<void>;
  showVersion(turnId: string): Promise<void>;
}

/**
 * Opens conversation `conversationId` and makes turn `turnId` shown: older pages are loaded until
 * it is there; a turn on another branch has its version selected (`selectVersion`), then the same.
 * Resolves true when the turn is shown (always true without a `turnId`).
 */
export async function revealTurn(m: RevealModel, conversationId: string, turnId?: string): Promise<boolean> {
  await m.open(conversationId);
  if (m.state.currentId !== conversationId) return false;
  if (turnId === undefined) return true;
  const shown = () => m.state.currentId === conversationId && m.state.turns.some((t) => t.id === turnId);
  const pageBack = async () => {
    while (!shown() && m.state.hasEarlier && m.state.currentId === conversationId) {
      const before = m.state.turns.length;
      await m.showEarlier();
      if (m.state.turns.length === before) return;
    }
  };
  await pageBack();
  if (shown()) return true;
  await m.showVersion(turnId);
  await pageBack();
  return shown();
}
