/**
 * docs/disclosure.md, the first-disclosure confirmation on retry, regenerate and edit-and-resend: refused
 * without `confirmedDisclosure` when the provider has not received the conversation (zero
 * transport calls, zero store writes), accepted with it, not asked when the provider already
 * received it; the preview of each is the body then sent. Real stores over fake-indexeddb, the
 * real SDK transports and the fake providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendTarget } from '../../messaging/protocol';
import type { ConversationStore } from '../../store/conversations';
import type { BatonDb } from '../../store/db';
import {
  answer,
  ANTHROPIC,
  createTestBackground,
  fakeProvidersForFile,
  NOW,
  OPENAI,
  user,
  turnRecords,
} from '../background.test-helper';
import type { Turn } from '../../transcript/schema';
import type { createHandlers } from '../handlers';
import { planResend, retryNewTurnId } from './resend';
import { sdkTransport } from '../core/sdk-transport';
import type { Transport } from '../core/transport';

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

async function setup() {
  const transportCalls: string[] = [];
  const transport: Transport = {
    ...sdkTransport,
    streamRequest: (conn, body, opts) => {
      transportCalls.push(conn.providerId);
      return sdkTransport.streamRequest(conn, body, opts);
    },
  };
  const bg = await createTestBackground(fake, { name: 'resend', transport });
  db = bg.db;
  const { store, engine, h } = bg;
  /** A conversation answered by OpenAI (its ledger says so), ending with `last`. */
  const withOpenAi = async (last?: Turn) => {
    fake.enqueue('openai-responses', { kind: 'text', text: 'Hello from OpenAI.' });
    await h.sendMessage({ conversationId: 'c1', text: 'Remember 42.', target: OPENAI }, 'extension');
    await engine.settled('c1');
    await store.appendTurn('c1', user('u2', 'Which number?'), NOW);
    if (last) await store.appendTurn('c1', last, NOW);
    fake.reset();
    transportCalls.length = 0;
  };
  return { store, engine, h, transportCalls, withOpenAi };
}

/** Every record of every store: "zero store writes" is this, unchanged. */
const dump = async () => ({
  conversations: await db.getAll('conversations'),
  turns: await turnRecords(db),
  disclosures: await db.getAll('disclosures'),
  settings: await db.getAll('settings'),
});
const posts = () => fake.requests.filter((r) => r.method === 'POST');
const EDITED = 'Which number, Claude?';
const ids = async (store: ConversationStore) => (await store.get('c1')).turns.map((t) => t.id);

describe('a first disclosure on retry, regenerate or edit needs confirmation (docs/disclosure.md)', () => {
  type H = ReturnType<typeof createHandlers>;
  const flag = (confirmedDisclosure?: boolean) => (confirmedDisclosure ? { confirmedDisclosure } : {});
  const cases = [
    {
      name: 'retryTurn',
      last: answer('a2', 'Part', 'interrupted'),
      kept: ['t1', 't2', 'u2'],
      resend: { kind: 'retry' as const },
      call: (h: H, target: SendTarget, c?: boolean) =>
        h.retryTurn({ conversationId: 'c1', target, ...flag(c) }, 'extension'),
    },
    {
      name: 'regenerateTurn',
      last: answer('a2', 'It was 42.'),
      kept: ['t1', 't2', 'u2'],
      resend: { kind: 'regenerate' as const },
      call: (h: H, target: SendTarget, c?: boolean) =>
        h.regenerateTurn({ conversationId: 'c1', target, ...flag(c) }, 'extension'),
    },
    {
      name: 'editAndResend',
      last: answer('a2', 'It was 42.'),
      kept: ['t1', 't2'],
      resend: { kind: 'edit' as const, turnId: 'u2' },
      call: (h: H, target: SendTarget, c?: boolean) =>
        h.editAndResend({ conversationId: 'c1', turnId: 'u2', text: EDITED, target, ...flag(c) }, 'extension'),
    },
  ];
  const previewOf = (h: H, target: SendTarget, c: (typeof cases)[number]) =>
    h.previewSend(
      { conversationId: 'c1', target, resend: c.resend, ...(c.resend.kind === 'edit' ? { text: EDITED } : {}) },
      'extension',
    );

  for (const c of cases) {
    it(`${c.name}: refused without confirmation (zero transport calls, zero store writes); accepted with it, the body as previewed`, async () => {
      const { store, engine, h, transportCalls, withOpenAi } = await setup();
      await withOpenAi(c.last);
      const before = await dump();
      await expect(c.call(h, ANTHROPIC)).rejects.toMatchObject({
        code: 'confirmation_required',
        message: expect.stringContaining('anthropic'),
      });
      await engine.settled('c1');
      expect(transportCalls).toEqual([]);
      expect(posts()).toEqual([]);
      expect(await dump()).toEqual(before);

      const preview = await previewOf(h, ANTHROPIC, c);
      expect(preview.needsConfirmation).toBe(true);
      fake.enqueue('anthropic-messages', { kind: 'text', text: 'It was 42, says Claude.' });
      await c.call(h, ANTHROPIC, true);
      await engine.settled('c1');
      expect(transportCalls).toEqual(['anthropic']);
      expect(posts()[0]!.body).toEqual(preview.body);
      const turns = (await store.get('c1')).turns;
      expect(turns.slice(0, c.kept.length).map((t) => t.id)).toEqual(c.kept);
      expect(turns.slice(c.kept.length).map((t) => [t.role, t.status ?? 'complete'])).toEqual(
        c.resend.kind === 'edit'
          ? [
              ['user', 'complete'],
              ['assistant', 'complete'],
            ]
          : [['assistant', 'complete']],
      );
      expect(turns.at(-1)!.origin?.provider).toBe('anthropic');
      const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
      expect(ledger.seenBy.map((s) => s.providerId)).toEqual(['openai', 'anthropic']);
    });

    it(`${c.name}: no confirmation when the provider already received the conversation`, async () => {
      const { engine, h, transportCalls, withOpenAi } = await setup();
      await withOpenAi(c.last);
      const preview = await previewOf(h, OPENAI, c);
      expect(preview.needsConfirmation).toBe(false);
      fake.enqueue('openai-responses', { kind: 'text', text: 'Again from OpenAI.' });
      await c.call(h, OPENAI);
      await engine.settled('c1');
      expect(transportCalls).toEqual(['openai']);
      expect(posts()[0]!.body).toEqual(preview.body);
    });
  }

  it('a retry of an unanswered first message needs no confirmation to the provider it was sent to, but a regenerate of an answered one does', async () => {
    const { store, engine, h, transportCalls } = await setup();
    // As a send to Anthropic stores it (lastTarget), its answer cut before any ledger record.
    await store.appendTurn('c1', user('u1', 'Hi'), NOW, { lastTarget: ANTHROPIC });
    await store.appendTurn('c1', answer('a1', 'Cut', 'error'), NOW);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Hello.' });
    await h.retryTurn({ conversationId: 'c1', target: ANTHROPIC }, 'extension');
    await engine.settled('c1');
    expect(transportCalls).toEqual(['anthropic']);
    const before = await dump();
    await expect(h.regenerateTurn({ conversationId: 'c1', target: OPENAI }, 'extension')).rejects.toMatchObject({
      code: 'confirmation_required',
    });
    expect(await dump()).toEqual(before);
    expect(await ids(store)).toEqual(['u1', 't1']);
  });
});

describe('a retry of an unanswered last message to a provider that never got it (docs/disclosure.md)', () => {
  /** A brand-new conversation whose first message went to `sentTo` and whose answer was cut by a worker stop (no ledger record). */
  const diedOnFirst = async (store: ConversationStore, sentTo: SendTarget) => {
    await store.appendTurn('c1', user('u1', 'My first message.'), NOW, { lastTarget: sentTo });
    await store.appendTurn('c1', answer('a1', 'Cut', 'interrupted'), NOW);
  };
  const retryPreview = (h: ReturnType<typeof createHandlers>, target: SendTarget) =>
    h.previewSend({ conversationId: 'c1', target, resend: { kind: 'retry' } }, 'extension');

  it('sent to OpenAI, the worker died: Retry with Anthropic asks first (nothing sent or removed); Retry with OpenAI does not', async () => {
    const { store, engine, h, transportCalls } = await setup();
    await diedOnFirst(store, OPENAI);
    const before = await dump();
    expect((await retryPreview(h, ANTHROPIC)).needsConfirmation).toBe(true);
    await expect(h.retryTurn({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).rejects.toMatchObject({
      code: 'confirmation_required',
      message: expect.stringContaining('anthropic'),
    });
    expect(transportCalls).toEqual([]);
    expect(await dump()).toEqual(before);

    const preview = await retryPreview(h, OPENAI);
    expect(preview.needsConfirmation).toBe(false);
    fake.enqueue('openai-responses', { kind: 'text', text: 'Hello.' });
    await h.retryTurn({ conversationId: 'c1', target: OPENAI }, 'extension');
    await engine.settled('c1');
    expect(transportCalls).toEqual(['openai']);
    expect(posts()[0]!.body).toEqual(preview.body);
  });

  it('Retry with Anthropic confirmed sends it there, and the ledger then lists Anthropic for that turn', async () => {
    const { store, engine, h, transportCalls } = await setup();
    await diedOnFirst(store, OPENAI);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Hello from Claude.' });
    await h.retryTurn({ conversationId: 'c1', target: ANTHROPIC, confirmedDisclosure: true }, 'extension');
    await engine.settled('c1');
    expect(transportCalls).toEqual(['anthropic']);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.seenBy.map((s) => s.providerId)).toEqual(['anthropic']);
    expect(ledger.turns['u1']).toEqual([0]);
  });

  it('sent to OpenAI and failed (a failed ledger record carries it): Retry with OpenAI goes, with Anthropic asks', async () => {
    const { store, engine, h, transportCalls } = await setup();
    fake.enqueue('openai-responses', {
      kind: 'error',
      status: 400,
      body: { error: { message: 'bad request', type: 'invalid_request_error' } },
    });
    await h.sendMessage({ conversationId: 'c1', text: 'My first message.', target: OPENAI }, 'extension');
    await engine.settled('c1');
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries.map((e) => [e.providerId, e.status])).toEqual([['openai', 'failed']]);
    expect((await store.get('c1')).turns.map((t) => t.status ?? 'complete')).toEqual(['complete', 'error']);
    transportCalls.length = 0;
    await expect(h.retryTurn({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).rejects.toMatchObject({
      code: 'confirmation_required',
    });
    expect((await retryPreview(h, ANTHROPIC)).needsConfirmation).toBe(true);
    expect((await retryPreview(h, OPENAI)).needsConfirmation).toBe(false);
    fake.enqueue('openai-responses', { kind: 'text', text: 'Hello.' });
    await h.retryTurn({ conversationId: 'c1', target: OPENAI }, 'extension');
    await engine.settled('c1');
    expect(transportCalls).toEqual(['openai']);
  });

  it("a captured selection (not written in Baton) is not the person's new message: its Retry asks even for the chosen provider", async () => {
    const { store, h } = await setup();
    await store.create({ id: 'cap', now: NOW, source: { kind: 'web-selection' }, lastTarget: ANTHROPIC });
    await store.appendTurn('cap', user('s1', 'Selected text from a page'), NOW);
    await expect(h.retryTurn({ conversationId: 'cap', target: ANTHROPIC }, 'extension')).rejects.toMatchObject({
      code: 'confirmation_required',
    });
    expect(posts()).toEqual([]);
  });

  it('retryNewTurnId: new for a provider whose record carries it, or for the picked provider when no record carries it', () => {
    const plan = { newTurnId: 'u1' };
    const openai = { providerId: 'openai', origin: 'https://api.openai.com' };
    const anthropic = { providerId: 'anthropic', origin: 'https://api.anthropic.com' };
    const record = (p: typeof openai, turns: string[]) => ({
      providerId: p.providerId,
      endpoint: p.origin,
      turns: turns.map((id): [string, string] => [id, 'h']),
    });
    const picked = { lastTarget: OPENAI };
    expect(retryNewTurnId({}, openai, [], picked)).toBeUndefined();
    expect(retryNewTurnId(plan, openai, [], picked)).toBe('u1');
    expect(retryNewTurnId(plan, anthropic, [], picked)).toBeUndefined();
    expect(retryNewTurnId(plan, openai, [], { ...picked, source: { kind: 'chatgpt' } })).toBeUndefined();
    expect(retryNewTurnId(plan, anthropic, [record(anthropic, ['u1'])], picked)).toBe('u1');
    // Another provider's record carries it: the picked provider is not assumed to have it.
    expect(retryNewTurnId(plan, openai, [record(anthropic, ['u1'])], picked)).toBeUndefined();
    // The same provider id at another origin is another provider.
    expect(
      retryNewTurnId(plan, anthropic, [record({ ...anthropic, origin: 'https://proxy.example' }, ['u1'])], {}),
    ).toBeUndefined();
    expect(retryNewTurnId(plan, anthropic, [record(anthropic, ['u0'])], {})).toBeUndefined();
  });
});

describe('planResend', () => {
  const turns = [user('u1', 'a'), answer('a1', 'b'), user('u2', 'c'), answer('a2', 'd', 'stopped')];
  it('keeps what each action keeps, removes the rest, and names the turn that counts as new', () => {
    expect(planResend(turns, { kind: 'retry' })).toEqual({
      kept: turns.slice(0, 3),
      removeFrom: 'a2',
      newTurnId: 'u2',
    });
    expect(planResend(turns.slice(0, 3), { kind: 'retry' })).toEqual({
      kept: turns.slice(0, 3),
      removeFrom: undefined,
      newTurnId: 'u2',
    });
    expect(planResend(turns, { kind: 'regenerate' })).toEqual({ kept: turns.slice(0, 3), removeFrom: 'a2' });
    expect(planResend(turns, { kind: 'edit', turnId: 'u2' })).toEqual({ kept: turns.slice(0, 2), removeFrom: 'u2' });
    // Any user turn can be edited (docs/transcript.md#versions-and-branches): the path up to it is kept.
    expect(planResend(turns, { kind: 'edit', turnId: 'u1' })).toEqual({ kept: [], removeFrom: 'u1' });
  });
  it('refuses what cannot be resent', () => {
    expect(() => planResend([], { kind: 'retry' })).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(() => planResend(turns.slice(0, 2), { kind: 'retry' })).toThrow(
      expect.objectContaining({ code: 'bad_request', message: expect.stringContaining('completed') }),
    );
    expect(() => planResend([answer('a0', 'x')], { kind: 'regenerate' })).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
    expect(() => planResend(turns, { kind: 'edit', turnId: 'a1' })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });
});
