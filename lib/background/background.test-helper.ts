/**
 * One background for the send/disclosure tests: real stores over fake-indexeddb (the test file
 * imports `fake-indexeddb/auto`), keys for the fake providers bound to their origin, the real
 * send engine and handlers, a fixed clock (`NOW`) and counters for ids (`t1…` for turns the
 * engine makes, `x1…` for the handlers'), and a record of every broadcast event. Every
 * background test that needs stores, handlers or the engine builds them here (send, disclosure,
 * summary, settings and vault, capture, transfer, conversations, the handlers), so a new one
 * starts here too.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { CONVERTER_CONTRACT_RULES } from '../../test/contract';
import { startFakeProviders, type FakeProviders } from '../../test/fake-providers';
import type { BackgroundEvent, BuiltinProvider, Reply, SendTarget } from '../messaging/protocol';
import { ConversationStore } from '../store/conversations';
import { openBatonDb, type BatonDb, type TurnRecord } from '../store/db';
import { SettingsStore } from '../store/settings';
import type { Turn } from '../transcript/schema';
import { Vault, type VaultOptions } from '../vault/vault';
import { createHandlers } from './handlers';
import { CaptureService, type CaptureBrowser, type CaptureDeps } from './capture/service';
import { BUILTIN } from './core/providers';
import { route } from './core/router';
import { sdkTransport } from './core/sdk-transport';
import { SendEngine } from './send/engine';
import type { Transport } from './core/transport';
import type { SendDeps } from './core/deps';

export const NOW = '2026-11-30T08:00:00.000Z';

/**
 * Every turn record of `db` without its stored token counts: counts are a cache of the turn,
 * written back after a plan (docs/architecture.md#token-counts-with-the-turn), so a test that
 * checks "nothing stored" compares the records without them.
 */
export async function turnRecords(db: BatonDb): Promise<Omit<TurnRecord, 'counts'>[]> {
  return (await db.getAll('turns')).map(({ counts: _counts, ...rest }) => rest);
}
export const OPENAI: SendTarget = { providerId: 'openai', model: 'gpt-5.5' };
export const ANTHROPIC: SendTarget = { providerId: 'anthropic', model: 'claude-sonnet-4-6' };

/** A user turn of one text block. */
export const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
/** An OpenAI (Responses) answer of one text block. */
export const answer = (id: string, text: string, status: Turn['status'] = 'complete'): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
  status,
  blocks: [{ type: 'text', text }],
});

export interface TestBackground {
  db: BatonDb;
  store: ConversationStore;
  settings: SettingsStore;
  vault: Vault;
  engine: SendEngine;
  h: ReturnType<typeof createHandlers>;
  /** The fake providers' origin, which every key is bound to ('' for a background without them). */
  origin: string;
  /** Every event the engine, the handlers and the capture service broadcast, in order. */
  events: BackgroundEvent[];
  /** The capture service wired into `h` (only with the `capture` option). */
  capture?: CaptureService;
}

let dbCount = 0;

/**
 * The fake providers of one test file: started before its first test (every contract rule
 * checked except the converter-level ones, which the converter tests own), reset before each
 * test and closed after the last. Returns a stand-in that forwards to the running fakes, so the
 * file can use it like the `FakeProviders` itself.
 */
export function fakeProvidersForFile(): FakeProviders {
  let running: FakeProviders | undefined;
  beforeAll(async () => {
    running = await startFakeProviders({ ignoreRules: [...CONVERTER_CONTRACT_RULES] });
  });
  afterAll(() => running?.close());
  beforeEach(() => running?.reset());
  return new Proxy({} as FakeProviders, {
    get(_target, prop) {
      if (!running) throw new Error('the fake providers start in beforeAll: use them inside a test or a hook');
      const value: unknown = Reflect.get(running, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(running) : value;
    },
  });
}

/**
 * Opens a fresh database named `<name>-<n>`, points the built-in providers at `fake`, saves a key
 * for each of `providers` (default all three) and creates conversation `c1`. Without `fake` (the
 * tests whose transport is scripted, or that send nothing), the providers keep their real
 * addresses and only `keys` are saved, each bound to its provider's real origin. `vault` passes
 * options to the vault (fewer PBKDF2 iterations for the passphrase tests). `engine` replaces
 * some of the send engine's dependencies (a recording clock, a keepalive counter, a retry
 * sleeper), for the tests that watch how the engine uses them; the handlers keep the defaults.
 * `sendEngine` hands the handlers another engine instead (a recording stub, for the tests of the
 * handlers alone). `capture` wires a capture service into the handlers as the worker does (its
 * browser calls from the test, its ids `id-1…`, the handlers' `getSettings` unless given);
 * `exportPartChars` sizes the export parts; `conversation: false` leaves the database empty;
 * `hasHostPermission` answers the host-permission checks (default: every host granted).
 */
export async function createTestBackground(
  fake: FakeProviders | undefined,
  opts: {
    name: string;
    transport?: Transport;
    providers?: readonly ('openai' | 'anthropic' | 'google')[];
    engine?: Partial<SendDeps>;
    vault?: VaultOptions;
    keys?: Partial<Record<BuiltinProvider, string>>;
    sendEngine?: SendEngine;
    capture?: Partial<Omit<CaptureDeps, 'db'>> & { browser: CaptureBrowser };
    exportPartChars?: number;
    conversation?: false;
    hasHostPermission?: (origin: string) => Promise<boolean>;
  },
): Promise<TestBackground> {
  const db = await openBatonDb(`${opts.name}-${++dbCount}`);
  const store = new ConversationStore(db);
  const settings = new SettingsStore(db);
  const vault = new Vault(db, opts.vault);
  const transport = opts.transport ?? sdkTransport;
  let origin = '';
  if (fake) {
    await settings.update((s) => ({
      ...s,
      baseUrls: { openai: fake.openaiBaseUrl, anthropic: fake.url, google: fake.url },
    }));
    origin = new URL(fake.url).origin;
    for (const id of opts.providers ?? (['openai', 'anthropic', 'google'] as const))
      await vault.setKey(id, fake.keys[id], origin, NOW);
  }
  for (const [id, key] of Object.entries(opts.keys ?? {}) as [BuiltinProvider, string][])
    await vault.setKey(id, key, BUILTIN[id].origin, NOW);
  let id = 0;
  const events: BackgroundEvent[] = [];
  const broadcast = (e: BackgroundEvent) => void events.push(e);
  const engine = new SendEngine({
    store,
    settings,
    vault,
    transport,
    hasHostPermission: opts.hasHostPermission ?? (async () => true),
    clock: {
      now: () => Date.parse(NOW),
      sleep: async () => undefined,
      setTimer: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
    },
    newId: () => `t${++id}`,
    broadcast,
    keepalive: { start: () => undefined, stop: () => undefined },
    ...opts.engine,
  });
  let captureIds = 0;
  const capture =
    opts.capture &&
    new CaptureService({
      db: async () => db,
      // As the worker does: the menus follow what getSettings answers.
      settings: () => h.getSettings({}, 'extension'),
      broadcast,
      newId: () => `id-${++captureIds}`,
      now: () => NOW,
      ...opts.capture,
    });
  const h = createHandlers({
    store,
    settings,
    vault,
    engine: opts.sendEngine ?? engine,
    transport,
    hasHostPermission: opts.hasHostPermission ?? (async () => true),
    now: () => NOW,
    newId: () => `x${++id}`,
    wipe: async () => undefined,
    broadcast,
    ...(capture ? { capture } : {}),
    ...(opts.exportPartChars ? { exportPartChars: opts.exportPartChars } : {}),
  });
  if (opts.conversation !== false) await store.create({ id: 'c1', now: NOW });
  return { db, store, settings, vault, engine, h, origin, events, ...(capture ? { capture } : {}) };
}

/** The extension's own id and origin, as the router sees them. */
export const OWN = 'abcdefghijklmnopabcdefghijklmnop';
export const EXT = `chrome-extension://${OWN}`;

/**
 * Requests to `h` through the real router, sent from one of the extension's own pages, so the
 * router's checks (sender, schema) run as they do for the side panel or the options page.
 */
export const callFrom =
  (h: ReturnType<typeof createHandlers>, page: 'sidepanel.html' | 'options.html') => (type: string, payload: unknown) =>
    route(
      { type, payload },
      { id: OWN, url: `${EXT}/${page}`, origin: EXT },
      { ownId: OWN, extensionOrigin: EXT, handlers: h },
    ) as Promise<Reply<unknown>>;
