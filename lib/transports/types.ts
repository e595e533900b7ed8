/** Shapes of the transport layer (layer 3: SDK runtimes and fetch; no UI, no IndexedDB). */
import type { WireApi } from '../transcript/schema';
import type { FetchLike } from './fetch';

/**
 * Where and how to call one provider.
 * - `api`: OpenAI built-in → `openai-responses`; Anthropic → `anthropic-messages`; Google →
 *   `gemini-generate-content`; custom OpenAI-compatible endpoints → `openai-chat`.
 * - `baseUrl`: undefined for the provider's default origin; OpenAI-style URLs include `/v1`
 *   (`http://127.0.0.1:11434/v1`), Anthropic and Gemini ones do not.
 * - `apiKey`: sent only in the provider's own header (N2); may be `''` for a local
 *   OpenAI-compatible server that needs none.
 */
export interface ProviderConnection {
  providerId: string;
  api: WireApi;
  baseUrl?: string;
  apiKey: string;
}

/** Options of `streamRequest`. */
export interface StreamRequestOptions {
  /** Model id. Gemini puts it in the URL (its body has none); other APIs keep the body's `model`. */
  model: string;
  /** Aborting it stops the request (the server sees the connection close, L5); the call rejects with an `AbortError`. */
  signal: AbortSignal;
  /** Called with each event as plain JSON, the payload of one SSE `data:` line, in order. */
  onEvent(event: unknown): void;
  /** Time allowed for connecting, the response headers and the first body byte, in ms (default 60 000, P5). */
  firstByteTimeoutMs?: number;
  /** Longest silence of the response body, in ms (default 120 000, P5). */
  idleTimeoutMs?: number;
  /** Underlying fetch (tests); always wrapped so redirects are refused (N3). */
  fetch?: FetchLike;
  /**
   * The converter's non-secret request headers (`ConvertResult.headers`), sent exactly as given.
   * An `anthropic-beta` header sends an Anthropic request to the beta Messages endpoint (A-B3, A-P2).
   */
  headers?: Record<string, string>;
}

/** Options of `listModels`. */
export interface ListModelsOptions {
  signal?: AbortSignal;
  /** Whole-call limit in ms (default 30 000). */
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** One entry of a provider's model list. */
export interface ListedModel {
  /** The id to send as `model` (Gemini's `models/` prefix removed). */
  id: string;
  displayName?: string;
}
