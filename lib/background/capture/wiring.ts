/**
 * The capture flow's browser side (docs/architecture.md#the-background-by-feature): the real {@link CaptureBrowser} over `contextMenus`,
 * `sidePanel` (Chrome) or `sidebarAction` (Firefox) and `tabs.sendMessage`, and the two listeners,
 * registered synchronously when the worker starts (L1): `contextMenus.onClicked` and
 * `runtime.onInstalled` (which creates the menus; Chrome keeps them across worker restarts).
 */
import { browser } from 'wxt/browser';
import { ADD_PAGE_REQUEST_KEY, type AddPageRequest } from '../../messaging/page-request';
import type { BackgroundEvent, Settings } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { CaptureService, type CaptureBrowser, type MenuClickInfo, type MenuClickTab } from './service';

interface PanelApis {
  sidePanel?: { open(o: { tabId: number; windowId?: number }): Promise<void> };
  sidebarAction?: { open(): Promise<void> };
}

/** The real browser calls. `sidePanel.open` is called directly, so it runs inside the click's gesture. */
export function realCaptureBrowser(): CaptureBrowser {
  const panels = browser as unknown as PanelApis;
  return {
    openSidePanel: (tab) => {
      if (panels.sidePanel) return panels.sidePanel.open({ tabId: tab.id });
      return panels.sidebarAction ? panels.sidebarAction.open() : Promise.resolve();
    },
    // Top frame only (N1): the content script runs nowhere else anyway.
    sendToTab: (tabId, message) => browser.tabs.sendMessage(tabId, message, { frameId: 0 }),
    removeAllMenus: () => browser.contextMenus.removeAll(),
    createMenu: (item) => {
      const [first, ...rest] = item.contexts;
      // Reading lastError marks a failed create (e.g. a duplicate id) as handled.
      browser.contextMenus.create(
        { ...item, contexts: [first ?? 'page', ...rest] },
        () => void browser.runtime.lastError,
      );
    },
    openOptionsPage: () => browser.runtime.openOptionsPage(),
    requestPageAdd: (tabId) =>
      browser.storage.session.set({ [ADD_PAGE_REQUEST_KEY]: { tabId, at: Date.now() } satisfies AddPageRequest }),
  };
}

/**
 * Creates the capture service and registers its listeners synchronously. `db` and `settings`
 * wait for the worker's start-up; `broadcast` reaches the open extension pages.
 */
export function registerCapture(deps: {
  db(): Promise<BatonDb>;
  settings(): Promise<Settings>;
  broadcast(e: BackgroundEvent): void;
}): CaptureService {
  const service = new CaptureService({
    browser: realCaptureBrowser(),
    db: deps.db,
    settings: deps.settings,
    broadcast: deps.broadcast,
    newId: () => crypto.randomUUID(),
    now: () => new Date().toISOString(),
  });
  browser.contextMenus.onClicked.addListener(
    (info, tab) => void service.onMenuClick(info as MenuClickInfo, tab as MenuClickTab | undefined),
  );
  browser.runtime.onInstalled.addListener(() => void service.rebuildMenus());
  return service;
}
