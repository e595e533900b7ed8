/**
 * Math typesetting with KaTeX (docs/side-panel.md), loaded on demand by `enhance.ts` only, with its CSS and
 * fonts packaged in the extension (nothing fetched from the network, R3). Never imported from the
 * background (a service worker may not `import()`).
 */
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { sanitizeMath } from './sanitize-typeset';

/**
 * KaTeX options for untrusted TeX: `trust: false` refuses `\href`, `\url`, `\includegraphics`,
 * `\htmlClass`/`\htmlId`/`\htmlStyle`/`\htmlData`; errors are shown in place (never thrown);
 * `maxSize` and `maxExpand` bound what a hostile macro can make. Output carries MathML for
 * screen readers and HTML for sight.
 */
const OPTIONS = {
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  output: 'htmlAndMathml',
  maxSize: 50,
  maxExpand: 500,
} as const;

const CACHE_MAX = 300;
const cache = new Map<string, string>();

function typeset(tex: string, display: boolean): string {
  const key = `${display ? 'D' : 'I'}${tex}`;
  let html = cache.get(key);
  if (html === undefined) {
    try {
      html = katex.renderToString(tex, { ...OPTIONS, displayMode: display });
    } catch {
      html = '';
    }
    cache.set(key, html);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  return html;
}

/**
 * Typesets `el` (an `.md-math` element holding TeX source as text) in place; the TeX stays in
 * its `title` and in the MathML annotation. On any failure the source stays shown. Returns
 * whether it typeset.
 */
export function renderMath(el: HTMLElement): boolean {
  const tex = el.textContent ?? '';
  const html = typeset(tex, el.classList.contains('md-math-display'));
  const frag = html ? sanitizeMath(html, el.ownerDocument) : undefined;
  if (!frag) return false;
  el.replaceChildren(frag);
  el.classList.add('md-math-done');
  el.setAttribute('title', tex.length > 300 ? `${tex.slice(0, 300)}…` : tex);
  return true;
}
