import { describe, expect, it } from 'vitest';
import { CAPTURE_TAB_REQUEST } from '../messaging/capture-tab';
import { createCaptureListener, type ContentDeps } from './content-listener';
import type { CapturedConversation } from './types';

const OWN = 'abcdefghijklmnopabcdefghijklmnop';
const PAGE: CapturedConversation = {
  site: 'claude',
  url: 'https://claude.ai/chat/1',
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'Hello' }] },
  ],
  partial: false,
  partialReason: 'n/a',
};

function rig(page: CapturedConversation = PAGE, reply: unknown = { ok: true, data: { conversationId: 'c1', turns: 2 } }) {
  const reads: number[] = [];
  const sent: unknown[] = [];
  const acks: unknown[] = [];
  const deps: ContentDeps = {
    ownId: OWN,
    read: () => (reads.push(1), page),
    send: async (m) => (sent.push(m), reply),
  };
  const listener = createCaptureListener(deps);
  const deliver = async (message: unknown, sender: { id?: string; tab?: unknown }) => {
    let done!: () => void;
    const answered = new Promise<void>((r) => (done = r));
    const async = listener(message, sender, (a) => (acks.push(a), done()));
    if (async) await answered;
    return async;
  };
  return { reads, sent, acks, deliver };
}

describe('content script listener (M5)', () => {
  it('M5 a capture request from our background reads the page once and submits exactly a captureSubmit', async () => {
    const r = rig();
    expect(await r.deliver({ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN })).toBe(true);
    expect(r.reads).toHaveLength(1);
    expect(r.sent).toEqual([{ type: 'captureSubmit', payload: { requestId: 'req-12345678', ...PAGE } }]);
    expect(r.acks).toEqual([{ type: 'baton.captureAck', requestId: 'req-12345678', ok: true }]);
  });

  it('M5 anything else is ignored: no read, no submit, no answer', async () => {
    const r = rig();
    const bad: [unknown, { id?: string; tab?: unknown }][] = [
      [{ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: 'another-extension-id-aaaaaaaaaaaa' }],
      // From a content script (a tab), not the background.
      [{ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN, tab: { id: 1 } }],
      [{ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678', extra: 1 }, { id: OWN }],
      [{ type: CAPTURE_TAB_REQUEST, requestId: 'x' }, { id: OWN }],
      [{ type: 'captureSubmit', payload: {} }, { id: OWN }],
      [{ type: 'keys.get' }, { id: OWN }],
      ['baton.captureRequest', { id: OWN }],
      [null, { id: OWN }],
      [[CAPTURE_TAB_REQUEST, 'req-12345678'], { id: OWN }],
    ];
    for (const [m, s] of bad) expect(await r.deliver(m, s)).toBe(false);
    expect(r.reads).toEqual([]);
    expect(r.sent).toEqual([]);
    expect(r.acks).toEqual([]);
  });

  it('an empty page, a refusal or a read error is acknowledged as not ok with the reason', async () => {
    const empty = rig({ ...PAGE, messages: [] });
    await empty.deliver({ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN });
    expect(empty.sent).toEqual([]);
    expect(empty.acks).toEqual([{ type: 'baton.captureAck', requestId: 'req-12345678', ok: false, message: 'The page shows no conversation to capture.' }]);
    const refused = rig(PAGE, { ok: false, error: { code: 'bad_request', message: 'captureSubmit: payload: capture larger than 2000000 bytes' } });
    await refused.deliver({ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN });
    expect(refused.acks).toEqual([{ type: 'baton.captureAck', requestId: 'req-12345678', ok: false, message: 'captureSubmit: payload: capture larger than 2000000 bytes' }]);
    const broken = createCaptureListener({
      ownId: OWN,
      read: () => {
        throw new Error('boom');
      },
      send: async () => ({ ok: true }),
    });
    const acks: unknown[] = [];
    await new Promise<void>((done) => broken({ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN }, (a) => (acks.push(a), done())));
    expect(acks).toEqual([{ type: 'baton.captureAck', requestId: 'req-12345678', ok: false, message: 'boom' }]);
  });
});
