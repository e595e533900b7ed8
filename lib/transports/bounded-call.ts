/**
 * One non-streaming provider call (a model list, a token count) with the guards every request
 * has: the caller's abort signal, a whole-call timeout, the no-redirect fetch (N3) with a tap of
 * the answer's headers, and errors classified and redacted of the key (N2) like a send's.
 */
import { classifyError, TransportError } from './errors';
import { makeNoRedirectFetch, tapFetch, type FetchLike, type ResponseTap } from './fetch';
import type { ProviderConnection } from './types';

/** The caller's side of a bounded call. */
export interface BoundedCallOptions {
  signal?: AbortSignal | undefined;
  /** Whole-call limit in ms. */
  timeoutMs: number;
  /** Underlying fetch (tests); always wrapped so redirects are refused (N3). */
  fetch?: FetchLike | undefined;
  /** The `timeout` error's message, e.g. "The provider did not list its models in time". */
  timeoutMessage: string;
}

/**
 * Runs `call` with a fetch and a signal that aborts on the caller's signal or after
 * `opts.timeoutMs`.
 * @throws TransportError `timeout` (retryable) after `opts.timeoutMs`; a `TransportError` that
 *   `call` throws, as it is; any other error classified by `classifyError` (key redacted).
 * @throws an `AbortError` DOMException when `opts.signal` aborts.
 */
export async function boundedCall<T>(
  conn: ProviderConnection,
  opts: BoundedCallOptions,
  call: (fetch: FetchLike, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const tap: ResponseTap = { events: [] };
  try {
    return await call(tapFetch(makeNoRedirectFetch(opts.fetch), tap), controller.signal);
  } catch (err) {
    if (timedOut) throw new TransportError('timeout', opts.timeoutMessage, { retryable: true });
    if (opts.signal?.aborted) throw new DOMException('The request was stopped', 'AbortError');
    throw classifyError(err, { secrets: [conn.apiKey], api: conn.api, headers: tap.headers });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
