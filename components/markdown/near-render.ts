/**
 * Work on rendered markdown that waits until its element comes near the visible part of its
 * scroller (docs/side-panel.md#opening-a-long-conversation). Opening a conversation shows up to 50
 * stored turns at once, of which only the newest few are on screen; rendering the markdown of all 50
 * and typesetting their code was most of the open's time (bench/README.md). Inside a scroller marked
 * {@link LAZY_RENDER_ATTR}, such work is queued per element with {@link whenNear}: an
 * `IntersectionObserver` on the scroller runs it once the element is within {@link NEAR_PX} of the
 * visible box, and the scroller runs the jobs of the elements already on screen once it has moved to
 * where it opens, before that frame is painted ({@link renderNear}), so what is on screen never
 * shows unrendered.
 */

/** Marks the scroller whose content may be rendered when it comes near the visible box. */
export const LAZY_RENDER_ATTR = 'data-lazy-render';

/** How far (px) above or below the scroller's visible box an element is rendered ahead of being scrolled to. */
const NEAR_PX = 800;

/** Waiting elements: the job to run and the observer watching the element. */
const jobs = new Map<Element, { run: () => void; observer: IntersectionObserver }>();
const observers = new WeakMap<Element, IntersectionObserver>();

function observerFor(root: Element): IntersectionObserver {
  let o = observers.get(root);
  if (!o) {
    o = new IntersectionObserver(
      (entries) => {
        for (const e of entries) if (e.isIntersecting) runNow(e.target);
      },
      { root, rootMargin: `${NEAR_PX}px 0px` },
    );
    observers.set(root, o);
  }
  return o;
}

function runNow(el: Element): void {
  const job = jobs.get(el);
  if (!job) return;
  cancelNear(el);
  if (el.isConnected) job.run();
}

/**
 * Queues `run` until `el` (in the document) comes near the visible box of its
 * {@link LAZY_RENDER_ATTR} scroller; replaces a job already queued for `el`. Returns false, queuing
 * nothing, when there is no such scroller or no `IntersectionObserver`: the caller does the work now.
 */
export function whenNear(el: Element, run: () => void): boolean {
  const root = typeof IntersectionObserver === 'function' ? el.closest(`[${LAZY_RENDER_ATTR}]`) : null;
  if (!root) return false;
  cancelNear(el);
  const observer = observerFor(root);
  jobs.set(el, { run, observer });
  observer.observe(el);
  return true;
}

/** Drops the job queued for `el`, if any (it was re-rendered or removed). */
export function cancelNear(el: Element): void {
  const job = jobs.get(el);
  if (!job) return;
  job.observer.unobserve(el);
  jobs.delete(el);
}

/**
 * Runs now the jobs of the waiting elements inside `scroller` that are in its visible box (those
 * just outside follow from the observer, after this frame); returns how many ran. Meant to be
 * called right after the scroller has moved (layout is then up to date, so the reads are cheap).
 */
export function renderNear(scroller: HTMLElement): number {
  if (jobs.size === 0) return 0;
  const box = scroller.getBoundingClientRect();
  const near: Element[] = [];
  for (const el of jobs.keys()) {
    if (!el.isConnected) {
      cancelNear(el);
      continue;
    }
    if (!scroller.contains(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.bottom >= box.top && r.top <= box.bottom) near.push(el);
  }
  // All reads first, then the writes: one layout, not one per element.
  for (const el of near) runNow(el);
  return near.length;
}
