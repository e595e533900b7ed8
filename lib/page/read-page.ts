/**
 * What "Add this page" reads in the person's tab (docs/side-panel.md#add-this-page): the page's
 * readable text by Mozilla's Readability (the reader-view extractor), run on a clone of the
 * document so the page itself is never changed. This file is bundled only into the injected
 * `page-reader.js` (entrypoints/page-reader.ts); the side panel imports its types only.
 */
import { Readability } from '@mozilla/readability';
import { normaliseText } from './normalise-text';

/** What the reader returns to the side panel (structured-clone safe). */
export interface PageReadResult {
  /** `location.href` of the page read. */
  url: string;
  /** Readability's title, else `document.title`, else the URL's host. */
  title: string;
  /** The readable text, paragraphs separated by a blank line ('' when none was found). */
  text: string;
  /** `document.contentType`, e.g. `text/html`, or `application/pdf` in the browser's PDF viewer. */
  contentType: string;
  /** How the text was found: Readability's article, or (when it found none) the body's visible text. */
  method: 'readability' | 'body';
}

/**
 * Reads `doc` (the tab's document). A PDF in the browser's viewer is returned with its content
 * type and no text: its text is not in the DOM. Never throws for a page without an article: the
 * body's visible text is used instead, or '' when there is none.
 */
export function readPage(doc: Document): PageReadResult {
  const url = doc.URL;
  const contentType = doc.contentType || 'text/html';
  const fallbackTitle = doc.title.trim() || hostOf(url);
  if (contentType === 'application/pdf') return { url, title: fallbackTitle, text: '', contentType, method: 'body' };
  let article: { title?: string | null; textContent?: string | null } | null;
  try {
    article = new Readability(doc.cloneNode(true) as Document).parse();
  } catch {
    article = null;
  }
  const articleText = normaliseText(article?.textContent ?? '');
  if (articleText) {
    const title = article?.title?.trim() || fallbackTitle;
    return { url, title, text: articleText, contentType, method: 'readability' };
  }
  const body = doc.body as (HTMLElement & { innerText?: string }) | null;
  return {
    url,
    title: fallbackTitle,
    text: normaliseText(body?.innerText ?? body?.textContent ?? ''),
    contentType,
    method: 'body',
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
