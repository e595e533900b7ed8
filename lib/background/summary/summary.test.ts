/**
 * "Summarise the earlier part" (docs/disclosure.md, "Fitting") through the real handlers: the turns a send
 * drops to fit are summarised by the model the person picked, only with their consent, and the
 * summary then goes in their place as one labelled user turn. Real stores over fake-indexeddb,
 * the real SDK transports and the fake providers on 127.0.0.1 (which judge every request).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { turnContentHash } from '../../context/hash';
import type { BatonDb } from '../../store/db';
import type { Turn } from '../../transcript/schema';
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
import { SUMMARISED_REASON } from '../disclosure/preview';
import { planSend } from '../disclosure/sendable';
import { createTokenCache } from '../../context/token-cache';
import type { ActiveSummary } from '../../messaging/summary-types';

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

const posts = () => fake.requests.filter((r) => r.method === 'POST');
const dump = async () => ({
  conversations: await db.getAll('conversations'),
  turns: await turnRecords(db),
  disclosures: await db.getAll('disclosures'),
});
const EARLY = ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'];
/** What the draft "Next" drops under `maxTurns: 4` over eight stored turns: the three oldest exchanges. */
const ASK = { conversationId: 'c1', target: OPENAI, summariser: ANTHROPIC, text: 'Next' };

/** Conversation c1: four exchanges answered by OpenAI, and a policy of at most 4 turns per send. */
async function setup(policy: Record<string, unknown> = { maxTurns: 4 }) {
  const bg = await createTestBackground(fake, { name: 'summary' });
  db = bg.db;
  for (let i = 1; i <= 4; i++) {
    await bg.store.appendTurn('c1', user(`u${i}`, `Question ${i}: remember the number ${i * 11}.`), NOW);
    await bg.store.appendTurn('c1', answer(`a${i}`, `Noted ${i * 11}.`), NOW);
  }
  await bg.h.setDisclosurePolicy({ conversationId: 'c1', policy }, 'extension');
  return bg;
}

/** Summarises the early turns with Anthropic (confirmed), answering `text`. */
async function summarise(h: Awaited<ReturnType<typeof setup>>['h'], text = 'They agreed on 11, 22 and 33.') {
  const preview = await h.previewSummary(ASK, 'extension');
  fake.enqueue('anthropic-messages', { kind: 'text', text });
  const summary = await h.summariseEarlier(
    { ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true },
    'extension',
  );
  return { preview, summary };
}

describe('previewSummary and summariseEarlier (docs/disclosure.md, "Fitting")', () => {
  it('summarises exactly the turns dropped to fit, as previewed, with consent; the ledger lists the summariser', async () => {
    const { h } = await setup();
    const send = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'Next' }, 'extension');
    expect(send.droppedByReason).toEqual({ 'over-max-turns': 6 });
    const preview = await h.previewSummary(ASK, 'extension');
    expect(preview).toMatchObject({
      turnIds: EARLY,
      viaSummary: 0,
      needsConfirmation: true,
      allowed: true,
      fits: true,
      summariser: { providerId: 'anthropic', model: 'claude-sonnet-4-6' },
    });
    expect(preview.estimatedInputTokens).toBeGreaterThan(0);
    expect(preview.estimatedCostUsd).toBeGreaterThan(0);

    const before = await dump();
    await expect(h.summariseEarlier({ ...ASK, turnIds: preview.turnIds }, 'extension')).rejects.toMatchObject({
      code: 'confirmation_required',
    });
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);

    fake.enqueue('anthropic-messages', { kind: 'text', text: 'They agreed on 11, 22 and 33.' });
    const summary = await h.summariseEarlier(
      { ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true },
      'extension',
    );
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toEqual(preview.body);
    // The summariser received the dropped turns in its native form, then the instruction; no system prompt.
    const messages = (posts()[0]!.body as { messages: { role: string }[]; system?: unknown }).messages;
    expect(messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(JSON.stringify(messages)).toContain('Question 1: remember the number 11.');
    expect(JSON.stringify(messages)).not.toContain('Question 4');
    expect(summary).toMatchObject({
      replaces: EARLY,
      text: 'They agreed on 11, 22 and 33.',
      stale: false,
      origin: { provider: 'anthropic', api: 'anthropic-messages' },
    });
    expect(await h.getSummary({ conversationId: 'c1' }, 'extension')).toEqual({ summary });

    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.seenBy.map((s) => s.providerId)).toEqual(['anthropic']);
    const stored = (await h.getConversation({ id: 'c1' }, 'extension')).turns;
    expect(ledger.entries).toMatchObject([
      {
        providerId: 'anthropic',
        status: 'completed',
        purpose: 'summary',
        turns: stored.slice(0, 6).map((t) => [t.id, turnContentHash(t)]),
      },
    ]);
    expect(stored.map((t) => t.id)).toEqual([...EARLY, 'u4', 'a4']); // nothing stored changed
  });

  it('the next send carries the labelled summary turn (user role) instead of those turns, exactly as previewed', async () => {
    const { h, engine } = await setup();
    const { summary } = await summarise(h);
    const preview = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'Next' }, 'extension');
    expect(preview.summary).toEqual({
      state: 'applied',
      turnId: 'summary-u1',
      replaces: 6,
      by: { provider: 'anthropic', model: summary.origin.model },
    });
    expect(preview.perTurn.map((t) => [t.id, t.included, t.summary ? 'summary' : (t.droppedReason ?? '')])).toEqual([
      ['summary-u1', true, 'summary'],
      ...EARLY.map((id) => [id, false, SUMMARISED_REASON]),
      ['u4', true, ''],
      ['a4', true, ''],
      ['draft', true, ''],
    ]);
    expect(preview.droppedByReason).toEqual({ summarised: 6 });
    fake.enqueue('openai-responses', { kind: 'text', text: 'Go on.' });
    await h.sendMessage({ conversationId: 'c1', text: 'Next', target: OPENAI, confirmedDisclosure: true }, 'extension');
    await engine.settled('c1');
    const body = posts()[1]!.body as { input: { role: string; content: unknown }[] };
    expect(body).toEqual(preview.body);
    expect(body.input[0]!.role).toBe('user');
    expect(JSON.stringify(body.input[0])).toContain(
      '[Summary of 6 earlier turns of this conversation, written by anthropic/',
    );
    expect(JSON.stringify(body.input[0])).toContain('They agreed on 11, 22 and 33.');
    expect(JSON.stringify(body)).not.toContain('Question 1');
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    const newTurn = (await h.getConversation({ id: 'c1' }, 'extension')).turns[8]!;
    expect(newTurn).toMatchObject({ role: 'user', blocks: [{ type: 'text', text: 'Next' }] });
    expect(ledger.entries[1]!.turns.map(([id]) => id)).toEqual(['summary-u1', 'u4', 'a4', newTurn.id]);
  });

  it('an edited replaced turn makes the summary stale: not sent, reported, and summarising again is offered', async () => {
    const { h, store } = await setup();
    await summarise(h);
    const edited: Turn = { ...user('u2', 'Question 2, edited.') };
    await store.putTurn('c1', edited, NOW);
    const preview = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'Next' }, 'extension');
    expect(preview.summary).toMatchObject({
      state: 'stale',
      reason: 'turn u2 was edited after it was summarised',
      replaces: 6,
    });
    expect(preview.perTurn.some((t) => t.summary)).toBe(false);
    expect(preview.droppedByReason).toEqual({ 'over-max-turns': 6 });
    expect((await h.getSummary({ conversationId: 'c1' }, 'extension')).summary?.stale).toBe(true);
    expect((await h.previewSummary(ASK, 'extension')).turnIds).toEqual(EARLY);
  });

  it('re-summarising when the summary turn is dropped too replaces the union; its request carries the old summary turn', async () => {
    const { h, store } = await setup();
    await summarise(h);
    for (const t of [
      user('u5', 'Question 5.'),
      answer('a5', 'Noted 55.'),
      user('u6', 'Question 6.'),
      answer('a6', 'Noted 66.'),
    ])
      await store.appendTurn('c1', t, NOW);
    const preview = await h.previewSummary(ASK, 'extension');
    expect(preview).toMatchObject({
      turnIds: [...EARLY, 'u4', 'a4', 'u5', 'a5'],
      viaSummary: 6,
      needsConfirmation: false,
    });
    const sent = JSON.stringify(preview.body);
    expect(sent).toContain('They agreed on 11, 22 and 33.');
    expect(sent).not.toContain('Question 1');
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Numbers 11 to 55.' });
    const next = await h.summariseEarlier({ ...ASK, turnIds: preview.turnIds }, 'extension');
    expect(next.replaces).toEqual(preview.turnIds);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries[1]!.turns.map(([id]) => id)).toEqual(['summary-u1', 'u4', 'a4', 'u5', 'a5']);
    const send = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'Next' }, 'extension');
    expect(send.perTurn.filter((t) => t.included).map((t) => t.id)).toEqual(['summary-u1', 'u6', 'a6', 'draft']);
  });

  it('refuses turn ids that are not exactly what would be summarised now (stale consent), sending nothing', async () => {
    const { h } = await setup();
    const before = await dump();
    await expect(
      h.summariseEarlier({ ...ASK, turnIds: ['u1', 'a1'], confirmedDisclosure: true }, 'extension'),
    ).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('have changed (now 6: u1, a1, u2, a2, u3, …)'),
    });
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);
  });

  it('a policy can forbid the summariser: previewed as not allowed, refused, nothing sent', async () => {
    const { h } = await setup({ maxTurns: 4, neverProviders: ['anthropic'] });
    const preview = await h.previewSummary(ASK, 'extension');
    expect(preview).toMatchObject({ allowed: false, forbidden: expect.stringContaining('anthropic'), body: {} });
    await expect(
      h.summariseEarlier({ ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true }, 'extension'),
    ).rejects.toMatchObject({ code: 'policy_forbidden' });
    expect(posts()).toEqual([]);
  });

  it('a failed request stores no summary, only a failed ledger record (the turns left the browser)', async () => {
    const { h } = await setup();
    const preview = await h.previewSummary(ASK, 'extension');
    fake.enqueue('anthropic-messages', { kind: 'error', status: 400 });
    await expect(
      h.summariseEarlier({ ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true }, 'extension'),
    ).rejects.toMatchObject({ code: 'bad_request' });
    expect(await h.getSummary({ conversationId: 'c1' }, 'extension')).toEqual({});
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries).toMatchObject([{ providerId: 'anthropic', status: 'failed', purpose: 'summary' }]);
    expect(ledger.entries[0]!.turns.map(([id]) => id)).toEqual(EARLY);
  });

  it('an empty answer is an error, not an empty summary', async () => {
    const { h } = await setup();
    const preview = await h.previewSummary(ASK, 'extension');
    fake.enqueue('anthropic-messages', { kind: 'text', text: '', chunks: ['  '] });
    await expect(
      h.summariseEarlier({ ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true }, 'extension'),
    ).rejects.toMatchObject({ code: 'provider_error', message: expect.stringContaining('empty summary') });
    expect(await h.getSummary({ conversationId: 'c1' }, 'extension')).toEqual({});
    expect((await h.listDisclosures({ conversationId: 'c1' }, 'extension')).entries).toMatchObject([
      { status: 'failed', purpose: 'summary' },
    ]);
  });

  it('nothing to summarise when nothing is dropped to fit; clearSummary goes back to dropping the oldest', async () => {
    const { h } = await setup();
    await expect(
      h.previewSummary(
        { ...ASK, text: undefined, target: OPENAI, summariser: ANTHROPIC, conversationId: 'c1', excludeTurns: [] },
        'extension',
      ),
    ).resolves.toMatchObject({ turnIds: ['u1', 'a1', 'u2', 'a2'] });
    await h.setDisclosurePolicy({ conversationId: 'c1', policy: {} }, 'extension');
    await expect(h.previewSummary(ASK, 'extension')).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('Nothing to summarise'),
    });
    await h.setDisclosurePolicy({ conversationId: 'c1', policy: { maxTurns: 4 } }, 'extension');
    await summarise(h);
    await h.clearSummary({ conversationId: 'c1' }, 'extension');
    expect(await h.getSummary({ conversationId: 'c1' }, 'extension')).toEqual({});
    const preview = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'Next' }, 'extension');
    expect(preview.summary).toBeUndefined();
    expect(preview.droppedByReason).toEqual({ 'over-max-turns': 6 });
  });
});

describe('planSend with an active summary', () => {
  const turns = [user('u1', 'One'), answer('a1', 'Two'), user('u2', 'Three'), answer('a2', 'Four'), user('u3', 'Five')];
  const transcript = { format: 'baton.transcript' as const, version: 1 as const, id: 'c', turns };
  const summary: ActiveSummary = {
    id: 's1',
    replaces: ['u1', 'a1'],
    hashes: turns.slice(0, 2).map((t): [string, string] => [t.id, turnContentHash(t)]),
    text: 'One and two.',
    origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-haiku-4-5' },
    at: NOW,
  };
  const target = { api: 'openai-chat' as const, model: 'gpt-4o', provider: 'openai' };
  const run = (t: typeof transcript) =>
    planSend({
      transcript: t,
      target,
      global: {},
      conversation: {},
      exclusions: {},
      cache: createTokenCache(),
      sessionKey: 'k',
      summary,
    });

  it('applies it: one labelled user turn in place of its turns, recorded in the ledger format like any turn', () => {
    const planned = run(transcript);
    expect(planned.summary).toMatchObject({ state: 'applied', turnId: 'summary-u1' });
    expect(planned.plan.included).toEqual(['summary-u1', 'u2', 'a2', 'u3']);
    const first = (planned.body as { messages: { role: string }[] }).messages[0]!;
    expect(first.role).toBe('user');
    expect(JSON.stringify(first)).toContain(
      '[Summary of 2 earlier turns of this conversation, written by anthropic/claude-haiku-4-5 (anthropic-messages)]',
    );
    expect(planned.sent[0]).toEqual(['summary-u1', turnContentHash(planned.transcript.turns[0]!)]);
  });

  it('judges staleness on the stored turns when the planned copy differs (a retry without opaque state)', () => {
    const copy = {
      ...transcript,
      turns: turns.map((t) =>
        t.id === 'a1' ? { ...t, native: undefined, blocks: [{ type: 'text' as const, text: 'Two, stripped' }] } : t,
      ),
    };
    expect(run(copy).summary).toMatchObject({ state: 'stale', reason: 'turn a1 was edited after it was summarised' });
    const planned = planSend({
      transcript: copy,
      target,
      global: {},
      conversation: {},
      exclusions: {},
      cache: createTokenCache(),
      sessionKey: 'k',
      summary,
      summaryBasis: transcript,
    });
    expect(planned.summary).toMatchObject({ state: 'applied', turnId: 'summary-u1' });
    expect(planned.plan.included).toEqual(['summary-u1', 'u2', 'a2', 'u3']);
  });

  it('ignores it as stale when a replaced turn was deleted', () => {
    const planned = run({ ...transcript, turns: turns.slice(1) });
    expect(planned.summary).toMatchObject({ state: 'stale', reason: 'turn u1 was deleted after it was summarised' });
    expect(planned.plan.included).toEqual(['a1', 'u2', 'a2', 'u3']);
    expect(JSON.stringify(planned.body)).not.toContain('Summary of');
  });
});
