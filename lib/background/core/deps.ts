/**
 * The shapes of the dependencies the background's features share, below every feature that uses
 * them: what every protocol handler may reach ({@link BackgroundDeps}) and what the send pipeline
 * (`send/`: the engine, its checkpointer and the answer it streams) uses ({@link SendDeps}).
 */
import type { BackgroundEvent, SendTarget } from '../../messaging/protocol';
import type { ConversationStore } from '../../store/conversations';
import type { SettingsStore } from '../../store/settings';
import type { Vault } from '../../vault/vault';
import type { Clock } from './clock';
import type { Transport } from './transport';

export interface SendDeps {
  store: ConversationStore;
  settings: SettingsStore;
  vault: Vault;
  transport: Transport;
  /** Whether the extension holds a host permission for `origin` (N1). */
  hasHostPermission(origin: string): Promise<boolean>;
  clock: Clock;
  newId(): string;
  broadcast(event: BackgroundEvent): void;
  /** Keeps the service worker alive while a request is in flight (L3); counted, so overlapping sends nest. */
  keepalive: { start(): void; stop(): void };
  /**
   * The retry wait of one send (L4): defaults to `clock.sleep`; the background passes
   * `RetryAlarms.sleeper`, which also persists long waits as an alarm that survives a worker stop.
   */
  retrySleep?(conversationId: string, target: SendTarget): (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The retry wait of answer `turnId` of a send to several models (L4, docs/side-panel.md#ask-several-models-at-once):
   * defaults to `clock.sleep`; the background passes `RetryAlarms.answerSleeper`, whose one record
   * per conversation lists every answer waiting, so a stopped worker retries each of them.
   */
  answerRetrySleep?(
    conversationId: string,
    turnId: string,
    target: SendTarget,
  ): (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Checkpoint cadence (D1): defaults 1,000 ms and 500 characters. */
  checkpointMs?: number;
  checkpointChars?: number;
  /** Throttle for `turnUpdated` broadcasts while streaming, in ms (default 100). */
  broadcastMs?: number;
}

/** What the protocol handlers of every feature may reach; `createHandlers` gets these and more. */
export interface BackgroundDeps {
  store: ConversationStore;
  settings: SettingsStore;
  vault: Vault;
  transport: Transport;
  /** Whether the extension holds a host permission for `origin` (N1). */
  hasHostPermission(origin: string): Promise<boolean>;
  /** ISO time now. */
  now(): string;
  newId(): string;
  /** Tells open pages about changes made outside a send (imported conversations, summaries). */
  broadcast?(event: BackgroundEvent): void;
}
