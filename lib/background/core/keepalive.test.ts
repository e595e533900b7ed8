import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Keepalive } from './keepalive';

describe('L3 keepalive only while working', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('L3 pings every 20 s while a request is in flight, nests, and stops completely when the last one ends', () => {
    let pings = 0;
    const k = new Keepalive(() => pings++);
    vi.advanceTimersByTime(60_000);
    expect(pings).toBe(0);
    k.start();
    k.start();
    vi.advanceTimersByTime(60_000);
    expect(pings).toBe(3);
    k.stop();
    vi.advanceTimersByTime(20_000);
    expect(pings).toBe(4);
    k.stop();
    expect(k.active).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect(pings).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
    k.stop();
    expect(k.active).toBe(false);
  });
});
