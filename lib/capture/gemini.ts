/**
 * gemini.google.com app pages (`/app/<id>`): Angular elements `user-query` (text in
 * `.query-text-line` paragraphs, one per line; uploads in `.file-preview-container`) and
 * `model-response` (Markdown in `message-content .markdown`; code in `code-block` with the
 * language in its `.code-block-decoration` header; formulas carry `data-math`). Gemini loads
 * earlier turns only when the history is scrolled up and marks nothing, so partial loading
 * cannot be detected.
 */
import { fence, preText, readParts } from './dom-markdown';
import type { CapturedConversation, CapturedMessage, CapturedPart } from './types';

const USER = 'user-query';
const ASSISTANT = 'model-response';

function codeBlock(el: Element): string | undefined {
  if (el.tagName.toLowerCase() !== 'code-block') return undefined;
  const label = el.querySelector('.code-block-decoration span') ?? el.querySelector('.code-block-decoration');
  const lang = (label?.textContent ?? '').replace(/\s+/g, ' ').trim().split(' ')[0]?.toLowerCase();
  const code = el.querySelector('code') ?? el.querySelector('pre');
  return fence(code?.textContent ?? '', lang && /^[\w+#.-]{1,30}$/.test(lang) ? lang : undefined);
}

function userParts(el: Element, baseUrl: string): CapturedPart[] {
  const previews = el.querySelector('.file-preview-container');
  const images = previews ? readParts(previews, { baseUrl }).filter((p) => p.type === 'image') : [];
  const lines = Array.from(el.querySelectorAll('.query-text-line'));
  const text = lines.length
    ? lines
        .map((l) => preText(l))
        .join('\n')
        .trim()
    : readParts(el.querySelector('.query-text') ?? el, { baseUrl })
        .flatMap((p) => (p.type === 'text' ? [p.text] : []))
        .join('\n\n');
  return [...images, ...(text ? [{ type: 'text' as const, text }] : [])];
}

/** Reads a gemini.google.com page. */
export function readGemini(doc: Document, url: string): CapturedConversation {
  const messages: CapturedMessage[] = [];
  for (const el of Array.from(doc.querySelectorAll(`${USER}, ${ASSISTANT}`))) {
    const role = el.matches(USER) ? 'user' : 'assistant';
    const parts =
      role === 'user'
        ? userParts(el, url)
        : readParts(el.querySelector('message-content .markdown') ?? el.querySelector('message-content') ?? el, {
            baseUrl: url,
            replace: codeBlock,
          });
    if (parts.length) messages.push({ role, parts });
  }
  const title = doc.title.replace(/\s*[-|]\s*Gemini\s*$/i, '').trim();
  return {
    site: 'gemini',
    url,
    ...(title && title !== 'Gemini' && title !== 'Google Gemini' ? { title } : {}),
    messages,
    partial: false,
    partialReason:
      'Gemini loads earlier turns only when the history is scrolled up and marks nothing, so a partial page cannot be detected.',
  };
}
