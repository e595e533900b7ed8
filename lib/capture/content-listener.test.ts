import { describe, expect, it } from 'vitest';
import { CAPTURE_TAB_REQUEST } from '../messaging/capture-tab';
import { createCaptureListener, type ContentDeps } from './content-listener';
import { fitCapture } from './fit';
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

function rig(
  page: CapturedConversation = PAGE,
  reply: unknown = { ok: true, data: { conversationId: 'c1', turns: 2 } },
) {
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
      [
        { type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' },
        { id: OWN, tab: { id: 1 } },
      ],
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
    expect(empty.acks).toEqual([
      {
        type: 'baton.captureAck',
        requestId: 'req-12345678',
        ok: false,
        message: 'The page shows no conversation to capture.',
      },
    ]);
    const refused = rig(PAGE, {
      ok: false,
      error: { code: 'bad_request', message: 'captureSubmit: payload: capture larger than 2000000 bytes' },
    });
    await refused.deliver({ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN });
    expect(refused.acks).toEqual([
      {
        type: 'baton.captureAck',
        requestId: 'req-12345678',
        ok: false,
        message: 'captureSubmit: payload: capture larger than 2000000 bytes',
      },
    ]);
    const broken = createCaptureListener({
      ownId: OWN,
      read: () => {
        throw new Error('boom');
      },
      send: async () => ({ ok: true }),
    });
    const acks: unknown[] = [];
    await new Promise<void>((done) =>
      broken({ type: CAPTURE_TAB_REQUEST, requestId: 'req-12345678' }, { id: OWN }, (a) => (acks.push(a), done())),
    );
    expect(acks).toEqual([{ type: 'baton.captureAck', requestId: 'req-12345678', ok: false, message: 'boom' }]);
  });
});

describe('fitCapture (I1 caps, before sending)', () => {
  const msg = (i: number, chars = 10): CapturedConversation['messages'][number] => ({
    role: i % 2 ? 'assistant' : 'user',
    parts: [{ type: 'text', text: `${i}:`.padEnd(chars, 'x') }],
  });
  it('keeps a capture within the caps as it is', () => {
    expect(fitCapture(PAGE)).toBe(PAGE);
  });
  it('keeps the newest messages within the message cap and says so', () => {
    const page = { ...PAGE, messages: Array.from({ length: 7 }, (_, i) => msg(i)) };
    expect(fitCapture(page, { bytes: 2_000_000, messages: 3 })).toEqual({
      ...page,
      messages: [msg(4), msg(5), msg(6)],
      partial: true,
      partialReason:
        'The conversation is larger than a capture may be (3 messages, 2000000 bytes): Baton kept the newest 3 message(s) and left out 4 earlier one(s).',
    });
  });
  it('keeps the newest messages within the byte cap; a single oversized message is cut from its start', () => {
    const page = { ...PAGE, messages: Array.from({ length: 10 }, (_, i) => msg(i, 1_000)) };
    const fitted = fitCapture(page, { bytes: 12_000, messages: 100 });
    expect(fitted.messages.map((m) => (m.parts[0] as { text: string }).text.slice(0, 2))).toEqual(['7:', '8:', '9:']);
    expect(fitted.partial).toBe(true);
    const huge = fitCapture({ ...PAGE, messages: [msg(0, 50_000)] }, { bytes: 20_000, messages: 100 });
    const text = (huge.messages[0]!.parts[0] as { text: string }).text;
    expect(text.startsWith('[Baton: the start of this message was cut; it is longer than a capture may be]\n\n')).toBe(
      true,
    );
    expect(text.endsWith('xxx')).toBe(true);
    expect(JSON.stringify(huge).length).toBeLessThan(20_000);
  });
});
