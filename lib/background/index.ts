/**
 * Wires the background service worker to the browser. `registerBackground()` registers every
 * listener synchronously (L1) and lets handlers wait on one `ready` promise (DESIGN.md, "Style
 * to follow" 1); `entrypoints/background.ts` only calls it.
 */
import { browser } from 'wxt/browser';
import { PORTS, type BackgroundEvent } from '../messaging/protocol';
import { ConversationStore } from '../store/conversations';
import { openBatonDb, STORES, tx, type BatonDb } from '../store/db';
import { BLOCKED_MESSAGE, openLiveDb } from '../store/db-lifecycle';
import { SettingsStore } from '../store/settings';
import { DisclosureStore } from '../store/disclosures';
import { storageSession } from '../vault/session';
import { Vault } from '../vault/vault';
import { createHandlers } from './handlers';
import { type CaptureService, registerCapture } from './capture';
import { Keepalive } from './core/keepalive';
import { RetryAlarms, sessionPendingStore, SendEngine } from './send';
import { classifySender, route, type Sender } from './core/router';
import { realClock } from './core/clock';
import { registerPanelBehavior, type PanelBehaviorApi } from './core/panel-behavior';
import type { Transport } from './core/transport';
import { browserPouch, SYNC_VAULT_ID, SyncService } from './sync';

/** Everything the background holds once the database is open. */
export interface Background {
  db: BatonDb;
  store: ConversationStore;
  engine: SendEngine;
  keepalive: Keepalive;
  sync: SyncService;
}

/**
 * Registers the listeners and opens the database. `transport` is injected so the entrypoint picks
 * the SDK transports (and tests could pick another).
 */
export function registerBackground(transport: Transport): { ready: Promise<Background>; capture: CaptureService } {
  const ports = new Set<Browser.runtime.Port>();
  let syncRef: SyncService | undefined;
  const post = (event: BackgroundEvent) => {
    for (const p of ports) {
      try {
        p.postMessage(event);
      } catch {
        ports.delete(p);
      }
    }
  };
  // docs/architecture.md#sync: a local change schedules a debounced sync; sync itself posts without it (no echo).
  const broadcast = (event: BackgroundEvent) => {
    post(event);
    syncRef?.noteEvent(event);
  };
  // L4: a long retry wait is also held by a persisted alarm, so a stopped worker still retries once.
  const retryAlarms = new RetryAlarms({
    alarms: browser.alarms,
    pending: sessionPendingStore(browser.storage.session),
    clock: realClock,
  });
  const keepalive = new Keepalive(() => void browser.runtime.getPlatformInfo());
  const ownId = browser.runtime.id;
  const extensionOrigin = new URL(browser.runtime.getURL('/')).origin;
  const hasHostPermission = (origin: string) => browser.permissions.contains({ origins: [`${origin}/*`] });

  let handlersRef: ReturnType<typeof createHandlers> | undefined;
  // docs/architecture.md#the-background-by-feature: context menus and their click handler, registered now (L1); they wait for `ready` themselves.
  const capture = registerCapture({
    db: () => ready.then((b) => b.db),
    settings: () => ready.then(() => handlersRef!.getSettings({}, 'extension')),
    broadcast: (e) => broadcast(e),
  });
  let vaultRef: Vault | undefined;
  let secretsCache: string[] = [];

  // D3: an old connection elsewhere closes on `blocking` (openBatonDb); while our upgrade is blocked
  // requests are answered at once; a terminated connection is reopened behind the same handle.
  const live = openLiveDb((hooks) => openBatonDb(undefined, hooks));
  const ready = (async (): Promise<Background> => {
    await live.ready;
    const db = live.db;
    const store = new ConversationStore(db);
    const settings = new SettingsStore(db);
    // S3: the session secret lives in storage.session (default access level: trusted contexts only, S1).
    const vault = new Vault(db, { session: storageSession(browser.storage.session) });
    // L2: whatever was streaming when the worker died is interrupted now.
    for (const f of await store.recoverStreaming(new Date().toISOString())) {
      const { turns } = await store.get(f.conversationId, 1);
      if (turns[0]) broadcast({ type: 'turnUpdated', conversationId: f.conversationId, turn: turns[0] });
    }
    const engine = new SendEngine({
      store,
      settings,
      vault,
      transport,
      hasHostPermission,
      clock: realClock,
      retrySleep: (id, target) => retryAlarms.sleeper(id, target),
      answerRetrySleep: (id, turnId, target) => retryAlarms.answerSleeper(id, turnId, target),
      newId: () => crypto.randomUUID(),
      broadcast,
      keepalive,
    });
    // SY-1: made now, but it reads nothing and builds no PouchDB database until sync is on and runs.
    const sync = new SyncService({
      alarms: browser.alarms,
      engine: () => ({
        db,
        store,
        settings,
        disclosures: new DisclosureStore(db),
        password: {
          get: async () => (await vault.getKey(SYNC_VAULT_ID))?.secret,
          set: (secret, origin) => vault.setKey(SYNC_VAULT_ID, secret, origin, new Date().toISOString()),
          clear: () => vault.deleteKey(SYNC_VAULT_ID),
        },
        secrets: () => vault.allSecrets(),
        broadcast: post,
        pouch: browserPouch,
        mirrorOptions: { adapter: 'idb' },
        now: () => Date.now(),
      }),
    });
    syncRef = sync;
    const handlers = createHandlers({
      store,
      settings,
      vault,
      engine,
      transport,
      hasHostPermission,
      now: () => new Date().toISOString(),
      newId: () => crypto.randomUUID(),
      capture,
      broadcast,
      sync,
      wipe: async () => {
        // docs/security.md#sync: the sync mirror holds a plaintext copy of what synced; it goes first.
        await sync.engine().forgetLocal();
        sync.unscheduled();
        await tx(
          db,
          Object.values(STORES),
          'readwrite',
          async (t) => {
            for (const name of Object.values(STORES)) await t.objectStore(name).clear();
          },
          'strict',
        );
      },
    });
    secretsCache = await vault.allSecrets();
    handlersRef = handlers;
    vaultRef = vault;
    return { db, store, engine, keepalive, sync };
  })();

  // L1: registered synchronously at top level.
  browser.runtime.onMessage.addListener((message: unknown, sender: Sender, sendResponse: (r: unknown) => void) => {
    void (async () => {
      // The sender is checked before waiting for anything (M1).
      if (!classifySender(sender, ownId, extensionOrigin))
        return sendResponse({ ok: false, error: { code: 'forbidden', message: 'sender not allowed' } });
      if (live.blocked()) return sendResponse({ ok: false, error: { code: 'busy', message: BLOCKED_MESSAGE } });
      await ready;
      const reply = await route(message, sender, {
        ownId,
        extensionOrigin,
        handlers: handlersRef!,
        secrets: () => secretsCache,
      });
      if (vaultRef) secretsCache = await vaultRef.allSecrets();
      sendResponse(reply);
      if (reply.ok) capture.afterRequest(message);
    })();
    return true;
  });

  // Chrome: the toolbar button opens the side panel; Chrome keeps the setting, so it is set at install and update only.
  registerPanelBehavior(browser.runtime, () => (browser as unknown as { sidePanel?: PanelBehaviorApi }).sidePanel);

  // M4: only allowlisted port names from our own pages; others are dropped before any listener.
  // L1/L4: registered at top level, so the alarm of a pending retry wakes the worker and is handled.
  browser.alarms.onAlarm.addListener((alarm) => {
    void ready.then(({ sync }) => sync.onAlarm(alarm.name)).catch(() => undefined);
    void ready
      .then(({ engine }) =>
        retryAlarms.onAlarm(
          alarm.name,
          (id) => engine.isBusy(id),
          // docs/side-panel.md#ask-several-models-at-once: every answer of a compare that was waiting.
          (p) =>
            p.answers ? engine.retryAnswers({ conversationId: p.conversationId, answers: p.answers }) : engine.retry(p),
        ),
      )
      .catch(() => undefined);
  });

  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== PORTS.events || classifySender(port.sender ?? {}, ownId, extensionOrigin) !== 'extension') {
      port.disconnect();
      return;
    }
    ports.add(port);
    port.onDisconnect.addListener(() => ports.delete(port));
    // docs/architecture.md#sync: a panel opening syncs shortly (when sync is on).
    void ready.then(({ sync }) => sync.onPanelOpen()).catch(() => undefined);
  });

  return { ready, capture };
}
