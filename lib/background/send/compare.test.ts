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

const fake = fakeProvidersForFile();
let db: BatonDb;
afterEach(() => db?.close());

const posts = () => fake.requests.filter((r) => r.method === 'POST');
const textOf = (t: Turn) => t.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
const GOOGLE = { providerId: 'google', model: 'gemini-2.5-flash' } as const;

async function setup(providers?: readonly ('openai' | 'anthropic' | 'google')[], engine?: { checkpointMs: number }) {
  const bg = await createTestBackground(fake, {
    name: 'compare',
    ...(providers ? { providers } : {}),
    ...(engine ? { engine } : {}),
  });
  db = bg.db;
  return bg;
}

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

    // Continue with Claude's answer: the next request to Anthropic carries it, and not OpenAI's.
    await h.selectVersion({ conversationId: 'c1', turnId: out.answers[1]!.turnId }, 'extension');
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
    fake.enqueue('openai-responses', { kind: 'text', text: chunks.join(''), chunks, delayMs: 40 });
    fake.enqueue('anthropic-messages', { kind: 'text', text: chunks.join(''), chunks, delayMs: 40 });
    const out = await h.sendCompare(
      {
        conversationId: 'c1',
        text: 'Count.',
        targets: [
          { target: OPENAI, confirmedDisclosure: true },
          { target: ANTHROPIC, confirmedDisclosure: true },
        ],
      },
      'extension',
    );
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
    fake.enqueue('openai-responses', stall);
    fake.enqueue('anthropic-messages', stall);
    const out = await h.sendCompare(
      {
        conversationId: 'c1',
        text: 'Count.',
        targets: [
          { target: OPENAI, confirmedDisclosure: true },
          { target: ANTHROPIC, confirmedDisclosure: true },
        ],
      },
      'extension',
    );
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
});
