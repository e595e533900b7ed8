// @vitest-environment happy-dom
/**
 * PDF text for "Add this page" (docs/side-panel.md#add-this-page), read by the real PDF.js on PDFs
 * written by hand in the test (test/fixtures/pdf.ts). Node gets PDF.js's legacy build (the modern
 * one needs a newer Node; the extension's build runs in e2e, test/e2e/add-page.e2e.ts), in a
 * happy-dom window for the `DOMMatrix` its display layer creates at load.
 */
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../test/fixtures/pdf';
import { MAX_PDF_BYTES, pageText, pdfText, type PdfJsLike } from './pdf-text';

const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJsLike;

describe('pdfText: a PDF’s text layer, page by page', () => {
  it('reads every page in order, lines kept, pages a blank line apart, with the PDF’s own title', async () => {
    const data = makePdf(
      [
        ['Fjord ferries in winter', 'Arrive forty minutes early (caf\u00e9 on board).'],
        ['The car deck closes fifteen minutes before departure.'],
      ],
      { title: 'Coast timetable 2026' },
    );
    const got = await pdfText(pdfjs, data);
    expect(got).toEqual({
      ok: true,
      text: 'Fjord ferries in winter\nArrive forty minutes early (caf\u00e9 on board).\n\nThe car deck closes fifteen minutes before departure.',
      pages: 2,
      pagesRead: 2,
      title: 'Coast timetable 2026',
    });
  });

  it('stops at the page cap and says how many pages it read', async () => {
    const got = await pdfText(pdfjs, makePdf([['one'], ['two'], ['three']]), { maxPages: 2 });
    expect(got).toEqual({ ok: true, text: 'one\n\ntwo', pages: 3, pagesRead: 2 });
  });

  it('a scan (pages that are only images) has no text layer', async () => {
    expect(await pdfText(pdfjs, makePdf(['image', 'image']))).toEqual({ ok: false, problem: 'no-text' });
    // One page of text among scans is enough.
    const mixed = await pdfText(pdfjs, makePdf(['image', ['Page two has text.']]));
    expect(mixed).toMatchObject({ ok: true, text: 'Page two has text.', pages: 2, pagesRead: 2 });
  });

  it('a PDF that needs a password is "encrypted"', async () => {
    const got = await pdfText(pdfjs, makePdf([['secret plans']], { userPassword: 'fjord' }));
    expect(got).toMatchObject({ ok: false, problem: 'encrypted' });
    expect(JSON.stringify(got)).not.toContain('secret plans');
  });

  it('bytes that are not a PDF are "unreadable"; more than 20 MB is "too-large" before parsing', async () => {
    const notPdf = new TextEncoder().encode('<html>Not found</html>');
    expect(await pdfText(pdfjs, notPdf)).toMatchObject({ ok: false, problem: 'unreadable' });
    let called = false;
    const spy: PdfJsLike = {
      getDocument: (src) => ((called = true), pdfjs.getDocument(src)),
    };
    expect(await pdfText(spy, new Uint8Array(MAX_PDF_BYTES + 1))).toEqual({ ok: false, problem: 'too-large' });
    expect(called).toBe(false);
  });

  it('pageText: joins items, breaks lines where PDF.js marks an end of line, tidies spaces', () => {
    expect(
      pageText([
        { str: 'Hello', hasEOL: false },
        { str: ' ', hasEOL: false },
        { str: 'world  ', hasEOL: true },
        { type: 'beginMarkedContent' },
        { str: '\u00a0second\tline', hasEOL: true },
        { str: '', hasEOL: true },
        { str: '', hasEOL: true },
        { str: 'third', hasEOL: false },
      ]),
    ).toBe('Hello world\nsecond line\n\nthird');
  });
});
