/**
 * PDF.js in the side panel, for "Add this page" on a PDF (docs/side-panel.md#add-this-page). This
 * module is loaded only with `import()` when a PDF is added, so PDF.js stays out of the panel's
 * first load. Its worker and character maps are packaged extension files (`pdfjs/`, copied from the
 * installed `pdfjs-dist` by wxt.config.ts): nothing is fetched from elsewhere, and eval stays off
 * (lib/page/pdf-text.ts passes `isEvalSupported: false`; the extension's CSP forbids it anyway).
 */
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import { browser } from 'wxt/browser';
import { pdfText, type PdfJsLike, type PdfTextResult } from '../../lib/page/pdf-text';

/** Packaged files are not in WXT's typed public paths (they are written by a build hook). */
const extensionUrl = (path: string) => (browser.runtime.getURL as (p: string) => string)(path);

GlobalWorkerOptions.workerSrc = extensionUrl('/pdfjs/pdf.worker.min.mjs');

/** The text of the PDF in `data` (see {@link pdfText}; never throws). */
export function readPdfText(data: Uint8Array): Promise<PdfTextResult> {
  return pdfText({ getDocument } as unknown as PdfJsLike, data, { cMapUrl: extensionUrl('/pdfjs/cmaps/') });
}
