/**
 * "Show earlier turns" above a conversation's shown window (docs/architecture.md#long-conversations-and-speed), and keeping the reader's
 * place when older turns are put in front: the scroll container keeps its distance from the
 * bottom, so the turn that was on screen stays where it was.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';

/** The nearest scrolling ancestor of `el` (the side panel's `main.chat`), or the document's. */
function scroller(el: Element | null): Element | null {
  for (let e = el?.parentElement ?? null; e; e = e.parentElement) {
    const y = getComputedStyle(e).overflowY;
    if (y === 'auto' || y === 'scroll') return e;
  }
  return document.scrollingElement;
}

/**
 * Returns `remember(el)`: call it before older turns are put in front of the list containing
 * `el`; when `firstId` (the first shown turn) then changes, the scroll position is restored so
 * the same content stays in view.
 */
export function useKeepScrollOnPrepend(firstId: string | undefined): (el: Element | null) => void {
  const saved = useRef<{ box: Element; fromBottom: number; firstId: string | undefined } | undefined>(undefined);
  useLayoutEffect(() => {
    const s = saved.current;
    if (!s || s.firstId === firstId) return;
    saved.current = undefined;
    s.box.scrollTop = s.box.scrollHeight - s.fromBottom;
  }, [firstId]);
  return (el) => {
    const box = scroller(el);
    if (box) saved.current = { box, fromBottom: box.scrollHeight - box.scrollTop, firstId };
  };
}

export interface EarlierTurnsProps {
  loading: boolean;
  /** Loads the previous page; `button` is the clicked element (to find the scroll container). */
  onShow(button: HTMLButtonElement): void;
}

/** The button that loads the previous page of turns. */
export function EarlierTurns({ loading, onShow }: EarlierTurnsProps) {
  return (
    <div class="earlier-turns">
      <button
        type="button"
        class="mini"
        data-show-earlier=""
        disabled={loading}
        onClick={(e) => onShow(e.currentTarget)}
      >
        {loading ? 'Loading earlier turns…' : 'Show earlier turns'}
      </button>
    </div>
  );
}
