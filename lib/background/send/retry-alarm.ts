/**
 * Backoff that survives the service worker being stopped (security-requirements.md L4). A retry
 * wait is normally an in-memory sleep while the keepalive holds the worker (L3). A wait longer
 * than {@link ALARM_THRESHOLD_MS} is also recorded as a *pending retry* (conversation + target +
 * due time, in `storage.session`) with a `chrome.alarms` alarm at the due time. If the worker
 * survives, the sleep ends, the in-memory attempt runs and the alarm and record are cleared. If
 * the worker was stopped during the wait, the alarm wakes it (its listener is registered at top
 * level, L1) and {@link RetryAlarms.onAlarm} runs the one retry through `engine.retry` (which
 * replaces the interrupted answer, L2). Either way exactly one retry is sent.
 */
import type { SendTarget } from '../../messaging/protocol';

/** Alarm names: this prefix + the conversation id. */
export const RETRY_ALARM_PREFIX = 'baton-retry:';
/**
 * Waits longer than this (ms) also get a persisted alarm. 30 s: Chrome's smallest alarm delay
 * (https://developer.chrome.com/docs/extensions/reference/api/alarms, "delayInMinutes … 0.5").
 */
export const ALARM_THRESHOLD_MS = 30_000;

/** The slice of `chrome.alarms` used. */
export interface AlarmsLike {
  create(name: string, info: { when: number }): Promise<void> | void;
  clear(name: string): Promise<boolean> | Promise<void> | void;
}

/** A retry waiting for its alarm. `dueAt` is epoch ms. */
export interface PendingRetry {
  conversationId: string;
  target: SendTarget;
  dueAt: number;
  /**
   * A send to several models (docs/side-panel.md#ask-several-models-at-once): every answer of it
   * in a long retry wait, each with its answer turn and target. `target` and `dueAt` are then
   * the first's and the latest wait's end (the one alarm of the conversation rings then).
   */
  answers?: PendingAnswer[];
}

/** One answer of a send to several models waiting for its retry. */
export interface PendingAnswer {
  turnId: string;
  target: SendTarget;
  dueAt: number;
}

/** Where pending retries are kept across a worker restart (the background uses `storage.session`). */
export interface PendingRetryStore {
  get(conversationId: string): Promise<PendingRetry | undefined>;
  put(p: PendingRetry): Promise<void>;
  delete(conversationId: string): Promise<void>;
}

/** The `storage.session` slice {@link sessionPendingStore} uses. */
export interface SessionAreaLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

/** Pending retries in a `storage.session` area, one key per conversation (`batonRetry:<id>`). */
export function sessionPendingStore(area: SessionAreaLike): PendingRetryStore {
  const key = (id: string) => `batonRetry:${id}`;
  return {
    get: async (id) => (await area.get(key(id)))[key(id)] as PendingRetry | undefined,
    put: (p) => area.set({ [key(p.conversationId)]: p }),
    delete: (id) => area.remove(key(id)),
  };
}

export interface RetryAlarmDeps {
  alarms: AlarmsLike;
  pending: PendingRetryStore;
  /** Epoch ms and an abortable sleep (the engine's clock). */
  clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  /** Default {@link ALARM_THRESHOLD_MS}. */
  thresholdMs?: number;
}

export class RetryAlarms {
  /** Per conversation, the last change to its pending record (the answers of a compare update one record). */
  private readonly queue = new Map<string, Promise<unknown>>();

  constructor(private readonly d: RetryAlarmDeps) {}

  /** Runs `f` after every earlier change to `conversationId`'s record. */
  private serial<T>(conversationId: string, f: () => Promise<T>): Promise<T> {
    const run = (this.queue.get(conversationId) ?? Promise.resolve()).then(f, f);
    const tail = run.catch(() => undefined);
    this.queue.set(conversationId, tail);
    void tail.then(() => {
      if (this.queue.get(conversationId) === tail) this.queue.delete(conversationId);
    });
    return run;
  }

  /**
   * The retry wait of answer `turnId` of a send to several models: like {@link sleeper}, but the
   * conversation's one pending record lists every answer waiting (`answers`), so an alarm after
   * the worker stopped retries each of them, not only one. The alarm rings at the latest end.
   */
  answerSleeper(
    conversationId: string,
    turnId: string,
    target: SendTarget,
  ): (ms: number, signal?: AbortSignal) => Promise<void> {
    return async (ms, signal) => {
      if (ms <= (this.d.thresholdMs ?? ALARM_THRESHOLD_MS)) return this.d.clock.sleep(ms, signal);
      const dueAt = this.d.clock.now() + ms;
      const name = RETRY_ALARM_PREFIX + conversationId;
      await this.serial(conversationId, async () => {
        const old = await this.d.pending.get(conversationId);
        const answers = [...(old?.answers ?? []).filter((a) => a.turnId !== turnId), { turnId, target, dueAt }];
        const due = Math.max(...answers.map((a) => a.dueAt));
        await this.d.pending.put({ conversationId, target: answers[0]!.target, dueAt: due, answers });
        await this.d.alarms.create(name, { when: due });
      });
      try {
        await this.d.clock.sleep(ms, signal);
      } finally {
        await this.serial(conversationId, async () => {
          const old = await this.d.pending.get(conversationId);
          const answers = (old?.answers ?? []).filter((a) => a.turnId !== turnId);
          if (answers.length === 0) {
            await this.d.alarms.clear(name);
            await this.d.pending.delete(conversationId);
          } else
            await this.d.pending.put({
              conversationId,
              target: answers[0]!.target,
              dueAt: Math.max(...answers.map((a) => a.dueAt)),
              answers,
            });
        });
      }
    };
  }

  /**
   * The retry wait for one send of `conversationId`: sleeps `ms` (rejecting on `signal`), and for
   * waits over the threshold first records the pending retry and its alarm, cleared again when
   * the sleep ends or is aborted.
   */
  sleeper(conversationId: string, target: SendTarget): (ms: number, signal?: AbortSignal) => Promise<void> {
    return async (ms, signal) => {
      if (ms <= (this.d.thresholdMs ?? ALARM_THRESHOLD_MS)) return this.d.clock.sleep(ms, signal);
      const dueAt = this.d.clock.now() + ms;
      await this.d.pending.put({ conversationId, target, dueAt });
      await this.d.alarms.create(RETRY_ALARM_PREFIX + conversationId, { when: dueAt });
      try {
        await this.d.clock.sleep(ms, signal);
      } finally {
        await this.d.alarms.clear(RETRY_ALARM_PREFIX + conversationId);
        await this.d.pending.delete(conversationId);
      }
    };
  }

  /**
   * Handles an alarm: for one of ours whose retry is still pending and whose conversation has no
   * send in flight (the worker was stopped during the wait), removes the record and calls
   * `retry` once — for a send to several models once with every answer that was waiting
   * (`answers`). Returns whether a retry was started.
   * @throws whatever `retry` throws (e.g. BatonError `locked`); the record is gone either way.
   */
  async onAlarm(
    name: string,
    isBusy: (conversationId: string) => boolean,
    retry: (p: {
      conversationId: string;
      target: SendTarget;
      answers?: { turnId: string; target: SendTarget }[];
    }) => Promise<void>,
  ): Promise<boolean> {
    if (!name.startsWith(RETRY_ALARM_PREFIX)) return false;
    const conversationId = name.slice(RETRY_ALARM_PREFIX.length);
    const p = await this.d.pending.get(conversationId);
    // Still sleeping in memory (the worker lived): that attempt retries, not the alarm.
    if (!p || isBusy(conversationId)) return false;
    await this.d.pending.delete(conversationId);
    await retry({
      conversationId,
      target: p.target,
      ...(p.answers ? { answers: p.answers.map(({ turnId, target }) => ({ turnId, target })) } : {}),
    });
    return true;
  }
}
