/**
 * The capture requests Baton made (docs/security.md, defect 6): a page's `captureSubmit` is stored only
 * when it answers a request the background sent to that very tab after a click, within
 * {@link CAPTURE_REQUEST_MS}. Anything else — a compromised chat page submitting on its own, a
 * replayed or guessed request id, another tab's id, an expired one — stores nothing, and such
 * refusals are logged once per site (a flood leaves one console line, not thousands).
 */

/** How long a capture request waits for its page, in ms. */
export const CAPTURE_REQUEST_MS = 60_000;

interface Pending<T> {
  tabId: number;
  at: number;
  data: T;
}

/** Open capture requests, keyed by request id; `T` is what the request carries (the chosen target). */
export class CaptureRequests<T> {
  private readonly pending = new Map<string, Pending<T>>();
  private readonly logged = new Set<string>();

  /**
   * @param clock ms since the epoch.
   * @param log where the one line per site about unrequested captures goes.
   */
  constructor(
    private readonly clock: () => number,
    private readonly log: (message: string) => void = (m) => console.warn(m),
  ) {}

  /** Records that Baton asked tab `tabId` for a capture (expired requests are dropped here). */
  open(requestId: string, tabId: number, data: T): void {
    const now = this.clock();
    for (const [id, p] of this.pending) if (now - p.at > CAPTURE_REQUEST_MS) this.pending.delete(id);
    this.pending.set(requestId, { tabId, at: now, data });
  }

  /** Ends a request; false when it was already closed (answered) or never open. */
  close(requestId: string): boolean {
    return this.pending.delete(requestId);
  }

  /**
   * The open, unexpired request `requestId` made to tab `tabId`, or undefined — in which case the
   * capture from `site` must not be stored, and the first such refusal per site is logged.
   */
  find(requestId: string | undefined, tabId: unknown, site: string): T | undefined {
    const p = requestId !== undefined ? this.pending.get(requestId) : undefined;
    if (p && p.tabId === tabId && this.clock() - p.at <= CAPTURE_REQUEST_MS) return p.data;
    if (!this.logged.has(site)) {
      this.logged.add(site);
      this.log(
        `Baton: a capture from ${site} that Baton had not asked for was refused; nothing was stored (further ones from this site are refused silently).`,
      );
    }
    return undefined;
  }
}
