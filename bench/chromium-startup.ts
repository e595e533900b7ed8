/**
 * Service-worker cold start (bench/README.md, "Bundle and start-up"): the worker is stopped over CDP
 * (`ServiceWorker.stopWorker`), started again (`ServiceWorker.startWorker`), and the test build's
 * marks (`globalThis.batonStartup`, entrypoints/background.ts) give, on the worker's own clock
 * (ms since its time origin): the end of the evaluation of background.js (every listener
 * registered) and the moment `batonReady` resolved (database open, recovery done). The wall time
 * from `startWorker` until CDP reports it running is reported too.
 *
 * Beside it, in the same browser and interleaved restart by restart, an empty extension worker
 * ({@link EmptyWorker}: one listener, the same marks) is stopped and started the same way, so the
 * table shows what Chromium pays for any extension worker on this machine and what is Baton's
 * (bench/README.md, "Service-worker start-up: where the time goes"). The target stays absolute.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, CDPSession, Worker } from 'playwright-core';
import type { ExtensionBrowser } from '../test/e2e/harness';
import { median } from './harness';
import { NAME_SHIM } from './chromium-panel';

interface StartupMarks {
  evaluatedMs: number;
  readyMs?: number;
}

/** Medians (ms) of the empty worker's starts, interleaved with Baton's. */
export interface EmptyWorkerResult {
  evaluatedMs: number;
  readyMs: number;
  /** Medians of Baton's minus the empty worker's figure, restart pair by restart pair. */
  batonMinusEmpty: { evaluatedMs: number; readyMs: number };
}

/** Medians (ms) of the cold starts. */
export interface StartupResult {
  samples: number;
  evaluatedMs: number;
  readyMs: number;
  wallMs: number;
  /** The empty extension worker of the same run; absent when it was not measured. */
  empty?: EmptyWorkerResult;
}

/** The empty worker's script: the marks Baton's test build sets, and one listener (as L1 asks of any worker). */
const EMPTY_WORKER_SCRIPT =
  'globalThis.batonStartup = { evaluatedMs: performance.now() };\n' +
  'chrome.runtime.onMessage.addListener(() => undefined);\n' +
  'globalThis.batonReady = Promise.resolve();\n' +
  'globalThis.batonStartup.readyMs = performance.now();\n';

/** The script's name; not `background.js`, so the harness never takes it for Baton's worker. */
const EMPTY_WORKER_FILE = 'empty-worker.js';

/**
 * Writes an empty MV3 extension (a manifest and {@link EMPTY_WORKER_SCRIPT}) into a new temporary
 * folder and returns the folder, to load beside Baton (`extraExtensions`).
 */
export function writeEmptyExtension(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-empty-worker-'));
  const manifest = {
    manifest_version: 3,
    name: 'empty worker',
    version: '1.0',
    background: { service_worker: EMPTY_WORKER_FILE },
  };
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, EMPTY_WORKER_FILE), EMPTY_WORKER_SCRIPT);
  return dir;
}

/**
 * The empty extension's worker in the browser Baton runs in: stopped and started over its own CDP
 * session, exactly as the harness does for Baton's (`ServiceWorker.stopWorker`, `startWorker`, the
 * status CDP reports), its marks read from the worker once it runs.
 */
export class EmptyWorker {
  private versions: { seq: number; versionId: string; status: string }[] = [];
  private seq = 0;

  private constructor(
    private readonly context: BrowserContext,
    private readonly cdp: CDPSession,
    private readonly scriptUrl: string,
  ) {}

  /** Finds the empty extension's worker in `browser` (loaded with `extraExtensions`: [`dir`]). */
  static async attach(browser: ExtensionBrowser): Promise<EmptyWorker> {
    const { context } = browser;
    const isEmpty = (w: Worker) => w.url().endsWith(`/${EMPTY_WORKER_FILE}`);
    const worker =
      context.serviceWorkers().find(isEmpty) ??
      (await context.waitForEvent('serviceworker', { predicate: isEmpty, timeout: 30_000 }));
    const page = context.pages()[0] ?? (await context.newPage());
    const empty = new EmptyWorker(context, await context.newCDPSession(page), worker.url());
    empty.cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
      for (const v of e.versions)
        if (v.scriptURL === empty.scriptUrl)
          empty.versions.push({ seq: ++empty.seq, versionId: v.versionId, status: v.runningStatus });
    });
    await empty.cdp.send('ServiceWorker.enable');
    return empty;
  }

  private async until(status: string, since: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!this.versions.some((v) => v.seq > since && v.status === status)) {
      if (Date.now() > deadline) throw new Error(`the empty worker did not report ${status}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Stops the worker (when running), starts it, and returns the marks of its new life. */
  async restart(): Promise<{ evaluatedMs: number; readyMs: number }> {
    const last = this.versions.at(-1);
    if (last && last.status !== 'stopped') {
      const since = this.seq;
      await this.cdp.send('ServiceWorker.stopWorker', { versionId: last.versionId });
      await this.until('stopped', since);
    }
    const since = this.seq;
    await this.cdp.send('ServiceWorker.startWorker', { scopeURL: new URL('/', this.scriptUrl).href });
    await this.until('running', since);
    const worker = this.context.serviceWorkers().find((w) => w.url() === this.scriptUrl);
    if (!worker) throw new Error('the empty worker is not running');
    await worker.evaluate(NAME_SHIM);
    const marks = await worker.evaluate(() => (globalThis as unknown as { batonStartup?: StartupMarks }).batonStartup);
    if (!marks || marks.readyMs === undefined) throw new Error('the empty worker set no marks');
    return { evaluatedMs: marks.evaluatedMs, readyMs: marks.readyMs };
  }
}

/**
 * Stops and restarts Baton's worker `warmup + samples` times; medians of the timed starts. With
 * `empty`, each of Baton's restarts is followed by one of the empty worker's, timed the same way.
 */
export async function benchStartup(
  browser: ExtensionBrowser,
  warmup: number,
  samples: number,
  empty?: EmptyWorker,
): Promise<StartupResult> {
  const evaluated: number[] = [];
  const ready: number[] = [];
  const wall: number[] = [];
  const emptyEvaluated: number[] = [];
  const emptyReady: number[] = [];
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
    const floor = await empty?.restart();
    if (i < warmup) continue;
    evaluated.push(marks.evaluatedMs);
    ready.push(marks.readyMs);
    wall.push(wallMs);
    if (floor) {
      emptyEvaluated.push(floor.evaluatedMs);
      emptyReady.push(floor.readyMs);
    }
  }
  const result: StartupResult = {
    samples,
    evaluatedMs: median(evaluated),
    readyMs: median(ready),
    wallMs: median(wall),
  };
  if (emptyEvaluated.length === samples)
    result.empty = {
      evaluatedMs: median(emptyEvaluated),
      readyMs: median(emptyReady),
      batonMinusEmpty: {
        evaluatedMs: median(evaluated.map((x, i) => x - emptyEvaluated[i]!)),
        readyMs: median(ready.map((x, i) => x - emptyReady[i]!)),
      },
    };
  return result;
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
  empty?: EmptyWorker,
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
    return await benchStartup(browser, warmup, samples, empty);
  } finally {
    await browser.evalInWorker(async () => {
      const { db, sync } = await (globalThis as unknown as { batonReady: Promise<Worker & Sync> }).batonReady;
      await db.delete('settings', 'sync');
      sync.unscheduled();
    }, undefined);
  }
}
