/**
 * The disclosure preview plans from the background's transcript cache (docs/architecture.md#long-conversations-and-speed): after every
 * kind of change — an append, a send and its streamed answer, an edited turn, turns deleted, a
 * rename, the conversation deleted — the next preview shows the change, and its body is the one
 * a fresh read of the store gives. Real stores over fake-indexeddb, the real SDK transports and
 * the fake providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import type { Turn } from '../../transcript/schema';
import { answer, ANTHROPIC, createTestBackground, fakeProvidersForFile, NOW, user } from '../background.test-helper';

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

describe('previews after changes (transcript cache, docs/architecture.md#long-conversations-and-speed)', () => {
  it('every append, send, edit, delete and rename shows in the next preview, whose body equals one planned from a fresh read', async () => {
    const bg = await createTestBackground(fake, { name: 'preview-cache' });
    db = bg.db;
    const { store, engine, h } = bg;
    for (const t of [
      user('u1', 'first question'),
      answer('a1', 'first answer'),
      user('u2', 'second question'),
      answer('a2', 'second answer'),
    ])
      await store.appendTurn('c1', t, NOW);
    const preview = () => h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'draft words' }, 'extension');
    /** The preview, checked against a preview planned after the cache is emptied (a fresh read). */
    const checked = async () => {
      const p = await preview();
      store.transcripts.clear();
      expect(JSON.stringify(p.body)).toBe(JSON.stringify((await preview()).body));
      return p;
    };
    const ids = (p: Awaited<ReturnType<typeof preview>>) => p.perTurn.map((t) => t.id);

    const first = await preview();
    expect(ids(first)).toEqual(['u1', 'a1', 'u2', 'a2', 'draft']);
    // Served from the cache: the same stored turns give the same body.
    expect(JSON.stringify((await preview()).body)).toBe(JSON.stringify(first.body));

    await store.appendTurn('c1', user('u3', 'appended question'), NOW);
    let p = await checked();
    expect(ids(p)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'draft']);
    expect(JSON.stringify(p.body)).toContain('appended question');

    await store.putTurn('c1', answer('a1', 'first answer, edited'), NOW);
    p = await checked();
    expect(JSON.stringify(p.body)).toContain('first answer, edited');
    expect(JSON.stringify(p.body)).not.toContain('"first answer"');

    await store.deleteTurnsFrom('c1', 'u2', NOW);
    p = await checked();
    expect(ids(p)).toEqual(['u1', 'a1', 'draft']);
    expect(JSON.stringify(p.body)).not.toContain('second question');

    // A send: the user turn, the streamed answer's placeholder and its final turn (with the ledger record).
    await preview();
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'the streamed answer' });
    await h.sendMessage(
      { conversationId: 'c1', text: 'sent question', target: ANTHROPIC, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    p = await checked();
    expect(p.perTurn.map((t) => t.preview).slice(-3)).toEqual(['sent question', 'the streamed answer', 'draft words']);
    expect(p.needsConfirmation).toBe(false);

    await h.renameConversation({ id: 'c1', title: 'Renamed' }, 'extension');
    expect((await store.cachedTranscript('c1')).title).toBe('Renamed');

    await h.deleteConversation({ id: 'c1' }, 'extension');
    await expect(preview()).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a counts-only preview (docs/architecture.md#long-conversations-and-speed) has every count of the whole preview, without the per-turn list and the body', async () => {
    const bg = await createTestBackground(fake, { name: 'preview-summary' });
    db = bg.db;
    const { store, h } = bg;
    const reasoning: Turn = {
      ...answer('a1', 'first answer'),
      blocks: [
        { type: 'thinking', text: 'private steps' },
        { type: 'text', text: 'first answer' },
      ],
    };
    for (const t of [
      user('u1', 'first question'),
      reasoning,
      user('u2', 'second question'),
      answer('a2', 'second answer'),
    ])
      await store.appendTurn('c1', t, NOW);
    await h.setDisclosurePolicy({ conversationId: 'c1', policy: { foreignReasoning: 'text' } }, 'extension');
    const ask = { conversationId: 'c1', target: ANTHROPIC, text: 'draft words', excludeTurns: ['u2'] };
    const full = await h.previewSend(ask, 'extension');
    const counts = await h.previewSend({ ...ask, countsOnly: true }, 'extension');
    expect(full.convertedBlocks).toBeGreaterThan(0);
    expect(full.droppedByReason).not.toEqual({});
    expect(counts).toEqual({ ...full, perTurn: [], body: {}, countsOnly: true });
  });
});
