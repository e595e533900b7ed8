/**
 * Checks of base URLs (security-requirements.md N1, N4), one rule for both sides: the page checks
 * what the person types before any permission prompt, and the background checks again when it
 * saves (`settings/handlers.ts`).
 */
import { lookupTable } from '../transcript/lookup';

/** The built-in providers' API origins, granted in the manifest (wxt.config.ts, N1). */
export const DEFAULT_API_ORIGINS: Readonly<Record<string, string>> = lookupTable({
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
});

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** A checked URL and its origin, or the reason it was refused. */
export type UrlCheck = { ok: true; url: string; origin: string } | { ok: false; message: string };

/**
 * N4: `https:` anywhere, `http:` only for localhost, 127.0.0.1 or [::1]; no credentials in the
 * URL. Returns a sentence for people when refused.
 */
export function checkEndpointUrl(raw: string): UrlCheck {
  const text = raw.trim();
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { ok: false, message: 'That is not a complete URL. It should look like https://example.com/v1.' };
  }
  const local = LOCAL_HOSTS.includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && local))
    return {
      ok: false,
      message: 'Endpoints must use https://. Plain http:// is allowed only for localhost, 127.0.0.1 or [::1].',
    };
  if (u.username || u.password) return { ok: false, message: 'Put credentials in the key field, not in the URL.' };
  return { ok: true, url: text, origin: u.origin };
}

/** True for a base URL on this machine (Ollama, LM Studio): usable without a key. */
export function isLocalUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && LOCAL_HOSTS.includes(u.hostname);
  } catch {
    return false;
  }
}
