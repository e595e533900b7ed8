/**
 * Test oracle for rendered model output (security-requirements.md R1–R3), written from the
 * requirements rather than from the renderer: returns every way `root` fails to be inert.
 */

/** Tags rendered model output may contain (R1), plus the placeholders and copy buttons. */
const ALLOWED = new Set([
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 's', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'button',
]);
/** Attributes that load, navigate or style (R3: CSS `url()` lives in `style`). */
const FETCHING = ['src', 'srcset', 'background', 'style', 'poster', 'data', 'action', 'formaction', 'srcdoc', 'dynsrc', 'lowsrc', 'ping', 'xlink:href', 'http-equiv', 'content', 'codebase', 'manifest'];
const LINK_SCHEMES = ['https:', 'http:', 'mailto:'];

/** Problems found in `root` (empty when inert). */
export function inertProblems(root: Element): string[] {
  const out: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const tag = el.localName;
    if (!ALLOWED.has(tag)) out.push(`tag <${tag}> is not allowlisted`);
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') out.push(`<${tag}> in namespace ${el.namespaceURI}`);
    for (const name of el.getAttributeNames()) {
      const n = name.toLowerCase();
      if (n.startsWith('on')) out.push(`<${tag}> has event handler ${name}`);
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
