import { Component } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
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
 *
 * Issue 9: the side panel re-renders on every state change (each of an open's several updates),
 * and with 5,000 conversations re-rendering every row (markdown stripping of each preview plus the
 * diff of 5,000 items) was most of an open's time (bench/README.md). The arranged list and its
 * element are memoised on `conversations`, the query and the current id (so other re-renders skip
 * the list), and a row re-renders only when its meta object or its "current" mark changes (the
 * model keeps the objects of unchanged conversations).
 */
export function ConversationList({ conversations, currentId, onOpen }: ConversationListProps) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => arrangeConversations(conversations, query), [conversations, query]);
  // Rows get one stable callback, so a new `onOpen` each render does not re-render them all.
  const open = useRef(onOpen);
  open.current = onOpen;
  const stableOpen = useMemo(() => (id: string) => open.current(id), []);
  // The same element while nothing it shows changed: Preact then skips the whole list when the panel re-renders.
  const rows = useMemo(
    () => (
      <ul>
        {shown.map((c) => (
          <ConversationRow key={c.id} meta={c} current={c.id === currentId} onOpen={stableOpen} />
        ))}
      </ul>
    ),
    [shown, currentId, stableOpen],
  );
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
        rows
      )}
    </nav>
  );
}

interface RowProps {
  meta: ConversationMeta;
  current: boolean;
  onOpen(id: string): void;
}

/** One item of the list; skips re-rendering when its props are the same (see {@link ConversationList}). */
class ConversationRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return next.meta !== this.props.meta || next.current !== this.props.current || next.onOpen !== this.props.onOpen;
  }

  override render({ meta: c, current, onOpen }: RowProps) {
    return (
      <li data-conversation-id={c.id} data-pinned={c.pinned ? '' : undefined}>
        <button type="button" aria-current={current ? 'true' : undefined} onClick={() => onOpen(c.id)}>
          <span class="conversation-title">
            {c.pinned ? <span class="pin-mark">Pinned: </span> : null}
            {c.title || 'Untitled'}
          </span>
          {c.preview ? <span class="conversation-preview">{plainPreview(cleanDetail(c.preview) ?? '')}</span> : null}
        </button>
      </li>
    );
  }
}
