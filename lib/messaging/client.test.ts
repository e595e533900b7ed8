import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientError, createClient, type ClientTransport, type PortLike } from './client';
import type { BackgroundEvent } from './protocol';

/** A fake port whose listeners the test can fire. */
class FakePort implements PortLike {
  messageListeners: ((m: unknown) => void)[] = [];
  disconnectListeners: (() => void)[] = [];
  disconnected = false;
  onMessage = { addListener: (cb: (m: unknown) => void) => void this.messageListeners.push(cb) };
  onDisconnect = { addListener: (cb: () => void) => void this.disconnectListeners.push(cb) };
  disconnect() {
    this.disconnected = true;
  }
  emit(m: unknown) {
    for (const l of this.messageListeners) l(m);
  }
  /** The background went away (worker stopped). */
  drop() {
    for (const l of this.disconnectListeners) l();
  }
}

function fakeTransport(reply: (m: { type: string; payload: unknown }) => unknown = () => ({ ok: true, data: null })) {
  const ports: FakePort[] = [];
  const sent: { type: string; payload: unknown }[] = [];
  const transport: ClientTransport = {
    send: async (m) => {
      sent.push(m);
      return reply(m);
    },
    connect: () => {
      const p = new FakePort();
      ports.push(p);
      return p;
    },
  };
  return { transport, ports, sent };
}

const event: BackgroundEvent = { type: 'conversationDeleted', id: 'c1' };

describe('request', () => {
  it('sends the envelope and unwraps {ok: true, data}', async () => {
    const { transport, sent } = fakeTransport(() => ({ ok: true, data: [{ id: 'm1' }] }));
    const client = createClient(transport);
    await expect(client.request('listModels', { providerId: 'openai' })).resolves.toEqual([{ id: 'm1' }]);
    expect(sent).toEqual([{ type: 'listModels', payload: { providerId: 'openai' } }]);
  });

  it('throws a ClientError carrying the protocol error on {ok: false}', async () => {
    const { transport } = fakeTransport(() => ({
      ok: false,
      error: { code: 'rate_limited', message: 'slow down', retryAfterSec: 12 },
    }));
    const err = await createClient(transport)
      .request('getSettings', {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ClientError).toProtocolError()).toEqual({
      code: 'rate_limited',
      message: 'slow down',
      retryAfterSec: 12,
    });
  });

  it('maps an unknown error code to internal', async () => {
    const { transport } = fakeTransport(() => ({ ok: false, error: { code: 'weird', message: 'x' } }));
    const err = (await createClient(transport)
      .request('getSettings', {})
      .catch((e: unknown) => e)) as ClientError;
    expect(err.toProtocolError()).toEqual({ code: 'internal', message: 'x' });
  });

  it('turns a missing reply or a failing sendMessage into ClientError internal', async () => {
    const none = (await createClient(fakeTransport(() => undefined).transport)
      .request('getSettings', {})
      .catch((e: unknown) => e)) as ClientError;
    expect(none).toBeInstanceOf(ClientError);
    expect(none.code).toBe('internal');
    const failing: ClientTransport = {
      send: () => Promise.reject(new Error('Receiving end does not exist')),
      connect: () => new FakePort(),
    };
    const err = (await createClient(failing)
      .request('getSettings', {})
      .catch((e: unknown) => e)) as ClientError;
    expect(err.code).toBe('internal');
    expect(err.message).toContain('Receiving end does not exist');
  });
});

describe('subscribe (L2)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('delivers events and ignores non-event messages', () => {
    const { transport, ports } = fakeTransport();
    const got: BackgroundEvent[] = [];
    createClient(transport).subscribe((e) => got.push(e));
    ports[0]!.emit(event);
    ports[0]!.emit('junk');
    ports[0]!.emit(null);
    expect(got).toEqual([event]);
  });

  it('reconnects within 2 s after a disconnect and calls onReconnect', () => {
    const { transport, ports } = fakeTransport();
    const got: BackgroundEvent[] = [];
    const onReconnect = vi.fn();
    createClient(transport).subscribe((e) => got.push(e), onReconnect);
    expect(ports).toHaveLength(1);
    ports[0]!.drop();
    expect(ports).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    expect(ports).toHaveLength(2);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    ports[1]!.emit(event);
    expect(got).toEqual([event]);
    // and again after a second restart
    ports[1]!.drop();
    vi.advanceTimersByTime(2000);
    expect(ports).toHaveLength(3);
    expect(onReconnect).toHaveBeenCalledTimes(2);
  });

  it('retries when connect itself throws', () => {
    let fail = true;
    const ports: FakePort[] = [];
    const transport: ClientTransport = {
      send: async () => ({ ok: true, data: null }),
      connect: () => {
        if (fail) throw new Error('Extension context invalidated');
        const p = new FakePort();
        ports.push(p);
        return p;
      },
    };
    const onReconnect = vi.fn();
    createClient(transport, { reconnectDelayMs: 100 }).subscribe(() => undefined, onReconnect);
    expect(ports).toHaveLength(0);
    fail = false;
    vi.advanceTimersByTime(100);
    expect(ports).toHaveLength(1);
    expect(onReconnect).not.toHaveBeenCalled();
  });

  it('unsubscribing disconnects, stops reconnecting and drops late events', () => {
    const { transport, ports } = fakeTransport();
    const got: BackgroundEvent[] = [];
    const onReconnect = vi.fn();
    const stop = createClient(transport).subscribe((e) => got.push(e), onReconnect);
    const first = ports[0]!;
    first.drop();
    stop();
    vi.advanceTimersByTime(5000);
    expect(ports).toHaveLength(1);
    expect(onReconnect).not.toHaveBeenCalled();
    first.emit(event);
    expect(got).toEqual([]);

    const stop2 = createClient(transport).subscribe((e) => got.push(e));
    stop2();
    expect(ports[1]!.disconnected).toBe(true);
  });
});
