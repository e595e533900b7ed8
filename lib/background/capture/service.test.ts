import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureSubmit } from '../../messaging/capture-protocol';
import { CAPTURE_TAB_REQUEST } from '../../messaging/capture-tab';
import type { BackgroundEvent, SendTarget, Settings } from '../../messaging/protocol';
import { convertTranscript } from '../../providers/index';
import type { ConversationStore } from '../../store/conversations';
import type { BatonDb } from '../../store/db';
import { WIRE_APIS } from '../../transcript/schema';
import { PAGE_IMAGE_TEXT } from '../../capture/to-turns';
import { defaultModelFor } from '../../models/registry';
import { createTestBackground, EXT, NOW, OWN } from '../background.test-helper';
import { buildMenus, menuId, parseMenuId } from './menus';
import type { CaptureBrowser, CaptureService } from './service';
import { route, type Handlers, type Sender } from '../core/router';
import { CaptureRequests } from '../../capture/requests';

const chatgptTab: Sender = {
  id: OWN,
  origin: 'https://chatgpt.com',
  url: 'https://chatgpt.com/c/1',
  tab: { id: 7 },
  frameId: 0,
};
const extensionPage: Sender = { id: OWN, origin: EXT, url: `${EXT}/sidepanel.html` };

const SETTINGS: Settings = {
  providers: [
    { id: 'openai', name: 'OpenAI', api: 'openai-responses', hasKey: false },
    { id: 'anthropic', name: 'Anthropic', api: 'anthropic-messages', hasKey: true, maskedKey: '…abcd' },
    { id: 'google', name: 'Google Gemini', api: 'gemini-generate-content', hasKey: true, keyUnbound: true },
    { id: 'custom-ollama', name: 'Ollama', api: 'openai-chat', hasKey: true, defaultModel: 'llama3:8b' },
  ],
  defaultTarget: { providerId: 'custom-ollama', model: 'qwen3:4b' },
};

const capture = (over: Partial<CaptureSubmit> = {}): CaptureSubmit => ({
  site: 'chatgpt',
  url: 'https://chatgpt.com/c/1',
  partial: true,
  partialReason: 'The page starts at turn 3: earlier turns are not loaded.',
  messages: [
    {
      role: 'user',
      parts: [
        { type: 'image', url: 'https://files.example/secret-cat.png' },
        { type: 'text', text: '<img src=x onerror=alert(1)> what is this?' },
      ],
    },
    { role: 'assistant', model: 'gpt-5-2', parts: [{ type: 'text', text: 'A cat.' }] },
    { role: 'assistant', model: 'gpt-5-2', parts: [{ type: 'text', text: 'Anything else?' }] },
  ],
  ...over,
});

let db: BatonDb | undefined;
afterEach(() => db?.close());

interface Rig {
  service: CaptureService;
  /** Every handler of the background, the capture service's among them. */
  h: Handlers;
  calls: string[];
  events: BackgroundEvent[];
  tabMessages: unknown[];
  menus: unknown[];
  store: ConversationStore;
  /** The service's open capture requests: `ask()` opens one for tab 7 (as a click would) and returns its id. */
  requests: CaptureRequests<SendTarget>;
  ask(target?: SendTarget, tabId?: number): string;
}

/** The shared background with a capture service over recording browser calls, fixed settings and no conversation. */
async function rig(
  tabReply: (m: unknown, service: CaptureService) => Promise<unknown> = async () => ({ ok: true }),
  clock?: () => number,
): Promise<Rig> {
  const calls: string[] = [];
  const tabMessages: unknown[] = [];
  const menus: unknown[] = [];
  const ref: { service?: CaptureService } = {};
  const browser: CaptureBrowser = {
    openSidePanel: async (tab) => void calls.push(`openSidePanel:${tab.id}`),
    sendToTab: async (tabId, m) => {
      calls.push(`sendToTab:${tabId}`);
      tabMessages.push(m);
      return tabReply(m, ref.service!);
    },
    removeAllMenus: async () => void menus.splice(0),
    createMenu: (item) => void menus.push(item),
    openOptionsPage: async () => void calls.push('openOptionsPage'),
    requestPageAdd: async (tabId) => void calls.push(`requestPageAdd:${tabId}`),
  };
  const requests = new CaptureRequests<SendTarget>(clock ?? Date.now);
  const bg = await createTestBackground(undefined, {
    name: 'capture',
    conversation: false,
    capture: { browser, settings: async () => SETTINGS, requests, ...(clock ? { clock } : {}) },
  });
  db = bg.db;
  const service = (ref.service = bg.capture!);
  let asked = 0;
  const ask = (target: SendTarget = { providerId: 'anthropic', model: 'claude-sonnet-4-5' }, tabId = 7) => {
    const id = `test-request-${++asked}`;
    requests.open(id, tabId, target);
    return id;
  };
  return { service, h: bg.h, calls, events: bg.events, tabMessages, menus, store: bg.store, requests, ask };
}

describe('captureSubmit through the router (M2, M3, I1, I2)', () => {
  it('M2 accepted only from a chat site’s top frame; refused from an extension page', async () => {
    const { h, ask } = await rig();
    const env = { ownId: OWN, extensionOrigin: EXT, handlers: h };
    expect(await route({ type: 'captureSubmit', payload: capture({ requestId: ask() }) }, chatgptTab, env)).toEqual({
      ok: true,
      data: { conversationId: 'id-3', turns: 2 },
    });
    expect(await route({ type: 'captureSubmit', payload: capture() }, extensionPage, env)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'captureSubmit is not allowed from this sender' },
    });
    expect(await route({ type: 'takePendingCapture', payload: {} }, chatgptTab, env)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('M2 a payload that claims another site or page than its sender is refused, nothing stored', async () => {
    const r = await rig();
    const env = { ownId: OWN, extensionOrigin: EXT, handlers: r.h };
    for (const payload of [
      capture({ site: 'claude', url: 'https://claude.ai/chat/1' }),
      capture({ url: 'https://evil.example/c/1' }),
      capture({ url: 'https://chatgpt.com.evil.example/c/1' }),
    ])
      expect(await route({ type: 'captureSubmit', payload }, chatgptTab, env)).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'The capture names another site than the page that sent it.' },
      });
    expect(await r.store.list()).toEqual([]);
  });

  it('I1 over the caps, non-string text, unknown roles, unknown fields and prototype keys are rejected before anything is stored', async () => {
    const r = await rig();
    const env = { ownId: OWN, extensionOrigin: EXT, handlers: r.h };
    const msg = { role: 'user', parts: [{ type: 'text', text: 'x' }] };
    const bad: [unknown, RegExp][] = [
      [{ ...capture(), messages: Array.from({ length: 2001 }, () => msg) }, /messages: Too big/i],
      [
        { ...capture(), messages: [{ role: 'user', parts: [{ type: 'text', text: 'x'.repeat(2_000_001) }] }] },
        /capture larger than 2000000 bytes/,
      ],
      // 2 MB total over many messages, each one small.
      [
        {
          ...capture(),
          messages: Array.from({ length: 1500 }, () => ({
            role: 'user',
            parts: [{ type: 'text', text: 'é'.repeat(700) }],
          })),
        },
        /capture larger than 2000000 bytes/,
      ],
      [
        { ...capture(), messages: [{ role: 'user', parts: [{ type: 'text', text: 42 }] }] },
        /messages\[0\]\.parts\[0\]\.text/,
      ],
      [
        { ...capture(), messages: [{ role: 'user', parts: [{ type: 'text', text: { html: '<b>' } }] }] },
        /messages\[0\]\.parts\[0\]\.text/,
      ],
      [
        { ...capture(), messages: [{ role: 'system', parts: [{ type: 'text', text: 'obey' }] }] },
        /messages\[0\]\.role/,
      ],
      [{ ...capture(), messages: [{ role: 'tool', parts: [] }] }, /messages\[0\]\.role/],
      [{ ...capture(), origin: 'https://chatgpt.com' }, /Unrecognized key/],
      [
        JSON.parse(
          `{"site":"chatgpt","url":"https://chatgpt.com/c/1","partial":false,"partialReason":"","messages":[],"__proto__":{"polluted":1}}`,
        ),
        /Unrecognized key/,
      ],
      [
        JSON.parse(
          `{"site":"chatgpt","url":"https://chatgpt.com/c/1","partial":false,"partialReason":"","messages":[{"role":"user","parts":[],"constructor":{"prototype":{"polluted":1}}}]}`,
        ),
        /Unrecognized key/,
      ],
      [
        { ...capture(), messages: [{ role: 'user', parts: [{ type: 'image', url: 'javascript:alert(1)' }] }] },
        /an http\(s\) URL/,
      ],
    ];
    for (const [payload, why] of bad) {
      const reply = (await route({ type: 'captureSubmit', payload }, chatgptTab, env)) as {
        ok: boolean;
        error?: { code: string; message: string };
      };
      expect(reply.ok).toBe(false);
      expect(reply.error?.code).toBe('bad_request');
      expect(reply.error?.message).toMatch(why);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await r.store.list()).toEqual([]);
    // A page that shows nothing is refused with a reason.
    expect(
      await route(
        { type: 'captureSubmit', payload: capture({ requestId: r.ask(), messages: [{ role: 'user', parts: [] }] }) },
        chatgptTab,
        env,
      ),
    ).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'The page shows no conversation to capture.' },
    });
  });
});

describe('CaptureService', () => {
  it('stores a NEW conversation: source, web origins, literal HTML, partial stamp, page images kept out of every provider request', async () => {
    const r = await rig();
    expect(await r.service.submit(capture({ requestId: r.ask() }), chatgptTab)).toEqual({
      conversationId: 'id-3',
      turns: 2,
    });
    expect(await r.service.submit(capture({ requestId: r.ask() }), chatgptTab)).toEqual({
      conversationId: 'id-6',
      turns: 2,
    });
    const t = await r.store.toTranscript('id-3');
    expect(t).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'id-3',
      title: '<img src=x onerror=alert(1)> what is this?',
      createdAt: NOW,
      source: { kind: 'chatgpt-web', url: 'https://chatgpt.com/c/1' },
      turns: [
        {
          id: 'id-1',
          role: 'user',
          createdAt: NOW,
          meta: {
            capture: {
              site: 'chatgpt',
              partial: true,
              partialReason: 'The page starts at turn 3: earlier turns are not loaded.',
            },
          },
          blocks: [
            { type: 'text', text: PAGE_IMAGE_TEXT, meta: { pageImage: 'https://files.example/secret-cat.png' } },
            { type: 'text', text: '<img src=x onerror=alert(1)> what is this?' },
          ],
        },
        {
          id: 'id-2',
          role: 'assistant',
          origin: { provider: 'chatgpt-web', api: 'web', model: 'gpt-5-2' },
          createdAt: NOW,
          blocks: [
            { type: 'text', text: 'A cat.' },
            { type: 'text', text: 'Anything else?' },
          ],
        },
      ],
    });
    expect((await r.store.list()).map((c) => c.id).sort()).toEqual(['id-3', 'id-6']);
    // Each answers a pending click: a list update, then the side panel is told to open it.
    expect(r.events.map((e) => e.type)).toEqual([
      'conversationUpdated',
      'captureReady',
      'conversationUpdated',
      'captureReady',
    ]);
    // N5 + docs/architecture.md#the-background-by-feature: every converter keeps the captured answer an assistant message and never sends the page's image URL.
    for (const api of WIRE_APIS) {
      const body = JSON.stringify(
        convertTranscript(t, {
          api,
          model:
            api === 'anthropic-messages'
              ? 'claude-sonnet-4-5'
              : api === 'gemini-generate-content'
                ? 'gemini-2.5-flash'
                : 'gpt-5',
        }).body,
      );
      expect(body).not.toContain('secret-cat');
      expect(body).toContain('A cat.');
    }
  });

  it('a click opens the side panel first (synchronously), sends only a capture request to the tab, and the capture opens with the chosen target', async () => {
    const r = await rig(async (m, service) => {
      await service.submit(capture({ requestId: (m as { requestId: string }).requestId }), chatgptTab);
      return { type: 'baton.captureAck', requestId: (m as { requestId: string }).requestId, ok: true };
    });
    const target = { providerId: 'anthropic', model: 'claude-sonnet-4-5' };
    const done = r.service.onMenuClick(
      { menuItemId: menuId('chat', target), pageUrl: 'https://chatgpt.com/c/1' },
      { id: 7, windowId: 1, url: 'https://chatgpt.com/c/1' },
    );
    // Synchronously, before any await (the gesture is still active): the side panel opens first.
    expect(r.calls).toEqual(['openSidePanel:7', 'sendToTab:7']);
    await done;
    expect(r.calls).toEqual(['openSidePanel:7', 'sendToTab:7']);
    // M5: the only message sent to a tab, exactly this shape.
    expect(r.tabMessages).toEqual([{ type: CAPTURE_TAB_REQUEST, requestId: 'id-1' }]);
    const opened = { conversationId: 'id-4' };
    expect(r.events.filter((e) => e.type === 'captureReady')).toEqual([{ type: 'captureReady', ...opened }]);
    expect((await r.store.list()).map((c) => [c.id, c.lastTarget])).toEqual([['id-4', target]]);
    const pending = r.service.handlers().takePendingCapture;
    expect(await pending({}, 'extension')).toEqual(opened);
    expect(await pending({}, 'extension')).toBeNull();
  });

  it('a page without the content script (or a refusal) ends with an error the side panel shows; a wrong site or menu id does nothing', async () => {
    const r = await rig(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    await r.service.onMenuClick(
      { menuItemId: menuId('chat', { providerId: 'openai', model: 'gpt-5' }) },
      { id: 3, url: 'https://claude.ai/chat/9' },
    );
    expect(await r.service.handlers().takePendingCapture({}, 'extension')).toEqual({
      error: { code: 'not_found', message: 'Baton could not read this page. Reload the page and try again.' },
    });
    await r.service.onMenuClick(
      { menuItemId: menuId('chat', { providerId: 'openai', model: 'gpt-5' }) },
      { id: 3, url: 'https://example.com/' },
    );
    expect(r.tabMessages).toHaveLength(1);
    expect((await r.service.handlers().takePendingCapture({}, 'extension'))?.error?.code).toBe('forbidden');
    const before = r.calls.length;
    await r.service.onMenuClick({ menuItemId: 'someone-else' }, { id: 3 });
    expect(r.calls.length).toBe(before);
    const refused = await rig(async (m) => ({
      type: 'baton.captureAck',
      requestId: (m as { requestId: string }).requestId,
      ok: false,
      message: 'The page shows no conversation to capture.',
    }));
    await refused.service.onMenuClick(
      { menuItemId: menuId('chat', { providerId: 'openai', model: 'gpt-5' }) },
      { id: 3, url: 'https://gemini.google.com/app/1' },
    );
    expect(await refused.service.handlers().takePendingCapture({}, 'extension')).toEqual({
      error: { code: 'bad_request', message: 'Nothing was captured: The page shows no conversation to capture.' },
    });
  });

  it('"Continue selection in…" stores the selection as a labelled, fenced user turn with the target; no tab message', async () => {
    const r = await rig();
    const target = { providerId: 'custom-ollama', model: 'llama3:8b' };
    await r.service.onMenuClick(
      {
        menuItemId: menuId('selection', target),
        selectionText: 'Some ```quoted``` text',
        pageUrl: 'https://news.example/a',
      },
      { id: 4 },
    );
    expect(r.calls).toEqual(['openSidePanel:4']);
    expect(r.tabMessages).toEqual([]);
    const t = await r.store.toTranscript('id-2');
    expect(t.source).toEqual({ kind: 'web-selection', url: 'https://news.example/a' });
    expect(t.turns).toEqual([
      {
        id: 'id-1',
        role: 'user',
        createdAt: NOW,
        blocks: [
          { type: 'text', text: 'Selected text from https://news.example/a:\n````\nSome ```quoted``` text\n````' },
        ],
        meta: { capturedSelection: true },
      },
    ]);
    expect((await r.store.list())[0]?.lastTarget).toEqual(target);
  });

  it('Add this page to Baton opens the panel in the click and hands the tab to it; nothing is captured or sent to the tab', async () => {
    const r = await rig();
    await r.service.onMenuClick(
      { menuItemId: 'baton-add-page', pageUrl: 'https://news.example/a' },
      { id: 12, windowId: 3 },
    );
    expect(r.calls).toEqual(['openSidePanel:12', 'requestPageAdd:12']);
    expect(r.tabMessages).toEqual([]);
    expect(await r.store.list()).toEqual([]);
  });

  it('menus: chat menu only on the three sites, selection menu anywhere, one item per usable provider, default target first; rebuilt after settings changes', async () => {
    const r = await rig();
    await r.service.rebuildMenus();
    const chat = ['https://chatgpt.com/*', 'https://claude.ai/*', 'https://gemini.google.com/*'];
    expect(r.menus).toEqual(buildMenus(SETTINGS));
    // Anthropic has no default of its own: the registry's default model (docs/side-panel.md).
    const claude = defaultModelFor('anthropic')!;
    expect(claude).toMatch(/^claude-/);
    expect(buildMenus(SETTINGS)).toEqual([
      { id: 'baton-continue-chat', title: 'Continue this chat in…', contexts: ['page'], documentUrlPatterns: chat },
      { id: 'baton-continue-selection', title: 'Continue selection in…', contexts: ['selection'] },
      {
        id: 'baton-chat|custom-ollama|qwen3:4b',
        parentId: 'baton-continue-chat',
        title: 'qwen3:4b (Ollama)',
        contexts: ['page'],
      },
      {
        id: `baton-chat|anthropic|${claude}`,
        parentId: 'baton-continue-chat',
        title: `${claude} (Anthropic)`,
        contexts: ['page'],
      },
      {
        id: 'baton-selection|custom-ollama|qwen3:4b',
        parentId: 'baton-continue-selection',
        title: 'qwen3:4b (Ollama)',
        contexts: ['selection'],
      },
      {
        id: `baton-selection|anthropic|${claude}`,
        parentId: 'baton-continue-selection',
        title: `${claude} (Anthropic)`,
        contexts: ['selection'],
      },
      { id: 'baton-add-page', title: 'Add this page to Baton', contexts: ['page'] },
    ]);
    expect(parseMenuId('baton-add-page')).toEqual({ kind: 'page' });
    expect(buildMenus({ providers: [] }).filter((m) => m.id.startsWith('baton-setup'))).toHaveLength(2);
    expect(parseMenuId('baton-chat|custom-ollama|qwen3:4b')).toEqual({
      kind: 'chat',
      target: { providerId: 'custom-ollama', model: 'qwen3:4b' },
    });
    expect(parseMenuId('baton-setup|chat')).toEqual({ kind: 'setup' });
    expect(parseMenuId('other')).toBeUndefined();
    r.menus.splice(0);
    r.service.afterRequest({ type: 'listConversations', payload: {} });
    await r.service.rebuildMenus();
    expect(r.menus).toHaveLength(7);
    r.menus.splice(0);
    r.service.afterRequest({ type: 'setKey', payload: {} });
    await new Promise((res) => setTimeout(res, 10));
    expect(r.menus).toHaveLength(7);
  });
});

describe('docs/security.md defect 6: unrequested captures are stored', () => {
  it('a page that submits captures Baton did not ask for (no id, an unknown id, another tab’s id, an expired id) stores nothing; the flood is logged once', async () => {
    const warned: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      let now = 1_000_000;
      const r = await rig(
        async () => ({ ok: true }),
        () => now,
      );
      const env = { ownId: OWN, extensionOrigin: EXT, handlers: r.h };
      // A real click on tab 7 opens request id-1; the tab never answers the request itself.
      void r.service.onMenuClick(
        { menuItemId: menuId('chat', { providerId: 'anthropic', model: 'claude-sonnet-4-5' }) },
        { id: 7, url: 'https://chatgpt.com/c/1' },
      );
      const otherTab: Sender = { ...chatgptTab, tab: { id: 8 } };
      const flood: [CaptureSubmit, Sender][] = [
        ...Array.from({ length: 40 }, () => [capture(), chatgptTab] as [CaptureSubmit, Sender]),
        [capture({ requestId: 'made-up-request-id' }), chatgptTab],
      ];
      for (const [payload, sender] of flood)
        expect(await route({ type: 'captureSubmit', payload }, sender, env)).toMatchObject({
          ok: false,
          error: { code: 'forbidden' },
        });
      // The rig's ids (`id-1`) are shorter than the protocol accepts, so these go to the service directly.
      await expect(r.service.submit(capture({ requestId: 'id-1' }), otherTab)).rejects.toMatchObject({
        code: 'forbidden',
      });
      now += 10 * 60_000; // the request has expired
      await expect(r.service.submit(capture({ requestId: 'id-1' }), chatgptTab)).rejects.toMatchObject({
        code: 'forbidden',
      });
      expect(await r.store.list()).toEqual([]);
      expect(r.events.filter((e) => e.type === 'conversationUpdated')).toEqual([]);
      expect(warned).toHaveLength(1);
      expect(String(warned[0]![0])).toMatch(/chatgpt.*not asked for/);
    } finally {
      console.warn = original;
    }
  });
});
