/**
 * What the send pipeline needs from the transport layer, as an interface so tests can inject the
 * real transports pointed at the fake providers (or a scripted stand-in for timing tests).
 */
import type { WireApi } from '../../transcript/schema';

export interface Connection {
  providerId: string;
  api: WireApi;
  baseUrl?: string;
  apiKey: string;
}

export interface RetryInfo {
  /** 1-based number of the retry about to happen. */
  attempt: number;
  /** Wait before it, in ms. */
  delayMs: number;
}

export interface Transport {
  /**
   * Streams one request; each event is passed as plain JSON (one SSE `data:` line). `headers`: the
   * converter's non-secret headers, sent exactly (A-B3, A-P2). @throws TransportError
   */
  streamRequest(
    conn: Connection,
    body: unknown,
    opts: { model: string; signal: AbortSignal; onEvent(event: unknown): void; headers?: Record<string, string> },
  ): Promise<void>;
  /**
   * Runs `attempt` under Baton's bounded retry policy (P1). `shouldRetry()` is asked before each
   * retry (false once content has streamed); `sleep` waits, aborting with `signal`.
   */
  withRetries<T>(
    attempt: () => Promise<T>,
    opts: {
      sleep(ms: number, signal?: AbortSignal): Promise<void>;
      signal: AbortSignal;
      shouldRetry(): boolean;
      onRetry(info: RetryInfo): void;
    },
  ): Promise<T>;
  /** The provider's model list (also the cheap "test key" call). @throws TransportError */
  listModels(conn: Connection): Promise<{ id: string }[]>;
  /**
   * Input tokens of `body` as the provider's token-count endpoint counts them (Anthropic
   * `count_tokens`, Gemini `countTokens`; docs/disclosure.md). One request, no retries; the caller makes sure
   * `body` holds only what the provider has already received.
   * @throws TransportError (`bad_request` and no request for an API without a count endpoint).
   */
  countTokens(
    conn: Connection,
    body: Record<string, unknown>,
    opts: { model: string; signal?: AbortSignal },
  ): Promise<number>;
}
