/**
 * A chat message's DOM → Markdown text and image references, in page order. Reads only
 * `textContent` and a few attributes (never `innerHTML`), so HTML a person typed stays literal
 * text (security-requirements.md I1). Controls (buttons, inputs), hidden labels (`sr-only`),
 * `aria-hidden` duplicates and SVG icons are skipped; KaTeX/MathJax formulas become their TeX
 * source; `<pre>` becomes a fenced code block with its language.
 */
import type { CapturedPart } from './types';

/** Options of {@link readParts}. */
export interface ReadOptions {
  /** The page URL, to resolve relative image URLs. */
  baseUrl: string;
  /** Elements to leave out (site-specific chrome: tool-use summaries, artifact cards…). */
  skip?: (el: Element) => boolean;
  /** Elements to replace with a line of text (e.g. an artifact card → "[Artifact: …]"). */
  replace?: (el: Element) => string | undefined;
}

const SKIP_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'button',
  'input',
  'textarea',
  'select',
  'iframe',
  'object',
  'canvas',
  'video',
  'audio',
  'mat-icon',
  'head',
]);
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'figure',
  'figcaption',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'main',
  'aside',
  'nav',
]);
const HIDDEN_CLASSES = ['sr-only', 'cdk-visually-hidden', 'visually-hidden'];
/** Marks an image's place in the text until the parts are split (never in page text: U+0000 is dropped first). */
const IMG = '\u0000';

/** A fenced code block whose fence is longer than any backtick run inside `code`. */
export function fence(code: string, language: string | undefined): string {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${language ?? ''}\n${code.replace(/\n$/, '')}\n${f}`;
}

const tag = (el: Element) => el.tagName.toLowerCase();
const hasClass = (el: Element, c: string) => (el.getAttribute('class') ?? '').split(/\s+/).includes(c);

function isHidden(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden')) return true;
  return HIDDEN_CLASSES.some((c) => hasClass(el, c));
}

/** The language of a code block: `language-x` / `lang-x` classes, `data-language`, else undefined. */
export function codeLanguage(pre: Element): string | undefined {
  for (const el of [pre.querySelector('code'), pre]) {
    if (!el) continue;
    const attr = el.getAttribute('data-language') ?? el.getAttribute('data-lang');
    if (attr && /^[\w+#.-]{1,30}$/.test(attr)) return attr.toLowerCase();
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]{1,30})/.exec(el.getAttribute('class') ?? '');
    if (m) return m[1]!.toLowerCase();
  }
  return undefined;
}

/** TeX source of a rendered formula (KaTeX annotation, `data-math`, MathJax script), if any. */
function texOf(el: Element): string | undefined {
  const dataMath = el.getAttribute('data-math');
  if (dataMath !== null) return dataMath;
  const ann = el.querySelector('annotation[encoding="application/x-tex"]');
  return ann?.textContent ?? undefined;
}

/** A formula's TeX on one line (a line break in TeX source is a space). */
const oneLineTex = (tex: string) => tex.trim().replace(/\s*\n\s*/g, ' ');

/**
 * Text of a pre-wrapped element (a person's message): its own line breaks kept, surrounding
 * blank space trimmed, and the indentation every continuation line shares removed.
 */
export function preText(el: Element): string {
  const lines = (el.textContent ?? '').split(IMG).join('').replace(/\r\n?/g, '\n').trim().split('\n');
  const rest = lines.slice(1).filter((l) => l.trim());
  const common = rest.length ? Math.min(...rest.map((l) => /^[ \t]*/.exec(l)![0].length)) : 0;
  return lines.map((l, i) => (i === 0 ? l : l.slice(common)).trimEnd()).join('\n');
}

/** An image worth keeping as a reference: not an icon, favicon, avatar or inline data. */
function imageUrl(img: Element, baseUrl: string): string | undefined {
  const src = img.getAttribute('src');
  if (!src || img.closest('a')) return undefined;
  const w = Number(img.getAttribute('width') ?? NaN);
  const h = Number(img.getAttribute('height') ?? NaN);
  if ((w > 0 && w <= 48) || (h > 0 && h <= 48)) return undefined;
  if (/icon|avatar|favicon|katex/i.test(`${img.getAttribute('class') ?? ''} ${img.getAttribute('alt') ?? ''}`))
    return undefined;
  try {
    const u = new URL(src, baseUrl);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

class Writer {
  readonly images: string[] = [];
  constructor(private readonly opts: ReadOptions) {}

  children(el: Element): string {
    let out = '';
    for (const n of Array.from(el.childNodes)) out += this.node(n);
    return out;
  }

  node(n: Node): string {
    if (n.nodeType === 3) return (n.textContent ?? '').split(IMG).join('').replace(/\s+/g, ' ');
    if (n.nodeType !== 1) return '';
    return this.element(n as Element);
  }

  element(el: Element): string {
    const t = tag(el);
    if (this.opts.skip?.(el)) return '';
    // A control's label is not conversation, but an uploaded image is often shown inside a button (click to enlarge).
    if (t === 'button')
      return Array.from(el.querySelectorAll('img'))
        .map((img) => this.element(img))
        .join('');
    if (SKIP_TAGS.has(t)) return '';
    const replaced = this.opts.replace?.(el);
    if (replaced !== undefined) return `\n\n${replaced}\n\n`;
    // Formulas first: their visible copy is aria-hidden, their source is in an annotation or data-math.
    if (hasClass(el, 'math-block') || hasClass(el, 'katex-display')) {
      const tex = texOf(el);
      if (tex !== undefined) return `\n\n$$${oneLineTex(tex)}$$\n\n`;
    }
    if (hasClass(el, 'math-inline') || hasClass(el, 'katex') || t === 'mjx-container') {
      const tex = texOf(el);
      if (tex !== undefined)
        return el.getAttribute('display') === 'true' ? `\n\n$$${oneLineTex(tex)}$$\n\n` : `$${oneLineTex(tex)}$`;
    }
    if (isHidden(el)) return '';
    if (hasClass(el, 'whitespace-pre-wrap') || hasClass(el, 'whitespace-pre')) return `\n\n${preText(el)}\n\n`;
    switch (t) {
      case 'br':
        return '\n';
      case 'hr':
        return '\n\n---\n\n';
      case 'img': {
        const url = imageUrl(el, this.opts.baseUrl);
        if (!url) return '';
        this.images.push(url);
        return `\n\n${IMG}\n\n`;
      }
      case 'pre': {
        const code = el.querySelector('code') ?? el;
        return `\n\n${fence(code.textContent ?? '', codeLanguage(el))}\n\n`;
      }
      case 'code':
        return inlineCode(el.textContent ?? '');
      case 'strong':
      case 'b':
        return wrap(this.children(el), '**');
      case 'em':
      case 'i':
        return wrap(this.children(el), '*');
      case 'a': {
        const text = this.children(el).trim();
        const href = el.getAttribute('href') ?? '';
        if (!/^https?:\/\//i.test(href) || !text || text === href) return text;
        return `[${text}](${href})`;
      }
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return `\n\n${'#'.repeat(Number(t[1]))} ${this.children(el).trim()}\n\n`;
      case 'ul':
      case 'ol':
        return `\n\n${this.list(el, t === 'ol')}\n\n`;
      case 'li':
        return `\n\n- ${indent(tidy(this.children(el)), '  ')}\n\n`;
      case 'blockquote':
        return `\n\n${tidy(this.children(el))
          .split('\n')
          .map((l) => (l ? `> ${l}` : '>'))
          .join('\n')}\n\n`;
      case 'table':
        return `\n\n${this.table(el)}\n\n`;
      default:
        return BLOCK_TAGS.has(t) ? `\n\n${this.children(el)}\n\n` : this.children(el);
    }
  }

  list(el: Element, ordered: boolean): string {
    const start = Number(el.getAttribute('start') ?? 1) || 1;
    const items = Array.from(el.children).filter((c) => tag(c) === 'li');
    return items
      .map((li, i) => {
        const marker = ordered ? `${start + i}. ` : '- ';
        return marker + indent(tidy(this.children(li)), ' '.repeat(marker.length));
      })
      .join('\n');
  }

  table(el: Element): string {
    const rows = Array.from(el.querySelectorAll('tr')).map((tr) =>
      Array.from(tr.children)
        .filter((c) => tag(c) === 'td' || tag(c) === 'th')
        .map((c) => tidy(this.children(c)).replace(/\n+/g, ' ').replace(/\|/g, '\\|')),
    );
    if (!rows.length) return '';
    const width = Math.max(...rows.map((r) => r.length));
    const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
    return [line(rows[0]!), line(Array.from({ length: width }, () => '---')), ...rows.slice(1).map(line)].join('\n');
  }
}

function wrap(s: string, mark: string): string {
  const inner = s.trim();
  return inner ? `${mark}${inner}${mark}` : '';
}

function inlineCode(s: string): string {
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(longest + 1);
  return longest ? `${f} ${s} ${f}` : `${f}${s}${f}`;
}

function indent(s: string, pad: string): string {
  return s.replace(/\n(?=.)/g, `\n${pad}`);
}

/**
 * Normalises the writer's output: spaces at line edges go (outside fenced code), runs of blank
 * lines become one, and the result is trimmed.
 */
export function tidy(s: string): string {
  const lines = s.split('\n');
  const out: string[] = [];
  let fenceMark: string | undefined;
  for (const raw of lines) {
    const m = /^\s*(`{3,})/.exec(raw);
    if (fenceMark) {
      out.push(raw);
      if (m && raw.trim() === fenceMark) fenceMark = undefined;
      continue;
    }
    if (m) {
      fenceMark = m[1];
      out.push(raw.trimEnd());
      continue;
    }
    const lead = /^ */.exec(raw)![0];
    const body = raw
      .slice(lead.length)
      .replace(/[ \t]+$/g, '')
      .replace(/ {2,}/g, ' ');
    // An indent of two or more spaces is a list continuation (added by the writer); one space is collapsed whitespace.
    const line = (lead.length >= 2 && out.length ? lead : '') + body;
    if (!line.trim() && (!out.length || !out[out.length - 1]!.trim())) continue;
    out.push(line.trim() ? line : '');
  }
  while (out.length && !out[out.length - 1]!.trim()) out.pop();
  return out.join('\n');
}

/**
 * Reads `root` into parts: text as Markdown, each kept image as its own part in page order
 * (its URL only: the page's image is never fetched). Empty text parts are left out.
 */
export function readParts(root: Element, opts: ReadOptions): CapturedPart[] {
  const w = new Writer(opts);
  const text = w.children(root);
  const parts: CapturedPart[] = [];
  const pieces = text.split(IMG);
  pieces.forEach((piece, i) => {
    const t = tidy(piece);
    if (t) parts.push({ type: 'text', text: t });
    const url = w.images[i];
    if (i < pieces.length - 1 && url) parts.push({ type: 'image', url });
  });
  return parts;
}
