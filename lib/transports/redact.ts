/**
 * Error-text hygiene (security-requirements.md S4, P5): provider text shown to people is plain
 * text, at most 500 characters, and holds no key material — a configured key or any
 * 12-character substring of one.
 */

/** Longest provider text kept, in characters (P5). */
export const MAX_ERROR_MESSAGE_CHARS = 500;

/** Key material shorter than this is only removed as a whole key (security-requirements.md, "Key material"). */
const MIN_FRAGMENT = 12;

/** What replaces removed key material. */
export const REDACTED = '[redacted]';

/**
 * Removes key material from `text`: every run of characters that is a substring of one of
 * `secrets` and at least 12 characters long (or the whole secret, when it is shorter) becomes
 * `[redacted]`. Runs are taken as long as possible, so nothing of ≥ 12 characters survives next
 * to a replacement. Empty secrets are ignored. Cost: O(text × run length × secrets).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const keys = secrets.filter((s) => s.length > 0);
  if (keys.length === 0 || text.length === 0) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    let best = 0;
    for (const key of keys) {
      let len = 0;
      while (i + len < text.length && key.includes(text.slice(i, i + len + 1))) len++;
      if (len >= Math.min(MIN_FRAGMENT, key.length) && len > best) best = len;
    }
    if (best > 0) {
      out += REDACTED;
      i += best;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}

/**
 * Turns provider error text into a short plain-text message: HTML tags stripped (a proxy's
 * error page), control characters and runs of whitespace collapsed, key material removed, and
 * the result cut to {@link MAX_ERROR_MESSAGE_CHARS} characters (with `…`).
 */
export function cleanErrorText(text: string, secrets: readonly string[]): string {
  // Bound the work before redaction; a key cut here is still ≥ 12 characters or gone.
  let t = text.slice(0, 4 * MAX_ERROR_MESSAGE_CHARS);
  if (/<\/?[a-z!][^>]*>/i.test(t)) t = t.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  t = t
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  t = redactSecrets(t, secrets);
  return t.length > MAX_ERROR_MESSAGE_CHARS ? `${t.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…` : t;
}
