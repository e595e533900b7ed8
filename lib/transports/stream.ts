/**
 * One streaming call to a provider through its official SDK, with Baton's timeouts (P5), abort
 * (L5), no redirects (N3) and typed errors (P1, P2, P3).
 */
import type { MessageCreateParamsStreaming as BetaMessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions/completions';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { classifyError, TransportError } from './errors';
import type { GoogleGenAI } from '@google/genai';
import { createAnthropicClient, createGeminiClient, createOpenAIClient } from './clients';
import { makeNoRedirectFetch, tapFetch, type ResponseTap } from './fetch';
import { geminiStreamParams } from './gemini-params';
import type { ProviderConnection, StreamRequestOptions } from './types';
import { isRecord as isRec, type JsonObject as Rec } from '../transcript/json';

/** GI-R1: the steps schema's `Api-Revision`, sent on every Interactions request (the converter's `headers` say the same). */
const INTERACTIONS_API_REVISION = '2026-05-20';

/** The parameters of `@google/genai`'s `interactions.create`. */
type InteractionsCreateParams = Parameters<GoogleGenAI['interactions']['create']>[0];

/** Default time allowed for connecting and the first event, in ms (P5). */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;
/** Default longest gap between events, in ms (P5). */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** The error a stopped call rejects with: the signal's reason when it is an Error, else an `AbortError`. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The request was stopped', 'AbortError');
}

/**
 * Opens the SDK stream for `conn.api`; each item is one event. `headers` (the converter's) go
 * with the request as given; an Anthropic request with an `anthropic-beta` header goes through
 * the SDK's beta Messages resource (`client.beta.messages`), whose types alone hold beta blocks
 * and fields (A-B3, A-P2).
 */
async function openStream(
  conn: ProviderConnection,
  body: unknown,
  model: string,
  signal: AbortSignal,
  fetch: ReturnType<typeof makeNoRedirectFetch>,
  headers?: Record<string, string>,
): Promise<AsyncIterable<unknown>> {
  const params = { ...(body as Rec), stream: true };
  const options = headers && Object.keys(headers).length > 0 ? { signal, headers } : { signal };
  switch (conn.api) {
    case 'anthropic-messages': {
      // Raw events (`create({stream: true})`), not the helper MessageStream.
      const client = createAnthropicClient(conn, fetch);
      if (headers?.['anthropic-beta'])
        return await client.beta.messages.create(params as unknown as BetaMessageCreateParamsStreaming, options);
      return await client.messages.create(params as unknown as MessageCreateParamsStreaming, options);
    }
    case 'openai-responses':
      return await createOpenAIClient(conn, fetch).responses.create(
        params as unknown as ResponseCreateParamsStreaming,
        options,
      );
    case 'openai-chat':
      return await createOpenAIClient(conn, fetch).chat.completions.create(
        params as unknown as ChatCompletionCreateParamsStreaming,
        options,
      );
    case 'gemini-generate-content':
      return createGeminiClient(conn, fetch).models.generateContentStream(geminiStreamParams(body, model, signal));
    case 'gemini-interactions':
      // The SDK's interactions client: its retries off (Baton's policy retries, `withRetries`) and
      // no automatic continuation hops, so the one request sent is the body the preview showed;
      // the SDK adds `Api-Revision` itself, and `headers` carries the converter's (GI-R1).
      return (await createGeminiClient(conn, fetch).interactions.create(
        { ...params, automatic_continuation: false } as unknown as InteractionsCreateParams,
        { signal, headers: { 'Api-Revision': INTERACTIONS_API_REVISION, ...headers }, maxRetries: 0 },
      )) as AsyncIterable<unknown>;
  }
}

/** An Interactions SSE `error` event (GI-E1: `{error: {code, message}}`, `code` a URI string) as the error the SDK did not throw. */
function interactionsErrorEvent(event: Rec): Error & { error: Rec; status?: undefined } {
  const body = isRec(event.error) ? event.error : {};
  const message = typeof body.message === 'string' && body.message ? body.message : 'The provider reported an error';
  return Object.assign(new Error(message), { error: { ...body, status: statusOf(body.code) } });
}

/** The google.rpc status name at the end of an Interactions error code (`…/google.rpc.UNAVAILABLE` → `UNAVAILABLE`). */
function statusOf(code: unknown): string | undefined {
  return typeof code === 'string' ? /([A-Z_]+)$/.exec(code)?.[1] : undefined;
}

/** A plain-JSON copy of an SDK event (the genai SDK yields class instances with extra fields). */
function plain(event: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(event)) as unknown;
  if (isRec(copy)) delete copy.sdkHttpResponse;
  return copy;
}

/**
 * The provider's own error event behind an SDK error thrown mid-stream, so the stream assembler
 * can end the turn with `status: 'error'` (P3): Anthropic `{type:'error', error}`, Chat
 * `{error}`, Responses `{type:'error', code, message}`, Gemini the raw chunk with `error`.
 */
function inBandErrorEvent(api: ProviderConnection['api'], err: unknown, tap: ResponseTap): unknown {
  if (api === 'gemini-generate-content') return tap.events.find((e) => isRec(e) && isRec(e.error));
  if (api === 'gemini-interactions') return undefined; // its error event was delivered as an event (GI-E1)
  if (!isRec(err) || (err as { status?: unknown }).status !== undefined || !isRec(err.error)) return undefined;
  const body = err.error;
  if (api === 'anthropic-messages') return body.type === 'error' ? body : undefined;
  if (api === 'openai-chat') return { error: body };
  return body.type === 'error' ? body : { type: 'error', ...body };
}

/**
 * Sends `body` — the converter's exact request body (`lib/providers/<api>/convert-to-<api>.ts`;
 * for Gemini without `model`, which comes from `opts.model`) — as a streaming request through
 * the provider's SDK and calls `opts.onEvent` with each event as plain JSON (one SSE `data:`
 * payload; Anthropic `ping`s are dropped by the SDK). Resolves when the stream ends, including
 * a stream that ends without its terminal event (the assembler then reads `interrupted`).
 *
 * @throws TransportError classified by `classifyError` (message redacted of `conn.apiKey`):
 *   `timeout` when no body byte arrives within `firstByteTimeoutMs` (default 60 s) or the body
 *   goes quiet for more than `idleTimeoutMs` (default 120 s; keep-alive pings count as life) —
 *   the request is aborted; any provider or
 *   network error. When events were already delivered the error has `midStream: true` and
 *   `retryable: false` (P3 keeps the partial answer and offers a manual retry), and an in-band
 *   error event (Anthropic `event: error`, Chat `{error}`, Responses `error`, Gemini error chunk)
 *   is first passed to `onEvent`.
 * @throws an `AbortError` (see `isAbortError`) when `opts.signal` aborts; the connection is closed.
 * @throws whatever `onEvent` throws (the request is aborted first).
 */
export async function streamRequest(
  conn: ProviderConnection,
  body: unknown,
  opts: StreamRequestOptions,
): Promise<void> {
  const firstByteMs = opts.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
  const idleMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (opts.signal.aborted) throw abortError(opts.signal);

  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal.reason);
  opts.signal.addEventListener('abort', onAbort, { once: true });
  let delivered = 0;
  let receiving = false;
  let timedOut: TransportError | undefined;
  let consumerError: { error: unknown } | undefined;
  const expire = () => {
    timedOut = new TransportError(
      'timeout',
      receiving
        ? `The provider stopped sending for ${Math.round(idleMs / 1000)} s`
        : `No answer from the provider within ${Math.round(firstByteMs / 1000)} s`,
      { retryable: delivered === 0, midStream: delivered > 0 },
    );
    controller.abort(timedOut);
  };
  let timer = setTimeout(expire, firstByteMs);
  // Any body bytes (events, or pings the SDK drops) count as life; the gap allowed is then idleMs.
  let finished = false;
  const alive = () => {
    if (finished) return;
    receiving = true;
    clearTimeout(timer);
    timer = setTimeout(expire, idleMs);
  };
  const tap: ResponseTap = { events: [] };
  const fetch = tapFetch(makeNoRedirectFetch(opts.fetch), tap, {
    captureSse: conn.api === 'gemini-generate-content',
    onActivity: alive,
  });
  let rawIndex = 0;

  try {
    const stream = await openStream(conn, body, opts.model, controller.signal, fetch, opts.headers);
    for await (const event of stream) {
      alive();
      // Gemini: the raw payload the SDK parsed this chunk from (the SDK re-maps candidate fields).
      const raw = conn.api === 'gemini-generate-content' ? (tap.events[rawIndex++] ?? plain(event)) : event;
      delivered++;
      try {
        opts.onEvent(raw);
      } catch (error) {
        consumerError = { error };
        controller.abort();
        throw error;
      }
      // GI-E1: the interactions client yields an SSE `error` event instead of throwing; it ends
      // the call like the other APIs' in-band errors (P3), after the assembler has seen it.
      if (conn.api === 'gemini-interactions' && isRec(event) && event.event_type === 'error') {
        controller.abort();
        throw interactionsErrorEvent(event);
      }
    }
  } catch (err) {
    if (consumerError) throw consumerError.error;
    if (timedOut) throw timedOut;
    if (opts.signal.aborted) throw abortError(opts.signal);
    const event = inBandErrorEvent(conn.api, err, tap);
    if (event !== undefined) {
      opts.onEvent(event);
      delivered++;
    }
    const error = classifyError(err, { secrets: [conn.apiKey], api: conn.api, headers: tap.headers });
    if (delivered > 0) {
      error.midStream = true;
      error.retryable = false;
    }
    throw error;
  } finally {
    finished = true;
    clearTimeout(timer);
    opts.signal.removeEventListener('abort', onAbort);
  }
  // The OpenAI and Anthropic SDKs end a stream quietly when its signal aborts.
  if (timedOut) throw timedOut;
  if (opts.signal.aborted) throw abortError(opts.signal);
}
