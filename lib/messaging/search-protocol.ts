/**
 * Full-text search over the protocol (docs/side-panel.md#search): the side panel's searchbox asks
 * the background, which queries the index kept in IndexedDB (lib/store/search.ts). Spread into
 * `REQUESTS` and `Responses` of `protocol.ts`.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';

/** Caps on a search request: the query's length in characters and the number of hits. */
export const SEARCH_LIMITS = { query: 500, hits: 50 } as const;

/** One piece of a hit's snippet: plain text, `mark` on the words that matched. */
export interface SnippetPart {
  text: string;
  mark?: true;
}

/** One match: a conversation's title or one turn (any version, on any branch). */
export interface SearchHit {
  conversationId: string;
  /** The conversation's title now. */
  title: string;
  /** The matching turn; absent when the title matched. */
  turnId?: string;
  role?: 'user' | 'assistant';
  /** A short excerpt around the first match, on one line; `mark`ed parts are the matched words. */
  snippet: SnippetPart[];
}

export const SEARCH_REQUESTS = onFirstUse(
  () =>
    ({
      /**
       * The conversations whose title or any turn's text holds every word of `query` (the last word
       * may be the start of a word), best first, at most `limit` hits (default 20).
       */
      searchConversations: {
        input: onFirstUse(() =>
          z.strictObject({
            query: z.string().max(SEARCH_LIMITS.query),
            limit: z.number().int().min(1).max(SEARCH_LIMITS.hits).optional(),
          }),
        ),
        from: ['extension'],
      },
    }) as const,
);

export interface SearchResponses {
  searchConversations: SearchHit[];
}
