import { useState } from 'preact/hooks';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import { arrangeConversations } from '../../lib/ui/conversation-list';
import { cleanDetail } from '../../lib/ui/error-text';
import { plainPreview } from './preview-text';

export interface ConversationListProps {
  conversations: readonly ConversationMeta[];
  currentId: string | undefined;
  onOpen(id: string): void;
}

/**
 * The conversations: pinned first, then newest first, searchable by title. Each item is one
 * button that opens it (its actions are in the chat header). Titles and previews are text only;
 * a preview shows no JSON and no markdown syntax.
 */
export function ConversationList({ conversations, currentId, onOpen }: ConversationListProps) {
  const [query, setQuery] = useState('');
  const shown = arrangeConversations(conversations, query);
  return (
    <nav class="conversations" aria-label="Conversations">
      {conversations.length > 0 ? (
        <div class="conversation-search">
          <input type="search" aria-label="Search conversations" placeholder="Search titles" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </div>
      ) : null}
      {conversations.length === 0 ? (
        <p class="empty">No conversations yet.</p>
      ) : shown.length === 0 ? (
        <p class="empty">No title matches “{query}”.</p>
      ) : (
        <ul>
          {shown.map((c) => (
            <li key={c.id} data-conversation-id={c.id} data-pinned={c.pinned ? '' : undefined}>
              <button type="button" aria-current={c.id === currentId ? 'true' : undefined} onClick={() => onOpen(c.id)}>
                <span class="conversation-title">
                  {c.pinned ? <span class="pin-mark">Pinned: </span> : null}
                  {c.title || 'Untitled'}
                </span>
                {c.preview ? <span class="conversation-preview">{plainPreview(cleanDetail(c.preview) ?? '')}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
