/**
 * The send pipeline end to end in Node: real IndexedDB semantics (fake-indexeddb), the real SDK
 * transports, and the fake providers on 127.0.0.1 judging every request with the contract
 * validators (they answer 400 where the real API would).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONVERTER_CONTRACT_RULES } from '../../../test/contract';
import type { BackgroundEvent, SendTarget } from '../../messaging/protocol';
import { ConversationStore } from '../../store/conversations';
import { openBatonDb, type BatonDb } from '../../store/db';
import { SettingsStore } from '../../store/settings';
import type { Turn } from '../../transcript/schema';
import { Vault } from '../../vault/vault';
import type { SendDeps } from '../core/deps';
import { ANTHROPIC, createTestBackground, fakeProvidersForFile, OPENAI } from '../background.test-helper';
import type { SendEngine } from './engine';

const fake = fakeProvidersForFile();

let db: BatonDb;
let events: BackgroundEvent[];
let store: ConversationStore;
let engine: SendEngine;
let sleeps: number[];
let keepalive: { starts: number; stops: number };

const GOOGLE: SendTarget = { providerId: 'google', model: 'gemini-3-pro-preview' };

/**
 * The shared background, with the engine's clock on real time (the checkpoint test waits on it)
 * recording every retry sleep, and a keepalive that counts its starts and stops.
 */
async function setup(overrides: Partial<SendDeps> = {}) {
  sleeps = [];
  keepalive = { starts: 0, stops: 0 };
  const bg = await createTestBackground(fake, {
    name: 'send',
    engine: {
      clock: {
        now: () => Date.now(),
        sleep: async (ms) => void sleeps.push(ms),
        setTimer: (fn, ms) => {
          const t = setTimeout(fn, ms);
          return () => clearTimeout(t);
        },
      },
      keepalive: { start: () => keepalive.starts++, stop: () => keepalive.stops++ },
      ...overrides,
    },
  });
  ({ db, store, engine, events } = bg);
}

afterEach(() => db?.close());

async function say(text: string, target: SendTarget): Promise<Turn> {
  await engine.send({ conversationId: 'c1', text, target });
  await engine.settled('c1');
  const { turns } = await store.get('c1');
  return turns[turns.length - 1]!;
}
const textOf = (t: Turn) => t.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
const bodies = () => fake.requests.filter((r) => r.method === 'POST');

describe('switching providers mid-conversation', () => {
  it('OpenAI → Anthropic → Gemini → OpenAI: every request valid and native, the return replays OpenAI state', async () => {
    await setup();
    fake.enqueue('openai-responses', {
      kind: 'thinking',
      thinking: 'Plan the answer.',
      signature: 'enc-reasoning-1',
      text: 'Hello from OpenAI.',
    });
    const a1 = await say('Hi', OPENAI);
    expect(a1).toMatchObject({
      role: 'assistant',
      status: 'complete',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5', endpoint: new URL(fake.url).origin },
    });
    expect(textOf(a1)).toBe('Hello from OpenAI.');

    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Hello from Claude.' });
    const a2 = await say('And you?', ANTHROPIC);
    expect(a2.origin).toMatchObject({ provider: 'anthropic', api: 'anthropic-messages' });

    fake.enqueue('gemini-generate-content', { kind: 'text', text: 'Hello from Gemini.' });
    const a3 = await say('And you?', GOOGLE);
    expect(a3.origin).toMatchObject({ provider: 'google', api: 'gemini-generate-content' });

    fake.enqueue('openai-responses', { kind: 'text', text: 'Back on OpenAI.' });
    await say('Back to you.', OPENAI);

    const reqs = bodies();
    expect(reqs.map((r) => r.api)).toEqual([
      'openai-responses',
      'anthropic-messages',
      'gemini-generate-content',
      'openai-responses',
    ]);
    for (const r of reqs) expect(r.violations.filter((v) => !CONVERTER_CONTRACT_RULES.has(v.rule))).toEqual([]);
    for (const r of reqs) expect(r.keyViolations).toEqual([]);
    // Anthropic receives the earlier OpenAI answer as a native assistant message, its reasoning dropped (X3).
    expect((reqs[1]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello from OpenAI.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And you?' }] },
    ]);
    // Gemini: user/model contents.
    expect((reqs[2]!.body as { contents: { role: string }[] }).contents.map((c) => c.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
    // Back on OpenAI: its own reasoning item with encrypted content is replayed (R-K2, same origin).
    const input = (reqs[3]!.body as { input: { type: string; encrypted_content?: string }[] }).input;
    expect(input.find((i) => i.type === 'reasoning')).toMatchObject({
      type: 'reasoning',
      encrypted_content: 'enc-reasoning-1',
    });
    expect(keepalive).toEqual({ starts: 4, stops: 4 });
  });
});

describe('errors and retries (P1, P2, P3)', () => {
  it('P1 retries a 500 and succeeds: two requests, one answer', async () => {
    await setup();
    fake.enqueue('anthropic-messages', { kind: 'error', status: 500 }, { kind: 'text', text: 'ok' });
    const turn = await say('Hi', ANTHROPIC);
    expect(turn.status).toBe('complete');
    expect(bodies()).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('L4 the retry wait goes through retrySleep (the persisted-alarm sleeper) with this conversation and target', async () => {
    const asked: { conversationId: string; target: SendTarget; ms: number }[] = [];
    await setup({
      retrySleep: (conversationId, target) => async (ms) => void asked.push({ conversationId, target, ms }),
    });
    fake.enqueue('anthropic-messages', { kind: 'error', status: 500 }, { kind: 'text', text: 'ok' });
    const turn = await say('Hi', ANTHROPIC);
    expect(turn.status).toBe('complete');
    expect(bodies()).toHaveLength(2);
    expect(asked.map((a) => [a.conversationId, a.target])).toEqual([['c1', ANTHROPIC]]);
    expect(asked[0]!.ms).toBeGreaterThan(0);
    expect(sleeps).toEqual([]);
  });

  it('P1 a persistent 503 stops after 1+3 requests with an error turn; the user turn stays', async () => {
    await setup();
    fake.enqueue('openai-responses', ...Array.from({ length: 6 }, () => ({ kind: 'error' as const, status: 503 })));
    const turn = await say('Hi', OPENAI);
    expect(bodies()).toHaveLength(4);
    expect(turn).toMatchObject({ status: 'error', error: { type: 'overloaded' } });
    const { turns } = await store.get('c1');
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant']);
  });

  it('P1 a 400 is not retried, and its message never holds the key (S4)', async () => {
    await setup();
    fake.enqueue('openai-responses', {
      kind: 'error',
      status: 400,
      body: { error: { message: `bad request for key ${fake.keys.openai}`, type: 'invalid_request_error' } },
    });
    const turn = await say('Hi', OPENAI);
    expect(bodies()).toHaveLength(1);
    expect(turn.status).toBe('error');
    expect(JSON.stringify(turn)).not.toContain(fake.keys.openai.slice(0, 12));
  });

  it('P2 quota exhaustion is one request and a quota error, no retry', async () => {
    await setup();
    fake.enqueue('openai-responses', {
      kind: 'error',
      status: 429,
      body: {
        error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
      },
    });
    const turn = await say('Hi', OPENAI);
    expect(bodies()).toHaveLength(1);
    expect(turn.error?.type).toBe('quota');
    expect(sleeps).toEqual([]);
  });

  it('P3 an error event mid-stream keeps the partial text with status error, and is not retried', async () => {
    await setup();
    fake.enqueue('anthropic-messages', {
      kind: 'error-event',
      afterEvents: 4,
      source: {
        kind: 'text',
        text: 'Partial answer that goes on',
        chunks: ['Partial ', 'answer ', 'that ', 'goes on'],
      },
    });
    const turn = await say('Hi', ANTHROPIC);
    expect(turn.status).toBe('error');
    expect(textOf(turn)).toMatch(/^Partial/);
    expect(bodies()).toHaveLength(1);
  });

  it('a stream cut mid-way ends interrupted with its text kept', async () => {
    await setup();
    fake.enqueue('openai-responses', {
      kind: 'cut',
      afterEvents: 6,
      source: {
        kind: 'text',
        text: 'one two three four five six',
        chunks: ['one ', 'two ', 'three ', 'four ', 'five ', 'six'],
      },
    });
    const turn = await say('Hi', OPENAI);
    expect(['interrupted', 'error']).toContain(turn.status);
    expect(textOf(turn).length).toBeGreaterThan(0);
  });

  it('retrying a failed answer sends again without a duplicate user turn (L2)', async () => {
    await setup();
    fake.enqueue('openai-responses', { kind: 'error', status: 400 });
    await say('Hi', OPENAI);
    fake.enqueue('openai-responses', { kind: 'text', text: 'Second try.' });
    await engine.retry({ conversationId: 'c1', target: OPENAI });
    await engine.settled('c1');
    const { turns } = await store.get('c1');
    expect(turns.map((t) => `${t.role}:${t.status ?? 'complete'}`)).toEqual(['user:complete', 'assistant:complete']);
    expect(textOf(turns[1]!)).toBe('Second try.');
    const last = bodies().at(-1)!.body as { input: unknown[] };
    expect(last.input).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }]);
  });

  it('a provider rejecting its own signature gets one retry without opaque state, reported on the turn', async () => {
    await setup();
    fake.enqueue('anthropic-messages', { kind: 'thinking', thinking: 'Hmm.', signature: 'sig-1', text: 'First.' });
    await say('Hi', ANTHROPIC);
    fake.enqueue(
      'anthropic-messages',
      {
        kind: 'error',
        status: 400,
        body: {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: 'messages.1.content.0: Invalid `signature` in `thinking` block',
          },
        },
      },
      { kind: 'text', text: 'Second.' },
    );
    const turn = await say('Again', ANTHROPIC);
    expect(turn.status).toBe('complete');
    expect(turn.meta?.opaqueStateStripped).toBeDefined();
    const [rejected, retried] = bodies()
      .slice(-2)
      .map((r) => JSON.stringify(r.body));
    expect(rejected).toContain('sig-1');
    expect(retried).not.toContain('sig-1');
  });
});

describe('refusals before anything is sent', () => {
  it('no key: refused, nothing written, no request', async () => {
    await setup();
    await new Vault(db).deleteKey('google');
    await expect(engine.send({ conversationId: 'c1', text: 'Hi', target: GOOGLE })).rejects.toMatchObject({
      code: 'no_key',
    });
    expect((await store.get('c1')).turns).toEqual([]);
    expect(bodies()).toHaveLength(0);
  });

  it('N1 a non-default endpoint without host permission: refused, no request', async () => {
    await setup({ hasHostPermission: async () => false });
    await expect(engine.send({ conversationId: 'c1', text: 'Hi', target: OPENAI })).rejects.toMatchObject({
      code: 'endpoint_not_permitted',
    });
    expect(bodies()).toHaveLength(0);
  });

  it('N2 a key saved for another origin is not sent to the new one', async () => {
    await setup();
    await new Vault(db).setKey('openai', fake.keys.openai, 'https://api.openai.com', 'now');
    await expect(engine.send({ conversationId: 'c1', text: 'Hi', target: OPENAI })).rejects.toMatchObject({
      code: 'no_key',
    });
    expect(bodies()).toHaveLength(0);
  });

  it('one send at a time per conversation', async () => {
    await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'slow', chunks: ['s', 'l', 'o', 'w'], delayMs: 50 });
    await engine.send({ conversationId: 'c1', text: 'Hi', target: OPENAI });
    await expect(engine.send({ conversationId: 'c1', text: 'Hi again', target: OPENAI })).rejects.toMatchObject({
      code: 'busy',
    });
    await engine.settled('c1');
  });
});

describe('stop and checkpoints (L5, D1)', () => {
  it('L5 Stop aborts the fetch (the server sees the disconnect) and keeps the partial text as stopped', async () => {
    await setup();
    const chunks = Array.from({ length: 40 }, (_, i) => `w${i} `);
    fake.enqueue('openai-responses', { kind: 'text', text: chunks.join(''), chunks, delayMs: 40 });
    await engine.send({ conversationId: 'c1', text: 'Hi', target: OPENAI });
    // The answer's text arrives as deltas once it streams (docs/architecture.md#streaming-to-the-side-panel).
    while (!events.some((e) => e.type === 'textDelta' && e.text.length > 0))
      await new Promise((r) => setTimeout(r, 10));
    engine.stop('c1');
    await engine.settled('c1');
    await fake.waitForDisconnects(1);
    const turn = (await store.get('c1')).turns[1]!;
    expect(turn.status).toBe('stopped');
    expect(chunks.join('').startsWith(textOf(turn))).toBe(true);
    expect(textOf(turn).length).toBeGreaterThan(0);
    expect(keepalive.starts).toBe(keepalive.stops);
  });

  it('D1 checkpoints the partial answer while streaming; a dead worker leaves it interrupted on restart', async () => {
    await setup({ checkpointMs: 200 });
    const chunks = Array.from({ length: 30 }, (_, i) => `c${i} `);
    fake.enqueue('anthropic-messages', {
      kind: 'stall',
      ms: 10_000,
      afterEvents: 20,
      source: { kind: 'text', text: chunks.join(''), chunks },
    });
    await engine.send({ conversationId: 'c1', text: 'Hi', target: ANTHROPIC });
    let stored: Turn | undefined;
    for (let i = 0; i < 200; i++) {
      stored = (await store.get('c1')).turns[1];
      if (stored && textOf(stored).length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // Stored text while the stream still stalls (status `streaming`, not all chunks): a checkpoint, not the end.
    expect(stored?.status).toBe('streaming');
    expect(textOf(stored!).length).toBeGreaterThan(0);
    expect(textOf(stored!).length).toBeLessThan(chunks.join('').length);
    expect(chunks.join('').startsWith(textOf(stored!))).toBe(true);
    // The worker "dies" here: its database connection goes away, so it can write nothing more.
    db.close();
    engine.stop('c1');
    await engine.settled('c1');
    // On the next start, recovery marks the turn interrupted (L2), keeping the checkpointed text.
    const restarted = new ConversationStore(await openBatonDb(db.name));
    expect(await restarted.recoverStreaming(new Date().toISOString())).toEqual([
      { conversationId: 'c1', turnId: stored!.id },
    ]);
    const after = (await restarted.get('c1')).turns[1]!;
    expect(after.status).toBe('interrupted');
    // At least the checkpoint seen before the "death", and still a prefix of what was streamed (D1).
    expect(textOf(after).startsWith(textOf(stored!))).toBe(true);
    expect(chunks.join('').startsWith(textOf(after))).toBe(true);
    restarted.db.close();
  });
});

describe('P1 a 401 marks the key invalid', () => {
  it('P1 one request, an invalid_key error turn, and the provider flagged until the key is saved again', async () => {
    await setup();
    fake.enqueue('anthropic-messages', { kind: 'error', status: 401 });
    const turn = await say('Hi', ANTHROPIC);
    expect(turn.error?.type).toBe('invalid_key');
    expect(bodies()).toHaveLength(1);
    expect((await new SettingsStore(db).get()).invalidKeys).toEqual(['anthropic']);
  });
});
