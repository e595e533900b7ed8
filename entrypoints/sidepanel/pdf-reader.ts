/**
 * PDFs for "Add this page" (docs/side-panel.md#add-this-page), loaded with `import()` only when
 * the tab is a PDF, so PDF.js stays out of the side panel's first load. The viewer tab downloads
 * the file again ({@link fetchOwnPdf}, under the same grant as the page reader), then PDF.js reads
 * it here. Its worker and character maps are packaged extension files (`pdfjs/`, copied from the
 * installed `pdfjs-dist` by wxt.config.ts): nothing is fetched from elsewhere, and eval stays off
 * (lib/page/pdf-text.ts passes `isEvalSupported: false`; the extension's CSP forbids it anyway).
 */
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import { browser } from 'wxt/browser';
import { fetchOwnPdf, type PdfBytesResult } from '../../lib/page/pdf-bytes';
import { MAX_PDF_BYTES, pdfText, type PdfJsLike, type PdfTextResult } from '../../lib/page/pdf-text';

/** The call of `browser.scripting` this module makes. */
interface InjectFunc {
  executeScript(o: {
    target: { tabId: number };
    func: (maxBytes: number) => Promise<PdfBytesResult>;
    args: [number];
  }): Promise<{ result?: unknown }[]>;
}

/** Packaged files are not in WXT's typed public paths (they are written by a build hook). */
const extensionUrl = (path: string) => (browser.runtime.getURL as (p: string) => string)(path);

GlobalWorkerOptions.workerSrc = extensionUrl('/pdfjs/pdf.worker.min.mjs');

function fromBase64(b64: string): Uint8Array {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The text of the PDF shown in tab `tabId` (see {@link pdfText}). Rejects only with the browser's
 * error when it refuses the injection (mapped like the page reader's, lib/ui/page-context.ts).
 */
export async function readPdfInTab(scripting: InjectFunc, tabId: number): Promise<PdfTextResult> {
  const [first] = await scripting.executeScript({ target: { tabId }, func: fetchOwnPdf, args: [MAX_PDF_BYTES] });
  const got = first?.result as PdfBytesResult | undefined;
  if (!got) return { ok: false, problem: 'download', detail: 'the tab returned nothing' };
  if (!got.ok) return { ok: false, problem: got.problem, ...(got.detail ? { detail: got.detail } : {}) };
  return pdfText({ getDocument } as unknown as PdfJsLike, fromBase64(got.base64), {
    cMapUrl: extensionUrl('/pdfjs/cmaps/'),
  });
}
