import { Component } from 'preact';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import { arrangeConversations } from '../../lib/ui/conversation-list';
import { cleanDetail } from '../../lib/ui/error-text';
import { plainPreview } from './preview-text';
import { MessageSearch, type MessageSearchProps } from './message-search';

export interface ConversationListProps {
  conversations: readonly ConversationMeta[];
  currentId: string | undefined;
  onOpen(id: string): void;
  /** Full-text search in messages (docs/side-panel.md#search); without it the box filters titles only. */
  search?: Pick<MessageSearchProps, 'search' | 'onJump'>;
}

/**
 * The conversations: pinned first, then newest first, searchable by title. Each item is one
 * button that opens it (its actions are in the chat header). Titles and previews are text only;
 * a preview shows no JSON and no markdown syntax.
 *
 * docs/architecture.md#long-conversations-and-speed: the side panel re-renders on every state change (each of an open's several updates),
 * and with 5,000 conversations re-rendering every row (markdown stripping of each preview plus the
 * diff of 5,000 items) was most of an open's time (bench/README.md). The arranged list and its
 * element are memoised on `conversations` and the query (so other re-renders skip the list), a
 * row re-renders only when its meta object changes (the model keeps the objects, and the list,
 * when nothing changed), and a new current conversation re-renders just the two rows concerned.
 */
export function ConversationList({ conversations, currentId, onOpen, search }: ConversationListProps) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => arrangeConversations(conversations, query), [conversations, query]);
  // Rows get one stable callback, so a new `onOpen` each render does not re-render them all.
  const open = useRef(onOpen);
  open.current = onOpen;
  const stableOpen = useMemo(() => (id: string) => open.current(id), []);
  // Opening another conversation re-renders just the two rows whose mark changes.
  const mark = useMemo(() => new CurrentMark(), []);
  // Rows rendered now read the new id; rows the memo skips are told after the commit.
  const shownMark = useRef<string | undefined>(undefined);
  mark.id = currentId;
  useLayoutEffect(() => {
    mark.changed(shownMark.current, currentId);
    shownMark.current = currentId;
  }, [mark, currentId]);
  // The same element while the list is the same: Preact then skips the whole list when the panel re-renders.
  const rows = useMemo(
    () => (
      <ul>
        {shown.map((c) => (
          <ConversationRow key={c.id} meta={c} mark={mark} onOpen={stableOpen} />
        ))}
      </ul>
    ),
    [shown, mark, stableOpen],
  );
  return (
    <nav class="conversations" aria-label="Conversations">
      {conversations.length > 0 ? (
        <div class="conversation-search">
          <input
            type="search"
            aria-label="Search conversations"
            placeholder={search ? 'Search titles and messages' : 'Search titles'}
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
      ) : null}
      {conversations.length === 0 ? (
        <p class="empty">No conversations yet.</p>
      ) : shown.length === 0 ? (
        <p class="empty">No title matches “{query}”.</p>
      ) : (
        rows
      )}
      {search && conversations.length > 0 ? <MessageSearch query={query} {...search} /> : null}
    </nav>
  );
}

/** The open conversation's id, read by the rows; {@link changed} re-renders only the rows it concerns. */
class CurrentMark {
  id: string | undefined;
  private readonly rows = new Map<string, () => void>();

  /** Calls `update` when conversation `id` becomes or stops being the current one; returns the unsubscribe. */
  watch(id: string, update: () => void): () => void {
    this.rows.set(id, update);
    return () => {
      if (this.rows.get(id) === update) this.rows.delete(id);
    };
  }

  /** Re-renders the rows of `before` and `now` when they differ. */
  changed(before: string | undefined, now: string | undefined): void {
    if (before === now) return;
    for (const x of [before, now]) if (x !== undefined) this.rows.get(x)?.();
  }
}

interface RowProps {
  meta: ConversationMeta;
  mark: CurrentMark;
  onOpen(id: string): void;
  /** Full-text search in messages (docs/side-panel.md#search); without it the box filters titles only. */
  search?: Pick<MessageSearchProps, 'search' | 'onJump'>;
}

/** One item of the list; re-renders only for a new meta object or its current mark (see {@link ConversationList}). */
class ConversationRow extends Component<RowProps> {
  private unwatch: (() => void) | undefined;

  override componentDidMount(): void {
    this.unwatch = this.props.mark.watch(this.props.meta.id, () => this.forceUpdate());
  }

  override componentWillUnmount(): void {
    this.unwatch?.();
  }

  override shouldComponentUpdate(next: RowProps): boolean {
    return next.meta !== this.props.meta || next.mark !== this.props.mark || next.onOpen !== this.props.onOpen;
  }

  override render({ meta: c, mark, onOpen }: RowProps) {
    const current = mark.id === c.id;
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
