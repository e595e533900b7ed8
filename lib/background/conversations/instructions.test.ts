/**
 * Conversation instructions (docs/side-panel.md#instructions, docs/disclosure.md#instructions):
 * stored as the transcript's `system`, a default for new conversations, their own row in the
 * preview, the sentence on the first send after a change, and each API's own field in the body.
 * Real stores over fake-indexeddb, the real SDK transports and the fake providers on 127.0.0.1
 * (which judge every request).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import type { LedgerRecord } from '../../store/disclosures';
import { ANTHROPIC, callFrom, createTestBackground, fakeProvidersForFile, OPENAI } from '../background.test-helper';

const fake = fakeProvidersForFile();
const GOOGLE: SendTarget = { providerId: 'google', model: 'gemini-2.5-flash' };
const RULES = 'Answer in French. Keep it short.';

let db: BatonDb;
afterEach(() => db?.close());

async function setup(name: string) {
  const bg = await createTestBackground(fake, { name });
  db = bg.db;
  return bg;
}

const posts = () => fake.requests.filter((r) => r.method === 'POST');

describe('instructions are stored with the conversation', () => {
  it('setInstructions writes the transcript system; blank removes it; getConversation returns them', async () => {
    const { h, store } = await setup('instr-store');
    expect(await h.setInstructions({ id: 'c1', instructions: RULES }, 'extension')).toEqual({ instructions: RULES });
    expect((await store.toTranscript('c1')).system).toBe(RULES);
    expect((await h.getConversation({ id: 'c1', limit: 1 }, 'extension')).instructions).toBe(RULES);
    expect(await h.getInstructions({ id: 'c1' }, 'extension')).toEqual({ instructions: RULES });
    expect(await h.setInstructions({ id: 'c1', instructions: '  \n ' }, 'extension')).toEqual({ instructions: '' });
    expect((await store.getRecord('c1'))!).not.toHaveProperty('system');
    expect((await h.getConversation({ id: 'c1' }, 'extension')).instructions).toBeUndefined();
    expect(await h.getInstructions({ id: 'c1' }, 'extension')).toEqual({ instructions: '' });
  });

  it('an unknown conversation is refused with not_found and nothing is written', async () => {
    const { h, store } = await setup('instr-missing');
    await expect(h.setInstructions({ id: 'nope', instructions: RULES }, 'extension')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(h.getInstructions({ id: 'nope' }, 'extension')).rejects.toMatchObject({ code: 'not_found' });
    expect(await store.getRecord('nope')).toBeUndefined();
  });

  it('the router refuses instructions over the size cap (M3)', async () => {
    const { h } = await setup('instr-cap');
    const call = callFrom(h, 'sidepanel.html');
    const reply = await call('setInstructions', { id: 'c1', instructions: 'x'.repeat(100_001) });
    expect(reply.ok).toBe(false);
    expect((await call('setInstructions', { id: 'c1', instructions: 'x'.repeat(100_000) })).ok).toBe(true);
  });

  it('new conversations start with the default instructions; given instructions (even blank) win; old ones keep theirs', async () => {
    const { h, store } = await setup('instr-default');
    expect(await h.getDefaultInstructions({}, 'extension')).toEqual({ instructions: '' });
    await h.setDefaultInstructions({ instructions: RULES }, 'extension');
    expect(await h.getDefaultInstructions({}, 'extension')).toEqual({ instructions: RULES });
    const a = await h.createConversation({}, 'extension');
    expect((await store.toTranscript(a.id)).system).toBe(RULES);
    const b = await h.createConversation({ instructions: 'Be terse.' }, 'extension');
    expect((await store.toTranscript(b.id)).system).toBe('Be terse.');
    const c = await h.createConversation({ instructions: '' }, 'extension');
    expect((await store.toTranscript(c.id)).system).toBeUndefined();
    // c1 existed before the default was set.
    expect((await store.toTranscript('c1')).system).toBeUndefined();
    await h.setDefaultInstructions({ instructions: ' ' }, 'extension');
    expect(await h.getDefaultInstructions({}, 'extension')).toEqual({ instructions: '' });
    expect((await store.toTranscript(a.id)).system).toBe(RULES);
  });
});

describe('the preview shows the instructions as their own row (docs/disclosure.md#instructions)', () => {
  it('sent, with their tokens counted in the estimate, and in the exact body', async () => {
    const { h } = await setup('instr-row');
    const before = await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'Hello' }, 'extension');
    expect(before.instructions).toBeUndefined();
    await h.setInstructions({ id: 'c1', instructions: RULES.repeat(20) }, 'extension');
    const p = await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'Hello' }, 'extension');
    expect(p.instructions).toMatchObject({ sent: true, preview: expect.stringMatching(/^Answer in French/) });
    expect(p.instructions!.change).toBeUndefined();
    // Their tokens are part of the estimate: it grew by at least as much as their row says.
    expect(p.instructions!.tokens).toBeGreaterThan(50);
    expect(p.estimatedInputTokens - before.estimatedInputTokens).toBeGreaterThanOrEqual(p.instructions!.tokens);
    // A-R1: View request shows them where they are sent.
    expect(JSON.stringify(p.body.system)).toContain('Answer in French');
    expect(JSON.stringify(p.body.messages)).not.toContain('Answer in French');
  });

  it('a new chat previews the default instructions it will be created with', async () => {
    const { h } = await setup('instr-new-chat');
    await h.setDefaultInstructions({ instructions: RULES }, 'extension');
    const p = await h.previewSend({ target: OPENAI, text: 'Hello' }, 'extension');
    expect(p.instructions).toMatchObject({ sent: true });
    expect(p.body.instructions ?? JSON.stringify(p.body.input)).toContain('Answer in French');
  });
});

describe('changed instructions are said on the first send after the change', () => {
  async function sendAndSettle(bg: Awaited<ReturnType<typeof setup>>, target: SendTarget, text: string) {
    const api =
      target.providerId === 'anthropic'
        ? 'anthropic-messages'
        : target.providerId === 'google'
          ? 'gemini-generate-content'
          : 'openai-responses';
    fake.enqueue(api, { kind: 'text', text: 'ok' });
    await bg.h.sendMessage({ conversationId: 'c1', text, target, confirmedDisclosure: true }, 'extension');
    await bg.engine.settled('c1');
  }

  it('added, changed, removed — per provider, from the ledger; the ledger keeps a fingerprint, never the text', async () => {
    const bg = await setup('instr-change');
    const { h } = bg;
    const change = async (t: SendTarget) =>
      (await h.previewSend({ conversationId: 'c1', target: t, text: 'Next' }, 'extension')).instructions?.change;
    await sendAndSettle(bg, ANTHROPIC, 'First');
    // Never sent to Google: nothing to compare with.
    await h.setInstructions({ id: 'c1', instructions: RULES }, 'extension');
    expect(await change(ANTHROPIC)).toBe('added');
    expect(await change(GOOGLE)).toBeUndefined();
    await sendAndSettle(bg, ANTHROPIC, 'Second');
    expect(await change(ANTHROPIC)).toBeUndefined();
    await h.setInstructions({ id: 'c1', instructions: 'Answer in German.' }, 'extension');
    expect(await change(ANTHROPIC)).toBe('changed');
    await h.setInstructions({ id: 'c1', instructions: RULES }, 'extension');
    // Back to what Anthropic last received: no change to say.
    expect(await change(ANTHROPIC)).toBeUndefined();
    await h.setInstructions({ id: 'c1', instructions: '' }, 'extension');
    const removed = await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'Next' }, 'extension');
    expect(removed.instructions).toEqual({ sent: false, tokens: 0, preview: '', change: 'removed' });
    const records = (await bg.db.getAll('disclosures')) as LedgerRecord[];
    expect(records.map((r) => r.system === '')).toEqual([true, false]);
    expect(JSON.stringify(records)).not.toContain('Answer in French');
  });
});

describe('instructions reach each API in its own field', () => {
  it('Anthropic system, Responses instructions, Gemini systemInstruction, from one conversation', async () => {
    const bg = await setup('instr-native');
    const { h, engine } = bg;
    await h.setInstructions({ id: 'c1', instructions: RULES }, 'extension');
    const cases: [SendTarget, Parameters<typeof fake.enqueue>[0]][] = [
      [ANTHROPIC, 'anthropic-messages'],
      [OPENAI, 'openai-responses'],
      [GOOGLE, 'gemini-generate-content'],
    ];
    for (const [target, api] of cases) {
      fake.enqueue(api, { kind: 'text', text: 'ok' });
      await h.sendMessage({ conversationId: 'c1', text: 'Hi', target, confirmedDisclosure: true }, 'extension');
      await engine.settled('c1');
    }
    const [a, o, g] = posts().map((r) => r.body as Record<string, unknown>);
    expect(JSON.stringify(a!.system)).toContain(RULES);
    // gpt-5.5 takes them in `instructions`.
    expect(o!.instructions).toBe(RULES);
    expect(g!.systemInstruction).toEqual({ parts: [{ text: RULES }] });
    for (const body of [a, o, g]) expect(JSON.stringify(body).split(RULES).length - 1).toBe(1);
    expect(posts().every((r) => r.violations.length === 0)).toBe(true);
  });
});

it('R-K9: a model that appends `instructions` after the input gets them as the leading developer message', async () => {
  const bg = await setup('instr-rk9');
  await bg.h.setInstructions({ id: 'c1', instructions: RULES }, 'extension');
  fake.enqueue('openai-responses', { kind: 'text', text: 'ok' });
  const target: SendTarget = { providerId: 'openai', model: 'gpt-6.2' };
  await bg.h.sendMessage({ conversationId: 'c1', text: 'Hi', target, confirmedDisclosure: true }, 'extension');
  await bg.engine.settled('c1');
  const body = posts()[0]!.body as { instructions?: string; input: { role?: string; content?: unknown }[] };
  expect(body.instructions).toBeUndefined();
  expect(body.input[0]).toMatchObject({ role: 'developer' });
  expect(JSON.stringify(body.input[0])).toContain(RULES);
  expect(posts()[0]!.violations).toEqual([]);
});
