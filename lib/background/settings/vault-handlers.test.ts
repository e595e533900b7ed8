/**
 * Passphrase requests through the real router, handlers, vault and send engine (S2, S3): while
 * locked every provider send, key test and model list is refused with `locked` before anything is
 * written or any request is made. Real stores over fake-indexeddb; a recording transport.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import { memorySession } from '../../vault/session';
import { callFrom, createTestBackground, NOW, OPENAI } from '../background.test-helper';
import type { Transport } from '../core/transport';

const KEY = 'sk-proj-VaultHandlerKey-0123456789';
const PASS = 'correct horse battery';

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The shared background without fake providers: one OpenAI key on its real origin, a recording transport. */
async function setup() {
  const requests: string[] = [];
  const transport: Transport = {
    streamRequest: async (conn, _body, opts) => {
      requests.push(`stream ${conn.providerId} ${conn.apiKey}`);
      opts.onEvent({ type: 'response.created', response: { id: 'r1', model: 'gpt-5.5' } });
      throw Object.assign(new Error('scripted end'), { name: 'TransportError', code: 'network' });
    },
    withRetries: (attempt) => attempt(),
    listModels: async (conn) => {
      requests.push(`models ${conn.providerId}`);
      return [];
    },
    countTokens: async (conn) => {
      requests.push(`count ${conn.providerId}`);
      return 0;
    },
  };
  const bg = await createTestBackground(undefined, {
    name: 'handlers-vault',
    transport,
    keys: { openai: KEY },
    vault: { session: memorySession(), iterations: 1_000 },
  });
  db = bg.db;
  const call = callFrom(bg.h, 'options.html');
  return { call, requests, store: bg.store, engine: bg.engine };
}

describe('passphrase requests', () => {
  it('S3 locked: sendMessage, retryTurn, testKey and listModels are refused `locked`, nothing is written, zero requests', async () => {
    const { call, requests, store } = await setup();
    await store.appendTurn('c1', { id: 'u0', role: 'user', blocks: [{ type: 'text', text: 'earlier' }] }, NOW);
    expect(await call('vaultStatus', {})).toEqual({ ok: true, data: { passphrase: false, locked: false } });
    expect(await call('setPassphrase', { passphrase: PASS })).toEqual({
      ok: true,
      data: { passphrase: true, locked: false },
    });
    expect(await call('lockVault', {})).toEqual({ ok: true, data: { passphrase: true, locked: true } });

    for (const [type, payload] of [
      ['sendMessage', { conversationId: 'c1', text: 'hello', target: OPENAI }],
      ['retryTurn', { conversationId: 'c1', target: OPENAI }],
      ['testKey', { providerId: 'openai' }],
      ['listModels', { providerId: 'openai' }],
      ['setKey', { providerId: 'anthropic', key: 'sk-ant-another-key-0123456789' }],
    ] as const) {
      const r = await call(type, payload);
      expect(r.ok ? 'ok' : r.error.code, type).toBe('locked');
    }
    expect(requests).toEqual([]);
    expect((await store.get('c1')).turns.map((t) => t.id)).toEqual(['u0']);
    // The options page still loads: keys are listed without a mask.
    const settings = (await call('getSettings', {})) as {
      ok: true;
      data: { providers: { id: string; hasKey: boolean; maskedKey?: string }[] };
    };
    expect(settings.data.providers.find((p) => p.id === 'openai')).toMatchObject({ hasKey: true });
    expect(settings.data.providers.find((p) => p.id === 'openai')?.maskedKey).toBeUndefined();
  });

  it('S3 a wrong passphrase is one generic `locked` error; the right one unlocks and the send goes out with the key', async () => {
    const { call, requests, engine } = await setup();
    await call('setPassphrase', { passphrase: PASS });
    await call('lockVault', {});
    const wrong = await call('unlockVault', { passphrase: 'not the passphrase' });
    expect(wrong).toEqual({
      ok: false,
      error: { code: 'locked', message: 'That passphrase does not unlock the keys.' },
    });
    expect(await call('removePassphrase', { passphrase: 'not the passphrase' })).toEqual(wrong);
    expect(await call('unlockVault', { passphrase: PASS })).toEqual({
      ok: true,
      data: { passphrase: true, locked: false },
    });
    const sent = await call('sendMessage', { conversationId: 'c1', text: 'hello', target: OPENAI });
    expect(sent.ok).toBe(true);
    await engine.settled('c1');
    expect(requests).toEqual([`stream openai ${KEY}`]);
    const settings = (await call('getSettings', {})) as {
      ok: true;
      data: { providers: { id: string; maskedKey?: string }[] };
    };
    expect(settings.data.providers.find((p) => p.id === 'openai')?.maskedKey).toBe(`••••${KEY.slice(-4)}`);
  });

  it('S3 a passphrase shorter than 8 characters is refused by the schema; removing the passphrase unlocks for good', async () => {
    const { call } = await setup();
    const short = await call('setPassphrase', { passphrase: 'short' });
    expect(short.ok ? 'ok' : short.error.code).toBe('bad_request');
    await call('setPassphrase', { passphrase: PASS });
    expect(await call('removePassphrase', { passphrase: PASS })).toEqual({
      ok: true,
      data: { passphrase: false, locked: false },
    });
    expect(await call('lockVault', {})).toEqual({ ok: true, data: { passphrase: false, locked: false } });
  });
});
