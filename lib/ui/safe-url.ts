/**
 * URL checks for model output (security-requirements.md R2, R3). A destination is judged the way
 * the browser would navigate it: the WHATWG URL parser strips leading control characters and
 * spaces, removes tabs and newlines anywhere, and lowercases the scheme, so `JaVa\tScRiPt:` and
 * ` javascript:` are caught as `javascript:`. HTML entities are decoded before this check (by the
 * HTML parser, once), so `javascript&#58;` arrives here as `javascript:`.
 */

/** Schemes that may become a clickable link (R2). */
export const LINK_SCHEMES: readonly string[] = ['https:', 'http:', 'mailto:'];
/** Schemes an image placeholder may open in a new tab on click (R3). */
export const IMAGE_SCHEMES: readonly string[] = ['https:', 'http:'];

function parse(raw: string | null | undefined, schemes: readonly string[]): URL | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 10_000) return undefined;
  let u: URL;
  try {
    // No base: a relative destination would resolve against the extension's own origin.
    u = new URL(raw);
  } catch {
    return undefined;
  }
  return schemes.includes(u.protocol) ? u : undefined;
}

/**
 * The absolute URL a link may point to, or undefined when `raw` is not an absolute `https:`,
 * `http:` or `mailto:` URL (R2: `javascript:`, `data:`, `vbscript:`, `file:`, `chrome:`,
 * `chrome-extension:`, relative and unparsable destinations all render as text).
 */
export function safeLinkUrl(raw: string | null | undefined): URL | undefined {
  return parse(raw, LINK_SCHEMES);
}

/** The absolute `https:`/`http:` URL an image placeholder may open on click (R3), else undefined. */
export function safeImageUrl(raw: string | null | undefined): URL | undefined {
  return parse(raw, IMAGE_SCHEMES);
}

/**
 * Opens `url` in a new tab, without giving the new page a handle on ours. Only called from a
 * click (R2, R3: nothing navigates or fetches by itself). Returns false when `url` is not an
 * allowed destination.
 */
export function openInNewTab(
  url: string,
  schemes: readonly string[] = LINK_SCHEMES,
  win: Pick<Window, 'open'> = window,
): boolean {
  const u = parse(url, schemes);
  if (!u) return false;
  win.open(u.href, '_blank', 'noopener,noreferrer');
  return true;
}
