/**
 * A mock {@link Connector} for component tests (DESIGN.md, "Style to follow" 4): scripted request
 * handlers, a record of every request, and functions that push background events or simulate a
 * reconnect.
 */
import type { Connector } from '../../lib/messaging/client';
import type {
  BackgroundEvent,
  ProtocolError,
  RequestInput,
  RequestType,
  Responses,
  Settings,
} from '../../lib/messaging/protocol';

export type MockHandlers = { [T in RequestType]?: (payload: RequestInput<T>) => Responses[T] | Promise<Responses[T]> };

/** Thrown by a handler to make the request fail like `{ok: false, error}` does. */
export class MockRequestError extends Error {
  readonly code: ProtocolError['code'];
  readonly retryAfterSec?: number;
  constructor(e: ProtocolError) {
    super(e.message);
    this.code = e.code;
    if (e.retryAfterSec !== undefined) this.retryAfterSec = e.retryAfterSec;
  }
}

export interface MockConnector {
  connector: Connector;
  calls: { type: RequestType; payload: unknown }[];
  callsOf<T extends RequestType>(type: T): RequestInput<T>[];
  emit(event: BackgroundEvent): void;
  /** As if the port was lost and opened again. */
  reconnect(): void;
  handlers: MockHandlers;
}

export function mockConnector(handlers: MockHandlers): MockConnector {
  const calls: { type: RequestType; payload: unknown }[] = [];
  const listeners = new Set<{ onEvent: (e: BackgroundEvent) => void; onReconnect?: (() => void) | undefined }>();
  const connector: Connector = {
    request: async (type, payload) => {
      calls.push({ type, payload });
      const h = handlers[type] as ((p: unknown) => unknown) | undefined;
      if (!h) throw new MockRequestError({ code: 'internal', message: `no mock for ${type}` });
      return (await h(payload)) as never;
    },
    subscribe: (onEvent, onReconnect) => {
      const l = { onEvent, onReconnect };
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return {
    connector,
    calls,
    handlers,
    callsOf: <T extends RequestType>(type: T) =>
      calls.filter((c) => c.type === type).map((c) => c.payload as RequestInput<T>),
    emit: (event) => {
      for (const l of [...listeners]) l.onEvent(event);
    },
    reconnect: () => {
      for (const l of [...listeners]) l.onReconnect?.();
    },
  };
}

/** Settings with keys for OpenAI and Anthropic, none for Gemini, default OpenAI gpt-5. */
export function sampleSettings(): Settings {
  return {
    providers: [
      { id: 'openai', name: 'OpenAI', api: 'openai-responses', hasKey: true, maskedKey: '••••abcd' },
      { id: 'anthropic', name: 'Anthropic', api: 'anthropic-messages', hasKey: true, maskedKey: '••••wxyz' },
      { id: 'google', name: 'Google Gemini', api: 'gemini-generate-content', hasKey: false },
    ],
    defaultTarget: { providerId: 'openai', model: 'gpt-5' },
  };
}
