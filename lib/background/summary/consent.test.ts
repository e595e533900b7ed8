/**
 * Loose ends of "summarise the earlier part" (docs/disclosure.md, "Fitting") through the real handlers:
 * `summariseEarlier` checks `confirmedFor` exactly like `sendMessage` (a confirmation shown for one
 * summariser cannot authorise another); storing or clearing a summary broadcasts `summaryUpdated`
 * so every open panel refreshes; the draft's attachments count towards the turns picked, exactly
 * as the bar counts them. Real stores over fake-indexeddb, the real SDK transports and the fake
 * providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Attachment } from '../../messaging/protocol';
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

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

const posts = () => fake.requests.filter((r) => r.method === 'POST');
const dump = async () => ({
  conversations: await db.getAll('conversations'),
  turns: await turnRecords(db),
  disclosures: await db.getAll('disclosures'),
});
const ASK = { conversationId: 'c1', target: OPENAI, summariser: ANTHROPIC, text: 'Next' };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Conversation c1: four exchanges answered by OpenAI (each turn `words` words long), with `policy`. */
async function setup(policy: Record<string, unknown> = { maxTurns: 4 }, words = 8) {
  const bg = await createTestBackground(fake, { name: 'summary-consent' });
  db = bg.db;
  const filler = (i: number) => ` remember ${i * 11}`.repeat(Math.max(1, words / 2));
  for (let i = 1; i <= 4; i++) {
    await bg.store.appendTurn('c1', user(`u${i}`, `Question ${i}:${filler(i)}.`), NOW);
    await bg.store.appendTurn('c1', answer(`a${i}`, `Noted${filler(i)}.`), NOW);
  }
  await bg.h.setDisclosurePolicy({ conversationId: 'c1', policy }, 'extension');
  return bg;
}

describe('summariseEarlier checks confirmedFor like sendMessage (docs/disclosure.md)', () => {
  it('a confirmation named for another provider or origin is refused, sending and storing nothing; the summariser named goes through', async () => {
    const { h, origin } = await setup();
    const preview = await h.previewSummary(ASK, 'extension');
    expect(preview).toMatchObject({ needsConfirmation: true, summariser: { providerId: 'anthropic', origin } });
    const ask = { ...ASK, turnIds: preview.turnIds };
    const before = await dump();
    await expect(
      h.summariseEarlier(
        { ...ask, confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin } },
        'extension',
      ),
    ).rejects.toMatchObject({
      code: 'confirmation_required',
      message: `The disclosure was confirmed for openai (${origin}), not for anthropic (${origin}), which has not received this conversation yet: confirm it first.`,
    });
    await expect(
      h.summariseEarlier(
        {
          ...ask,
          confirmedDisclosure: true,
          confirmedFor: { providerId: 'anthropic', origin: 'https://api.anthropic.com' },
        },
        'extension',
      ),
    ).rejects.toMatchObject({ code: 'confirmation_required' });
    // `confirmedFor` without `confirmedDisclosure: true` confirms nothing.
    await expect(
      h.summariseEarlier({ ...ask, confirmedFor: { providerId: 'anthropic', origin } }, 'extension'),
    ).rejects.toMatchObject({
      code: 'confirmation_required',
      message: `anthropic (${origin}) has not received this conversation yet: confirm the disclosure first.`,
    });
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);

    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Numbers 11, 22 and 33.' });
    const summary = await h.summariseEarlier(
      {
        ...ask,
        confirmedDisclosure: true,
        confirmedFor: { providerId: preview.summariser.providerId, origin: preview.summariser.origin },
      },
      'extension',
    );
    expect(summary).toMatchObject({ replaces: preview.turnIds, text: 'Numbers 11, 22 and 33.' });
    expect(posts()).toHaveLength(1);
  });

  it('the schema rejects a malformed confirmedFor', async () => {
    const { REQUESTS } = await import('../../messaging/protocol');
    const bad = REQUESTS.summariseEarlier.input.safeParse({
      ...ASK,
      turnIds: ['u1'],
      confirmedDisclosure: true,
      confirmedFor: { providerId: 'anthropic' },
    });
    expect(bad.success).toBe(false);
    expect(
      REQUESTS.summariseEarlier.input.safeParse({
        ...ASK,
        turnIds: ['u1'],
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'anthropic', origin: 'https://x.example' },
      }).success,
    ).toBe(true);
  });
});

describe('summaryUpdated (docs/disclosure.md): every open panel hears of a summary stored or cleared', () => {
  it('is broadcast once the summary is stored and once it is cleared; not for a refused or failed request', async () => {
    const { h, events } = await setup();
    const preview = await h.previewSummary(ASK, 'extension');
    const ask = { ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true };
    const summaryEvents = () => events.filter((e) => e.type === 'summaryUpdated');
    await expect(h.summariseEarlier({ ...ASK, turnIds: preview.turnIds }, 'extension')).rejects.toMatchObject({
      code: 'confirmation_required',
    });
    fake.enqueue('anthropic-messages', { kind: 'error', status: 400 });
    await expect(h.summariseEarlier(ask, 'extension')).rejects.toMatchObject({ code: 'bad_request' });
    expect(summaryEvents()).toEqual([]);

    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Numbers 11, 22 and 33.' });
    await h.summariseEarlier(ask, 'extension');
    expect(summaryEvents()).toEqual([{ type: 'summaryUpdated', conversationId: 'c1' }]);
    // Broadcast after the write: a panel that refreshes on it sees the summary.
    expect((await h.getSummary({ conversationId: 'c1' }, 'extension')).summary?.text).toBe('Numbers 11, 22 and 33.');

    await h.clearSummary({ conversationId: 'c1' }, 'extension');
    expect(summaryEvents()).toEqual([
      { type: 'summaryUpdated', conversationId: 'c1' },
      { type: 'summaryUpdated', conversationId: 'c1' },
    ]);
    expect(await h.getSummary({ conversationId: 'c1' }, 'extension')).toEqual({});
    await expect(h.clearSummary({ conversationId: 'nope' }, 'extension')).rejects.toMatchObject({ code: 'not_found' });
    expect(summaryEvents()).toHaveLength(2);
  });
});

describe('the draft’s attachments count towards the turns picked (docs/disclosure.md)', () => {
  it('the turns summarised are exactly those the bar’s preview of the same draft (text and image) drops to fit', async () => {
    const { h } = await setup({ maxTokens: 900 }, 80);
    const image: Attachment[] = [{ kind: 'image', mediaType: 'image/png', data: PNG }];
    // No exclusions, no summary: every stored turn left out is dropped to fit (checked against the counts by reason).
    const droppedToFit = (p: Awaited<ReturnType<typeof h.previewSend>>) => {
      const ids = p.perTurn.filter((t) => !t.included && !t.draft).map((t) => t.id);
      expect(p.droppedByReason).toEqual(ids.length ? { 'over-budget': ids.length } : {});
      return ids;
    };
    const plain = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'Next' }, 'extension');
    const withImage = await h.previewSend(
      { conversationId: 'c1', target: OPENAI, text: 'Next', attachments: image },
      'extension',
    );
    // The image makes the send drop more: otherwise this test could not tell.
    expect(droppedToFit(withImage).length).toBeGreaterThan(droppedToFit(plain).length);
    expect(droppedToFit(plain).length).toBeGreaterThan(0);

    expect((await h.previewSummary(ASK, 'extension')).turnIds).toEqual(droppedToFit(plain));
    const preview = await h.previewSummary({ ...ASK, attachments: image }, 'extension');
    expect(preview.turnIds).toEqual(droppedToFit(withImage));
    // Only the stored turns go to the summariser, never the draft or its image.
    expect(JSON.stringify(preview.body)).not.toContain(PNG);

    // Consent given for the pick with the image is not consent for the pick without it.
    await expect(
      h.summariseEarlier({ ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true }, 'extension'),
    ).rejects.toMatchObject({ code: 'bad_request' });
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Earlier numbers.' });
    const summary = await h.summariseEarlier(
      { ...ASK, attachments: image, turnIds: preview.turnIds, confirmedDisclosure: true },
      'extension',
    );
    expect(summary.replaces).toEqual(droppedToFit(withImage));
  });
});
