/**
 * Every send goes through the planner (docs/disclosure.md): the bounded body, exclusions, policies, the
 * first-disclosure confirmation, the ledger and the preview. Real stores over fake-indexeddb,
 * the real SDK transports and the fake providers on 127.0.0.1 (which judge every request).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { turnContentHash } from '../../context/hash';
import type { BatonDb } from '../../store/db';
import {
  answer,
  ANTHROPIC,
  createTestBackground,
  fakeProvidersForFile,
  NOW,
  OPENAI,
  user,
} from '../background.test-helper';

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

async function setup() {
  const bg = await createTestBackground(fake, { name: 'disclosure' });
  db = bg.db;
  const { store, engine, h, origin } = bg;
  await store.create({ id: 'c2', now: NOW });
  return { store, engine, h, origin };
}

const posts = () => fake.requests.filter((r) => r.method === 'POST');
const LONG = 'The old part of the conversation. '.repeat(60);

describe('every send goes through the planner (docs/disclosure.md)', () => {
  it("N5 the body carries only this conversation's turns within the budget, and no keys or settings", async () => {
    const { store, engine, h } = await setup();
    for (const t of [
      user('u1', LONG),
      answer('a1', 'Noted.'),
      user('u2', 'Short question'),
      answer('a2', 'Short answer'),
    ])
      await store.appendTurn('c1', t, NOW);
    await store.appendTurn('c2', user('o1', 'SECRET OTHER CONVERSATION'), NOW);
    await h.setDisclosurePolicy({ conversationId: 'c1', policy: { maxTokens: 200 } }, 'extension');
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'ok' });
    await h.sendMessage(
      { conversationId: 'c1', text: 'New one', target: ANTHROPIC, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    const [req] = posts();
    expect((req!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Short question' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Short answer' }] },
      { role: 'user', content: [{ type: 'text', text: 'New one' }] },
    ]);
    const json = JSON.stringify(req!.body);
    for (const secret of [...Object.values(fake.keys), fake.url, 'SECRET OTHER', 'old part'])
      expect(json).not.toContain(secret);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries.map((e) => e.turns.map(([id]) => id))).toEqual([['u2', 'a2', 't1']]);
  });

  it('the preview shows exactly the body the provider then receives (Anthropic, cache breakpoints on a long conversation)', async () => {
    const { store, engine, h } = await setup();
    for (const t of [user('u1', LONG.repeat(3)), answer('a1', 'Noted.')]) await store.appendTurn('c1', t, NOW);
    const preview = await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'Next' }, 'extension');
    expect(preview).toMatchObject({
      turns: 3,
      includedTurns: 3,
      fits: true,
      needsConfirmation: true,
      delivery: { mode: 'snapshot' },
    });
    expect(preview.perTurn.map((t) => [t.id, t.included, t.draft ?? false])).toEqual([
      ['u1', true, false],
      ['a1', true, false],
      ['draft', true, true],
    ]);
    expect(JSON.stringify(preview.body)).toContain('"cache_control":{"type":"ephemeral"}');
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'ok' });
    await h.sendMessage(
      { conversationId: 'c1', text: 'Next', target: ANTHROPIC, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    expect(posts()[0]!.body).toEqual(preview.body);
    expect(JSON.stringify(posts()[0]!.body)).toBe(JSON.stringify(preview.body));
  });

  it('with an attachment, the preview is still exactly the body sent', async () => {
    const { engine, h } = await setup();
    const attachments = [
      {
        kind: 'image' as const,
        mediaType: 'image/png',
        data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      },
    ];
    const preview = await h.previewSend(
      { conversationId: 'c1', target: ANTHROPIC, text: 'What is this?', attachments },
      'extension',
    );
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'A pixel.' });
    await h.sendMessage({ conversationId: 'c1', text: 'What is this?', target: ANTHROPIC, attachments }, 'extension');
    await engine.settled('c1');
    expect(posts()[0]!.body).toEqual(preview.body);
    expect(JSON.stringify(preview.body)).toContain('"media_type":"image/png"');
  });

  it('an excluded turn is left out of the preview and of the send, which match', async () => {
    const { store, engine, h } = await setup();
    for (const t of [user('u1', 'first'), answer('a1', 'one'), user('u2', 'second'), answer('a2', 'two')])
      await store.appendTurn('c1', t, NOW);
    const preview = await h.previewSend(
      { conversationId: 'c1', target: ANTHROPIC, text: 'third', excludeTurns: ['u1'] },
      'extension',
    );
    expect(preview.perTurn.filter((t) => !t.included).map((t) => t.id)).toEqual(['u1']);
    expect(preview.droppedByReason).toEqual({ excluded: 1 });
    expect(preview.perTurn[0]!.blocks).toEqual([
      { index: 0, type: 'text', fate: 'dropped', detail: expect.stringContaining('turn not sent') },
    ]);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'ok' });
    await h.sendMessage(
      { conversationId: 'c1', text: 'third', target: ANTHROPIC, confirmedDisclosure: true, excludeTurns: ['u1'] },
      'extension',
    );
    await engine.settled('c1');
    expect(posts()[0]!.body).toEqual(preview.body);
    expect(JSON.stringify(posts()[0]!.body)).not.toContain('first');
  });

  it('a provider the policy forbids gets nothing: policy_forbidden before anything is stored', async () => {
    const { store, h } = await setup();
    await h.setDisclosurePolicy({ policy: { neverProviders: ['anthropic'] } }, 'extension');
    await expect(
      h.sendMessage({ conversationId: 'c1', text: 'hi', target: ANTHROPIC }, 'extension'),
    ).rejects.toMatchObject({ code: 'policy_forbidden' });
    expect((await store.get('c1')).turns).toEqual([]);
    expect(posts()).toEqual([]);
    expect(await h.getDisclosurePolicy({}, 'extension')).toEqual({ global: { neverProviders: ['anthropic'] } });
  });

  it('rejects an invalid policy with its path', async () => {
    const { h } = await setup();
    await expect(h.setDisclosurePolicy({ policy: { lockedProvider: '' } } as never, 'extension')).rejects.toMatchObject(
      { code: 'bad_request' },
    );
  });
});

describe('first-time provider confirmation', () => {
  it('a first message of a new conversation needs no confirmation (nothing earlier is disclosed)', async () => {
    const { engine, h } = await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'hello' });
    await h.sendMessage({ conversationId: 'c1', text: 'hi', target: OPENAI }, 'extension');
    await engine.settled('c1');
    expect(posts()).toHaveLength(1);
  });

  it('switching to a provider that has not received the conversation: refused without confirmation, zero requests, nothing stored', async () => {
    const { store, engine, h } = await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'hello' });
    await h.sendMessage({ conversationId: 'c1', text: 'hi', target: OPENAI }, 'extension');
    await engine.settled('c1');
    const before = (await store.get('c1')).turns.map((t) => t.id);
    expect(
      (await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'more' }, 'extension')).needsConfirmation,
    ).toBe(true);
    await expect(
      h.sendMessage({ conversationId: 'c1', text: 'more', target: ANTHROPIC }, 'extension'),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    expect(posts().map((r) => r.api)).toEqual(['openai-responses']);
    expect((await store.get('c1')).turns.map((t) => t.id)).toEqual(before);
    // The same provider again needs none.
    expect(
      (await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'more' }, 'extension')).needsConfirmation,
    ).toBe(false);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'ok' });
    await h.sendMessage(
      { conversationId: 'c1', text: 'more', target: ANTHROPIC, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    expect(posts().map((r) => r.api)).toEqual(['openai-responses', 'anthropic-messages']);
  });
});

describe('the disclosure ledger', () => {
  it('one record per completed or failed send, with hashes, estimate, usage, cost and response id; who has seen what', async () => {
    const { store, engine, h, origin } = await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'hello' });
    await h.sendMessage({ conversationId: 'c1', text: 'hi', target: OPENAI }, 'extension');
    await engine.settled('c1');
    fake.enqueue('anthropic-messages', { kind: 'error', status: 400 });
    await h.sendMessage(
      { conversationId: 'c1', text: 'again', target: ANTHROPIC, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    const turns = (await store.get('c1')).turns;
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    const [first, second] = ledger.entries;
    expect(first).toMatchObject({
      providerId: 'openai',
      api: 'openai-responses',
      model: 'gpt-5.5',
      endpoint: origin,
      status: 'completed',
      mode: 'snapshot',
      turns: [['t1', turnContentHash(turns[0]!)]],
      responseId: 'resp_fake1',
    });
    expect(first!.estimatedInputTokens).toBeGreaterThan(0);
    expect(first!.usage?.inputTokens).toBeGreaterThan(0);
    expect(first!.costUsd).toBeGreaterThan(0);
    expect(second).toMatchObject({
      providerId: 'anthropic',
      status: 'failed',
      turns: [
        ['t1', expect.any(String)],
        ['t2', expect.any(String)],
        ['t3', expect.any(String)],
      ],
    });
    expect(ledger.seenBy.map((s) => [s.providerId, s.endpoint, s.models, s.sends])).toEqual([
      ['openai', origin, ['gpt-5.5'], 1],
      ['anthropic', origin, ['claude-sonnet-4-6'], 1],
    ]);
    expect(ledger.turns).toEqual({ t1: [0, 1], t2: [1], t3: [1] });
    // Deleting the conversation deletes its ledger.
    await h.deleteConversation({ id: 'c1' }, 'extension');
    expect(await db.getAll('disclosures')).toEqual([]);
  });

  it('reported usage corrects later estimates for that provider (recordUsage)', async () => {
    const { engine, h } = await setup();
    expect(engine.discloser.cache.correction).toEqual({});
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'hello' });
    await h.sendMessage({ conversationId: 'c1', text: 'hi there', target: ANTHROPIC }, 'extension');
    await engine.settled('c1');
    expect(engine.discloser.cache.correction.anthropic?.estimated).toBeGreaterThan(0);
    expect(engine.discloser.cache.correction.anthropic?.actual).toBeGreaterThan(0);
  });
});
