/**
 * docs/side-panel.md#ask-several-models-at-once through the background: one message to several
 * targets is one user turn answered by each target in parallel, the answers siblings of one
 * assistant turn; each first disclosure is confirmed on its own; a target that cannot go drops
 * out with its reason; Stop stops them all; choosing a version makes the next body carry it only.
 * Real stores over fake-indexeddb, the real SDK transports and the fake providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import type { Turn } from '../../transcript/schema';
import { ANTHROPIC, createTestBackground, fakeProvidersForFile, OPENAI } from '../background.test-helper';
import { ConversationStore } from '../../store/conversations';
import { openBatonDb } from '../../store/db';
import { SettingsStore } from '../../store/settings';
import { SendEngine } from './engine';
import { sdkTransport } from '../core/sdk-transport';
import type { SendDeps } from '../core/deps';
import { RETRY_ALARM_PREFIX, RetryAlarms, sessionPendingStore } from './retry-alarm';

const fake = fakeProvidersForFile();
let db: BatonDb;
afterEach(() => db?.close());

const posts = () => fake.requests.filter((r) => r.method === 'POST');
const textOf = (t: Turn) => t.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
const GOOGLE = { providerId: 'google', model: 'gemini-2.5-flash' } as const;

async function setup(providers?: readonly ('openai' | 'anthropic' | 'google')[], engine?: Partial<SendDeps>) {
  const bg = await createTestBackground(fake, {
    name: 'compare',
    ...(providers ? { providers } : {}),
    ...(engine ? { engine } : {}),
  });
  db = bg.db;
  return bg;
}

type Handlers = Awaited<ReturnType<typeof setup>>['h'];

/** `sendCompare` of `text` in conversation c1 to OpenAI and Anthropic, both disclosures confirmed. */
const askBoth = (h: Handlers, text: string) =>
  h.sendCompare(
    {
      conversationId: 'c1',
      text,
      targets: [
        { target: OPENAI, confirmedDisclosure: true },
        { target: ANTHROPIC, confirmedDisclosure: true },
      ],
    },
    'extension',
  );

/** The same scripted answer from both fake providers, OpenAI's first. */
const enqueueBoth = (source: Parameters<typeof fake.enqueue>[1]) => {
  fake.enqueue('openai-responses', source);
  fake.enqueue('anthropic-messages', source);
};

describe('ask several models at once', () => {
  it('stores one user turn and two answers as versions of one turn; the first target is active; the next body carries the chosen one only', async () => {
    const { h, engine, store } = await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'OPENAI-SAYS-7' });
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'CLAUDE-SAYS-9' });
    const out = await h.sendCompare(
      {
        conversationId: 'c1',
        text: 'Pick a number.',
        targets: [
          { target: OPENAI, confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: fake.url } },
          { target: ANTHROPIC, confirmedDisclosure: true, confirmedFor: { providerId: 'anthropic', origin: fake.url } },
        ],
      },
      'extension',
    );
    await engine.settled('c1');
    expect(out.dropped).toEqual([]);
    expect(out.answers.map((a) => a.target.providerId)).toEqual(['openai', 'anthropic']);
    // Each provider got the message once, natively, and neither saw the other's answer.
    expect(posts()).toHaveLength(2);
    for (const p of posts()) expect(JSON.stringify(p.body)).not.toMatch(/SAYS/);

    const { tree } = await store.toTranscriptTree('c1');
    const userRec = tree.turns.find((t) => t.turn.id === out.userTurnId)!;
    const answers = tree.turns.filter((t) => t.parentId === out.userTurnId);
    expect(userRec.turn.role).toBe('user');
    expect(answers.map((a) => [a.turn.id, textOf(a.turn), a.turn.status])).toEqual([
      [out.answers[0]!.turnId, 'OPENAI-SAYS-7', 'complete'],
      [out.answers[1]!.turnId, 'CLAUDE-SAYS-9', 'complete'],
    ]);
    // The active path: the first target's answer, with its version label.
    const view = await h.getConversation({ id: 'c1' }, 'extension');
    expect(view.turns.map(textOf)).toEqual(['Pick a number.', 'OPENAI-SAYS-7']);
    expect(view.versions?.[out.answers[0]!.turnId]).toMatchObject({ index: 1, count: 2 });
    // One ledger record per provider.
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(JSON.stringify(ledger)).toContain('anthropic');
    expect(JSON.stringify(ledger)).toContain('openai');

    // Until one is picked, the answers are stored as compared side by side (a reload shows them so again).
    expect(await h.getCompare({ conversationId: 'c1' }, 'extension')).toEqual({
      userTurnId: out.userTurnId,
      answers: [
        expect.objectContaining({ id: out.answers[0]!.turnId }),
        expect.objectContaining({ id: out.answers[1]!.turnId }),
      ],
    });
    // Continue with Claude's answer: the next request to Anthropic carries it, and not OpenAI's.
    await h.selectVersion({ conversationId: 'c1', turnId: out.answers[1]!.turnId }, 'extension');
    await h.endCompare({ conversationId: 'c1' }, 'extension');
    expect(await h.getCompare({ conversationId: 'c1' }, 'extension')).toBeNull();
    fake.reset();
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Fine.' });
    await h.sendMessage({ conversationId: 'c1', text: 'Why?', target: ANTHROPIC }, 'extension');
    await engine.settled('c1');
    const body = JSON.stringify(posts()[0]!.body);
    expect(body).toContain('CLAUDE-SAYS-9');
    expect(body).not.toContain('OPENAI-SAYS-7');
  });

  it('each first disclosure needs its own confirmation: an unconfirmed target drops out with its reason, the other goes', async () => {
    const { h, engine, store } = await setup();
    // The conversation so far went to Gemini only: OpenAI and Anthropic would both receive it for the first time.
    fake.enqueue('gemini-generate-content', { kind: 'text', text: 'Earlier.' });
    await h.sendMessage(
      { conversationId: 'c1', text: 'Before', target: GOOGLE, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    fake.reset();
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Only Claude.' });
    const out = await h.sendCompare(
      {
        conversationId: 'c1',
        text: 'Hello',
        targets: [
          // Confirmed for Anthropic only: it does not authorise OpenAI.
          { target: OPENAI, confirmedDisclosure: true, confirmedFor: { providerId: 'anthropic', origin: fake.url } },
          { target: ANTHROPIC, confirmedDisclosure: true, confirmedFor: { providerId: 'anthropic', origin: fake.url } },
        ],
      },
      'extension',
    );
    await engine.settled('c1');
    expect(out.dropped).toHaveLength(1);
    expect(out.dropped[0]!.target).toEqual(OPENAI);
    expect(out.dropped[0]!.error.code).toBe('confirmation_required');
    expect(posts().map((p) => p.api)).toEqual(['anthropic-messages']);
    expect((await store.get('c1')).turns.map(textOf)).toEqual(['Before', 'Earlier.', 'Hello', 'Only Claude.']);
  });

  it('a target without a key drops out; when none can go nothing is stored', async () => {
    const { h, store } = await setup(['openai']);
    await expect(
      h.sendCompare(
        { conversationId: 'c1', text: 'Hi', targets: [{ target: ANTHROPIC }, { target: GOOGLE }] },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'no_key' });
    expect((await store.get('c1')).turns).toEqual([]);
    expect(posts()).toEqual([]);
  });

  it('L5 Stop stops every answer; each keeps its partial text as stopped, as a version of the same turn', async () => {
    const { h, engine, store, events } = await setup();
    const chunks = Array.from({ length: 40 }, (_, i) => `w${i} `);
    enqueueBoth({ kind: 'text', text: chunks.join(''), chunks, delayMs: 40 });
    const out = await askBoth(h, 'Count.');
    const streaming = () =>
      new Set(events.flatMap((e) => (e.type === 'textDelta' && e.text.length > 0 ? [e.turnId] : []))).size;
    while (streaming() < 2) await new Promise((r) => setTimeout(r, 10));
    // Busy for the whole compare: a second send is refused.
    await expect(
      h.sendMessage({ conversationId: 'c1', text: 'x', target: OPENAI, confirmedDisclosure: true }, 'extension'),
    ).rejects.toMatchObject({ code: 'busy' });
    await h.stopGeneration({ conversationId: 'c1' }, 'extension');
    await engine.settled('c1');
    await fake.waitForDisconnects(2);
    const { tree } = await store.toTranscriptTree('c1');
    const answers = tree.turns.filter((t) => t.parentId === out.userTurnId).map((t) => t.turn);
    expect(answers.map((t) => t.status)).toEqual(['stopped', 'stopped']);
    for (const t of answers) expect(chunks.join('').startsWith(textOf(t))).toBe(true);
    // Only the group's end said idle.
    expect(events.filter((e) => e.type === 'sendStateChanged' && e.state === 'idle')).toHaveLength(1);
  });

  it('L2 a worker that dies mid-compare leaves every answer interrupted, with its checkpointed text, on restart', async () => {
    const { h, engine, store } = await setup(undefined, { checkpointMs: 100 });
    const chunks = Array.from({ length: 30 }, (_, i) => `c${i} `);
    const stall = {
      kind: 'stall',
      ms: 10_000,
      afterEvents: 20,
      source: { kind: 'text', text: chunks.join(''), chunks },
    } as const;
    enqueueBoth(stall);
    const out = await askBoth(h, 'Count.');
    const ids = out.answers.map((a) => a.turnId);
    const stored = async () => {
      const { tree } = await store.toTranscriptTree('c1');
      return ids.map((id) => tree.turns.find((t) => t.turn.id === id)?.turn);
    };
    for (let i = 0; i < 200; i++) {
      if ((await stored()).every((t) => t && textOf(t).length > 0)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const before = await stored();
    expect(before.map((t) => t?.status)).toEqual(['streaming', 'streaming']);
    // The worker "dies": its database connection goes away, so it can write nothing more.
    db.close();
    engine.stop('c1');
    await engine.settled('c1');
    const restarted = new ConversationStore(await openBatonDb(db.name));
    const fixed = await restarted.recoverStreaming(new Date().toISOString());
    expect(fixed.map((f) => f.turnId).sort()).toEqual([...ids].sort());
    const { tree } = await restarted.toTranscriptTree('c1');
    for (const [i, id] of ids.entries()) {
      const t = tree.turns.find((x) => x.turn.id === id)!;
      expect(t.parentId).toBe(out.userTurnId);
      expect(t.turn.status).toBe('interrupted');
      expect(textOf(t.turn).startsWith(textOf(before[i]!))).toBe(true);
    }
    // The active path still ends at the first target's answer.
    expect((await restarted.get('c1')).turns.at(-1)!.id).toBe(ids[0]);
    restarted.db.close();
  });

  it('a compare is stateless even when the conversation allows server-side state: nothing stored, no receipt overwritten; the next send chains from the receipt before it', async () => {
    const { h, engine } = await setup();
    const GI = { providerId: 'google', model: 'gemini-3.8-flash', api: 'gemini-interactions' } as const;
    await h.setDisclosurePolicy({ conversationId: 'c1', policy: { delivery: 'stateful' } }, 'extension');
    fake.enqueue('gemini-interactions', { kind: 'text', text: 're: one' });
    await h.sendMessage({ conversationId: 'c1', text: 'one', target: GI, confirmedDisclosure: true }, 'extension');
    await engine.settled('c1');
    const firstId = (await h.listDisclosures({ conversationId: 'c1' }, 'extension')).entries[0]!.responseId;
    expect(firstId).toMatch(/^v1_/);
    // The preview of each compare target is planned stateless, as the compare sends it.
    const preview = await h.previewSend({ conversationId: 'c1', target: GI, text: 'two', compare: true }, 'extension');
    expect(preview.delivery).toMatchObject({ mode: 'snapshot' });
    expect(preview.delivery.detail).toMatch(/several models/);
    expect(preview.body.store).toBe(false);
    fake.reset();
    fake.enqueue('gemini-interactions', { kind: 'text', text: 'GI-TWO' });
    fake.enqueue('openai-responses', { kind: 'text', text: 'OPENAI-TWO' });
    const out = await h.sendCompare(
      {
        conversationId: 'c1',
        text: 'two',
        targets: [{ target: GI }, { target: OPENAI, confirmedDisclosure: true }],
      },
      'extension',
    );
    await engine.settled('c1');
    expect(out.dropped).toEqual([]);
    const sent = posts();
    expect(sent).toHaveLength(2);
    for (const p of sent) {
      const body = p.body as Record<string, unknown>;
      expect(body.store).not.toBe(true);
      expect(body.previous_interaction_id).toBeUndefined();
      expect(body.previous_response_id).toBeUndefined();
    }
    expect(sent.find((p) => p.api === 'gemini-interactions')!.body).toEqual(preview.body);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries.map((e) => e.stored ?? false)).toEqual([true, false, false]);
    // Continue with Gemini's answer: the next send chains from the interaction stored before the compare.
    await h.selectVersion({ conversationId: 'c1', turnId: out.answers[0]!.turnId }, 'extension');
    fake.reset();
    fake.enqueue('gemini-interactions', { kind: 'text', text: 're: three' });
    await h.sendMessage({ conversationId: 'c1', text: 'three', target: GI }, 'extension');
    await engine.settled('c1');
    const next = posts()[0]!.body as Record<string, unknown>;
    expect(next.previous_interaction_id).toBe(firstId);
    expect(next.store).toBe(true);
    expect(JSON.stringify(next.input).match(/"text":"[^"]*"/g)).toEqual([
      '"text":"two"',
      '"text":"GI-TWO"',
      '"text":"three"',
    ]);
    // Anything sent after the compare ends its side-by-side view.
    expect(await h.getCompare({ conversationId: 'c1' }, 'extension')).toBeNull();
  });

  it('L4 a worker stopped while every answer of a compare waits to retry: the alarm retries each of them, as versions of the same turn', async () => {
    // Chrome's alarms and storage.session outlive the worker; the worker's own sleeps never end once it is stopped.
    const alarms = new Map<string, number>();
    const session = new Map<string, unknown>();
    const pending = sessionPendingStore({
      get: async (k) => (session.has(k) ? { [k]: structuredClone(session.get(k)) } : {}),
      set: async (items) => void Object.entries(items).forEach(([k, v]) => session.set(k, structuredClone(v))),
      remove: async (k) => void session.delete(k),
    });
    const T0 = Date.parse('2026-11-30T08:00:00.000Z');
    const alarmsApi = {
      create: (name: string, info: { when: number }) => void alarms.set(name, info.when),
      clear: async (name: string) => alarms.delete(name),
    };
    const dying = new RetryAlarms({
      alarms: alarmsApi,
      pending,
      clock: { now: () => T0, sleep: () => new Promise<void>(() => undefined) },
    });
    const { h, vault } = await setup(undefined, {
      answerRetrySleep: (c, turnId, t) => dying.answerSleeper(c, turnId, t),
    });
    const limited = { kind: 'error', status: 429, headers: { 'retry-after': '45' } } as const;
    enqueueBoth(limited);
    const out = await askBoth(h, 'Count.');
    const ids = out.answers.map((a) => a.turnId);
    for (let i = 0; i < 300; i++) {
      const p = (await pending.get('c1'))?.answers?.length ?? 0;
      if (p === 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // One record and one alarm for the conversation, listing both answers.
    const waiting = (await pending.get('c1'))!.answers!;
    expect(
      waiting
        .map((a) => [a.turnId, a.target])
        .sort((x, y) => ids.indexOf(x[0] as string) - ids.indexOf(y[0] as string)),
    ).toEqual([
      [ids[0], OPENAI],
      [ids[1], ANTHROPIC],
    ]);
    expect([...alarms.keys()]).toEqual([`${RETRY_ALARM_PREFIX}c1`]);
    expect(alarms.get(`${RETRY_ALARM_PREFIX}c1`)).toBe(T0 + 45_000);
    expect(posts()).toHaveLength(2);

    // The worker is stopped during the waits; a new one starts: both answers are interrupted (L2)…
    const restartedStore = new ConversationStore(db);
    const fixed = await restartedStore.recoverStreaming(new Date().toISOString());
    expect(fixed.map((f) => f.turnId).sort()).toEqual([...ids].sort());
    const restarted = new SendEngine({
      store: restartedStore,
      settings: new SettingsStore(db),
      vault,
      transport: sdkTransport,
      hasHostPermission: async () => true,
      clock: { now: () => T0 + 45_000, sleep: async () => undefined, setTimer: () => () => undefined },
      newId: (() => {
        let n = 0;
        return () => `r${++n}`;
      })(),
      broadcast: () => undefined,
      keepalive: { start: () => undefined, stop: () => undefined },
    });
    // …and the alarm rings: one retry of each answer, not only the first.
    fake.enqueue('openai-responses', { kind: 'text', text: 'OPENAI-AGAIN' });
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'CLAUDE-AGAIN' });
    const woke = new RetryAlarms({
      alarms: alarmsApi,
      pending,
      clock: { now: () => T0 + 45_000, sleep: async () => undefined },
    });
    const started = await woke.onAlarm(
      `${RETRY_ALARM_PREFIX}c1`,
      (id) => restarted.isBusy(id),
      (p) =>
        p.answers
          ? restarted.retryAnswers({ conversationId: p.conversationId, answers: p.answers })
          : restarted.retry(p),
    );
    expect(started).toBe(true);
    await restarted.settled('c1');
    expect(
      posts()
        .map((p) => p.api)
        .sort(),
    ).toEqual(['anthropic-messages', 'anthropic-messages', 'openai-responses', 'openai-responses']);
    expect(session.size).toBe(0);
    const { tree } = await restartedStore.toTranscriptTree('c1');
    const answers = tree.turns.filter((t) => t.parentId === out.userTurnId).map((t) => t.turn);
    // The interrupted placeholders are replaced by the retried answers, still versions of one turn.
    expect(answers.map((t) => [textOf(t), t.status, t.origin?.provider]).sort()).toEqual([
      ['CLAUDE-AGAIN', 'complete', 'anthropic'],
      ['OPENAI-AGAIN', 'complete', 'openai'],
    ]);
    // The first target's answer is the active one again.
    const path = (await restartedStore.get('c1')).turns;
    expect(path.map(textOf)).toEqual(['Count.', 'OPENAI-AGAIN']);
    // A second ring of the same alarm finds nothing to do.
    expect(
      await woke.onAlarm(
        `${RETRY_ALARM_PREFIX}c1`,
        () => false,
        async () => undefined,
      ),
    ).toBe(false);
  });
});
