/**
 * L4 with an injected clock: a 429 with `retry-after: 45` under Baton's real retry policy
 * (`sdkTransport.withRetries`, SDK retries off) waits 45 s through {@link RetryAlarms}; exactly
 * one retry is sent 45–60 s later whether the worker lives through the wait (in-memory sleep) or
 * is stopped during it (the persisted alarm).
 */
import { describe, expect, it } from 'vitest';
import type { SendTarget } from '../../messaging/protocol';
import { TransportError } from '../../transports';
import {
  ALARM_THRESHOLD_MS,
  RETRY_ALARM_PREFIX,
  RetryAlarms,
  sessionPendingStore,
  type PendingRetryStore,
} from './retry-alarm';
import { sdkTransport } from '../core/sdk-transport';

const T0 = 1_800_000_000_000;
const TARGET: SendTarget = { providerId: 'anthropic', model: 'claude-sonnet-4-6' };

/** A clock whose sleeps resolve only when time is advanced past them. */
function fakeClock() {
  let now = T0;
  const sleepers: { until: number; resolve(): void; reject(e: unknown): void }[] = [];
  return {
    now: () => now,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const s = { until: now + ms, resolve, reject };
        sleepers.push(s);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    async advance(ms: number) {
      now += ms;
      for (const s of sleepers.filter((x) => x.until <= now)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.resolve();
      }
      for (let i = 0; i < 20; i++) await Promise.resolve();
    },
    /** The worker is stopped: its pending sleeps never end. */
    killSleeps: () => void sleepers.splice(0),
  };
}

/** Chrome's alarms and storage.session, kept outside the "worker" so they survive its restart. */
function browserState() {
  const alarms = new Map<string, number>();
  const session = new Map<string, unknown>();
  const area = {
    get: async (k: string) => (session.has(k) ? { [k]: session.get(k) } : {}),
    set: async (items: Record<string, unknown>) =>
      void Object.entries(items).forEach(([k, v]) => session.set(k, structuredClone(v))),
    remove: async (k: string) => void session.delete(k),
  };
  return {
    alarms,
    session,
    alarmsApi: {
      create: (name: string, info: { when: number }) => void alarms.set(name, info.when),
      clear: async (name: string) => alarms.delete(name),
    },
    pending: sessionPendingStore(area) as PendingRetryStore,
  };
}

const rateLimited = () =>
  new TransportError('rate_limited', '429 Too Many Requests', { status: 429, retryable: true, retryAfterMs: 45_000 });

/** A send: 429 with retry-after 45 s on the first attempt, success after; records each attempt's time. */
function scriptedSend(
  clock: ReturnType<typeof fakeClock>,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  attempts: number[],
) {
  const abort = new AbortController();
  const done = sdkTransport.withRetries(
    async () => {
      attempts.push(clock.now());
      if (attempts.length === 1) throw rateLimited();
      return 'ok';
    },
    { sleep, signal: abort.signal, shouldRetry: () => true, onRetry: () => undefined },
  );
  return { done, abort };
}

describe('L4 backoff survives sleep', () => {
  it('L4 the worker lives through a 45 s wait: exactly one retry, 45 s later, by the in-memory sleep; alarm and record cleared', async () => {
    const clock = fakeClock();
    const b = browserState();
    const ra = new RetryAlarms({ alarms: b.alarmsApi, pending: b.pending, clock });
    const attempts: number[] = [];
    const { done } = scriptedSend(clock, ra.sleeper('c1', TARGET), attempts);
    await clock.advance(0);
    expect(b.alarms).toEqual(new Map([[`${RETRY_ALARM_PREFIX}c1`, T0 + 45_000]]));
    expect(await b.pending.get('c1')).toEqual({ conversationId: 'c1', target: TARGET, dueAt: T0 + 45_000 });
    await clock.advance(45_000);
    expect(await done).toBe('ok');
    expect(attempts.map((t) => t - T0)).toEqual([0, 45_000]);
    expect(b.alarms.size).toBe(0);
    expect(b.session.size).toBe(0);
    // A late alarm finds nothing to do.
    const retries: unknown[] = [];
    expect(
      await ra.onAlarm(
        `${RETRY_ALARM_PREFIX}c1`,
        () => false,
        async (p) => void retries.push(p),
      ),
    ).toBe(false);
    expect(retries).toEqual([]);
  });

  it('L4 the worker is stopped during the wait: the persisted alarm wakes a new worker, which sends exactly one retry 45–60 s later', async () => {
    const clock = fakeClock();
    const b = browserState();
    const attempts: number[] = [];
    scriptedSend(
      clock,
      new RetryAlarms({ alarms: b.alarmsApi, pending: b.pending, clock }).sleeper('c1', TARGET),
      attempts,
    );
    await clock.advance(0);
    await clock.advance(10_000);
    // The worker is stopped: its sleep never ends (nothing of it runs again); only the alarm and storage.session survive.
    clock.killSleeps();
    const restarted = new RetryAlarms({ alarms: b.alarmsApi, pending: b.pending, clock });
    const when = b.alarms.get(`${RETRY_ALARM_PREFIX}c1`)!;
    expect(when - T0).toBeGreaterThanOrEqual(45_000);
    expect(when - T0).toBeLessThanOrEqual(60_000);
    await clock.advance(when - clock.now());
    const retries: { at: number; p: unknown }[] = [];
    const retry = async (p: unknown) => void retries.push({ at: clock.now(), p });
    expect(await restarted.onAlarm(`${RETRY_ALARM_PREFIX}c1`, () => false, retry)).toBe(true);
    // Chrome may deliver an alarm twice; the second finds no record.
    expect(await restarted.onAlarm(`${RETRY_ALARM_PREFIX}c1`, () => false, retry)).toBe(false);
    expect(retries).toEqual([{ at: T0 + 45_000, p: { conversationId: 'c1', target: TARGET } }]);
    expect(attempts.map((t) => t - T0)).toEqual([0]);
    expect(b.session.size).toBe(0);
  });

  it('L4 an alarm while the send is still in flight in memory does not retry (no double send)', async () => {
    const clock = fakeClock();
    const b = browserState();
    const ra = new RetryAlarms({ alarms: b.alarmsApi, pending: b.pending, clock });
    const attempts: number[] = [];
    const { done } = scriptedSend(clock, ra.sleeper('c1', TARGET), attempts);
    await clock.advance(0);
    const retries: unknown[] = [];
    expect(
      await ra.onAlarm(
        `${RETRY_ALARM_PREFIX}c1`,
        (id) => id === 'c1',
        async (p) => void retries.push(p),
      ),
    ).toBe(false);
    await clock.advance(45_000);
    expect(await done).toBe('ok');
    expect(retries).toEqual([]);
    expect(attempts).toHaveLength(2);
  });

  it('L4 short waits use the keepalive only; Stop during a long wait clears the alarm and the record; foreign alarms are ignored', async () => {
    const clock = fakeClock();
    const b = browserState();
    const ra = new RetryAlarms({ alarms: b.alarmsApi, pending: b.pending, clock });
    const short = ra.sleeper('c1', TARGET)(ALARM_THRESHOLD_MS);
    await clock.advance(0);
    expect(b.alarms.size + b.session.size).toBe(0);
    await clock.advance(ALARM_THRESHOLD_MS);
    await short;

    const stop = new AbortController();
    const long = ra.sleeper('c2', TARGET)(45_000, stop.signal);
    await clock.advance(0);
    expect([...b.alarms.keys()]).toEqual([`${RETRY_ALARM_PREFIX}c2`]);
    stop.abort(new Error('stopped'));
    await expect(long).rejects.toThrow('stopped');
    expect(b.alarms.size + b.session.size).toBe(0);
    expect(
      await ra.onAlarm(
        'some-other-alarm',
        () => false,
        async () => undefined,
      ),
    ).toBe(false);
  });
});
