/**
 * Provider token-count endpoints (docs/disclosure.md, "Token estimates per target"), called with the same
 * clients, key headers (N2), no-redirect fetch (N3), timeout and error classification as a send:
 *
 * - Anthropic: `POST /v1/messages/count_tokens` through `@anthropic-ai/sdk`
 *   `messages.countTokens` → `{ input_tokens }`
 *   (https://docs.anthropic.com/en/api/messages-count-tokens).
 * - Gemini: `POST /v1beta/models/{model}:countTokens` with `{ generateContentRequest }` →
 *   `{ totalTokens }` (https://ai.google.dev/api/tokens). Sent with the no-redirect fetch and
 *   the key in `x-goog-api-key`, not through `@google/genai`: its `models.countTokens` (3.3.0,
 *   Gemini Developer API mode) sends only `contents` and throws for `systemInstruction` and
 *   `tools` (`countTokensConfigToMldev`), so it cannot count the request Baton sends.
 * - OpenAI Responses and Chat Completions (and every OpenAI-compatible endpoint): no such
 *   endpoint; OpenAI-family models are counted exactly with a tokenizer instead.
 *
 * The caller decides what may be counted: calling an endpoint discloses the body to that provider.
 */
import type { MessageCountTokensParams } from '@anthropic-ai/sdk/resources/messages/messages';
import type { WireApi } from '../transcript/schema';
import { createAnthropicClient, DEFAULT_BASE_URLS, GEMINI_API_VERSION } from './clients';
import { boundedCall } from './bounded-call';
import { TransportError } from './errors';
import type { FetchLike } from './fetch';
import type { ProviderConnection } from './types';
import { isRecord } from '../transcript/json';

/** Default whole-call limit of a count, in ms. */
export const DEFAULT_COUNT_TIMEOUT_MS = 30_000;

/** Options of {@link countTokens}. */
export interface CountTokensOptions {
  /** Model id (Gemini puts it in the URL; Anthropic's body carries it too). */
  model: string;
  signal?: AbortSignal;
  /** Whole-call limit in ms (default {@link DEFAULT_COUNT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Underlying fetch (tests); always wrapped so redirects are refused (N3). */
  fetch?: FetchLike;
}

/** The wire APIs that have a token-count endpoint (Anthropic Messages, Gemini). */
export function hasCountEndpoint(api: WireApi): boolean {
  return api === 'anthropic-messages' || api === 'gemini-generate-content';
}

/**
 * Asks the provider how many input tokens `body` is.
 * @param body the count endpoint's own body: Anthropic `{model, messages, system?, tools?, …}`
 *   (no `max_tokens`, no `stream`); Gemini `{generateContentRequest: {model: 'models/…', contents, …}}`.
 * @returns input tokens, as the provider counts them (a non-negative integer).
 * @throws TransportError: `bad_request` for an API without a count endpoint (no request made);
 *   `timeout` after `opts.timeoutMs`; `provider_error` for an answer without a count; any
 *   provider or network error classified by `classifyError` (message redacted of the key).
 * @throws an `AbortError` when `opts.signal` aborts.
 */
export async function countTokens(
  conn: ProviderConnection,
  body: Record<string, unknown>,
  opts: CountTokensOptions,
): Promise<number> {
  if (!hasCountEndpoint(conn.api))
    throw new TransportError('bad_request', `The ${conn.api} API has no token-count endpoint.`);
  const n = await boundedCall(
    conn,
    {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? DEFAULT_COUNT_TIMEOUT_MS,
      fetch: opts.fetch,
      timeoutMessage: 'The provider did not count the tokens in time',
    },
    async (fetch, signal) =>
      conn.api === 'anthropic-messages'
        ? field(
            await createAnthropicClient(conn, fetch).messages.countTokens(body as unknown as MessageCountTokensParams, {
              signal,
            }),
            'input_tokens',
          )
        : geminiCount(conn, body, opts.model, fetch, signal),
  );
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new TransportError('provider_error', `The provider's token count is not a count of tokens: ${String(n)}`);
  return n;
}

/** Gemini `models.countTokens` over REST; a non-2xx answer becomes an error `classifyError` reads like a genai `ApiError`. */
async function geminiCount(
  conn: ProviderConnection,
  body: Record<string, unknown>,
  model: string,
  fetch: FetchLike,
  signal: AbortSignal,
): Promise<unknown> {
  const base = (conn.baseUrl ?? DEFAULT_BASE_URLS.google).replace(/\/+$/, '');
  const url = `${base}/${GEMINI_API_VERSION}/models/${encodeURIComponent(model.replace(/^models\//, ''))}:countTokens`;
  // N2: the key only in its own header, never `?key=`.
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': conn.apiKey },
    body: JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  if (!res.ok)
    throw Object.assign(new Error(text || `HTTP ${res.status}`), { status: res.status, headers: res.headers });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TransportError('provider_error', 'The provider answered the token count with something that is not JSON');
  }
  return field(json, 'totalTokens');
}

/**
 * `json[name]` when `json` is an object that has it, else undefined: the answer is the provider's
 * (docs/disclosure.md), so `null`, an array or a string is "not a count" (`provider_error`), not a TypeError
 * that would be reported as a network failure.
 */
function field(json: unknown, name: string): unknown {
  return isRecord(json) && Object.hasOwn(json, name) ? json[name] : undefined;
}
