import type { ConversationMeta } from '../../lib/messaging/protocol';

export interface ConversationListProps {
  conversations: readonly ConversationMeta[];
  currentId: string | undefined;
  onOpen(id: string): void;
}

/** The conversations, newest first (the model keeps them sorted). Titles and previews are text only. */
export function ConversationList({ conversations, currentId, onOpen }: ConversationListProps) {
  return (
    <nav class="conversations" aria-label="Conversations">
      {conversations.length === 0 ? (
        <p class="empty">No conversations yet.</p>
      ) : (
        <ul>
          {conversations.map((c) => (
            <li key={c.id} data-conversation-id={c.id}>
              <button type="button" aria-current={c.id === currentId ? 'true' : undefined} onClick={() => onOpen(c.id)}>
                <span class="conversation-title">{c.title || 'Untitled'}</span>
                {c.preview ? <span class="conversation-preview">{c.preview}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
