/**
 * Shapes shared by the per-API modules in `lib/providers/<api>/` (DESIGN.md, "One module per
 * wire API"). Pure types: no runtime, so every layer-2 module can import them.
 */
import type { ConversionReport } from '../transcript/report';
import type { Turn, WireApi } from '../transcript/schema';
import type { ConversionCache } from '../transcript/prepare-cache';

/** What a reader needs to know about the request that produced a response. */
export interface ReadContext {
  /** Provider id for the turn's origin (`anthropic`, `openai`, `google`, `openrouter`, …). */
  provider: string;
  /** The model id Baton asked for; becomes `origin.requestedModel` when it differs from the reported model. */
  requestedModel?: string;
  /** The base URL's origin when not the provider's default; becomes `origin.endpoint`. */
  endpoint?: string;
  /** Id for the assembled turn; default: derived from the response id, else `"assistant"`. */
  turnId?: string;
  /** ISO 8601 time for `createdAt`, if the caller wants one. */
  createdAt?: string;
}

/** Origin fields a history reader gives to the assistant turns it reads (transcript-v1.md, `--from`). */
export interface HistoryReadOptions {
  /** Default: the API's usual provider (`anthropic`, `openai`, `google`). */
  provider?: string;
  /** Default: the body's `model`. Throws when neither is known. */
  model?: string;
  /** Transcript id; default `"imported"`. */
  id?: string;
}

/**
 * Assembles one assistant turn from a provider's stream events, fed one at a time, as the SDK
 * yields them (the JSON of one SSE `data:` line each).
 */
export interface StreamAssembler {
  /** Feeds one event. Never throws on provider content; malformed events are recorded as warnings in `turn.meta`. */
  push(event: unknown): void;
  /** The turn so far, at any moment (status `streaming` until the terminal event, then final). Cheap enough to call once a second. */
  snapshot(): Turn;
  /** Ends the input: the turn is `complete` (or `error`) only if the API's terminal event arrived, else `interrupted`. */
  finish(): Turn;
  /** True once the terminal event has been seen. */
  readonly done: boolean;
}

/**
 * Options of every converter's `convert` (docs/architecture.md#incremental-conversion): the
 * result is the same with or without them.
 */
export interface ConvertOptions {
  /** Per-turn results of the shared pre-pass to reuse and fill (`createConversionCache`). */
  cache?: ConversionCache | undefined;
}

/**
 * What every converter returns (transcript-v1.md, "The `baton convert` contract"): the exact JSON
 * body of a streaming request (no credentials) and the report.
 */
export interface ConvertResult<Body = Record<string, unknown>> {
  api: WireApi;
  /** The model id as requested. */
  model: string;
  body: Body;
  report: ConversionReport;
  /**
   * Non-secret request headers beyond credentials and the SDK's defaults that the request needs
   * (transcript-v1.md, "The `baton convert` contract"): e.g. `anthropic-beta` for a replayed beta
   * block or the thinking-binding controls (A-B3, A-P2). Absent when none; the transport sends
   * exactly these.
   */
  headers?: Record<string, string>;
}
