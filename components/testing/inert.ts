/**
 * Test oracle for rendered model output (security-requirements.md R1–R3), written from the
 * requirements rather than from the renderer: returns every way `root` fails to be inert.
 * Its tag lists repeat `sanitize.ts` and `sanitize-typeset.ts` on purpose: an oracle that imported
 * the sanitiser's allowlists would pass whatever those lists let through.
 */

/** Tags rendered model output may contain (R1), plus the placeholders and copy buttons. */
const ALLOWED = new Set([
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
  'button',
]);
/** Attributes that load, navigate or style (R3: CSS `url()` lives in `style`). */
const FETCHING = [
  'src',
  'srcset',
  'background',
  'style',
  'poster',
  'data',
  'action',
  'formaction',
  'srcdoc',
  'dynsrc',
  'lowsrc',
  'ping',
  'xlink:href',
  'http-equiv',
  'content',
  'codebase',
  'manifest',
];
const LINK_SCHEMES = ['https:', 'http:', 'mailto:'];

/**
 * Typeset math (KaTeX, docs/side-panel.md) may use MathML presentation elements and SVG shapes — none of which
 * loads, links or runs anything — and inline `style` that only sizes, places or colours.
 */
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
const SVG_NS = 'http://www.w3.org/2000/svg';
const MATH_ELEMENTS = new Set([
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
]);
const SVG_SHAPES = new Set(['svg', 'path', 'line']);
/** What a `style` value must never hold (R3: `url()` and `image-set()` fetch; `@import`, `expression()` and escapes hide them). */
const STYLE_FETCH = /url\s*\(|image|@import|expression|\\|src\s*\(/i;

/** Problems found in `root` (empty when inert). */
export function inertProblems(root: Element): string[] {
  const out: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const tag = el.localName;
    const inMath = el.closest('.katex, .katex-error') !== null;
    const ns = el.namespaceURI;
    const mathOk = inMath && ((ns === MATHML_NS && MATH_ELEMENTS.has(tag)) || (ns === SVG_NS && SVG_SHAPES.has(tag)));
    if (!ALLOWED.has(tag) && !mathOk) out.push(`tag <${tag}> is not allowlisted`);
    if (ns !== 'http://www.w3.org/1999/xhtml' && !mathOk) out.push(`<${tag}> in namespace ${ns}`);
    for (const name of el.getAttributeNames()) {
      const n = name.toLowerCase();
      if (n.startsWith('on')) out.push(`<${tag}> has event handler ${name}`);
      if (n === 'style' && inMath && !STYLE_FETCH.test(el.getAttribute(name) ?? '')) continue;
      if (n === 'href' && tag !== 'a') out.push(`<${tag}> has href`);
      if (FETCHING.includes(n)) out.push(`<${tag}> has ${name}="${el.getAttribute(name)}"`);
      if (n === 'id' || n === 'name') out.push(`<${tag}> has ${name} (DOM clobbering)`);
    }
    if (tag === 'a') {
      const href = el.getAttribute('href');
      let scheme: string;
      try {
        scheme = new URL(href ?? '').protocol;
      } catch {
        scheme = 'unparsable';
      }
      if (!LINK_SCHEMES.includes(scheme)) out.push(`<a> with href ${JSON.stringify(href)}`);
      if (el.getAttribute('target') !== '_blank') out.push('<a> without target=_blank');
      if (el.getAttribute('rel') !== 'noopener noreferrer') out.push('<a> without rel="noopener noreferrer"');
    }
    if (tag === 'button' && el.getAttribute('type') !== 'button') out.push('<button> that could submit');
  }
  return out;
}
