/**
 * The chat follows the person (docs/side-panel.md): a conversation opens at its newest turn; while the view
 * is at the end it stays there as turns arrive and the answer streams (and as the chat's box
 * shrinks or grows, e.g. when the disclosure sheet opens); scrolling up stops the follow until
 * the person scrolls back to the end or clicks "Jump to latest"; sending follows again.
 */
import type { RefObject } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { renderNear } from '../markdown/near-render';

/** How close to the end (px) still counts as "at the end". */
const AT_END_PX = 24;

/** True when `el` is scrolled to (within {@link AT_END_PX} of) its end. */
export function atEnd(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= AT_END_PX;
}

export interface Follow {
  /** Put on the scrolling element. */
  scroller: RefObject<HTMLElement | null>;
  /** The person scrolled away from the end: offer "Jump to latest". */
  away: boolean;
  /** Scrolls to the end and follows again (sending, "Jump to latest"). */
  jump(): void;
  /** Stops following (the person asked for earlier turns: the view stays where they read). */
  release(): void;
}

/**
 * Follows the end of the scroller. `conversationKey` changes when another conversation opens
 * (it then opens at its end); `contentKey` changes whenever the content may have grown (new
 * turns, streamed text), so the view is moved after each render while following.
 */
export function useFollow(conversationKey: string | undefined, contentKey: unknown): Follow {
  const scroller = useRef<HTMLElement | null>(null);
  const following = useRef(true);
  const lastTop = useRef(0);
  const [away, setAway] = useState(false);

  const stick = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    // Turns on screen whose markdown waits to come near (docs/side-panel.md#opening-a-long-conversation) are
    // rendered before this frame is painted; that changes their height, so move to the end again (a few rounds at most).
    for (let round = 0; round < 8; round++) {
      if (!atEnd(el) || el.scrollTop !== el.scrollHeight - el.clientHeight) el.scrollTop = el.scrollHeight;
      if (renderNear(el) === 0) break;
    }
    lastTop.current = el.scrollTop;
  }, []);

  const jump = useCallback(() => {
    following.current = true;
    setAway(false);
    stick();
  }, [stick]);

  const release = useCallback(() => {
    following.current = false;
  }, []);

  // Another conversation (or the first load): open at its newest turn.
  useLayoutEffect(() => {
    following.current = true;
    setAway(false);
    stick();
  }, [conversationKey, stick]);

  // After each change of the content: stay at the end while following.
  useLayoutEffect(() => {
    if (following.current) stick();
  }, [contentKey, stick]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      const top = el.scrollTop;
      // Only a move up is the person's: content growing below does not move scrollTop, and
      // following moves it down.
      if (atEnd(el)) following.current = true;
      else if (top < lastTop.current - 1) following.current = false;
      lastTop.current = top;
      setAway(!following.current && !atEnd(el));
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    // Content rendered later (lazy highlighting, images) or a box that changed size: stay at the end.
    const ro =
      typeof ResizeObserver === 'function' ? new ResizeObserver(() => following.current && stick()) : undefined;
    ro?.observe(el);
    for (const child of el.children) ro?.observe(child);
    const mo =
      ro && typeof MutationObserver === 'function'
        ? new MutationObserver(() => {
            for (const child of el.children) ro.observe(child);
          })
        : undefined;
    mo?.observe(el, { childList: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
      mo?.disconnect();
    };
  }, [stick]);

  return { scroller, away, jump, release };
}
