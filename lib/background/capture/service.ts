/**
 * Capture from chat pages in the background (docs/architecture.md#the-background-by-feature): the context menus, the click handler, the
 * `captureSubmit` and `takePendingCapture` handlers.
 *
 * A click opens the side panel first, synchronously inside the click (a user gesture is needed
 * for `sidePanel.open`), then asks the tab's content script to capture (the only message sent to
 * a tab, M5). The content script submits the page as `captureSubmit` (content senders only, M2);
 * the payload is checked like any untrusted input (I1, I2: capture-protocol.ts), stored as a NEW
 * conversation in one transaction with its `source`, answers of `web` origin and the chosen
 * target as its `lastTarget`, and the side panel is told to open it (a `captureReady` event, and
 * a pending outcome it takes on load). Nothing is sent to any provider (N5).
 */
import { SITE_ORIGINS, siteOf } from '../../capture/index';
import { captureTitle, captureToTurns, cleanCapturedText, titleFromText, webSource } from '../../capture/to-turns';
import type { CaptureOutcome, CaptureResponses, CaptureSubmit } from '../../messaging/capture-protocol';
import { CAPTURE_TAB_REQUEST, type CaptureTabRequest } from '../../messaging/capture-tab';
import {
  sendTargetSchema,
  type BackgroundEvent,
  type ConversationMeta,
  type SendTarget,
  type Settings,
} from '../../messaging/protocol';
import { storeCapturedConversation } from '../../store/captured';
import type { BatonDb } from '../../store/db';
import { fenced } from '../../transcript/text';
import type { Turn } from '../../transcript/schema';
import { buildMenus, parseMenuId, type MenuItem } from './menus';
import { BatonError } from '../../messaging/errors';
import type { Handlers, Sender } from '../core/router';
import { CaptureRequests } from '../../capture/requests';

/** The browser calls the capture flow makes (injected: unit tests pass spies). */
export interface CaptureBrowser {
  /** `chrome.sidePanel.open({tabId})`; called synchronously in the click handler. */
  openSidePanel(tab: { id: number; windowId?: number }): Promise<void>;
  /** `tabs.sendMessage(tabId, message, {frameId: 0})`: only ever a {@link CaptureTabRequest} (M5). */
  sendToTab(tabId: number, message: CaptureTabRequest): Promise<unknown>;
  removeAllMenus(): Promise<void>;
  createMenu(item: MenuItem): void;
  openOptionsPage(): Promise<void>;
  /**
   * Tells the side panel to add tab `tabId` (docs/side-panel.md#add-this-page), which the menu click has just
   * granted `activeTab` for; absent: the menu item only opens the panel.
   */
  requestPageAdd?(tabId: number): Promise<void>;
}

export interface CaptureDeps {
  browser: CaptureBrowser;
  /** The open database (waits for the worker's start-up). */
  db(): Promise<BatonDb>;
  /** Provider statuses and the default target (the `getSettings` result). */
  settings(): Promise<Settings>;
  broadcast(event: BackgroundEvent): void;
  newId(): string;
  /** ISO 8601 now. */
  now(): string;
  /** ms since the epoch (pending outcomes expire). */
  clock?: () => number;
  /** The open capture requests (default: a new, empty set on `clock`). */
  requests?: CaptureRequests<SendTarget>;
}

/** The data `contextMenus.onClicked` passes (the fields used). */
export interface MenuClickInfo {
  menuItemId: string | number;
  pageUrl?: string;
  selectionText?: string;
}
export interface MenuClickTab {
  id?: number;
  windowId?: number;
  url?: string;
}

/** How long a capture outcome waits for the side panel to take it, in ms. */
const PENDING_MS = 120_000;
/** Longest selection kept, in characters. */
const MAX_SELECTION = 1_000_000;
/** Request types after which the menus are rebuilt (the configured models may have changed). */
const SETTINGS_TYPES = new Set([
  'setKey',
  'deleteKey',
  'setDefaultTarget',
  'setBaseUrl',
  'saveEndpoint',
  'deleteEndpoint',
  'deleteAllData',
  'unlockVault',
]);

function originOf(sender: Sender | undefined): string | undefined {
  if (sender?.origin) return sender.origin;
  try {
    return sender?.url ? new URL(sender.url).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One per worker: the menus, the click handler and the two handlers. Pending click requests live
 * in memory for at most `CAPTURE_REQUEST_MS`; a capture that answers no pending request of its
 * tab (a page submitting on its own, or the worker restarted in between) is refused and nothing
 * is stored (docs/security.md, lib/capture/requests.ts).
 */
export class CaptureService {
  private readonly requests: CaptureRequests<SendTarget>;
  private outcome: (CaptureOutcome & { at: number }) | undefined;
  private menus: Promise<void> = Promise.resolve();
  private readonly clock: () => number;

  constructor(private readonly d: CaptureDeps) {
    this.clock = d.clock ?? Date.now;
    this.requests = d.requests ?? new CaptureRequests(this.clock);
  }

  /** Recreates every menu item from the settings (on install and after a settings change). */
  rebuildMenus(): Promise<void> {
    this.menus = this.menus
      .then(async () => {
        const items = buildMenus(await this.d.settings());
        await this.d.browser.removeAllMenus();
        for (const item of items) this.d.browser.createMenu(item);
      })
      .catch(() => undefined);
    return this.menus;
  }

  /** Called after each successful request: settings changes rebuild the menus. */
  afterRequest(message: unknown): void {
    const type = (message as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && SETTINGS_TYPES.has(type)) void this.rebuildMenus();
  }

  /**
   * `contextMenus.onClicked`. Opens the side panel FIRST, synchronously (within the gesture), then
   * captures; resolves when the outcome is recorded. Never throws.
   */
  onMenuClick(info: MenuClickInfo, tab: MenuClickTab | undefined): Promise<void> {
    const action = parseMenuId(info.menuItemId);
    if (!action || tab?.id === undefined) return Promise.resolve();
    const tabRef = { id: tab.id, ...(tab.windowId !== undefined ? { windowId: tab.windowId } : {}) };
    if (action.kind === 'setup') return this.d.browser.openOptionsPage().catch(() => undefined);
    // No await before this line: the click's user gesture must still be active.
    const opened = this.d.browser.openSidePanel(tabRef).catch(() => undefined);
    if (action.kind === 'page')
      return Promise.all([opened, this.d.browser.requestPageAdd?.(tab.id).catch(() => undefined)]).then(
        () => undefined,
      );
    const target = sendTargetSchema.safeParse(action.target);
    if (!target.success) return opened;
    const run =
      action.kind === 'chat'
        ? this.captureTab(tab.id, tab.url ?? info.pageUrl ?? '', target.data)
        : this.captureSelection(info, target.data);
    return Promise.all([opened, run]).then(() => undefined);
  }

  private async captureTab(tabId: number, url: string, target: SendTarget): Promise<void> {
    if (!siteOf(url))
      return this.finish({
        error: {
          code: 'forbidden',
          message: 'Baton reads conversations only on chatgpt.com, claude.ai and gemini.google.com.',
        },
      });
    const requestId = this.d.newId();
    this.requests.open(requestId, tabId, target);
    let ack: unknown;
    try {
      ack = await this.d.browser.sendToTab(tabId, { type: CAPTURE_TAB_REQUEST, requestId });
    } catch {
      ack = undefined;
    }
    // The submit (if any) came before the acknowledgement and took the pending request.
    if (!this.requests.close(requestId)) return;
    const a = ack as { ok?: unknown; message?: unknown } | undefined;
    const why = a && a.ok === false && typeof a.message === 'string' ? a.message.slice(0, 200) : undefined;
    this.finish({
      error: why
        ? { code: 'bad_request', message: `Nothing was captured: ${why}` }
        : { code: 'not_found', message: 'Baton could not read this page. Reload the page and try again.' },
    });
  }

  private async captureSelection(info: MenuClickInfo, target: SendTarget): Promise<void> {
    const text = cleanCapturedText((info.selectionText ?? '').slice(0, MAX_SELECTION));
    if (!text.trim()) return this.finish({ error: { code: 'bad_request', message: 'No text was selected.' } });
    const now = this.d.now();
    const page = info.pageUrl && /^https?:\/\//i.test(info.pageUrl) ? info.pageUrl.slice(0, 2000) : undefined;
    // Flattened text from a page is fenced and labelled with where it came from (N5).
    // `meta.capturedSelection`: not yet sent anywhere, so the panel offers to send it rather than saying no answer came (docs/side-panel.md).
    const turn: Turn = {
      id: this.d.newId(),
      role: 'user',
      createdAt: now,
      blocks: [{ type: 'text', text: fenced(`Selected text${page ? ` from ${page}` : ''}:`, text) }],
      meta: { capturedSelection: true },
    };
    try {
      const meta = await storeCapturedConversation(await this.d.db(), {
        id: this.d.newId(),
        title: titleFromText(text),
        now,
        source: { kind: 'web-selection', ...(page ? { url: page } : {}) },
        turns: [turn],
        lastTarget: target,
      });
      this.stored(meta);
    } catch (e) {
      this.finish({
        error: {
          code: 'internal',
          message: `The selection could not be stored: ${(e as Error).message}`.slice(0, 300),
        },
      });
    }
  }

  private stored(meta: ConversationMeta): void {
    this.d.broadcast({ type: 'conversationUpdated', meta });
    this.finish({ conversationId: meta.id });
  }

  private finish(outcome: CaptureOutcome): void {
    this.outcome = { ...outcome, at: this.clock() };
    this.d.broadcast({ type: 'captureReady', ...outcome });
  }

  /** The protocol handlers of this area (spread into createHandlers' result). */
  handlers(): Pick<Handlers, keyof CaptureResponses> {
    return {
      captureSubmit: (p, _kind, sender) => this.submit(p, sender),
      takePendingCapture: async () => {
        const o = this.outcome;
        this.outcome = undefined;
        if (!o || this.clock() - o.at > PENDING_MS) return null;
        const { at: _at, ...outcome } = o;
        return outcome;
      },
    };
  }

  /**
   * Stores a capture as a new conversation. The sender must be the page the payload names (M2: a
   * payload cannot claim another site or origin), and the capture must answer an open request
   * Baton sent to that tab (docs/security.md). @throws BatonError `forbidden`, `bad_request`.
   */
  async submit(p: CaptureSubmit, sender: Sender | undefined): Promise<CaptureResponses['captureSubmit']> {
    const origin = originOf(sender);
    if (!origin || SITE_ORIGINS[p.site] !== origin || siteOf(p.url) !== p.site)
      throw new BatonError('forbidden', 'The capture names another site than the page that sent it.');
    const tabId = (sender?.tab as { id?: unknown } | undefined)?.id;
    // docs/security.md: only a capture Baton asked this tab for is stored; a page cannot flood the list.
    const target = this.requests.find(p.requestId, tabId, p.site);
    if (!target) throw new BatonError('forbidden', 'Baton did not ask this page for a capture; nothing was stored.');
    const now = this.d.now();
    let turns: Turn[];
    try {
      turns = captureToTurns(p, () => this.d.newId(), now);
    } catch (e) {
      throw new BatonError('bad_request', (e as Error).message.slice(0, 300));
    }
    const meta = await storeCapturedConversation(await this.d.db(), {
      id: this.d.newId(),
      title: captureTitle(p),
      now,
      source: webSource(p.site, p.url),
      turns,
      lastTarget: target,
    });
    this.requests.close(p.requestId!);
    this.stored(meta);
    return { conversationId: meta.id, turns: turns.length };
  }
}
