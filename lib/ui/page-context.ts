/**
 * "Add this page" (docs/side-panel.md#add-this-page): the active tab's readable text becomes a
 * labelled `text/plain` document attachment (title and URL in its title), and every way it can
 * fail becomes one sentence for people. The browser calls are behind {@link PageBrowser}, so the
 * mapping is tested without a browser; the extension's own is entrypoints/sidepanel/page-browser.ts
 * (lib/ui stays free of browser APIs).
 */
import type { PdfTextResult } from '../page/pdf-text';
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
  pdf: 'Baton can’t read PDFs in this browser. Save the PDF and attach it with Attach instead (for models that take PDFs).',
  pdfTooLarge: 'This PDF is larger than 20 MB, more than Baton reads. Copy the part you need into the message instead.',
  pdfEncrypted:
    'This PDF is protected by a password, so Baton can’t read its text. Save a copy without the password, open that, and try again.',
  pdfNoText:
    'This PDF has no text to read: it looks scanned (its pages are images, with no text layer). Attach the PDF with Attach instead, for a model that reads PDFs.',
  pdfUnreadable: 'Baton could not read this PDF (it may be damaged, or not a PDF).',
  pdfDownload: 'Baton could not download this PDF again from its address.',
  empty: 'Baton found no readable text on this page.',
  failed: 'Baton could not read this page.',
} as const;

/** The sentence for a PDF whose text could not be read (`detail`, the error's own words, in brackets where it helps). */
export function pdfProblem(r: Extract<PdfTextResult, { ok: false }>): string {
  switch (r.problem) {
    case 'too-large':
      return PAGE_MESSAGES.pdfTooLarge;
    case 'encrypted':
      return PAGE_MESSAGES.pdfEncrypted;
    case 'no-text':
      return PAGE_MESSAGES.pdfNoText;
    case 'download':
      return r.detail ? `${PAGE_MESSAGES.pdfDownload} (${r.detail})` : PAGE_MESSAGES.pdfDownload;
    default:
      return r.detail ? `${PAGE_MESSAGES.pdfUnreadable} (${r.detail})` : PAGE_MESSAGES.pdfUnreadable;
  }
}

/** The last path segment of `url`, decoded (`report%202025.pdf` → `report 2025.pdf`), or ''. */
function fileNameOf(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return decodeURIComponent(last).trim();
  } catch {
    return '';
  }
}

/**
 * The viewer tab `r` with the PDF's text read into it: titled by the PDF's own title, else its
 * file name, else the tab's title. When pages were left unread (the page cap) the text ends with a
 * line that says so, and `note` is the sentence for the composer.
 */
export function withPdfText(
  r: PageReadResult,
  pdf: Extract<PdfTextResult, { ok: true }>,
): { page: PageReadResult; note?: string } {
  const title = pdf.title || fileNameOf(r.url) || r.title;
  if (pdf.pagesRead >= pdf.pages) return { page: { ...r, title, text: pdf.text } };
  const cut = `Baton read the first ${pdf.pagesRead} of ${pdf.pages} pages`;
  return {
    page: { ...r, title, text: `${pdf.text}\n\n[… ${cut}]` },
    note: `This PDF is long: ${cut}.`,
  };
}

/** Why a page could not be added, or undefined when `r` has text to attach. */
export function addPageProblem(r: PageReadResult | undefined): string | undefined {
  if (!r) return PAGE_MESSAGES.failed;
  // A PDF's text is not in the viewer's page: only a PDF read by readPdf has text.
  if (r.contentType === 'application/pdf' && !r.text.trim()) return PAGE_MESSAGES.pdf;
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
   * Reads the text of the PDF shown in the tab (its viewer's address is the file's): downloads it
   * in the tab and reads it with PDF.js (lib/page/pdf-text.ts). Absent where Baton cannot read PDFs.
   */
  readPdf?(tabId: number): Promise<PdfTextResult>;
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

/**
 * Reads the active tab: the attachment, or the sentence that says why not. A PDF in the browser's
 * viewer is read with {@link PageBrowser.readPdf}; `note` is set when the text was cut.
 */
export async function readActivePage(
  b: PageBrowser,
  id: string,
): Promise<{ attachment: PendingAttachment; truncated: boolean; note?: string } | { problem: string }> {
  const tab = await b.activeTab().catch(() => undefined);
  if (!tab) return { problem: PAGE_MESSAGES.noTab };
  let result: PageReadResult | undefined;
  try {
    result = await b.read(tab.id);
  } catch (e) {
    return { problem: scriptingProblem(e, tab.url) };
  }
  if (result?.contentType === 'application/pdf') {
    if (!b.readPdf) return { problem: PAGE_MESSAGES.pdf };
    let pdf: PdfTextResult;
    try {
      pdf = await b.readPdf(tab.id);
    } catch (e) {
      return { problem: scriptingProblem(e, tab.url) };
    }
    if (!pdf.ok) return { problem: pdfProblem(pdf) };
    const { page, note } = withPdfText(result, pdf);
    const read = pageAttachment(page, id);
    return { ...read, ...(read.truncated ? { note: PAGE_TRUNCATED_NOTE } : note ? { note } : {}) };
  }
  const problem = addPageProblem(result);
  if (problem) return { problem };
  return pageAttachment(result!, id);
}
