/**
 * The text of a PDF for "Add this page" (docs/side-panel.md#add-this-page): what PDF.js
 * (`pdfjs-dist`, Mozilla's PDF reader) finds in the text layer of each page, page by page. The
 * PDF.js module is passed in, not imported, so the side panel can load it only when a PDF is added
 * (entrypoints/sidepanel/pdf-reader.ts, a lazy chunk) and Node tests can pass its legacy build.
 */
import { normaliseText } from './normalise-text';

/** Largest PDF Baton downloads and reads, in bytes (20 MB). */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
/** Pages read at most; a longer PDF is attached with the text of its first pages, and says so. */
export const MAX_PDF_PAGES = 500;
/** Characters after which reading stops (the attachment is cut at this length anyway, lib/ui/page-context.ts). */
export const MAX_PDF_CHARS = 1_000_000;

/** Why a PDF's text could not be read. */
export type PdfProblem =
  /** Larger than {@link MAX_PDF_BYTES}. */
  | 'too-large'
  /** It needs a password to open (encrypted with a user password). */
  | 'encrypted'
  /** It opened, but no page has a text layer (a scan: its pages are images). */
  | 'no-text'
  /** PDF.js could not parse it (damaged, or not a PDF). */
  | 'unreadable'
  /** Downloading it again from its address failed (`detail` says how). */
  | 'download';

/** A PDF's text, or why there is none. `detail` is the underlying error's message, for the note. */
export type PdfTextResult =
  | {
      ok: true;
      /** The pages' text, pages separated by a blank line. */
      text: string;
      /** Pages in the PDF. */
      pages: number;
      /** Pages whose text is in `text` (fewer than `pages` when a cap was reached). */
      pagesRead: number;
      /** The PDF's own title (document information `Title`), when it has one. */
      title?: string;
    }
  | { ok: false; problem: PdfProblem; detail?: string };

/** The part of a PDF.js text item Baton uses (a `TextItem`; marked-content items have no `str`). */
interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/** The subset of the PDF.js API this module calls (`pdfjs-dist`'s `getDocument`). */
export interface PdfJsLike {
  getDocument(src: {
    data: Uint8Array;
    isEvalSupported: boolean;
    disableFontFace: boolean;
    enableXfa: boolean;
    stopAtErrors: boolean;
    verbosity: number;
    cMapUrl?: string;
    cMapPacked?: boolean;
  }): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<{
        getTextContent(): Promise<{ items: unknown[] }>;
        cleanup(): unknown;
      }>;
      getMetadata(): Promise<{ info: unknown }>;
      destroy(): Promise<void>;
    }>;
    destroy(): Promise<void>;
  };
}

/** Options of {@link pdfText}. */
export interface PdfTextOptions {
  /** Where PDF.js finds its packed character maps (`…/cmaps/`), needed for CJK fonts without a ToUnicode map. */
  cMapUrl?: string;
  /** Overrides {@link MAX_PDF_PAGES} (tests). */
  maxPages?: number;
}

/** One page's text items as lines (PDF.js marks the end of a line with `hasEOL`), whitespace normalised as a page's text is. */
export function pageText(items: unknown[]): string {
  let out = '';
  for (const raw of items) {
    const item = raw as TextItemLike;
    if (typeof item.str !== 'string') continue;
    out += item.str;
    if (item.hasEOL) out += '\n';
  }
  return normaliseText(out);
}

/**
 * Reads the text of the PDF in `data` with `pdfjs`: every page up to {@link MAX_PDF_PAGES} or
 * until {@link MAX_PDF_CHARS} characters are read. Eval stays off (`isEvalSupported: false`: the
 * extension's CSP forbids it) and no font is added to the page (`disableFontFace`). Never throws:
 * a PDF larger than {@link MAX_PDF_BYTES}, one that needs a password, one with no text layer and
 * one PDF.js cannot parse each come back as a {@link PdfProblem}. `data` is transferred to PDF.js's
 * worker (it is empty afterwards).
 */
export async function pdfText(pdfjs: PdfJsLike, data: Uint8Array, opts: PdfTextOptions = {}): Promise<PdfTextResult> {
  if (data.byteLength > MAX_PDF_BYTES) return { ok: false, problem: 'too-large' };
  const maxPages = opts.maxPages ?? MAX_PDF_PAGES;
  const task = pdfjs.getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
    ...(opts.cMapUrl ? { cMapUrl: opts.cMapUrl, cMapPacked: true } : {}),
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (e) {
    void task.destroy();
    const name = (e as { name?: string } | null)?.name;
    const detail = e instanceof Error ? e.message : String(e);
    return { ok: false, problem: name === 'PasswordException' ? 'encrypted' : 'unreadable', detail };
  }
  try {
    const parts: string[] = [];
    let chars = 0;
    let pagesRead = 0;
    for (let n = 1; n <= doc.numPages && n <= maxPages && chars <= MAX_PDF_CHARS; n++) {
      const page = await doc.getPage(n);
      const text = pageText((await page.getTextContent()).items);
      page.cleanup();
      pagesRead = n;
      if (text) {
        parts.push(text);
        chars += text.length + 2;
      }
    }
    if (!parts.length) return { ok: false, problem: 'no-text' };
    const info = (await doc.getMetadata().catch(() => ({ info: undefined }))).info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
    return { ok: true, text: parts.join('\n\n'), pages: doc.numPages, pagesRead, ...(title ? { title } : {}) };
  } catch (e) {
    return { ok: false, problem: 'unreadable', detail: e instanceof Error ? e.message : String(e) };
  } finally {
    void doc.destroy();
  }
}
