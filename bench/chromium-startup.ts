/**
 * Service-worker cold start (bench/README.md, "Bundle and start-up"): the worker is stopped over CDP
 * (`ServiceWorker.stopWorker`), started again (`ServiceWorker.startWorker`), and the test build's
 * marks (`globalThis.batonStartup`, entrypoints/background.ts) give, on the worker's own clock
 * (ms since its time origin): the end of the evaluation of background.js (every listener
 * registered) and the moment `batonReady` resolved (database open, recovery done). The wall time
 * from `startWorker` until CDP reports it running is reported too.
 */
import type { ExtensionBrowser } from '../test/e2e/harness';
import { median } from './harness';
import { NAME_SHIM } from './chromium-panel';

interface StartupMarks {
  evaluatedMs: number;
  readyMs?: number;
}

/** Medians (ms) of the cold starts. */
export interface StartupResult {
  samples: number;
  evaluatedMs: number;
  readyMs: number;
  wallMs: number;
}

/** Stops and restarts Baton's worker `warmup + samples` times; medians of the timed starts. */
export async function benchStartup(browser: ExtensionBrowser, warmup: number, samples: number): Promise<StartupResult> {
  const evaluated: number[] = [];
  const ready: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < warmup + samples; i++) {
    await browser.stopServiceWorker();
    const t0 = performance.now();
    await browser.wakeServiceWorker();
    const wallMs = performance.now() - t0;
    await browser.worker().evaluate(NAME_SHIM);
    const marks = await browser.evalInWorker(async () => {
      const g = globalThis as unknown as { batonReady: Promise<unknown>; batonStartup?: StartupMarks };
      await g.batonReady;
      return g.batonStartup;
    }, undefined);
    if (!marks || marks.readyMs === undefined)
      throw new Error('bench: globalThis.batonStartup is missing (not a test build, or a stale one)');
    if (i < warmup) continue;
    evaluated.push(marks.evaluatedMs);
    ready.push(marks.readyMs);
    wall.push(wallMs);
  }
  return { samples, evaluatedMs: median(evaluated), readyMs: median(ready), wallMs: median(wall) };
}

/**
 * {@link benchStartup} with sync switched on (docs/architecture.md#sync, SY-1): the worker's
 * `settings` hold the configuration *Create* leaves (server URL, node id, non-extractable keys) and
 * the periodic alarm is set; no server is contacted, as none is at start-up. Sync is switched off
 * again afterwards, so the parts after this one run as before.
 */
export async function benchStartupSyncOn(
  browser: ExtensionBrowser,
  warmup: number,
  samples: number,
): Promise<StartupResult> {
  type Worker = {
    db: { put(s: string, v: unknown): Promise<unknown>; delete(s: string, k: string): Promise<unknown> };
  };
  type Sync = { sync: { scheduled(): void; unscheduled(): void } };
  await browser.evalInWorker(async () => {
    const { db, sync } = await (globalThis as unknown as { batonReady: Promise<Worker & Sync> }).batonReady;
    const s = crypto.subtle;
    const content = await s.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const id = await s.generateKey({ name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign']);
    const value = { version: 1, url: 'http://127.0.0.1:5984/baton', user: '', node: 'bench001', keys: { content, id } };
    await db.put('settings', { key: 'sync', value });
    sync.scheduled();
  }, undefined);
  try {
    return await benchStartup(browser, warmup, samples);
  } finally {
    await browser.evalInWorker(async () => {
      const { db, sync } = await (globalThis as unknown as { batonReady: Promise<Worker & Sync> }).batonReady;
      await db.delete('settings', 'sync');
      sync.unscheduled();
    }, undefined);
  }
}
