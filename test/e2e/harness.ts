/**
 * Drives the system Chromium with the Baton test build loaded (toolchain.md, "End-to-end in
 * Chromium"): launch with a persistent profile, find the extension id from its service worker,
 * open the side panel and options pages as tabs, evaluate in the service worker, stop it over CDP,
 * and restart the browser with the same profile. Every console message and uncaught error of the
 * worker and the pages is kept in `logs` (S4).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_PATH, TEST_BUILD_DIR } from './paths';

export interface LaunchOptions {
  /** Unpacked extension to test (absolute); default the test build. */
  extensionDir?: string;
  /** More unpacked extensions to load (absolute paths), e.g. the M4 probe. */
  extraExtensions?: string[];
  /** Profile directory to reuse; default a fresh temporary one (removed by `close()`). */
  profileDir?: string;
  /** More Chromium flags (e.g. `--host-resolver-rules=…` to serve saved pages under their real host names). */
  extraArgs?: string[];
}

/** `ServiceWorker.workerVersionUpdated` running states (CDP). */
export type WorkerRunningStatus = 'stopped' | 'starting' | 'running' | 'stopping';

interface VersionEvent {
  seq: number;
  versionId: string;
  scriptURL: string;
  runningStatus: WorkerRunningStatus;
}

/** Polls `check` every `everyMs` until it returns a value other than undefined/false; throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One Chromium with Baton loaded. Create with {@link ExtensionBrowser.launch}. */
export class ExtensionBrowser {
  /** Console output and uncaught errors of every page and service worker, one line each, in arrival order (S4). */
  readonly logs: string[] = [];
  context!: BrowserContext;
  extensionId = '';
  private cdp!: CDPSession;
  private versions: VersionEvent[] = [];
  private seq = 0;
  private readonly ownsProfile: boolean;

  private constructor(
    readonly profileDir: string,
    private readonly opts: LaunchOptions,
  ) {
    this.ownsProfile = opts.profileDir === undefined;
  }

  /** Launches Chromium with the extension(s) and waits until Baton's background is ready. */
  static async launch(opts: LaunchOptions = {}): Promise<ExtensionBrowser> {
    const profileDir = opts.profileDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-profile-'));
    const b = new ExtensionBrowser(profileDir, opts);
    await b.start();
    return b;
  }

  /** `chrome-extension://<id>/background.js` */
  get workerUrl(): string {
    return `chrome-extension://${this.extensionId}/background.js`;
  }

  private async start(): Promise<void> {
    const extensions = [
      path.resolve(this.opts.extensionDir ?? TEST_BUILD_DIR),
      ...(this.opts.extraExtensions ?? []).map((p) => path.resolve(p)),
    ];
    this.context = await chromium.launchPersistentContext(this.profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        `--disable-extensions-except=${extensions.join(',')}`,
        `--load-extension=${extensions.join(',')}`,
        ...BASE_ARGS,
        ...(this.opts.extraArgs ?? []),
      ],
    });
    this.context.on('console', (m) => {
      const where = m.worker()?.url() ?? m.page()?.url() ?? '?';
      this.logs.push(`[${where}] ${m.type()}: ${m.text()}`);
    });
    this.context.on('weberror', (e) =>
      this.logs.push(`[${e.page()?.url() ?? '?'}] uncaught: ${e.error().stack ?? e.error().message}`),
    );
    const isBaton = (w: Worker) => /^chrome-extension:\/\/[a-p]{32}\/background\.js$/.test(w.url());
    const worker =
      this.context.serviceWorkers().find(isBaton) ??
      (await this.context.waitForEvent('serviceworker', { predicate: isBaton, timeout: 30_000 }));
    const id = new URL(worker.url()).host;
    if (this.extensionId && id !== this.extensionId)
      throw new Error(`extension id changed across a restart: ${this.extensionId} → ${id}`);
    this.extensionId = id;
    worker.on('close', () => this.logs.push('[harness] worker target closed'));

    // A CDP session on a blank tab watches the workers of this profile (ServiceWorker domain).
    const control = this.context.pages()[0] ?? (await this.context.newPage());
    this.versions = [];
    this.cdp = await this.context.newCDPSession(control);
    this.cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
      for (const v of e.versions)
        this.versions.push({
          seq: ++this.seq,
          versionId: v.versionId,
          scriptURL: v.scriptURL,
          runningStatus: v.runningStatus as WorkerRunningStatus,
        });
    });
    await this.cdp.send('ServiceWorker.enable');
    await this.evalInWorker(async () => {
      await (globalThis as unknown as { batonReady: Promise<unknown> }).batonReady;
    }, undefined);
  }

  /** The last running status CDP reported for Baton's worker (undefined before any report). */
  workerStatus(): WorkerRunningStatus | undefined {
    return this.versions.filter((v) => v.scriptURL === this.workerUrl).at(-1)?.runningStatus;
  }

  /** Resolves when Baton's worker reports `status` after event number `since` (see {@link eventSeq}). */
  waitForWorkerStatus(status: WorkerRunningStatus, since: number, timeoutMs = 15_000): Promise<void> {
    return waitFor(
      `the service worker to be ${status}`,
      () => this.versions.some((v) => v.seq > since && v.scriptURL === this.workerUrl && v.runningStatus === status),
      timeoutMs,
    ).then(() => undefined);
  }

  /** The number of worker status events seen so far (a mark for {@link waitForWorkerStatus}). */
  get eventSeq(): number {
    return this.seq;
  }

  /**
   * Stops Baton's service worker over CDP (`ServiceWorker.stopWorker`), as Chrome does when it
   * idles one out, and waits until CDP reports it stopped. It starts again on the next event
   * (a page's message or port).
   */
  async stopServiceWorker(): Promise<void> {
    const since = this.seq;
    const live = new Set(this.versions.filter((v) => v.scriptURL === this.workerUrl).map((v) => v.versionId));
    if (live.size === 0) await this.cdp.send('ServiceWorker.stopAllWorkers');
    for (const versionId of live) await this.cdp.send('ServiceWorker.stopWorker', { versionId });
    await this.waitForWorkerStatus('stopped', since);
  }

  /** Starts Baton's worker when it is not running (CDP `ServiceWorker.startWorker`). */
  async wakeServiceWorker(): Promise<void> {
    if (this.workerStatus() === 'running' || this.workerStatus() === undefined) return;
    const since = this.seq;
    await this.cdp.send('ServiceWorker.startWorker', { scopeURL: `chrome-extension://${this.extensionId}/` });
    await this.waitForWorkerStatus('running', since);
  }

  /** Baton's service worker as Playwright sees it (the same object across CDP restarts). */
  worker(): Worker {
    const w = this.context.serviceWorkers().find((x) => x.url() === this.workerUrl);
    if (!w) throw new Error('Baton service worker not found');
    return w;
  }

  /**
   * Evaluates `fn(arg)` in Baton's service worker (woken first if stopped). The test build
   * exposes `globalThis.batonReady` (a promise of `{ db, store, engine, keepalive }`).
   */
  async evalInWorker<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    await this.wakeServiceWorker();
    return this.worker().evaluate(fn as (arg: unknown) => R | Promise<R>, arg);
  }

  /** Opens `chrome-extension://<id>/<file>` in a new tab and waits for it to load. */
  async openPage(file: 'sidepanel.html' | 'options.html'): Promise<Page> {
    const page = await this.context.newPage();
    await page.goto(`chrome-extension://${this.extensionId}/${file}`);
    return page;
  }

  /** Closes the browser and starts it again on the same profile (the extension id stays the same). */
  async restart(): Promise<void> {
    await this.context.close();
    await this.start();
  }

  /** Closes the browser; removes the profile when this harness created it (unless `keepProfile`). */
  async close(opts: { keepProfile?: boolean } = {}): Promise<void> {
    await this.context?.close().catch(() => undefined);
    if (this.ownsProfile && !opts.keepProfile) fs.rmSync(this.profileDir, { recursive: true, force: true });
  }

  /**
   * Proves the console capture works (a marker logged in the worker and in `page` must arrive)
   * and returns everything captured so far.
   */
  async capturedLogs(page: Page): Promise<string[]> {
    const marker = `baton-e2e-console-check-${Date.now()}`;
    await this.evalInWorker((m) => console.log(m, 'worker'), marker);
    await page.evaluate((m) => console.log(m, 'page'), marker);
    await waitFor('the console markers', () => this.logs.filter((l) => l.includes(marker)).length >= 2);
    return [...this.logs];
  }
}
