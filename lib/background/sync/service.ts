/**
 * When sync runs (docs/architecture.md#sync, SY-1): on a periodic alarm, a few seconds after local
 * changes (debounced), and when a side panel connects — each a one-shot cycle, never a live
 * replication that keeps the worker awake. The engine is made on first use, and it constructs no
 * PouchDB database until a cycle runs with sync switched on.
 */
import type { BackgroundEvent } from '../../messaging/protocol';
import { SyncEngine, type SyncEngineDeps, type SyncStatus } from './engine';

/** The alarm of the periodic cycle. */
export const SYNC_ALARM = 'baton-sync';
/** Minutes between periodic cycles. */
export const SYNC_PERIOD_MIN = 15;
/** Wait after a local change before a cycle, so a burst of writes syncs once (ms). */
export const SYNC_DEBOUNCE_MS = 4_000;

/** The subset of `chrome.alarms` sync uses. */
export interface SyncAlarms {
  create(name: string, info: { periodInMinutes: number; delayInMinutes?: number }): unknown;
  clear(name: string): unknown;
}

export interface SyncServiceDeps {
  engine: () => SyncEngineDeps;
  alarms: SyncAlarms;
  setTimeout?: (f: () => void, ms: number) => unknown;
  clearTimeout?: (h: unknown) => void;
}

/** Events that mean the person changed something worth syncing (a streaming delta does not). */
function isLocalChange(e: BackgroundEvent): boolean {
  if (e.type === 'conversationUpdated' || e.type === 'conversationDeleted' || e.type === 'summaryUpdated') return true;
  return e.type === 'turnUpdated' && e.seq === undefined && e.turn.status !== 'streaming';
}

export class SyncService {
  private made: SyncEngine | undefined;
  private timer: unknown;

  constructor(private readonly deps: SyncServiceDeps) {}

  /** The engine, made on first use (it holds no database until a cycle runs). */
  engine(): SyncEngine {
    this.made ??= new SyncEngine(this.deps.engine());
    return this.made;
  }

  /** Runs a cycle when sync is on; resolves to undefined when it is off. */
  async syncIfOn(): Promise<SyncStatus | undefined> {
    const e = this.engine();
    if (!(await e.config())) return undefined;
    return e.syncNow();
  }

  /** The alarm listener's part: a cycle on {@link SYNC_ALARM}. */
  onAlarm(name: string): Promise<unknown> | undefined {
    return name === SYNC_ALARM ? this.syncIfOn() : undefined;
  }

  /** Called with every event the background broadcasts: a local change schedules a debounced cycle. */
  noteEvent(e: BackgroundEvent): void {
    if (isLocalChange(e)) this.soon(SYNC_DEBOUNCE_MS);
  }

  /** A side panel connected: sync shortly. */
  onPanelOpen(): void {
    this.soon(500);
  }

  /** After Create or Join: the periodic alarm. */
  scheduled(): void {
    void this.deps.alarms.create(SYNC_ALARM, { periodInMinutes: SYNC_PERIOD_MIN, delayInMinutes: SYNC_PERIOD_MIN });
  }

  /** After Stop or Remove: no alarm, no pending cycle. */
  unscheduled(): void {
    void this.deps.alarms.clear(SYNC_ALARM);
    if (this.timer !== undefined) (this.deps.clearTimeout ?? clearTimeout)(this.timer as ReturnType<typeof setTimeout>);
    this.timer = undefined;
  }

  private soon(ms: number): void {
    const clear = this.deps.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
    if (this.timer !== undefined) clear(this.timer);
    this.timer = (this.deps.setTimeout ?? setTimeout)(() => {
      this.timer = undefined;
      void this.syncIfOn().catch(() => undefined);
    }, ms);
  }
}
