/**
 * A real CouchDB-protocol server for sync tests: `pouchdb-server --in-memory` on 127.0.0.1 and a
 * free port, started by the test that needs it (in its own temporary directory, where it writes its
 * config and log) and stopped by its process id afterwards. Plus two "devices": Baton stores over
 * fake-indexeddb (the test file imports `fake-indexeddb/auto`) with their own sync engine and an
 * in-memory local mirror (the extension's mirror uses the IndexedDB adapter).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Memory from 'pouchdb-adapter-memory';
import type { BackgroundEvent } from '../../messaging/protocol';
import { ConversationStore } from '../../store/conversations';
import { openBatonDb, type BatonDb } from '../../store/db';
import { DisclosureStore } from '../../store/disclosures';
import { SettingsStore } from '../../store/settings';
import { SyncEngine, type SyncEngineDeps } from './engine';
import { browserPouch, type PouchStatic } from './pouch';

/** A running server: its origin and a stop function. */
export interface TestServer {
  origin: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts `pouchdb-server --in-memory` and waits until it answers (up to 30 s). */
export async function startPouchServer(): Promise<TestServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-sync-server-'));
  const bin = createRequire(import.meta.url).resolve('pouchdb-server/bin/pouchdb-server');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '--in-memory', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: dir,
      stdio: 'ignore',
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(origin)).ok) return { origin, stop };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error('pouchdb-server did not start within 30 s');
}

let pouch: PouchStatic | undefined;
/** PouchDB with the extension's plugins plus the memory adapter for the mirrors. */
export function testPouch(): PouchStatic {
  pouch ??= browserPouch().plugin(Memory);
  return pouch;
}

/** One device: its Baton stores, its sync engine and the events it broadcast. */
export interface Device {
  db: BatonDb;
  store: ConversationStore;
  settings: SettingsStore;
  disclosures: DisclosureStore;
  engine: SyncEngine;
  events: BackgroundEvent[];
  secrets: string[];
  /** What the engine was built with. */
  deps: SyncEngineDeps;
}

let n = 0;
/** A new device with empty stores. `over` replaces engine dependencies (a fault-injecting fetch, a clock). */
export async function makeDevice(label: string, over: Partial<SyncEngineDeps> = {}): Promise<Device> {
  const id = `${label}-${++n}-${Math.random().toString(36).slice(2, 8)}`;
  const db = await openBatonDb(`baton-sync-test-${id}`);
  const store = new ConversationStore(db);
  const settings = new SettingsStore(db);
  const disclosures = new DisclosureStore(db);
  const events: BackgroundEvent[] = [];
  const secrets: string[] = [];
  let password: string | undefined;
  const deps: SyncEngineDeps = {
    db,
    store,
    settings,
    disclosures,
    password: {
      get: async () => password,
      set: async (s) => {
        password = s;
      },
      clear: async () => {
        password = undefined;
      },
    },
    secrets: async () => secrets,
    broadcast: (e) => events.push(e),
    pouch: testPouch,
    mirrorOptions: { adapter: 'memory' },
    mirrorName: `mirror-${id}`,
    now: () => Date.now(),
    iterations: 1000,
    allowWeakKdf: true,
    timeoutMs: 5000,
    ...over,
  };
  const engine = new SyncEngine(deps);
  return { db, store, settings, disclosures, engine, events, secrets, deps };
}
