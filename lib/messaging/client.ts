/**
 * The UI's side of the background protocol (`protocol.ts`): typed requests over
 * `runtime.sendMessage` and a subscription to the events port that survives service-worker
 * restarts (security-requirements.md L2). UI models take the {@link Connector} this returns, so
 * tests pass a mock (DESIGN.md, "Style to follow" 4).
 */
import { browser } from 'wxt/browser';
// Types only: the pages' bundles stay free of zod and the protocol's schemas (the background checks payloads).
import type {
  BackgroundEvent,
  ErrorCode,
  PORTS,
  ProtocolError,
  RequestInput,
  RequestType,
  Responses,
} from './protocol';

/** The events port's name; typed as the protocol's literal, so a change there fails to compile here. */
const EVENTS_PORT: (typeof PORTS)['events'] = 'baton-events';

/** Every error code of the protocol; a `Record` over `ErrorCode`, so the compiler keeps it complete and exact. */
const ERROR_CODES: Record<ErrorCode, true> = {
  bad_request: true,
  forbidden: true,
  not_found: true,
  no_key: true,
  invalid_key: true,
  locked: true,
  rate_limited: true,
  quota: true,
  overloaded: true,
  context_too_long: true,
  confirmation_required: true,
  policy_forbidden: true,
  not_received: true,
  blocked: true,
  network: true,
  timeout: true,
  endpoint_not_permitted: true,
  provider_error: true,
  storage_full: true,
  busy: true,
  internal: true,
};

/** True when `v` is one of the protocol's {@link ErrorCode}s. */
export function isErrorCode(v: unknown): v is ErrorCode {
  return typeof v === 'string' && Object.hasOwn(ERROR_CODES, v);
}

/** The parts of a `runtime.Port` the client uses. */
export interface PortLike {
  onMessage: { addListener(cb: (message: unknown) => void): void };
  onDisconnect: { addListener(cb: () => void): void };
  disconnect(): void;
}

/** How the client reaches the background; the default uses `browser.runtime`. */
export interface ClientTransport {
  /** Sends one envelope and resolves with the raw reply. */
  send(message: { type: string; payload: unknown }): Promise<unknown>;
  /** Opens the events port. */
  connect(): PortLike;
}

/** A failed request: the background's {@link ProtocolError}, or `internal` when no valid reply came. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly code: ErrorCode;
  readonly retryAfterSec?: number;
  constructor(error: ProtocolError) {
    super(error.message);
    this.code = error.code;
    if (error.retryAfterSec !== undefined) this.retryAfterSec = error.retryAfterSec;
  }
  /** The error as the protocol carries it. */
  toProtocolError(): ProtocolError {
    return {
      code: this.code,
      message: this.message,
      ...(this.retryAfterSec !== undefined ? { retryAfterSec: this.retryAfterSec } : {}),
    };
  }
}

/** Sends a typed request; resolves with its result. @throws ClientError on `{ok: false}` or no reply. */
export type RequestFn = <T extends RequestType>(type: T, payload: RequestInput<T>) => Promise<Responses[T]>;

/**
 * Listens to background events until the returned function is called. `onReconnect` runs after
 * the port was lost and opened again (the worker restarted): events may have been missed, so the
 * caller reloads its state.
 */
export type SubscribeFn = (onEvent: (event: BackgroundEvent) => void, onReconnect?: () => void) => () => void;

/** What UI models need from the background. */
export interface Connector {
  request: RequestFn;
  subscribe: SubscribeFn;
}

export interface ClientOptions {
  /** Wait before reopening a lost port, in ms (≤ 2,000 for L2; default 500). */
  reconnectDelayMs?: number;
}

const defaultTransport: ClientTransport = {
  send: (m) => browser.runtime.sendMessage(m),
  connect: () => browser.runtime.connect({ name: EVENTS_PORT }) as unknown as PortLike,
};

function unwrap(type: string, reply: unknown): unknown {
  if (typeof reply !== 'object' || reply === null || typeof (reply as { ok?: unknown }).ok !== 'boolean')
    throw new ClientError({ code: 'internal', message: `No valid reply from Baton's background for ${type}.` });
  const r = reply as { ok: boolean; data?: unknown; error?: unknown };
  if (r.ok) return r.data;
  const e = (typeof r.error === 'object' && r.error !== null ? r.error : {}) as {
    code?: unknown;
    message?: unknown;
    retryAfterSec?: unknown;
  };
  throw new ClientError({
    code: isErrorCode(e.code) ? e.code : 'internal',
    message: typeof e.message === 'string' ? e.message : 'Unknown error.',
    ...(typeof e.retryAfterSec === 'number' ? { retryAfterSec: e.retryAfterSec } : {}),
  });
}

/**
 * Creates a client. `request` unwraps `{ok, data}` replies; `subscribe` keeps one port per
 * subscription and reopens it `reconnectDelayMs` after each disconnect (the service worker may
 * have been stopped, L2), calling `onReconnect` each time, until unsubscribed.
 */
export function createClient(transport: ClientTransport = defaultTransport, options: ClientOptions = {}): Connector {
  const delay = Math.min(options.reconnectDelayMs ?? 500, 2000);

  const request: RequestFn = async (type, payload) => {
    let reply: unknown;
    try {
      reply = await transport.send({ type, payload });
    } catch (e) {
      throw new ClientError({
        code: 'internal',
        message: `Could not reach Baton's background (${e instanceof Error ? e.message : String(e)}).`,
      });
    }
    return unwrap(type, reply) as never;
  };

  const subscribe: SubscribeFn = (onEvent, onReconnect) => {
    let closed = false;
    let port: PortLike | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const open = (isReconnect: boolean) => {
      timer = undefined;
      if (closed) return;
      let p: PortLike;
      try {
        p = transport.connect();
      } catch {
        // The extension context may be reloading: try again later.
        timer = setTimeout(() => open(isReconnect), delay);
        return;
      }
      port = p;
      p.onMessage.addListener((m) => {
        if (
          !closed &&
          port === p &&
          typeof m === 'object' &&
          m !== null &&
          typeof (m as { type?: unknown }).type === 'string'
        )
          onEvent(m as BackgroundEvent);
      });
      p.onDisconnect.addListener(() => {
        if (closed || port !== p) return;
        port = undefined;
        timer = setTimeout(() => open(true), delay);
      });
      if (isReconnect) onReconnect?.();
    };

    open(false);
    return () => {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      const p = port;
      port = undefined;
      try {
        p?.disconnect();
      } catch {
        // already gone
      }
    };
  };

  return { request, subscribe };
}
