/**
 * Adversarial `captureSubmit` input through the real router and store (I1, I2, M2, M3): every bad
 * payload is a `{ok: false}` reply that names what and where, nothing is stored, nothing throws.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureSubmit } from '../../messaging/capture-protocol';
import type { Reply, SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { CaptureRequests } from '../../capture/requests';
import { createTestBackground, EXT, OWN } from '../background.test-helper';
import type { CaptureBrowser } from './service';
import { route, type Sender } from '../core/router';

const chatgptTab: Sender = {
  id: OWN,
  origin: 'https://chatgpt.com',
  url: 'https://chatgpt.com/c/1',
  tab: { id: 7 },
  frameId: 0,
};

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The shared background with a capture service and no conversation; `submit` routes a tab's capture to its handlers. */
async function rig() {
  const browser: CaptureBrowser = {
    openSidePanel: async () => undefined,
    sendToTab: async () => ({ ok: true }),
    removeAllMenus: async () => undefined,
    createMenu: () => undefined,
    openOptionsPage: async () => undefined,
  };
  // docs/security.md: only requested captures are stored, so each payload here answers a request Baton opened for tab 7.
  const requests = new CaptureRequests<SendTarget>(Date.now);
  let asked = 0;
  const bg = await createTestBackground(undefined, {
    name: 'adv-capture',
    conversation: false,
    capture: { browser, settings: async () => ({ providers: [] }), requests },
  });
  db = bg.db;
  const env = { ownId: OWN, extensionOrigin: EXT, handlers: bg.h };
  const submit = (payload: unknown, sender: Sender = chatgptTab) => {
    if (payload !== null && typeof payload === 'object' && !Array.isArray(payload) && !('requestId' in payload)) {
      const requestId = `adversarial-${++asked}`;
      requests.open(requestId, 7, { providerId: 'openai', model: 'gpt-5' });
      payload = { ...payload, requestId };
    }
    return route({ type: 'captureSubmit', payload }, sender, env) as Promise<
      Reply<{ conversationId: string; turns: number }>
    >;
  };
  return { submit, store: bg.store };
}

const base = (over: Partial<CaptureSubmit> = {}): CaptureSubmit => ({
  site: 'chatgpt',
  url: 'https://chatgpt.com/c/1',
  partial: false,
  partialReason: '',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  ...over,
});

describe('captureSubmit: adversarial payloads', () => {
  it('M3 malformed shapes (deep nesting, a BigInt, null, arrays, too many parts, a bad request id) are refused with what and where; nothing stored', async () => {
    const r = await rig();
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 20_000; i++) cur = (cur.a = {}) as Record<string, unknown>;
    const cases: [unknown, string][] = [
      [
        { ...base(), messages: [{ role: 'user', parts: [{ type: 'text', text: deep }] }] },
        'captureSubmit: payload: capture larger than 2000000 bytes',
      ],
      [deep, 'captureSubmit: payload: capture larger than 2000000 bytes'],
      [{ ...base(), partialReason: 1n }, 'captureSubmit: payload: capture larger than 2000000 bytes'],
      [null, 'captureSubmit: payload: Invalid input: expected object, received null'],
      [[], 'captureSubmit: payload: Invalid input: expected object, received array'],
      [
        {
          ...base(),
          messages: [{ role: 'user', parts: Array.from({ length: 501 }, () => ({ type: 'text', text: '' })) }],
        },
        'captureSubmit: messages[0].parts: Too big: expected array to have <=500 items',
      ],
      [{ ...base(), partial: 'yes' }, 'captureSubmit: partial: Invalid input: expected boolean, received string'],
      [
        { ...base(), requestId: '../../x' },
        'captureSubmit: requestId: Invalid string: must match pattern /^[A-Za-z0-9-]{8,64}$/',
      ],
      [
        { ...base(), messages: [{ role: 'user', parts: [{ type: 'image', url: ' javascript:alert(1)' }] }] },
        'captureSubmit: messages[0].parts[0].url: an http(s) URL',
      ],
      [
        { ...base(), messages: [{ role: 'user', parts: [{ type: 'image', url: 'data:image/png;base64,AAAA' }] }] },
        'captureSubmit: messages[0].parts[0].url: an http(s) URL',
      ],
      // Many tiny messages that show nothing, and an empty conversation.
      [
        { ...base(), messages: Array.from({ length: 2000 }, () => ({ role: 'user', parts: [] })) },
        'The page shows no conversation to capture.',
      ],
      [base({ messages: [] }), 'The page shows no conversation to capture.'],
      [
        base({ messages: [{ role: 'user', parts: [{ type: 'text', text: '\u0000\u0007 \n' }] }] }),
        'The page shows no conversation to capture.',
      ],
    ];
    for (const [payload, message] of cases)
      expect(await r.submit(payload)).toEqual({ ok: false, error: { code: 'bad_request', message } });
    // M2: a URL of another site than the sender, or one dressed up as it.
    for (const url of [
      'https://claude.ai/chat/1',
      'javascript://chatgpt.com/%0aalert(1)',
      'https://chatgpt.com@evil.example/c',
    ])
      expect(await r.submit(base({ url }))).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'The capture names another site than the page that sent it.' },
      });
    expect(await r.store.list()).toEqual([]);
  });

  it('X6 lone surrogates become U+FFFD and invisible controls are removed from text; titles and model names lose controls and bidi overrides; HTML stays literal', async () => {
    const r = await rig();
    const payload = base({
      partial: true,
      partialReason: 'Older turns\u202e are not loaded\u0000',
      title: '\u0000Bank\u202e gnp.exe\u0007',
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'a\ud800b\u0000c\u001bd\te\r\nf\udc00' },
            { type: 'text', text: '<script>alert(1)</script>' },
          ],
        },
        { role: 'assistant', model: 'gpt\u0000-5\u2066', parts: [{ type: 'text', text: 'ok\u007f' }] },
      ],
    });
    expect(await r.submit(payload)).toEqual({ ok: true, data: { conversationId: 'id-3', turns: 2 } });
    const t = await r.store.toTranscript('id-3');
    expect(t.title).toBe('Bank gnp.exe');
    expect(t.turns[0]!.meta).toEqual({
      capture: { site: 'chatgpt', partial: true, partialReason: 'Older turns  are not loaded ' },
    });
    expect(t.turns.map((x) => [x.role, x.origin?.model, x.blocks])).toEqual([
      [
        'user',
        undefined,
        [
          { type: 'text', text: 'a\uFFFDbcd\te\r\nf\uFFFD' },
          { type: 'text', text: '<script>alert(1)</script>' },
        ],
      ],
      ['assistant', 'gpt -5', [{ type: 'text', text: 'ok' }]],
    ]);
    // Without a page title, the first user line is the title, cut on code points: the emoji is kept whole (docs/security.md).
    expect(
      await r.submit(
        base({ messages: [{ role: 'user', parts: [{ type: 'text', text: `${'x'.repeat(58)}😀 and more` }] }] }),
      ),
    ).toEqual({ ok: true, data: { conversationId: 'id-5', turns: 1 } });
    expect((await r.store.toTranscript('id-5')).title).toBe(`${'x'.repeat(58)}😀…`);
  });
});
