/**
 * A Vite plugin for the extension build: the service worker's script is written in ASCII only
 * (docs/architecture.md#the-service-workers-start-up).
 *
 * Why: Chromium decodes a service worker's script from UTF-8 on every start. One character above
 * U+00FF anywhere in the file (an ellipsis in a message, a CJK bracket in a regular expression)
 * makes the whole decoded source a two-byte string, and the decode of `background.js` took about
 * 40 ms per start instead of about 12 ms (bench/README.md, "Service-worker start-up: where the time
 * goes"). Each non-ASCII UTF-16 code unit is written as a `\uXXXX` escape instead, which means the
 * same character in strings, templates, regular expressions and identifiers (only a regular
 * expression's `source` text shows the escape).
 *
 * Where an escape would not mean the same thing the build fails instead of writing a different
 * program: the raw text of a tagged template (its tag sees the `String.raw` spelling), non-ASCII
 * whitespace or a line terminator outside a literal (an escape there does not parse, or moves a
 * comment's end), half of a surrogate pair in an identifier. In a comment an escape is only text.
 * The program is parsed once (Vite's `parseAst`) to tell where each non-ASCII character sits.
 */
import type { Plugin } from 'vite';
import { parseAst } from 'vite';

/** Any UTF-16 code unit above U+007F. */
const NON_ASCII = /[\u0080-\uffff]/;

/** A `\uXXXX` escape of one UTF-16 code unit. */
function escape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}

/** Where an escape means the same character: what kind of token a span of the source is. */
type SpanKind = 'text' | 'identifier' | 'tagged';

interface Span {
  start: number;
  end: number;
  kind: SpanKind;
}

/**
 * The tokens of `program` that may hold non-ASCII characters, in source order: string and
 * regular-expression literals and template text (`text`), identifiers, and the text of tagged
 * templates (whose tag also sees the raw spelling).
 */
function spans(program: unknown): Span[] {
  const out: Span[] = [];
  const visit = (node: unknown, tagged: boolean): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, tagged);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as { type?: string; start: number; end: number; value?: unknown; regex?: unknown };
    if (n.type === 'Literal' && (typeof n.value === 'string' || n.regex)) out.push({ ...n, kind: 'text' });
    else if (n.type === 'TemplateElement') out.push({ ...n, kind: tagged ? 'tagged' : 'text' });
    else if (n.type === 'Identifier' || n.type === 'PrivateIdentifier') out.push({ ...n, kind: 'identifier' });
    for (const [key, value] of Object.entries(node)) {
      // A tagged template's text: the tag's quasi, then that template literal's quasis (not its expressions).
      const inTag = (n.type === 'TaggedTemplateExpression' && key === 'quasi') || (tagged && key === 'quasis');
      if (value && typeof value === 'object') visit(value, inTag);
    }
  };
  visit(program, false);
  return out.map(({ start, end, kind }) => ({ start, end, kind })).sort((a, b) => a.start - b.start);
}

/** The span holding source offset `at`, or undefined (whitespace, a comment). */
function spanAt(sorted: readonly Span[], at: number): Span | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = sorted[mid]!;
    if (at < s.start) hi = mid - 1;
    else if (at >= s.end) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/**
 * `code` with every non-ASCII UTF-16 code unit written as `\uXXXX`: the same program. A character
 * already escaped by a backslash (`\é`, an identity escape) is replaced together with it. Throws,
 * rather than write a different program, when a non-ASCII character sits where an escape would
 * not mean it: in a tagged template (its tag sees the raw text), in an identifier as half of a
 * surrogate pair, or as whitespace outside every literal (U+00A0, U+2028 ending a comment); `name`
 * labels the error.
 */
export function toAscii(code: string, name = 'script'): string {
  if (!NON_ASCII.test(code)) return code;
  const sorted = spans(parseAst(code));
  return code.replace(/(\\*)([\u0080-\uffff])/g, (_match: string, slashes: string, ch: string, offset: number) => {
    const at = offset + slashes.length;
    const unit = ch.charCodeAt(0);
    const span = spanAt(sorted, at);
    const where = `${name} at ${at} (${JSON.stringify(code.slice(Math.max(0, at - 30), at + 10))})`;
    // Outside every literal and identifier a non-ASCII character is in a comment (its escape is only
    // text) or is whitespace or a line terminator (U+00A0, U+2028…), whose escape would not parse or
    // would move a comment's end.
    if (!span && /\s/.test(ch)) throw new Error(`ascii-only: non-ASCII whitespace outside any literal: ${where}`);
    if (span?.kind === 'tagged') throw new Error(`ascii-only: non-ASCII text in a tagged template: ${where}`);
    if (span?.kind === 'identifier' && unit >= 0xd800 && unit <= 0xdfff)
      throw new Error(`ascii-only: an identifier outside the Basic Multilingual Plane: ${where}`);
    // An odd run of backslashes escapes the character itself: `\é` means `é`, so it becomes `\u00e9`.
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return kept + escape(unit);
  });
}

/** The Vite plugin: rewrites the named output files (default `background.js`) with {@link toAscii}. */
export function asciiOnly(files: readonly string[] = ['background.js']): Plugin {
  return {
    name: 'baton-ascii-only',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && files.includes(file.fileName)) file.code = toAscii(file.code, file.fileName);
      }
    },
  };
}
