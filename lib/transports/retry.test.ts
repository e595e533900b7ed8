/** withRetries: Baton's bounded policy (P1, L4) with an injected sleep and random. */
import { describe, expect, it } from 'vitest';
import { TransportError } from './errors';
import { retryDelayMs, withRetries, type RetryInfo } from './retry';

const retryable = (retryAfterMs?: number) =>
  new TransportError('provider_error', 'boom', { status: 500, retryable: true, retryAfterMs });

/** An attempt function failing with `errors` in turn, then resolving 'ok'. */
function script(errors: unknown[]) {
  const calls: number[] = [];
  const attempt = async (n: number) => {
    calls.push(n);
    const e = errors[n - 1];
    if (e !== undefined) throw e;
    return 'ok';
  };
  return { attempt, calls };
}

describe('withRetries', () => {
  it('retries a retryable error at most 3 times (4 attempts), with exponential backoff and jitter', async () => {
    const { attempt, calls } = script([retryable(), retryable(), retryable(), retryable(), retryable()]);
    const waits: number[] = [];
    const infos: RetryInfo[] = [];
    const err = await withRetries(attempt, {
      sleep: async (ms) => void waits.push(ms),
      random: () => 1,
      onRetry: (i) => infos.push(i),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(infos.map((i) => i.attempt)).toEqual([2, 3, 4]);
  });

  it('jitter keeps each wait between half and all of the step', () => {
    expect([0, 0.5, 0.999].map((r) => retryDelayMs(3, retryable(), 60_000, () => r))).toEqual([2000, 3000, 3998]);
  });

  it('honours retryAfterMs up to the cap', async () => {
    const { attempt } = script([retryable(45_000), retryable(90_000)]);
    const waits: number[] = [];
    await expect(withRetries(attempt, { sleep: async (ms) => void waits.push(ms), capMs: 60_000 })).resolves.toBe('ok');
    expect(waits).toEqual([45_000, 60_000]);
  });

  it('never retries a non-retryable TransportError or a foreign error', async () => {
    for (const e of [
      new TransportError('quota', 'no money', { status: 429 }),
      new Error('bug'),
      new DOMException('stopped', 'AbortError'),
    ]) {
      const { attempt, calls } = script([e]);
      await expect(withRetries(attempt, { sleep: async () => {} })).rejects.toBe(e);
      expect(calls).toEqual([1]);
    }
  });

  it('maxRetries cannot exceed 3; 0 means a single attempt', async () => {
    const many = script(Array.from({ length: 10 }, () => retryable()));
    await expect(withRetries(many.attempt, { maxRetries: 9, sleep: async () => {} })).rejects.toBeInstanceOf(
      TransportError,
    );
    expect(many.calls).toHaveLength(4);
    const one = script([retryable()]);
    await expect(withRetries(one.attempt, { maxRetries: 0, sleep: async () => {} })).rejects.toBeInstanceOf(
      TransportError,
    );
    expect(one.calls).toEqual([1]);
  });

  it('an abort during the wait stops with an AbortError and no further attempt', async () => {
    const controller = new AbortController();
    const { attempt, calls } = script([retryable(), retryable()]);
    const err = await withRetries(attempt, { signal: controller.signal, sleep: async () => controller.abort() }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(calls).toEqual([1]);
  });

  it('the default sleep really waits (short cap) and wakes on abort', async () => {
    const { attempt } = script([retryable(30)]);
    const started = Date.now();
    await expect(withRetries(attempt)).resolves.toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const controller = new AbortController();
    const slow = script([retryable(60_000)]);
    setTimeout(() => controller.abort(), 20);
    await expect(withRetries(slow.attempt, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
