import { describe, expect, it } from 'vitest';
import type { PdfTextResult } from '../page/pdf-text';
import type { PageReadResult } from '../page/read-page';
import { attachmentVerdict } from './attachments';
import {
  addPageProblem,
  forTab,
  isPageAttachment,
  MAX_PAGE_CHARS,
  PAGE_MESSAGES,
  pageAttachment,
  pageLabel,
  pdfProblem,
  readActivePage,
  scriptingProblem,
  type PageBrowser,
  withPdfText,
} from './page-context';

const page = (over: Partial<PageReadResult> = {}): PageReadResult => ({
  url: 'https://news.example/ferries',
  title: 'Fjord ferries',
  text: 'Arrive early. Æøå — naïve café.',
  contentType: 'text/html',
  method: 'readability',
  ...over,
});

const decode = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));

describe('Add this page: the read page as an attachment (docs/side-panel.md#add-this-page)', () => {
  it('is a text/plain document named "title — URL" whose data is the UTF-8 text', () => {
    const { attachment, truncated } = pageAttachment(page(), 'att-1');
    expect(truncated).toBe(false);
    expect(attachment).toMatchObject({
      id: 'att-1',
      kind: 'document',
      mediaType: 'text/plain',
      name: 'Fjord ferries — https://news.example/ferries',
    });
    expect(decode(attachment.data)).toBe('Arrive early. Æøå — naïve café.');
    expect(attachment.bytes).toBe(new TextEncoder().encode('Arrive early. Æøå — naïve café.').length);
    expect(isPageAttachment(attachment)).toBe(true);
    expect(isPageAttachment({ kind: 'document', mediaType: 'application/pdf' })).toBe(false);
  });

  it('cuts a very long page and says so in the text; keeps the label within the protocol title limit', () => {
    const { attachment, truncated } = pageAttachment(page({ text: 'x'.repeat(MAX_PAGE_CHARS + 10) }), 'a');
    expect(truncated).toBe(true);
    const text = decode(attachment.data);
    expect(text.startsWith('x'.repeat(MAX_PAGE_CHARS))).toBe(true);
    expect(text).toMatch(/the rest of the page was cut by Baton\]$/);
    const label = pageLabel({ title: 'T'.repeat(900), url: `https://a.example/${'p'.repeat(900)}` });
    expect(label.length).toBeLessThanOrEqual(500);
    expect(label).toMatch(/^T+… — https:\/\/a\.example\/p+…$/);
    expect(pageLabel({ title: '', url: 'https://a.example/' })).toBe('https://a.example/');
  });

  it('refuses a PDF not read yet, an empty page and no result, each with its sentence', () => {
    expect(addPageProblem(page({ contentType: 'application/pdf', text: '' }))).toBe(PAGE_MESSAGES.pdf);
    expect(addPageProblem(page({ contentType: 'application/pdf', text: 'Read by PDF.js' }))).toBeUndefined();
    expect(addPageProblem(page({ text: '  \n ' }))).toBe(PAGE_MESSAGES.empty);
    expect(addPageProblem(undefined)).toBe(PAGE_MESSAGES.failed);
    expect(addPageProblem(page())).toBeUndefined();
    expect(() => pageAttachment(page({ text: '' }), 'a')).toThrow(PAGE_MESSAGES.empty);
  });

  it('maps the browser’s scripting errors to what the person can do', () => {
    expect(scriptingProblem(new Error('Cannot access a chrome:// URL'))).toBe(PAGE_MESSAGES.restricted);
    expect(scriptingProblem(new Error('The extensions gallery cannot be scripted.'))).toBe(PAGE_MESSAGES.restricted);
    expect(scriptingProblem(new Error('x'), 'chrome://settings/')).toBe(PAGE_MESSAGES.restricted);
    expect(scriptingProblem(new Error('Cannot access contents of url "file:///home/a.html".'))).toBe(
      PAGE_MESSAGES.file,
    );
    expect(
      scriptingProblem(
        new Error(
          'Cannot access contents of the page. Extension manifest must request permission to access the respective host.',
        ),
      ),
    ).toBe(PAGE_MESSAGES.notGranted);
    expect(
      scriptingProblem(new Error('Extension has not been invoked for the current page (see activeTab permission).')),
    ).toBe(PAGE_MESSAGES.notGranted);
    expect(PAGE_MESSAGES.notGranted).toContain('Add this page to Baton');
    expect(scriptingProblem(new Error('Frame with ID 0 was removed.'))).toBe(
      `${PAGE_MESSAGES.failed} (Frame with ID 0 was removed.)`,
    );
  });

  it('readActivePage: reads the active tab once, or says why not', async () => {
    const read: number[] = [];
    const ok: PageBrowser = {
      activeTab: async () => ({ id: 4 }),
      read: async (id) => (read.push(id), page()),
    };
    const got = await readActivePage(ok, 'att-9');
    expect('attachment' in got && got.attachment.id).toBe('att-9');
    expect(read).toEqual([4]);
    expect(await readActivePage({ ...ok, activeTab: async () => undefined }, 'a')).toEqual({
      problem: PAGE_MESSAGES.noTab,
    });
    expect(
      await readActivePage(
        {
          activeTab: async () => ({ id: 1, url: 'chrome://newtab/' }),
          read: async () => {
            throw new Error('Cannot access a chrome:// URL');
          },
        },
        'a',
      ),
    ).toEqual({ problem: PAGE_MESSAGES.restricted });
    expect(await readActivePage({ ...ok, read: async () => page({ contentType: 'application/pdf' }) }, 'a')).toEqual({
      problem: PAGE_MESSAGES.pdf,
    });
    // A menu click names the tab: that one is read, not the active one.
    await readActivePage(forTab(ok, 77), 'a');
    expect(read).toEqual([4, 77]);
  });

  it('readActivePage on a PDF in the viewer: reads it with readPdf and attaches its text like a page', async () => {
    const viewer = page({
      url: 'https://port.example/docs/harbour%20notice.pdf',
      title: '',
      text: '',
      contentType: 'application/pdf',
    });
    const asked: number[] = [];
    const b = (pdf: PdfTextResult): PageBrowser => ({
      activeTab: async () => ({ id: 8 }),
      read: async () => viewer,
      readPdf: async (id) => (asked.push(id), pdf),
    });
    const got = await readActivePage(
      b({ ok: true, text: 'Quay closed.\n\nPage two.', pages: 2, pagesRead: 2, title: 'Notice 14' }),
      'a1',
    );
    expect(asked).toEqual([8]);
    if (!('attachment' in got)) throw new Error(got.problem);
    expect(got.attachment).toMatchObject({
      kind: 'document',
      mediaType: 'text/plain',
      name: `Notice 14 — ${viewer.url}`,
    });
    expect(decode(got.attachment.data)).toBe('Quay closed.\n\nPage two.');
    expect(got.note).toBeUndefined();

    // No title of its own: the file name, decoded. Pages left unread: the text and the note say so.
    const long = await readActivePage(b({ ok: true, text: 'First pages.', pages: 900, pagesRead: 500 }), 'a2');
    if (!('attachment' in long)) throw new Error(long.problem);
    expect(long.attachment.name).toBe(`harbour notice.pdf — ${viewer.url}`);
    expect(decode(long.attachment.data)).toBe('First pages.\n\n[… Baton read the first 500 of 900 pages]');
    expect(long.note).toBe('This PDF is long: Baton read the first 500 of 900 pages.');

    // Each problem has its sentence; the error's own words follow where they help.
    const problem = async (pdf: PdfTextResult) => ((await readActivePage(b(pdf), 'x')) as { problem: string }).problem;
    expect(await problem({ ok: false, problem: 'too-large' })).toBe(PAGE_MESSAGES.pdfTooLarge);
    expect(await problem({ ok: false, problem: 'encrypted', detail: 'No password given' })).toBe(
      PAGE_MESSAGES.pdfEncrypted,
    );
    expect(await problem({ ok: false, problem: 'no-text' })).toBe(PAGE_MESSAGES.pdfNoText);
    expect(PAGE_MESSAGES.pdfNoText).toMatch(/scanned/);
    expect(await problem({ ok: false, problem: 'unreadable', detail: 'Invalid PDF structure.' })).toBe(
      `${PAGE_MESSAGES.pdfUnreadable} (Invalid PDF structure.)`,
    );
    expect(await problem({ ok: false, problem: 'download', detail: 'HTTP 403' })).toBe(
      `${PAGE_MESSAGES.pdfDownload} (HTTP 403)`,
    );
    expect(pdfProblem({ ok: false, problem: 'download' })).toBe(PAGE_MESSAGES.pdfDownload);
    // The browser refusing the download script is a scripting problem like the reader's.
    const refused = await readActivePage(
      {
        ...b({ ok: false, problem: 'no-text' }),
        readPdf: async () => Promise.reject(new Error('Cannot access a chrome:// URL')),
      },
      'x',
    );
    expect(refused).toEqual({ problem: PAGE_MESSAGES.restricted });
    // A browser without a PDF reader says so.
    expect(await readActivePage({ activeTab: async () => ({ id: 1 }), read: async () => viewer }, 'x')).toEqual({
      problem: PAGE_MESSAGES.pdf,
    });
  });

  it('withPdfText keeps the viewer tab’s URL and content type', () => {
    const viewer = page({
      url: 'https://port.example/',
      title: 'port.example',
      text: '',
      contentType: 'application/pdf',
    });
    const { page: read } = withPdfText(viewer, { ok: true, text: 't', pages: 1, pagesRead: 1 });
    expect(read).toMatchObject({
      url: 'https://port.example/',
      title: 'port.example',
      text: 't',
      contentType: 'application/pdf',
    });
  });

  it('a page goes to every model: only PDFs need PDF input', () => {
    const caps = { vision: false, pdf: false, contextWindow: 1, known: true };
    expect(attachmentVerdict([{ kind: 'document', mediaType: 'text/plain' }], 'm', caps)).toEqual({ blocked: false });
    expect(attachmentVerdict([{ kind: 'document', mediaType: 'application/pdf' }], 'm', caps).blocked).toBe(true);
  });
});
