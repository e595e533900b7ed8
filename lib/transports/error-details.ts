/**
 * Reads what classification needs out of the errors the three SDKs throw:
 * - `openai` `APIError`: `status`, `headers`, `error` = the body's `error` object
 *   (`{message, type, param, code}`), or a Responses `error` event; `undefined` for a non-JSON
 *   body (then the text is in `message`).
 * - `@anthropic-ai/sdk` `APIError`: `status`, `headers`, `error` = the whole body
 *   (`{type:'error', error:{type, message}}`), also for an `event: error` in a stream.
 * - `@google/genai` `ApiError`: `status` and a `message` holding the JSON body
 *   (`{error:{code, message, status, details}}`), prefixed with `got status: … ` for an error
 *   chunk inside a stream; no headers.
 * - fetch failures: `TypeError` with a `cause` chain (`unexpected redirect`, `ECONNREFUSED`).
 */
import type { WireApi } from '../transcript/schema';
import { isRecord as isRec, type JsonObject as Rec } from '../transcript/json';

/** Facts about one error, all optional but the fallback text. */
export interface ErrorDetails {
  status?: number;
  headers?: { get(name: string): string | null };
  /** Anthropic `error.type`, OpenAI `error.type`, Gemini `error.status`. */
  providerType?: string;
  /** OpenAI `error.code`; Gemini `ErrorInfo.reason` (e.g. `API_KEY_INVALID`). */
  providerCode?: string;
  providerMessage?: string;
  /** The error's own message (with up to two causes), when the provider sent no message. */
  fallbackMessage: string;
  /** Gemini `RetryInfo.retryDelay`, in ms. */
  retryDelayMs?: number;
  /** Gemini `QuotaFailure` names a per-minute or per-second quota. */
  perTimeQuota?: boolean;
  redirect?: boolean;
  location?: string;
  timeout?: boolean;
  /** The wire API the error body's shape belongs to, when recognisable. */
  api?: WireApi;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The first JSON object embedded in `text` (a genai message), if any. */
function embeddedJson(text: string): Rec | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const v: unknown = JSON.parse(text.slice(start));
    return isRec(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `"45s"`, `"1.5s"` → ms. */
function durationMs(v: unknown): number | undefined {
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(v.trim()) : null;
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

function readBody(body: Rec, d: ErrorDetails, api: WireApi | undefined): void {
  if (body.type === 'error' && isRec(body.error)) {
    // Anthropic `{type:'error', error:{type, message}}`.
    d.providerType = str(body.error.type);
    d.providerMessage = str(body.error.message);
    d.api = 'anthropic-messages';
    return;
  }
  const inner = isRec(body.error) ? body.error : body;
  if (typeof inner.code === 'number' || (isRec(body.error) && typeof inner.status === 'string')) {
    // Gemini `{error:{code, message, status, details}}`.
    d.providerType = str(inner.status);
    d.providerMessage = str(inner.message);
    d.api = 'gemini-generate-content';
    for (const det of Array.isArray(inner.details) ? inner.details : []) {
      if (!isRec(det)) continue;
      const type = str(det['@type']) ?? '';
      if (type.endsWith('RetryInfo')) d.retryDelayMs = durationMs(det.retryDelay);
      if (type.endsWith('ErrorInfo') && str(det.reason)) d.providerCode = str(det.reason);
      if (type.endsWith('QuotaFailure') && Array.isArray(det.violations)) {
        d.perTimeQuota = det.violations.some(
          (v) => isRec(v) && /Per(Minute|Second)/i.test(`${str(v.quotaId) ?? ''} ${str(v.quotaMetric) ?? ''}`),
        );
      }
    }
    return;
  }
  // OpenAI `{message, type, param, code}` (HTTP error) or a Responses `{type:'error', code, message}` event.
  d.providerType = inner.type === 'error' ? undefined : str(inner.type);
  d.providerCode = str(inner.code);
  d.providerMessage = str(inner.message);
  d.api = api === 'openai-chat' ? 'openai-chat' : api === 'openai-responses' ? 'openai-responses' : undefined;
}

/** Collects the details of `err` (never throws). `api` is the call's wire API, when known. */
export function readErrorDetails(err: unknown, api?: WireApi): ErrorDetails {
  const e = isRec(err) ? err : {};
  const causes: string[] = [];
  let c: unknown = e.cause;
  for (let i = 0; i < 5 && isRec(c); i++) {
    if (typeof c.message === 'string' && c.message) causes.push(c.message);
    c = c.cause;
  }
  const own = err instanceof Error ? err.message : typeof err === 'string' ? err : 'Unknown error';
  const d: ErrorDetails = { fallbackMessage: [own, ...causes.slice(0, 2)].join(': ') };
  if (typeof e.status === 'number') d.status = e.status;
  if (isRec(e.headers) && typeof e.headers.get === 'function')
    d.headers = e.headers as unknown as ErrorDetails['headers'];

  const body = isRec(e.error) ? e.error : typeof e.message === 'string' ? embeddedJson(e.message) : undefined;
  if (body) readBody(body, d, api);

  if (d.status !== undefined && d.status >= 300 && d.status < 400) {
    d.redirect = true;
    d.location = d.headers?.get('location') ?? undefined;
  } else if (d.status === undefined && causes.some((m) => /redirect/i.test(m))) d.redirect = true;
  const name = `${str(e.name) ?? ''} ${(err as { constructor?: { name?: string } } | null)?.constructor?.name ?? ''}`;
  if (d.status === undefined && (/timeout/i.test(name) || /timed? ?out/i.test(own))) d.timeout = true;
  return d;
}
