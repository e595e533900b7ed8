/**
 * Full-text search (docs/side-panel.md#search): the side panel's `searchConversations`, answered
 * from the index the store keeps in IndexedDB. Payloads arrive parsed and sender-checked by the router.
 */
import type { SearchResponses } from '../../messaging/search-protocol';
import type { BatonDb } from '../../store/db';
import { searchConversations } from '../../store/search';
import type { Handlers } from '../core/router';

/** What the search handlers read: the open database. */
export interface SearchHandlerDeps {
  store: { readonly db: BatonDb };
}

/** `searchConversations`: the best matches of a query across titles and every turn's text. */
export function searchHandlers(d: SearchHandlerDeps): Pick<Handlers, keyof SearchResponses> {
  return {
    searchConversations: ({ query, limit }) => searchConversations(d.store.db, query, limit),
  };
}
