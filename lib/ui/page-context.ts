/**
 * "Add this page" (docs/side-panel.md#add-this-page): the active tab's readable text becomes a
 * labelled `text/plain` document attachment (title and URL in its title), and every way it can
 * fail becomes one sentence for people. The browser calls are behind {@link PageBrowser}, so the
 * mapping is tested without a browser; the extension's own is entrypoints/sidepanel/page-browser.ts
 * (lib/ui stays free of browser APIs).
 */
import type { PageReadResult } from '../page/read-page';
import { toBase64, type PendingAttachment } from './attachments';

/** Characters of page text attached at most (a long page is cut there, and the row says so). */
export const MAX_PAGE_CHARS = 1_000_000;
/** Longest document title sent (protocol `LIMITS.title`). */
const MAX_TITLE = 500;

/** Said when a long page was cut at {@link MAX_PAGE_CHARS}. */
export const PAGE_TRUNCATED_NOTE = 'This page is long: Baton attached its first 1,000,000 characters.';

/** The sentences {@link addPageProblem} and {@link scriptingProblem} return. */
export const PAGE_MESSAGES = {
  noTab: 'Baton could not find the tab you are reading. Click the page, then try again.',
  restricted:
    'Browsers do not let extensions read this page (browser pages, settings, the extension stores). Open the page you want to add, then try again.',
  file: 'Baton can read a file opened from this computer only when “Allow access to file URLs” is on for Baton (Extensions → Baton → Details).',
  notGranted:
    'Chrome lets Baton read a page only after you call Baton on that page. Right-click the page and choose “Add this page to Baton”, then try again.',
  pdf: 'Baton can’t read this PDF’s text yet. Save the PDF and attach it with Attach instead (for models that take PDFs).',
  empty: 'Baton found no readable text on this page.',
  failed: 'Baton could not read this page.',
} as const;

/** Why a page could not be added, or undefined when `r` has text to attach. */
export function addPageProblem(r: PageReadResult | undefined): string | undefined {
  if (!r) return PAGE_MESSAGES.failed;
  if (r.contentType === 'application/pdf') return PAGE_MESSAGES.pdf;
  if (!r.text.trim()) return PAGE_MESSAGES.empty;
  return undefined;
}

/**
 * The sentence for an error of `scripting.executeScript` on a tab at `url` (undefined when the
 * tab's URL is hidden, i.e. Baton has no grant for it). Chrome's messages: "Cannot access a
 * chrome:// URL", "The extensions gallery cannot be scripted.", "Cannot access contents of url
 * "file:///…"", "Cannot access contents of the page. Extension manifest must request permission
 * to access the respective host.", "Extension has not been invoked for the current page (see activeTab permission)".
 */
export function scriptingProblem(error: unknown, url?: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const where = url ?? '';
  if (/^file:/i.test(where) || /file:\/\//i.test(message)) return PAGE_MESSAGES.file;
  if (
    /^(chrome|chrome-extension|chrome-untrusted|edge|about|view-source|devtools|moz-extension|resource):/i.test(
      where,
    ) ||
    /chrome:\/\/|chrome-extension:\/\/|extensions gallery|cannot be scripted|webstore|chromewebstore/i.test(message)
  )
    return PAGE_MESSAGES.restricted;
  if (/permission|not been invoked|activeTab|Missing host/i.test(message)) return PAGE_MESSAGES.notGranted;
  return `${PAGE_MESSAGES.failed} (${message})`;
}

/** `title — url`, the document's label (every provider sees it: Anthropic's `title`, elsewhere the labelled text's heading). */
export function pageLabel(r: Pick<PageReadResult, 'title' | 'url'>): string {
  const url = r.url.length > 300 ? `${r.url.slice(0, 299)}…` : r.url;
  const room = MAX_TITLE - url.length - 3;
  const title = r.title.length > room ? `${r.title.slice(0, Math.max(0, room - 1))}…` : r.title;
  return title ? `${title} — ${url}` : url;
}

/** UTF-8 bytes of `text`, base64 (no `data:` prefix). */
function utf8Base64(text: string): { data: string; bytes: number } {
  const bytes = new TextEncoder().encode(text);
  return { data: toBase64(bytes), bytes: bytes.length };
}

/**
 * The attachment for a read page: a `document` of media type `text/plain` whose data is the text
 * (UTF-8, base64) and whose name is {@link pageLabel}; the send stores it as a document block with
 * that `title` (docs/transcript.md). Text past {@link MAX_PAGE_CHARS} is cut, with a closing line that says so.
 * @throws Error with {@link addPageProblem}'s sentence when `r` has nothing to attach.
 */
export function pageAttachment(r: PageReadResult, id: string): { attachment: PendingAttachment; truncated: boolean } {
  const problem = addPageProblem(r);
  if (problem) throw new Error(problem);
  const truncated = r.text.length > MAX_PAGE_CHARS;
  const text = truncated ? `${r.text.slice(0, MAX_PAGE_CHARS)}\n\n[… the rest of the page was cut by Baton]` : r.text;
  const { data, bytes } = utf8Base64(text);
  return {
    attachment: { id, kind: 'document', mediaType: 'text/plain', data, name: pageLabel(r), bytes },
    truncated,
  };
}

/** Whether an attachment is a page added by {@link pageAttachment} (a text document, not a file). */
export function isPageAttachment(a: { kind: string; mediaType: string }): boolean {
  return a.kind === 'document' && a.mediaType === 'text/plain';
}

/** The browser calls of "Add this page". */
export interface PageBrowser {
  /** The tab the person is reading: id, and its URL when Baton may see it. */
  activeTab(): Promise<{ id: number; url?: string } | undefined>;
  /** Runs the page reader in the tab; rejects with the browser's error when it may not. */
  read(tabId: number): Promise<PageReadResult | undefined>;
  /**
   * Calls `add(tabId)` for each "Add this page to Baton" menu click (one waiting when the panel
   * opens included); returns the unsubscribe function.
   */
  onAddRequest?(add: (tabId: number) => void): () => void;
}

/** `b`, reading tab `tabId` instead of the active tab (a menu click named the tab). */
export function forTab(b: PageBrowser, tabId: number): PageBrowser {
  return { ...b, activeTab: async () => ({ id: tabId }) };
}

/** Reads the active tab: the attachment, or the sentence that says why not. */
export async function readActivePage(
  b: PageBrowser,
  id: string,
): Promise<{ attachment: PendingAttachment; truncated: boolean } | { problem: string }> {
  const tab = await b.activeTab().catch(() => undefined);
  if (!tab) return { problem: PAGE_MESSAGES.noTab };
  let result: PageReadResult | undefined;
  try {
    result = await b.read(tab.id);
  } catch (e) {
    return { problem: scriptingProblem(e, tab.url) };
  }
  const problem = addPageProblem(result);
  if (problem) return { problem };
  return pageAttachment(result!, id);
}
