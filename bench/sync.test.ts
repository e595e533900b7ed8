/**
 * The sync section's overlap (bench/README.md, "Sync"): with {@link SyncOverlap}, the set-up runs
 * first and reports itself done, and the timed apply waits until it is released.
 */
import { describe, expect, it } from 'vitest';
import { benchSyncApply } from './sync';

describe('benchSyncApply with an overlap', () => {
  it('reports the set-up done, then times the apply only once released', async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const run = benchSyncApply(20, 1, (l) => events.push(l.trim()), {
      setUp: () => events.push('set up'),
      timeAfter: new Promise<void>((r) => (release = r)),
    });
    let settled = false;
    void run.then(() => (settled = true));
    await expect.poll(() => events.includes('set up'), { timeout: 60_000, interval: 50 }).toBe(true);
    // Held: no apply until released.
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    expect(events.some((e) => e.includes('applied'))).toBe(false);
    release();
    const r = await run;
    expect(r).toMatchObject({ ok: true, turns: 20, samples: 1 });
    const pushed = events.indexOf('sync: device A pushed them');
    expect(pushed).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('set up')).toBeGreaterThan(pushed);
    expect(events.findIndex((e) => e.includes('applied'))).toBeGreaterThan(events.indexOf('set up'));
  }, 120_000);
});
