/**
 * The sanitiser stage of the model-output pipeline (security-requirements.md R1–R3): DOMPurify
 * with a strict allowlist parses the renderer's HTML in an inert document and returns DOM nodes
 * (never re-serialised and re-parsed, so no mutation-XSS round trip), then a post-pass:
 * - anchors keep only absolute `https:`/`http:`/`mailto:` destinations, get
 *   `target="_blank" rel="noopener noreferrer"` and show their full destination; any other
 *   anchor is unwrapped into its plain text (R2);
 * - image markers become placeholders that show the full URL and open it in a new tab only when
 *   clicked (R3; `markdown-view.tsx` handles the click);
 * - code blocks get a toolbar with a Copy button.
 * Highlighted code and typeset math are sanitised by `sanitize-typeset.ts` (loaded with them).
 * Nothing here can fetch: no `img`, `style`, `svg`, `math`, `iframe`, `form`, `meta`, `base`,
 * `link`, `input` and no `style`/`src`/`srcset`/`background`/`on*` attribute survive.
 */
import DOMPurify, { type Config } from 'dompurify';
import { safeImageUrl, safeLinkUrl } from '../../lib/ui/safe-url';

/** Tags the rendered markdown may contain (R1). The post-pass adds only `button` and `span`. */
export const ALLOWED_TAGS: readonly string[] = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'div',
];
/** Tags the post-pass itself creates (placeholders, copy buttons). */
export const ADDED_TAGS: readonly string[] = ['button'];
/** Attributes the sanitiser keeps; everything else (`style`, `on*`, `src`, `data-*`, …) is dropped. */
export const ALLOWED_ATTR: readonly string[] = ['href', 'title', 'class', 'start', 'align'];

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [...ALLOWED_TAGS],
  ALLOWED_ATTR: [...ALLOWED_ATTR],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // R2: only these schemes survive in `href` (checked again, URL-parsed, in the post-pass).
  ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  // `start`, `align` hold numbers and words, not URLs.
  ADD_URI_SAFE_ATTR: ['start', 'align'],
  FORBID_ATTR: ['style'],
  KEEP_CONTENT: true,
  // Parse as body content from the first character (a leading element is never taken for <head> content).
  FORCE_BODY: true,
  RETURN_DOM_FRAGMENT: true,
};

/** Class names the renderer emits; any other class is removed. */
const CLASS_OK = /^(?:md-[a-z-]{1,20}|language-[\w+#.-]{1,30})$/;

let purifier: ReturnType<typeof DOMPurify> | undefined;
/** Baton's own DOMPurify instance (for `sanitize-typeset.ts`, loaded on demand). */
export function purify(): ReturnType<typeof DOMPurify> {
  // Our own instance: hooks or settings of any other DOMPurify user cannot change ours.
  purifier ??= DOMPurify(window);
  return purifier;
}

/**
 * Sanitises renderer HTML into a fragment owned by `doc`, with the R2/R3 post-pass applied.
 * Safe for any input string (it is treated as hostile).
 */
export function sanitizeToFragment(html: string, doc: Document = document): DocumentFragment {
  const dirty = purify().sanitize(html, CONFIG);
  const frag = doc.importNode(dirty, true);
  postProcess(frag, doc);
  return frag;
}

export const HTML_NS = 'http://www.w3.org/1999/xhtml';
/** Disallowed elements whose content is not shown either (raw text, foreign content, embeds). */
const DROP_WHOLE = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'textarea',
  'title',
  'svg',
  'math',
  'object',
  'embed',
  'select',
]);
const TAGS = new Set(ALLOWED_TAGS);
/** Attributes per element beyond `title` and `class`. */
const ATTRS_FOR: Record<string, readonly string[]> = { a: ['href'], ol: ['start'], th: ['align'], td: ['align'] };

/**
 * A second, independent allowlist pass over what DOMPurify returned (defence in depth: a
 * sanitiser bug would also have to beat this walk). Disallowed elements are unwrapped into their
 * content, or dropped whole for raw-text, foreign and embedding elements; attributes outside the
 * per-element allowlist are removed; classes are limited to the renderer's own.
 */
function enforceAllowlist(root: DocumentFragment): void {
  for (const el of [...root.querySelectorAll('*')]) {
    if (!root.contains(el)) continue;
    const tag = el.localName;
    if (el.namespaceURI !== HTML_NS || !TAGS.has(tag)) {
      if (DROP_WHOLE.has(tag) || el.namespaceURI !== HTML_NS) el.remove();
      else el.replaceWith(...el.childNodes);
      continue;
    }
    for (const name of el.getAttributeNames()) {
      if (name !== 'title' && name !== 'class' && !ATTRS_FOR[tag]?.includes(name)) el.removeAttribute(name);
    }
    if (el.hasAttribute('class')) {
      const kept = [...el.classList].filter((c) => CLASS_OK.test(c));
      if (kept.length) el.setAttribute('class', kept.join(' '));
      else el.removeAttribute('class');
    }
  }
}

function postProcess(root: DocumentFragment, doc: Document): void {
  enforceAllowlist(root);
  for (const a of [...root.querySelectorAll('a')]) fixLink(a, doc);
  for (const m of [...root.querySelectorAll('span.md-image')]) replaceImage(m, doc);
  for (const pre of [...root.querySelectorAll('pre')]) wrapCode(pre, doc);
}

function fixLink(a: HTMLAnchorElement, doc: Document): void {
  const url = safeLinkUrl(a.getAttribute('href'));
  if (!url) {
    // R2: not a permitted destination → plain text (the link's own words).
    a.replaceWith(...a.childNodes);
    return;
  }
  for (const name of a.getAttributeNames()) if (name !== 'class') a.removeAttribute(name);
  a.setAttribute('href', url.href);
  a.setAttribute('target', '_blank');
  a.setAttribute('rel', 'noopener noreferrer');
  a.setAttribute('title', url.href);
  const shown = (a.textContent ?? '').trim();
  const dest = url.protocol === 'mailto:' ? url.href.slice('mailto:'.length) : url.href;
  if (shown !== url.href && shown !== dest && shown.replace(/\/$/, '') !== url.href.replace(/\/$/, '')) {
    // R2: the full destination is always visible, not only on hover.
    const note = doc.createElement('span');
    note.className = 'md-dest';
    note.textContent = ` (${url.href})`;
    a.after(note);
  }
  if (!shown) a.textContent = url.href;
}

function replaceImage(marker: Element, doc: Document): void {
  const raw = marker.getAttribute('title') ?? '';
  const alt = (marker.textContent ?? '').trim();
  const url = safeImageUrl(raw);
  // R3: a button (or plain text for non-web URLs) that names the image and shows its full URL.
  const box = doc.createElement(url ? 'button' : 'span');
  box.className = 'md-image';
  if (url) {
    box.setAttribute('type', 'button');
    box.setAttribute('data-md-open', url.href);
    box.setAttribute('title', 'Image not loaded. Click to open it in a new tab.');
  }
  const label = doc.createElement('span');
  label.className = 'md-image-label';
  label.textContent = alt ? `Image: ${alt}` : 'Image';
  const where = doc.createElement('span');
  where.className = 'md-url';
  where.textContent = url ? url.href : raw;
  box.append(label, ' ', where);
  marker.replaceWith(box);
}

function wrapCode(pre: HTMLPreElement, doc: Document): void {
  const wrap = doc.createElement('div');
  wrap.className = 'md-code';
  const bar = doc.createElement('div');
  bar.className = 'md-code-bar';
  const lang = /(?:^|\s)language-([\w+#.-]+)/.exec(pre.querySelector('code')?.className ?? '')?.[1];
  const name = doc.createElement('span');
  name.textContent = lang ?? 'code';
  const copy = doc.createElement('button');
  copy.setAttribute('type', 'button');
  copy.className = 'md-copy';
  copy.setAttribute('data-md-copy', '');
  copy.textContent = 'Copy';
  copy.setAttribute('aria-label', `Copy ${lang ?? ''} code`.replace(/\s+/g, ' '));
  bar.append(name, copy);
  pre.replaceWith(wrap);
  wrap.append(bar, pre);
}
