/**
 * Types of the fake providers: one local HTTP server that speaks the wire formats of OpenAI
 * (Chat Completions, Responses, model list), Anthropic (Messages, model list) and Gemini
 * (`generateContent`, `streamGenerateContent?alt=sse`, Interactions, model list) well enough for the official
 * SDKs, and judges every request body with the contract validators in `test/contract/`.
 */
import type { ContractApi, Violation } from '../contract';

/** The endpoints the server tells apart. The four wire APIs, the three model lists and the two token-count endpoints. */
export type FakeApi =
  | ContractApi
  | 'openai-models'
  | 'anthropic-models'
  | 'gemini-models'
  | 'anthropic-count-tokens'
  | 'gemini-count-tokens';

/** Whose key an endpoint expects: built-in providers plus `compat` (custom OpenAI-compatible endpoints). */
export type KeyOwner = 'openai' | 'anthropic' | 'google' | 'compat';

/** A function call in a scripted answer. `arguments` is the JSON object the model "chose". */
export interface ScriptedCall {
  /** Tool-call id; default a generated one in the API's own style (`toolu_…`, `call_…`). */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Options every streamed reply accepts. */
export interface StreamPacing {
  /** Pause before each event (after the first), in ms. Default 0. */
  delayMs?: number;
}

/** A short text answer. `chunks` overrides how `text` is split into deltas. */
export interface TextReply extends StreamPacing {
  kind: 'text';
  text?: string;
  chunks?: string[];
}

/** An answer that calls tools (Anthropic `tool_use`, Chat `tool_calls`, Responses `function_call`, Gemini `functionCall`), optionally after some text. */
export interface ToolCallReply extends StreamPacing {
  kind: 'tool-call';
  calls: ScriptedCall[];
  text?: string;
}

/**
 * An answer with reasoning first: Anthropic `thinking` block with `signature`, Responses
 * `reasoning` item with `encrypted_content`, Gemini thought part plus `thoughtSignature` on the
 * first answer part, Chat `reasoning_content` deltas (no signature on that wire).
 */
export interface ThinkingReply extends StreamPacing {
  kind: 'thinking';
  thinking: string;
  signature?: string;
  text: string;
  /** Overrides how `text` is split into deltas. */
  chunks?: string[];
  calls?: ScriptedCall[];
}

/**
 * Replays a recorded file from `../shared/fixtures/recorded-streams/` (path relative to that
 * folder): `*.chunks.jsonl` (one event per line, streamed), `*.sse` (raw SSE text),
 * `*.response.json` (non-stream JSON), `llm-cassette-*.yaml` (the recorded response body of
 * interaction `interaction`, default 0).
 */
export interface FixtureReply extends StreamPacing {
  kind: 'fixture';
  file: string;
  interaction?: number;
}

/** Raw event objects, streamed in the API's framing (Chat gets a closing `[DONE]` unless `done: false`). */
export interface EventsReply extends StreamPacing {
  kind: 'events';
  events: unknown[];
  done?: boolean;
}

/** A non-stream JSON body, as given. */
export interface JsonReply {
  kind: 'json';
  body: unknown;
  status?: number;
}

/**
 * An HTTP error (or any non-2xx status, e.g. a 302 with `Location`). `body`: an object is sent
 * as JSON, a string as given (with `content-type: text/html` unless `headers` says otherwise);
 * omitted → the provider's own error shape for `status`.
 */
export interface ErrorReply {
  kind: 'error';
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A reply whose events can be streamed (the source of cut / error-event / stall). */
export type StreamSource = TextReply | ToolCallReply | ThinkingReply | FixtureReply | EventsReply;

/** Streams `afterEvents` events of `source` (default the scripted text), then destroys the socket. */
export interface CutReply {
  kind: 'cut';
  afterEvents: number;
  source?: StreamSource;
}

/** Streams `afterEvents` events of `source`, then one error event (default: the API's own overloaded error), then ends. */
export interface ErrorEventReply {
  kind: 'error-event';
  afterEvents: number;
  event?: unknown;
  source?: StreamSource;
}

/**
 * Waits `ms` before the response (or, with `afterEvents`, after that many events), then sends
 * the rest of `source`. A client that gives up meanwhile is seen as a disconnect.
 */
export interface StallReply {
  kind: 'stall';
  ms: number;
  afterEvents?: number;
  source?: StreamSource;
}

/** Anything a test can queue with `enqueue(api, reply)`. */
export type Reply = StreamSource | JsonReply | ErrorReply | CutReply | ErrorEventReply | StallReply;

/** One request as the server saw it. Header names are lower-case; `body` is the parsed JSON (or the raw text when it is not JSON). */
export interface RecordedRequest {
  api: FakeApi | 'unknown';
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  /** `Date.now()` when the request arrived. */
  at: number;
  /** Gemini: the model from the URL. */
  model?: string;
  /** Chat on a flavour path (`/openrouter/v1/…`): that flavour. */
  flavour?: string;
  /** Contract violations found in the body (also when the server was told not to reject them). */
  violations: Violation[];
  /** Key-binding problems (N2): a key outside its own header or origin, `?key=`. */
  keyViolations: string[];
  /** HTTP status the server answered (undefined while streaming or when the socket was cut). */
  status?: number;
  /** The client closed the connection before the response was complete (L5). */
  disconnected?: boolean;
}

/** Expected keys. Defaults: `sk-fake-openai-0123456789abcdef`, `sk-ant-fake-0123456789abcdef`, `AIzaFakeGoogle0123456789abcdef`, `sk-fake-compat-0123456789abcdef`. */
export interface FakeKeys {
  openai: string;
  anthropic: string;
  google: string;
  compat: string;
}

/** Settings that a test can change at any time with `configure`. */
export interface FakeSettings {
  /** Answer 400 when the contract validators find a violation (default true). */
  validate: boolean;
  /** Rule ids that never cause a 400 (still recorded), e.g. `CONVERTER_CONTRACT_RULES`. */
  ignoreRules: string[];
  /** Provider flavour for Chat bodies on `/v1/chat/completions` (default `openai`). */
  chatProvider: string;
  /** The scripted default answer's text. */
  defaultText: string;
  /** Model ids for the three model lists. */
  models: { openai: string[]; anthropic: string[]; google: string[] };
  /**
   * Unqueued requests get a rich answer (Markdown, thinking when asked, tool calls when tools are
   * defined; rich.ts) instead of `defaultText`. Off by default; `npm run fake-providers` turns it on.
   */
  rich: boolean;
  /** Rich answers stream slowly (to try Stop); without it, only messages containing "slow" do. */
  slow: boolean;
}

/** Options of `startFakeProviders`. */
export interface FakeProvidersOptions extends Partial<FakeSettings> {
  /** TCP port on 127.0.0.1; default 0 (a free one). */
  port?: number;
  keys?: Partial<FakeKeys>;
  /** Absolute path of `recorded-streams/`; default `<project>/../shared/fixtures/recorded-streams`. */
  fixturesDir?: string;
}

/** A Gemini interaction the fake stored (`store` not false), for `previous_interaction_id` chaining (GI-P1). */
export interface StoredInteraction {
  /** `v1_fake…`. */
  id: string;
  model: string;
  /** Every input step of the chain so far: the previous interaction's, then this request's. */
  input: unknown[];
}

/** A running fake-provider server. */
export interface FakeProviders {
  /** `http://127.0.0.1:<port>` — the Anthropic and Gemini base URL. */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1` — the OpenAI base URL. */
  readonly openaiBaseUrl: string;
  readonly port: number;
  readonly keys: FakeKeys;
  /** Every request so far, oldest first. */
  readonly requests: RecordedRequest[];
  /** How many responses the client abandoned before they were complete. */
  readonly disconnects: number;
  /** Gemini interactions stored so far, by id (GI-P1); `reset()` forgets them. */
  readonly interactions: ReadonlyMap<string, StoredInteraction>;
  /** Queues a reply for the next request to `api` (FIFO); unqueued requests get the scripted text answer. */
  enqueue(api: FakeApi, ...replies: Reply[]): void;
  /** Changes settings for the following requests. */
  configure(settings: Partial<FakeSettings>): void;
  /** Forgets requests, disconnects, queued replies, the id counter and the thinking blocks it minted (settings stay). */
  reset(): void;
  /** Resolves once `disconnects >= count`; rejects after `timeoutMs` (default 2000). */
  waitForDisconnects(count: number, timeoutMs?: number): Promise<void>;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}
