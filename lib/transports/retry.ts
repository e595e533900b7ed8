/**
 * Baton's own retry policy (security-requirements.md P1, L4; DESIGN.md "Retries"): at most 3
 * retries (4 attempts in all, SDK retries off), exponential backoff with jitter, a provider's
 * `retry-after` honoured up to a cap, and never a retry of a non-retryable error (quota,
 * invalid key, bad request, or anything after output was delivered).
 */
import { RETRY_AFTER_CAP_MS, TransportError } from './errors';

/** Hard ceiling on retries (P1: ≤ 4 requests per user send). */
export const MAX_RETRIES = 3;
/** First backoff step in ms; doubles per retry (1 s, 2 s, 4 s) before jitter. */
export const BACKOFF_BASE_MS = 1_000;

/** Passed to `onRetry` before each wait. */
export interface RetryInfo {
  /** The attempt about to run after the wait (2..4). */
  attempt: number;
  /** The wait in ms. */
  delayMs: number;
  /** The error that caused the retry. */
  error: TransportError;
}

/** Options of {@link withRetries}. */
export interface RetryOptions {
  /** Retries after the first attempt; default and maximum 3. */
  maxRetries?: number;
  /** Longest wait in ms (default 60 000), also for a provider's `retry-after`. */
  capMs?: number;
  /** Waits `ms` (injectable so tests run instantly); should reject or resolve early when `signal` aborts. Default: setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random number in [0, 1) for jitter (default Math.random). */
  random?: () => number;
  onRetry?: (info: RetryInfo) => void;
  /** Stops retrying: an abort during a wait rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/** Sleeps `ms`, resolving early when `signal` aborts. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The wait before retry number `retry` (1-based) after `error`, in ms: the provider's
 * `retryAfterMs` when given, else `base·2^(retry−1)` with equal jitter (half fixed, half
 * random); both capped at `capMs`.
 */
export function retryDelayMs(
  retry: number,
  error: TransportError,
  capMs = RETRY_AFTER_CAP_MS,
  random: () => number = Math.random,
): number {
  if (error.retryAfterMs !== undefined) return Math.min(capMs, error.retryAfterMs);
  const step = Math.min(capMs, BACKOFF_BASE_MS * 2 ** (retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Runs `attempt(n)` (n = 1, 2, …) until it resolves, retrying only a {@link TransportError} with
 * `retryable: true`, at most `maxRetries` times (≤ 3).
 * @returns the first successful result.
 * @throws the last error; any error that is not a retryable TransportError (including an
 *   `AbortError`) at once, unchanged; an `AbortError` when `opts.signal` aborts during a wait.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxRetries = Math.max(0, Math.min(MAX_RETRIES, opts.maxRetries ?? MAX_RETRIES));
  const capMs = opts.capMs ?? RETRY_AFTER_CAP_MS;
  const sleep = opts.sleep ?? defaultSleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof TransportError) || !error.retryable || n > maxRetries || opts.signal?.aborted) throw error;
      const delayMs = retryDelayMs(n, error, capMs, opts.random);
      opts.onRetry?.({ attempt: n + 1, delayMs, error });
      await sleep(delayMs, opts.signal);
      if (opts.signal?.aborted) throw new DOMException('The request was stopped', 'AbortError');
    }
  }
}
