/**
 * Syntax highlighting of fenced code (docs/side-panel.md), loaded on demand by `enhance.ts` only: highlight.js
 * core with its common languages (~40, one chunk) must not grow the side panel's first load.
 * Never imported from the background (a service worker may not `import()`).
 */
import hljs from 'highlight.js/lib/common';
import { sanitizeHighlight } from './sanitize-typeset';

/** Largest code block highlighted, in characters (beyond it the code stays plain: fast to show). */
const MAX_CHARS = 100_000;

/**
 * Colours `code` (a `<code class="language-…">` the renderer made) when highlight.js knows its
 * language, in place; the text is unchanged (checked by `sanitizeHighlight`). Returns whether it did.
 */
export function highlightCode(code: HTMLElement): boolean {
  const lang = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1];
  const text = code.textContent ?? '';
  if (!lang || !hljs.getLanguage(lang) || text.length > MAX_CHARS) return false;
  const html = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
  const frag = sanitizeHighlight(html, text, code.ownerDocument);
  if (!frag) return false;
  code.replaceChildren(frag);
  code.classList.add('hljs');
  return true;
}
