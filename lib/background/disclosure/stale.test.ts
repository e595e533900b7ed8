/**
 * docs/disclosure.md, what a stale side panel may send: exclusions naming turns or blocks that no longer
 * exist are reported by the preview and ignored by the send (never failing it, never sending a
 * turn still left out), and a confirmation names the provider it was shown for (`confirmedFor`),
 * so a confirmation for one provider never authorises another. Real stores over fake-indexeddb,
 * the real SDK transports and the fake providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
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
import { unknownExclusions } from './preview';
import { confirmationOf, refuseUnconfirmed } from './resend';

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

async function setup() {
  const bg = await createTestBackground(fake, { name: 'disclosure-stale' });
  db = bg.db;
  for (const t of [
    user('u1', 'Keep this first question.'),
    answer('a1', 'First answer.'),
    user('u2', 'LEFT OUT question.'),
    answer('a2', 'LEFT OUT answer.'),
  ])
    await bg.store.appendTurn('c1', t, NOW);
  return bg;
}

const posts = () => fake.requests.filter((r) => r.method === 'POST');
const dump = async () => ({
  turns: await turnRecords(db),
  disclosures: await db.getAll('disclosures'),
  conversations: await db.getAll('conversations'),
});

describe('exclusions naming nothing (docs/disclosure.md)', () => {
  it('the preview reports them; the rest of the preview is as without them', async () => {
    const { h } = await setup();
    const base = { conversationId: 'c1', target: OPENAI, text: 'Next' };
    const stale = await h.previewSend(
      {
        ...base,
        excludeTurns: ['gone1', 'u2', 'gone2', 'gone1'],
        excludeBlocks: [
          { turn: 'a1', index: 5 },
          { turn: 'gone3', index: 0 },
          { turn: 'a1', index: 0 },
        ],
      },
      'extension',
    );
    expect(stale.unknownExclusions).toEqual({
      turns: ['gone1', 'gone2'],
      blocks: [
        { turn: 'a1', index: 5 },
        { turn: 'gone3', index: 0 },
      ],
    });
    const clean = await h.previewSend(
      { ...base, excludeTurns: ['u2'], excludeBlocks: [{ turn: 'a1', index: 0 }] },
      'extension',
    );
    expect(clean.unknownExclusions).toBeUndefined();
    const { unknownExclusions: _u, ...rest } = stale;
    expect(rest).toEqual(clean);
  });

  it('a send with stale exclusions goes through and still leaves out the turn that exists (its answer stays paired out too)', async () => {
    const { h, engine, store } = await setup();
    const excludeTurns = ['gone1', 'u2', 'a2'];
    const preview = await h.previewSend(
      { conversationId: 'c1', target: OPENAI, text: 'Next', excludeTurns },
      'extension',
    );
    fake.enqueue('openai-responses', { kind: 'text', text: 'ok' });
    await h.sendMessage(
      {
        conversationId: 'c1',
        text: 'Next',
        target: OPENAI,
        confirmedDisclosure: true,
        excludeTurns,
        excludeBlocks: [{ turn: 'gone2', index: 3 }],
      },
      'extension',
    );
    await engine.settled('c1');
    const body = posts()[0]!.body;
    expect(JSON.stringify(body)).not.toContain('LEFT OUT');
    expect(JSON.stringify(body)).toContain('Keep this first question.');
    expect(body).toEqual(preview.body);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries.map((e) => e.turns.map(([id]) => id))).toEqual([['u1', 'a1', 't1']]);
    expect((await store.get('c1')).turns.map((t) => [t.id, t.status ?? 'complete'])).toEqual([
      ['u1', 'complete'],
      ['a1', 'complete'],
      ['u2', 'complete'],
      ['a2', 'complete'],
      ['t1', 'complete'],
      ['t2', 'complete'],
    ]);
  });

  it('unknownExclusions: unknown ids and block indices past the end, once each, in the order given', () => {
    const turns = [user('u1', 'a'), answer('a1', 'b')];
    expect(unknownExclusions(turns, {})).toEqual({ turns: [], blocks: [] });
    expect(
      unknownExclusions(turns, {
        excludeTurns: ['u1', 'x', 'x', 'y'],
        excludeBlocks: [
          { turn: 'a1', index: 0 },
          { turn: 'a1', index: 1 },
          { turn: 'a1', index: 1 },
          { turn: 'z', index: 0 },
        ],
      }),
    ).toEqual({
      turns: ['x', 'y'],
      blocks: [
        { turn: 'a1', index: 1 },
        { turn: 'z', index: 0 },
      ],
    });
  });
});

describe('a confirmation names the provider it was shown for (docs/disclosure.md)', () => {
  it('confirmed for OpenAI cannot send to Anthropic (nothing sent, nothing stored); confirmed for Anthropic can', async () => {
    const { h, engine, origin } = await setup();
    const before = await dump();
    await expect(
      h.sendMessage(
        {
          conversationId: 'c1',
          text: 'Next',
          target: ANTHROPIC,
          confirmedDisclosure: true,
          confirmedFor: { providerId: 'openai', origin },
        },
        'extension',
      ),
    ).rejects.toMatchObject({
      code: 'confirmation_required',
      message: expect.stringMatching(/confirmed for openai .*not for anthropic/),
    });
    // The same provider id at another origin (its base URL changed since the dialog) is another provider.
    await expect(
      h.sendMessage(
        {
          conversationId: 'c1',
          text: 'Next',
          target: ANTHROPIC,
          confirmedDisclosure: true,
          confirmedFor: { providerId: 'anthropic', origin: 'https://api.anthropic.com' },
        },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    // `confirmedFor` without `confirmedDisclosure: true` confirms nothing.
    await expect(
      h.sendMessage(
        { conversationId: 'c1', text: 'Next', target: ANTHROPIC, confirmedFor: { providerId: 'anthropic', origin } },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);

    const preview = await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'Next' }, 'extension');
    expect(preview.needsConfirmation).toBe(true);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'ok' });
    await h.sendMessage(
      {
        conversationId: 'c1',
        text: 'Next',
        target: ANTHROPIC,
        confirmedDisclosure: true,
        confirmedFor: { providerId: preview.target.providerId, origin: preview.target.origin },
      },
      'extension',
    );
    await engine.settled('c1');
    expect(posts().map((r) => r.body)).toEqual([preview.body]);
  });

  it('older callers: `confirmedDisclosure: true` alone still confirms; a provider that has the conversation ignores `confirmedFor`', async () => {
    const { h, engine, origin } = await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'one' });
    await h.sendMessage({ conversationId: 'c1', text: 'One', target: OPENAI, confirmedDisclosure: true }, 'extension');
    await engine.settled('c1');
    fake.enqueue('openai-responses', { kind: 'text', text: 'two' });
    await h.sendMessage(
      {
        conversationId: 'c1',
        text: 'Two',
        target: OPENAI,
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'anthropic', origin },
      },
      'extension',
    );
    await engine.settled('c1');
    expect(posts()).toHaveLength(2);
  });

  it('regenerateTurn and editAndResend check `confirmedFor` the same way', async () => {
    const { h, origin } = await setup();
    const forOpenAi = { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin } };
    await expect(
      h.regenerateTurn({ conversationId: 'c1', target: ANTHROPIC, ...forOpenAi }, 'extension'),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    await expect(
      h.editAndResend(
        { conversationId: 'c1', turnId: 'u2', text: 'Edited', target: ANTHROPIC, ...forOpenAi },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    await expect(
      h.regenerateTurn(
        {
          conversationId: 'c1',
          target: ANTHROPIC,
          confirmedDisclosure: true,
          confirmedFor: { providerId: 'anthropic', origin: 'https://elsewhere.example' },
        },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    expect(posts()).toEqual([]);
  });

  it('confirmationOf and refuseUnconfirmed', () => {
    const a = { providerId: 'anthropic', origin: 'https://api.anthropic.com' };
    expect([
      confirmationOf({}),
      confirmationOf({ confirmedDisclosure: false, confirmedFor: a }),
      confirmationOf({ confirmedDisclosure: true }),
      confirmationOf({ confirmedDisclosure: true, confirmedFor: a }),
    ]).toEqual([false, false, true, a]);
    const first = { firstDisclosure: true };
    expect(() => refuseUnconfirmed(first, a, a)).not.toThrow();
    expect(() => refuseUnconfirmed(first, a, true)).not.toThrow();
    expect(() => refuseUnconfirmed(first, a, undefined)).not.toThrow();
    expect(() => refuseUnconfirmed(first, a, false)).toThrow(
      expect.objectContaining({ code: 'confirmation_required' }),
    );
    expect(() => refuseUnconfirmed(first, a, { ...a, origin: 'https://proxy.example' })).toThrow(
      expect.objectContaining({ code: 'confirmation_required' }),
    );
    expect(() => refuseUnconfirmed({ firstDisclosure: false }, a, { providerId: 'openai', origin: 'x' })).not.toThrow();
  });
});
