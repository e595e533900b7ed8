/**
 * Sanitisers for what the on-demand typesetters produce (docs/side-panel.md): highlight.js's HTML for a code
 * block and KaTeX's HTML + MathML for a formula. Loaded only with them (`highlight-lazy.ts`,
 * `katex-lazy.ts`), so the side panel's first load does not carry them. Same rules as
 * `sanitize.ts` (R1–R3): our own DOMPurify instance, then an independent allowlist walk.
 */
import type { Config } from 'dompurify';
import { HTML_NS, purify } from './sanitize';

/** Classes highlight.js emits: `hljs-keyword`, and sub-scopes such as `function_`. */
const HL_CLASS_OK = /^(?:hljs-[a-z][\w-]{0,30}|[a-z]{1,20}_{1,3})$/;
const HL_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: ['span'],
  ALLOWED_ATTR: ['class'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  KEEP_CONTENT: true,
  FORCE_BODY: true,
  RETURN_DOM_FRAGMENT: true,
};

/**
 * Highlighter HTML (highlight.js output for a code block's text) as a fragment of `span`s with
 * `hljs-*` classes only, or undefined when its text differs from `text` (the highlighter must only
 * colour the code, never change it). R1: the code was escaped by the highlighter; this pass keeps
 * that true even if it were not.
 */
export function sanitizeHighlight(html: string, text: string, doc: Document = document): DocumentFragment | undefined {
  const frag = doc.importNode(purify().sanitize(html, HL_CONFIG), true);
  for (const el of [...frag.querySelectorAll('*')]) {
    if (el.namespaceURI !== HTML_NS || el.localName !== 'span') {
      el.remove();
      continue;
    }
    for (const name of el.getAttributeNames()) if (name !== 'class') el.removeAttribute(name);
    const kept = [...el.classList].filter((c) => HL_CLASS_OK.test(c));
    if (kept.length) el.setAttribute('class', kept.join(' '));
    else el.removeAttribute('class');
  }
  return frag.textContent === text ? frag : undefined;
}

const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
const SVG_NS = 'http://www.w3.org/2000/svg';
/** MathML elements KaTeX writes (its `htmlAndMathml` output); none of them fetches or runs anything. */
export const MATH_TAGS: readonly string[] = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mpadded',
  'mphantom',
  'menclose',
  'mstyle',
  'merror',
  'mlabeledtr',
];
/** SVG elements KaTeX draws stretchy glyphs with (no `use`, `image`, `a`, `foreignObject`, `style`, `script`). */
const MATH_SVG_TAGS = ['svg', 'path', 'line'];
const MATH_ATTRS = [
  'class',
  'style',
  'aria-hidden',
  'title',
  'encoding',
  'mathvariant',
  'stretchy',
  'fence',
  'separator',
  'lspace',
  'rspace',
  'accent',
  'accentunder',
  'columnalign',
  'rowalign',
  'columnlines',
  'rowlines',
  'columnspacing',
  'rowspacing',
  'width',
  'height',
  'depth',
  'voffset',
  'minsize',
  'maxsize',
  'symmetric',
  'movablelimits',
  'mathsize',
  'mathcolor',
  'mathbackground',
  'notation',
  'linethickness',
  'scriptlevel',
  'displaystyle',
  'display',
  'largeop',
  'form',
  'viewbox',
  'preserveaspectratio',
  'd',
  'x1',
  'y1',
  'x2',
  'y2',
  'stroke-width',
];
const MATH_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: ['span', ...MATH_TAGS, ...MATH_SVG_TAGS],
  ALLOWED_ATTR: MATH_ATTRS,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  FORCE_BODY: true,
  RETURN_DOM_FRAGMENT: true,
};
/** CSS properties KaTeX sets inline (sizes, offsets, colours); anything else is dropped. */
const STYLE_PROPS = new Set([
  'height',
  'min-height',
  'width',
  'min-width',
  'max-width',
  'vertical-align',
  'top',
  'bottom',
  'left',
  'right',
  'position',
  'display',
  'margin-left',
  'margin-right',
  'margin-top',
  'margin-bottom',
  'padding-left',
  'padding-right',
  'padding-top',
  'padding-bottom',
  'border-bottom-width',
  'border-top-width',
  'border-right-width',
  'border-left-width',
  'border-style',
  'border-color',
  'color',
  'background-color',
  'font-size',
  'line-height',
  'stroke-width',
]);
/** A declaration value that can only size, place or colour: numbers with units, keywords, `#hex`, `rgb()`/`calc()` of numbers. */
const STYLE_VALUE =
  /^(?:[-+]?(?:\d+\.?\d*|\.\d+)(?:em|ex|px|pt|%|mu)?|[a-z-]{1,20}|#[0-9a-f]{3,8}|(?:rgba?|calc)\([\d\s.,%+*/a-z-]{1,80}\))(?:\s+(?:[-+]?(?:\d+\.?\d*|\.\d+)(?:em|ex|px|pt|%)?|[a-z-]{1,20}))*$/i;

/** `style` reduced to allowed properties with inert values (R3: never `url()`, `image-set()`, `@import`, `\` escapes); '' when nothing is left. */
export function safeMathStyle(style: string): string {
  const out: string[] = [];
  for (const decl of style.split(';')) {
    const i = decl.indexOf(':');
    if (i < 0) continue;
    const prop = decl.slice(0, i).trim().toLowerCase();
    const value = decl.slice(i + 1).trim();
    if (STYLE_PROPS.has(prop) && STYLE_VALUE.test(value) && !/url|image|expression|import|\\/i.test(value))
      out.push(`${prop}:${value}`);
  }
  return out.join(';');
}

/**
 * KaTeX's HTML (typeset from a model's TeX with `trust: false`) as a fragment, or undefined when
 * the sanitiser had to remove anything beyond attributes (then the caller keeps the TeX source
 * as text). Allowed: HTML `span`, the MathML elements in {@link MATH_TAGS}, SVG `svg`/`path`/`line`;
 * attributes from a fixed list; `style` only through {@link safeMathStyle}; classes as KaTeX
 * writes them. Nothing can fetch or run (R1, R3): no `href`, `src`, `xlink:href`, `on*`, `id`.
 */
export function sanitizeMath(html: string, doc: Document = document): DocumentFragment | undefined {
  const frag = doc.importNode(purify().sanitize(html, MATH_CONFIG), true);
  const mathTags = new Set(MATH_TAGS);
  for (const el of [...frag.querySelectorAll('*')]) {
    const ns = el.namespaceURI;
    const tag = el.localName;
    const ok =
      (ns === HTML_NS && tag === 'span') ||
      (ns === MATHML_NS && mathTags.has(tag)) ||
      (ns === SVG_NS && MATH_SVG_TAGS.includes(tag));
    if (!ok) return undefined;
    for (const name of el.getAttributeNames()) {
      const n = name.toLowerCase();
      if (!MATH_ATTRS.includes(n)) el.removeAttribute(name);
      else if (n === 'style') {
        const safe = safeMathStyle(el.getAttribute(name) ?? '');
        if (safe) el.setAttribute('style', safe);
        else el.removeAttribute('style');
      } else if (n === 'class') {
        const kept = [...el.classList].filter((c) => /^[a-zA-Z][\w-]{0,40}$/.test(c));
        if (kept.length) el.setAttribute('class', kept.join(' '));
        else el.removeAttribute('class');
      } else if (/url|javascript:|data:/i.test(el.getAttribute(name) ?? '') && n !== 'title' && n !== 'encoding')
        el.removeAttribute(name);
    }
  }
  return frag;
}
