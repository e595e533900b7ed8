/**
 * Markdown → HTML *string* for model output, with every place where raw markup could pass made
 * inert before the sanitiser even runs (security-requirements.md R1–R3):
 * - raw HTML (block or inline) is escaped and shown as the literal text the model wrote;
 * - images never become `<img>`: a `<span class="md-image" title=URL>` marker is emitted, which
 *   `sanitize.ts` turns into a click-to-open placeholder showing the full URL (R3);
 * - links are emitted with their destination escaped exactly once; `sanitize.ts` decides whether
 *   they stay anchors (R2);
 * - task-list checkboxes become text (no `<input>`);
 * - math (`$…$`, `\(…\)` inline; `$$…$$`, `\[…\]` display) becomes a `span`/`div` of class
 *   `md-math` holding the TeX source as text; `enhance.ts` typesets it with KaTeX once loaded.
 * The string still goes through DOMPurify (`sanitize.ts`) before it touches a document.
 */
import { Lexer, Marked, type Token, type TokenizerAndRendererExtension, type Tokens, type TokensList } from 'marked';

/** Escapes text for HTML text and double-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A code fence's language as a class-safe word, or '' (it only ever names the block). */
export function fenceLanguage(lang: string | undefined): string {
  const word = (lang ?? '').trim().split(/\s+/)[0] ?? '';
  return /^[\w+#.-]{1,30}$/.test(word) ? word : '';
}

/** A math token: TeX source and whether it is display (block) math. */
interface MathToken {
  type: 'mathBlock' | 'mathInline';
  raw: string;
  text: string;
  display: boolean;
}

const mathHtml = (t: MathToken, tag: 'div' | 'span') =>
  `<${tag} class="md-math ${t.display ? 'md-math-display' : 'md-math-inline'}">${escapeHtml(t.text.trim())}</${tag}>`;

/**
 * Display math on lines of its own: `$$ … $$` or `\[ … \]`, possibly over several lines. Only a
 * closed block matches: while a stream has not closed it, the text shows as written.
 */
const mathBlock: TokenizerAndRendererExtension = {
  name: 'mathBlock',
  level: 'block',
  start: (src) => src.match(/^ {0,3}(?:\$\$|\\\[)/m)?.index,
  tokenizer(src) {
    const m = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n+|$)/.exec(src);
    if (!m) return undefined;
    const text = m[1] ?? m[2] ?? '';
    return text.trim() ? ({ type: 'mathBlock', raw: m[0], text, display: true } satisfies MathToken) : undefined;
  },
  renderer: (t) => `${mathHtml(t as unknown as MathToken, 'div')}\n`,
};

/**
 * Math inside a line: `$$…$$` and `\[…\]` (display), `\(…\)` and `$…$` (inline). A `$…$` span
 * must open before a non-space and close after one, not before a digit, on one line and without
 * a backtick, so prices ("$5 and $10") stay text; `\$` is a literal dollar (marked's escape).
 */
const mathInline: TokenizerAndRendererExtension = {
  name: 'mathInline',
  level: 'inline',
  start: (src) => src.match(/\$|\\[([]/)?.index,
  tokenizer(src) {
    let m = /^\$\$(?!\$)([\s\S]+?)\$\$/.exec(src) ?? /^\\\[([\s\S]+?)\\\]/.exec(src);
    if (m) return { type: 'mathInline', raw: m[0], text: m[1]!, display: true } satisfies MathToken;
    m = /^\\\(([\s\S]+?)\\\)/.exec(src) ?? /^\$(?![\s$])((?:\\.|[^\\$\n`])+?)(?<!\s)\$(?!\d)/.exec(src);
    if (m) return { type: 'mathInline', raw: m[0], text: m[1]!, display: false } satisfies MathToken;
    return undefined;
  },
  renderer: (t) => mathHtml(t as unknown as MathToken, 'span'),
};

const marked = new Marked({
  extensions: [mathBlock, mathInline],
  gfm: true,
  // Chat models write single newlines as line breaks.
  breaks: true,
  renderer: {
    html({ text, block }: Tokens.HTML | Tokens.Tag): string {
      // R1: no raw HTML passthrough at all; the model's markup is shown as text.
      return block ? `<p class="md-raw">${escapeHtml(text.replace(/\n+$/, ''))}</p>\n` : escapeHtml(text);
    },
    image({ href, text }: Tokens.Image): string {
      // R3: never an <img>. The marker carries the URL in `title` (a URI-safe attribute for the sanitiser).
      return `<span class="md-image" title="${escapeHtml(href)}">${escapeHtml(text)}</span>`;
    },
    link(token: Tokens.Link): string {
      const inner = this.parser.parseInline(token.tokens);
      return `<a href="${escapeHtml(token.href)}">${inner}</a>`;
    },
    code({ text, lang }: Tokens.Code): string {
      const l = fenceLanguage(lang);
      return `<pre><code${l ? ` class="language-${l}"` : ''}>${escapeHtml(text.replace(/\n$/, ''))}</code></pre>\n`;
    },
    text(token: Tokens.Text | Tokens.Escape | Tokens.Tag): string | false {
      // Text inside an inline raw-text element (`<script>…`, `<pre>…`) comes from marked unescaped,
      // as HTML passthrough; here the tag itself is shown as text, so its content must be too (R1).
      if (token.type === 'text' && token.escaped && !token.tokens) return escapeHtml(token.text);
      return false;
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? '☑ ' : '☐ ';
    },
  },
});

/** Reference definitions seen so far: `[tag]: href "title"`. */
export type LinkDefs = TokensList['links'];

/**
 * Lexes `src` into block tokens, with `links` (reference definitions from earlier in the
 * message) already known. New definitions found in `src` are added to the returned list's
 * `links` (the first definition of a tag wins, as in CommonMark).
 */
export function lexBlocks(src: string, links?: LinkDefs): TokensList {
  const lexer = new Lexer(marked.defaults);
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(src);
}

/** HTML for already-lexed block tokens (not yet sanitised: pass it to `sanitizeToFragment`). */
export function tokensToHtml(tokens: Token[]): string {
  return marked.parser(tokens);
}

/** HTML for a whole markdown text (not yet sanitised). */
export function markdownToHtml(src: string): string {
  return tokensToHtml(lexBlocks(src));
}
