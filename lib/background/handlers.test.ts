/**
 * Handlers added for the side panel (docs/side-panel.md): regenerate, edit-and-resend, pin and model
 * capabilities. Real stores over fake-indexeddb; the send engine is a recording stub (its own
 * behaviour is covered by send/engine.test.ts).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Attachment, SendTarget } from '../messaging/protocol';
import type { ConversationStore } from '../store/conversations';
import type { BatonDb } from '../store/db';
import type { Turn } from '../transcript/schema';
import { answer, createTestBackground, NOW, OPENAI } from './background.test-helper';
import type { SendEngine } from './send/engine';

const user = (id: string, text: string, extra: Turn['blocks'] = []): Turn => ({
  id,
  role: 'user',
  blocks: [...extra, { type: 'text', text }],
});

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The shared background (an OpenAI key unless `key: false`) whose handlers use a recording stub engine. */
async function setup(opts: { key?: boolean; busy?: boolean } = {}) {
  const calls = {
    retry: [] as unknown[],
    send: [] as { conversationId: string; text: string; target: SendTarget; attachments?: Attachment[] }[],
  };
  const engine = {
    isBusy: () => opts.busy === true,
    retry: async (p: unknown) => void calls.retry.push(p),
    send: async (p: (typeof calls.send)[number]) => {
      calls.send.push(p);
      return { userTurnId: 'u-new' };
    },
    stop: () => undefined,
    settled: async () => undefined,
  } as unknown as SendEngine;
  const bg = await createTestBackground(undefined, {
    name: 'handlers',
    sendEngine: engine,
    ...(opts.key !== false ? { keys: { openai: 'sk-test-key-0123456789' } } : {}),
  });
  db = bg.db;
  return { h: bg.h, store: bg.store, calls };
}

const ids = async (store: ConversationStore) => (await store.get('c1')).turns.map((t) => t.id);

describe('regenerateTurn', () => {
  it('asks the engine to regenerate (it removes the last answer once the send is accepted), with the confirmation flag', async () => {
    const { h, store, calls } = await setup();
    for (const t of [user('u1', 'a'), answer('a1', 'b'), user('u2', 'c'), answer('a2', 'd')])
      await store.appendTurn('c1', t, NOW);
    expect(await h.regenerateTurn({ conversationId: 'c1', target: OPENAI }, 'extension')).toBeNull();
    expect(
      await h.regenerateTurn({ conversationId: 'c1', target: OPENAI, confirmedDisclosure: true }, 'extension'),
    ).toBeNull();
    expect(await ids(store)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(calls.retry).toEqual([
      { conversationId: 'c1', target: OPENAI, kind: 'regenerate', confirmed: false },
      { conversationId: 'c1', target: OPENAI, kind: 'regenerate', confirmed: true },
    ]);
  });

  it('removes nothing when the send cannot start (no key, busy), and refuses a conversation with no message', async () => {
    const noKey = await setup({ key: false });
    for (const t of [user('u1', 'a'), answer('a1', 'b')]) await noKey.store.appendTurn('c1', t, NOW);
    await expect(noKey.h.regenerateTurn({ conversationId: 'c1', target: OPENAI }, 'extension')).rejects.toMatchObject({
      code: 'no_key',
    });
    expect(await ids(noKey.store)).toEqual(['u1', 'a1']);
    expect(noKey.calls.retry).toEqual([]);

    const busy = await setup({ busy: true });
    for (const t of [user('u1', 'a'), answer('a1', 'b')]) await busy.store.appendTurn('c1', t, NOW);
    await expect(busy.h.regenerateTurn({ conversationId: 'c1', target: OPENAI }, 'extension')).rejects.toMatchObject({
      code: 'busy',
    });
    expect(await ids(busy.store)).toEqual(['u1', 'a1']);

    const empty = await setup();
    await expect(empty.h.regenerateTurn({ conversationId: 'c1', target: OPENAI }, 'extension')).rejects.toMatchObject({
      code: 'bad_request',
    });
    await expect(empty.h.regenerateTurn({ conversationId: 'gone', target: OPENAI }, 'extension')).rejects.toMatchObject(
      { code: 'not_found' },
    );
  });
});

describe('editAndResend', () => {
  it('sends the new text in place of the last user turn (replaceFrom), with its attachments again and the confirmation flag', async () => {
    const { h, store, calls } = await setup();
    const image = { type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' };
    const doc = { type: 'document' as const, mediaType: 'application/pdf', data: 'JVBERi0=', title: 'spec.pdf' };
    for (const t of [user('u1', 'a'), answer('a1', 'b'), user('u2', 'old text', [image, doc]), answer('a2', 'd')])
      await store.appendTurn('c1', t, NOW);
    expect(
      await h.editAndResend(
        { conversationId: 'c1', turnId: 'u2', text: 'new text', target: OPENAI, confirmedDisclosure: true },
        'extension',
      ),
    ).toEqual({ userTurnId: 'u-new' });
    // The engine removes the replaced turns only once it accepts the send (a stub here).
    expect(await ids(store)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(calls.send).toEqual([
      {
        conversationId: 'c1',
        text: 'new text',
        target: OPENAI,
        attachments: [
          { kind: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { kind: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', name: 'spec.pdf' },
        ],
        confirmed: true,
        replaceFrom: 'u2',
      },
    ]);
  });

  it('refuses to edit an answer, an empty text or without a key, and removes nothing', async () => {
    const { h, store, calls } = await setup();
    for (const t of [user('u1', 'a'), answer('a1', 'b'), user('u2', 'c')]) await store.appendTurn('c1', t, NOW);
    await expect(
      h.editAndResend({ conversationId: 'c1', turnId: 'a1', text: 'x', target: OPENAI }, 'extension'),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      h.editAndResend({ conversationId: 'c1', turnId: 'u2', text: '  ', target: OPENAI }, 'extension'),
    ).rejects.toMatchObject({ code: 'bad_request' });
    await expect(
      h.editAndResend(
        {
          conversationId: 'c1',
          turnId: 'u2',
          text: 'x',
          target: { providerId: 'anthropic', model: 'claude-sonnet-4-6' },
        },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'no_key' });
    expect(await ids(store)).toEqual(['u1', 'a1', 'u2']);
    expect(calls.send).toEqual([]);
  });
});

describe('pinConversation and getModelInfo', () => {
  it('pins and unpins; pinned conversations list first', async () => {
    const { h, store } = await setup();
    await store.create({ id: 'c2', now: '2026-12-01T00:00:00.000Z' });
    expect(await h.pinConversation({ id: 'c1', pinned: true }, 'extension')).toMatchObject({ id: 'c1', pinned: true });
    expect((await h.listConversations({}, 'extension')).map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(await h.pinConversation({ id: 'c1', pinned: false }, 'extension')).toMatchObject({
      id: 'c1',
      pinned: false,
    });
    expect((await h.listConversations({}, 'extension')).map((c) => c.id)).toEqual(['c2', 'c1']);
    await expect(h.pinConversation({ id: 'gone', pinned: true }, 'extension')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('reports what a model accepts, from the registry', async () => {
    const { h } = await setup();
    const claude = await h.getModelInfo({ providerId: 'anthropic', model: 'claude-sonnet-4-5' }, 'extension');
    expect(claude).toMatchObject({ vision: true, pdf: true, known: true });
    expect(claude.contextWindow).toBeGreaterThanOrEqual(200_000);
    const unknown = await h.getModelInfo({ providerId: 'openai', model: 'no-such-model-xyz' }, 'extension');
    expect(unknown.known).toBe(false);
    expect(Object.keys(unknown).sort()).toEqual(['contextWindow', 'known', 'pdf', 'vision']);
  });
});

describe('on-device answers (startOnDevice, saveOnDeviceAnswer)', () => {
  it('stores the user turn and an empty on-device answer, and returns the Prompt API input', async () => {
    const { h, store } = await setup({ key: false });
    await store.appendTurn('c1', user('u1', 'Hi'), NOW);
    await store.appendTurn('c1', answer('a1', 'Hello!'), NOW);
    const r = await h.startOnDevice({ conversationId: 'c1', text: 'Summarise this chat' }, 'extension');
    expect(r.userTurn).toMatchObject({ role: 'user', blocks: [{ type: 'text', text: 'Summarise this chat' }] });
    expect(r.answerTurn).toMatchObject({
      role: 'assistant',
      status: 'streaming',
      blocks: [],
      origin: { provider: 'chrome', api: 'chrome-prompt', model: 'gemini-nano' },
    });
    expect(r.body).toEqual({
      initialPrompts: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
      ],
      prompt: 'Summarise this chat',
    });
    expect(r.warnings).toEqual([]);
    expect(r.meta.turnCount).toBe(4);
    expect(await ids(store)).toEqual(['u1', 'a1', r.userTurn.id, r.answerTurn.id]);
  });

  it('checkpoints and finishes only an on-device answer', async () => {
    const { h, store } = await setup({ key: false });
    await store.appendTurn('c1', answer('a1', 'from OpenAI'), NOW);
    const { answerTurn } = await h.startOnDevice({ conversationId: 'c1', text: 'Go' }, 'extension');
    await h.saveOnDeviceAnswer(
      { conversationId: 'c1', turnId: answerTurn.id, text: 'Partial', status: 'streaming' },
      'extension',
    );
    const meta = await h.saveOnDeviceAnswer(
      { conversationId: 'c1', turnId: answerTurn.id, text: 'Partial and done.', status: 'complete' },
      'extension',
    );
    expect(meta.preview).toBe('Partial and done.');
    const stored = (await store.get('c1')).turns.find((t) => t.id === answerTurn.id)!;
    expect(stored).toMatchObject({ status: 'complete', blocks: [{ type: 'text', text: 'Partial and done.' }] });
    await h.saveOnDeviceAnswer(
      {
        conversationId: 'c1',
        turnId: answerTurn.id,
        text: '',
        status: 'error',
        error: 'NotSupportedError: model unavailable',
      },
      'extension',
    );
    expect((await store.get('c1')).turns.find((t) => t.id === answerTurn.id)).toMatchObject({
      status: 'error',
      blocks: [],
      error: { type: 'provider_error', message: 'NotSupportedError: model unavailable' },
    });
    // a provider's answer, or a missing turn, cannot be written this way
    await expect(
      h.saveOnDeviceAnswer({ conversationId: 'c1', turnId: 'a1', text: 'forged', status: 'complete' }, 'extension'),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      h.saveOnDeviceAnswer({ conversationId: 'c1', turnId: 'nope', text: 'x', status: 'complete' }, 'extension'),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await store.get('c1')).turns[0]).toEqual(answer('a1', 'from OpenAI'));
  });

  it('refuses while a provider answer streams, and for a missing conversation', async () => {
    const busy = await setup({ busy: true });
    await expect(busy.h.startOnDevice({ conversationId: 'c1', text: 'x' }, 'extension')).rejects.toMatchObject({
      code: 'busy',
    });
    expect(await ids(busy.store)).toEqual([]);
    const free = await setup();
    await expect(free.h.startOnDevice({ conversationId: 'gone', text: 'x' }, 'extension')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
