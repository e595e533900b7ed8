import { useEffect, useState } from 'preact/hooks';
import { MIN_QUERY_CHARS, type SearchHit } from '../../lib/ui/message-search';

export interface MessageSearchProps {
  /** What the person typed in *Search conversations*. */
  query: string;
  search(query: string): Promise<SearchHit[]>;
  onJump(hit: SearchHit): void;
}

/** Wait after the last keystroke before asking the background, in milliseconds. */
const DEBOUNCE_MS = 120;

/**
 * The full-text part of *Search conversations* (docs/side-panel.md#search): under the titles, the
 * best matches in titles and messages, each a button naming its conversation with the excerpt
 * (matched words marked) that opens the conversation at that turn.
 */
export function MessageSearch({ query, search, onJump }: MessageSearchProps) {
  const [result, setResult] = useState<{ query: string; hits: SearchHit[] } | undefined>(undefined);
  const q = query.trim();
  useEffect(() => {
    if (q.length < MIN_QUERY_CHARS) {
      setResult(undefined);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      search(q).then(
        (hits) => live && setResult({ query: q, hits }),
        () => live && setResult({ query: q, hits: [] }),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);
  if (!result || q.length < MIN_QUERY_CHARS) return null;
  return (
    <section class="message-search" aria-label="Matches in messages">
      <h2 class="message-search-head">Matches in messages</h2>
      {result.hits.length === 0 ? (
        <p class="empty">No message matches “{result.query}”.</p>
      ) : (
        <ul>
          {result.hits.map((h) => (
            <li key={`${h.conversationId}/${h.turnId ?? ''}`} data-search-hit={h.turnId ?? ''}>
              <button type="button" onClick={() => onJump(h)}>
                <span class="conversation-title">{h.title || 'Untitled'}</span>
                <span class="search-snippet">
                  {h.role ? <span class="search-role">{h.role === 'user' ? 'You: ' : 'Answer: '}</span> : null}
                  {h.snippet.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : p.text))}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Scrolls turn `turnId` of the chat into view, moves focus to it and highlights it for a moment. */
export function highlightTurn(turnId: string): void {
  // After the open's own scroll to the newest turn (two frames: its layout effect, then paint).
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const el = document.querySelector<HTMLElement>(`[data-turn-id="${turnId.replace(/["\\]/g, '\\$&')}"]`);
      if (!el) return;
      el.scrollIntoView({ block: 'center' });
      if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
      el.focus({ preventScroll: true });
      el.setAttribute('data-search-target', '');
      setTimeout(() => el.removeAttribute('data-search-target'), 2500);
    }),
  );
}
