/**
 * Typed transport errors and their classification (security-requirements.md P1, P2, P5, N3).
 *
 * | HTTP / condition | code | retryable |
 * |---|---|---|
 * | 400 (context-length wording → `context_too_long`; Gemini `API_KEY_INVALID` → `invalid_key`) | `bad_request` | no |
 * | 401 | `invalid_key` | no |
 * | 403 / 404 | `forbidden` / `not_found` | no |
 * | 413 (any body, JSON or not) | `context_too_long` | no |
 * | 429 quota: OpenAI `insufficient_quota`, Anthropic 429 without `retry-after`, Gemini `RESOURCE_EXHAUSTED` with quota wording | `quota` | no |
 * | 429 otherwise | `rate_limited` | yes |
 * | 503, 529, `overloaded_error` | `overloaded` | yes |
 * | 408, 409, 500, 502, 504, other 5xx | `provider_error` | yes |
 * | a redirect (3xx, or fetch refusing one: `redirect: 'error'`, N3) | `provider_error` | no |
 * | no response (DNS, refused, reset, cut) | `network` | yes |
 * | SDK or Baton timeout | `timeout` | yes |
 *
 * `retryAfterMs` comes from `retry-after-ms`, then `retry-after` (seconds or an HTTP date),
 * then Gemini's `RetryInfo.retryDelay`, capped at 60 s. Messages are plain text, ≤ 500
 * characters, and hold no key material (S4, P5; see `redact.ts`).
 */
import type { ErrorCode, ProtocolError } from '../messaging/protocol';
import type { WireApi } from '../transcript/schema';
import { cleanErrorText } from './redact';
import { readErrorDetails, type ErrorDetails } from './error-details';

/** Longest wait a provider can ask for that Baton honours, in ms (P1). */
export const RETRY_AFTER_CAP_MS = 60_000;

/** Extra facts for a {@link TransportError}. */
export interface TransportErrorInit {
  status?: number;
  retryable?: boolean;
  retryAfterMs?: number;
  providerType?: string;
  midStream?: boolean;
}

/**
 * A failed provider call, classified. `message` is safe to show (plain text, ≤ 500 characters,
 * no key material); the raw SDK error is deliberately not kept as `cause`, since its body may
 * echo the key (S4).
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: ErrorCode;
  /** HTTP status, when the provider answered. */
  readonly status?: number;
  /** Whether Baton's retry policy may try again ({@link withRetries}). False once output was delivered. */
  retryable: boolean;
  /** How long the provider asked to wait, in ms (≤ 60 000). */
  readonly retryAfterMs?: number;
  /** The provider's own error type (`overloaded_error`, `insufficient_quota`, `RESOURCE_EXHAUSTED`, …). */
  readonly providerType?: string;
  /** The stream had already delivered events when this happened (P3: keep the partial answer). */
  midStream: boolean;

  constructor(code: ErrorCode, message: string, init: TransportErrorInit = {}) {
    super(message);
    this.code = code;
    this.status = init.status;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.providerType = init.providerType;
    this.midStream = init.midStream ?? false;
  }

  /** The shape the background sends to the UI (`retryAfterSec` rounded up). */
  toProtocolError(): ProtocolError {
    return {
      code: this.code,
      message: this.message,
      ...(this.retryAfterMs !== undefined ? { retryAfterSec: Math.ceil(this.retryAfterMs / 1000) } : {}),
    };
  }
}

/** True for the error a stopped request rejects with (`name === 'AbortError'`). */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

/**
 * Parses `retry-after-ms` (milliseconds), else `retry-after` (seconds, or an HTTP date relative
 * to `now`). Returns ms, capped at {@link RETRY_AFTER_CAP_MS}, never negative; undefined when
 * neither header holds a usable value.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const cap = (ms: number) => Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(ms)));
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return cap(Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return cap(Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : cap(date - now);
}

const CONTEXT_WORDING =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the maximum (number of )?tokens|input token count|request too large/i;
const QUOTA_WORDING = /quota|billing|credit balance|spend(ing)? limit|usage limit|plan and billing/i;

/** Options of {@link classifyError}. */
export interface ClassifyOptions {
  /** Keys to scrub from the message (S4). */
  secrets?: readonly string[];
  /** The wire API of the call, for provider-specific rules (Anthropic quota, Gemini quota). */
  api?: WireApi;
  /** Response headers seen by the fetch, when the SDK error carries none (`@google/genai`). */
  headers?: { get(name: string): string | null };
}

/**
 * Classifies any error a provider call can throw (an SDK `APIError`, a `@google/genai`
 * `ApiError`, a fetch `TypeError`, a {@link TransportError}) per the table above.
 * Never throws.
 */
export function classifyError(err: unknown, opts: ClassifyOptions = {}): TransportError {
  if (err instanceof TransportError) return err;
  const secrets = opts.secrets ?? [];
  const d = readErrorDetails(err, opts.api);
  const headers = d.headers ?? opts.headers;
  const detail = cleanErrorText(d.providerMessage ?? d.fallbackMessage, secrets);
  const label = (what: string) =>
    cleanErrorText(
      `${what}${d.status !== undefined ? ` (HTTP ${d.status}${d.providerType ? `, ${d.providerType}` : ''})` : d.providerType ? ` (${d.providerType})` : ''}: ${detail}`,
      secrets,
    );
  const make = (code: ErrorCode, what: string, retryable: boolean, retryAfterMs?: number) =>
    new TransportError(code, label(what), {
      status: d.status,
      retryable,
      retryAfterMs: retryable ? retryAfterMs : undefined,
      providerType: d.providerType,
    });

  if (d.redirect)
    return new TransportError(
      'provider_error',
      cleanErrorText(
        `The provider answered with a redirect${d.location ? ` to ${d.location}` : ''}, which Baton refuses to follow (N3)`,
        secrets,
      ),
      { status: d.status, providerType: 'redirect' },
    );
  if (d.status === undefined) return classifyWithoutStatus(err, d, make);

  const status = d.status;
  const retryAfter = parseRetryAfter(headers) ?? d.retryDelayMs;
  const text = `${d.providerType ?? ''} ${d.providerCode ?? ''} ${d.providerMessage ?? d.fallbackMessage}`;
  if (status === 401 || d.providerCode === 'API_KEY_INVALID' || (status === 400 && /api key not valid/i.test(text)))
    return make('invalid_key', 'The provider rejected the API key', false);
  if (isQuota(status, d, text, retryAfter, opts.api ?? d.api))
    return make('quota', 'Quota or billing limit reached', false);
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT_WORDING.test(text)))
    return make('context_too_long', 'The conversation is too long for this model', false);
  if (status === 403) return make('forbidden', 'The provider refused access', false);
  if (status === 404) return make('not_found', 'Not found (model or endpoint)', false);
  if (status === 429) return make('rate_limited', 'Rate limited', true, retryAfter);
  if (status === 503 || status === 529 || d.providerType === 'overloaded_error')
    return make('overloaded', 'The provider is overloaded', true, retryAfter);
  if (status === 408 || status === 409 || status >= 500)
    return make('provider_error', 'Provider error', true, retryAfter);
  if (status >= 300 && status < 400)
    return make('provider_error', 'The provider answered with a redirect, which Baton refuses to follow (N3)', false);
  return make('bad_request', 'The provider rejected the request', false);
}

function isQuota(
  status: number,
  d: ErrorDetails,
  text: string,
  retryAfter: number | undefined,
  api: WireApi | undefined,
): boolean {
  // OpenAI: 429 insufficient_quota, "You exceeded your current quota" (P2).
  if (d.providerCode === 'insufficient_quota' || d.providerType === 'insufficient_quota') return true;
  if (api === 'openai-responses' || api === 'openai-chat')
    return status === 429 && /exceeded your current quota/i.test(text);
  // Anthropic: rate limits always carry retry-after; a 429 without one is a spend limit (P2).
  if (api === 'anthropic-messages')
    return (
      (status === 429 && retryAfter === undefined) ||
      ((status === 400 || status === 429) && /credit balance|spend(ing)? limit|billing/i.test(text))
    );
  if (api === 'gemini-generate-content') {
    if (status !== 429 && d.providerType !== 'RESOURCE_EXHAUSTED') return false;
    // A per-minute/per-second quota with a RetryInfo delay is a rate limit, not exhaustion.
    if (d.retryDelayMs !== undefined && d.perTimeQuota) return false;
    return QUOTA_WORDING.test(text);
  }
  return false;
}

function classifyWithoutStatus(
  err: unknown,
  d: ErrorDetails,
  make: (code: ErrorCode, what: string, retryable: boolean) => TransportError,
): TransportError {
  if (d.timeout) return make('timeout', 'The provider did not answer in time', true);
  if (d.providerType !== undefined || d.providerMessage !== undefined) {
    // An error event inside a stream (P3).
    const t = `${d.providerType ?? ''} ${d.providerCode ?? ''}`;
    if (/overloaded/i.test(t)) return make('overloaded', 'The provider is overloaded', true);
    if (/rate_limit/i.test(t)) return make('rate_limited', 'Rate limited', true);
    if (/insufficient_quota/i.test(t)) return make('quota', 'Quota or billing limit reached', false);
    if (/invalid_request/i.test(t)) return make('bad_request', 'The provider rejected the request', false);
    return make('provider_error', 'Provider error', true);
  }
  if (isAbortError(err)) return make('network', 'The request was aborted', false);
  return make('network', 'Could not reach the provider (network error, or a redirect Baton refused)', true);
}
