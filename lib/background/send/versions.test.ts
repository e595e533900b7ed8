/**
 * docs/transcript.md#versions-and-branches through the background: a regenerate with another
 * provider and an edit of an earlier message add versions and delete nothing a provider wrote;
 * the disclosure preview, and the body then sent, carry the active path only; switching and
 * deleting versions. Real stores over fake-indexeddb, the real SDK transports and the fake
 * providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import { ANTHROPIC, createTestBackground, fakeProvidersForFile, OPENAI } from '../background.test-helper';

const fake = fakeProvidersForFile();
let db: BatonDb;
afterEach(() => db?.close());

const posts = () => fake.requests.filter((r) => r.method === 'POST');

async function setup() {
  const bg = await createTestBackground(fake, { name: 'versions' });
  db = bg.db;
  const say = async (text: string, answer: string) => {
    fake.enqueue('openai-responses', { kind: 'text', text: answer });
    await bg.h.sendMessage({ conversationId: 'c1', text, target: OPENAI, confirmedDisclosure: true }, 'extension');
    await bg.engine.settled('c1');
  };
  const texts = async () =>
    (await bg.store.get('c1')).turns.map((t) => t.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''));
  return { ...bg, say, texts };
}

describe('versions through the background', () => {
  it('a regenerate with another provider keeps the first answer reachable; the next body holds the active version only', async () => {
    const { h, engine, store, say, texts } = await setup();
    await say('Pick a number.', 'OPENAI-ANSWER-7');
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'CLAUDE-ANSWER-9' });
    await h.regenerateTurn({ conversationId: 'c1', target: ANTHROPIC, confirmedDisclosure: true }, 'extension');
    await engine.settled('c1');
    expect(await texts()).toEqual(['Pick a number.', 'CLAUDE-ANSWER-9']);
    const view = await h.getConversation({ id: 'c1' }, 'extension');
    const last = view.turns.at(-1)!;
    expect(view.versions?.[last.id]).toMatchObject({ index: 2, count: 2 });

    // The next request: the preview and the body sent carry Claude's answer only.
    const preview = await h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'And now?' }, 'extension');
    expect(JSON.stringify(preview.body)).toContain('CLAUDE-ANSWER-9');
    expect(JSON.stringify(preview.body)).not.toContain('OPENAI-ANSWER-7');
    fake.reset();
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Fine.' });
    await h.sendMessage({ conversationId: 'c1', text: 'And now?', target: ANTHROPIC }, 'extension');
    await engine.settled('c1');
    expect(posts()[0]!.body).toEqual(preview.body);

    // The first answer is still there, a click away, and then it is what a send carries.
    const firstAnswer = view.versions![last.id]!.previous!;
    await h.selectVersion({ conversationId: 'c1', turnId: firstAnswer }, 'extension');
    expect(await texts()).toEqual(['Pick a number.', 'OPENAI-ANSWER-7']);
    const again = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'x' }, 'extension');
    expect(JSON.stringify(again.body)).toContain('OPENAI-ANSWER-7');
    expect(JSON.stringify(again.body)).not.toContain('CLAUDE-ANSWER-9');
    // Nothing a provider wrote was deleted.
    const all = (await store.toTranscriptTree('c1')).tree.turns.map((t) => t.turn.role);
    expect(all.filter((r) => r === 'assistant')).toHaveLength(3);
  });

  it('editing the third of six user messages starts a branch; both branches stay; the preview follows the active one', async () => {
    const { h, engine, store, say, texts } = await setup();
    for (let i = 1; i <= 6; i++) await say(`Q${i}`, `A${i}`);
    const third = (await store.get('c1')).turns[4]!;
    expect(third.blocks).toEqual([{ type: 'text', text: 'Q3' }]);
    fake.enqueue('openai-responses', { kind: 'text', text: 'A3-EDITED' });
    await h.editAndResend({ conversationId: 'c1', turnId: third.id, text: 'Q3-EDITED', target: OPENAI }, 'extension');
    await engine.settled('c1');
    expect(await texts()).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3-EDITED', 'A3-EDITED']);
    const preview = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'next' }, 'extension');
    expect(JSON.stringify(preview.body)).not.toMatch(/"Q3"|A4|Q6/);
    // Back to the first version: the whole first branch.
    await h.selectVersion({ conversationId: 'c1', turnId: third.id }, 'extension');
    expect(await texts()).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3', 'A3', 'Q4', 'A4', 'Q5', 'A5', 'Q6', 'A6']);
    const view = await h.getConversation({ id: 'c1', limit: 50 }, 'extension');
    expect(view.versions?.[third.id]).toMatchObject({ index: 1, count: 2 });
  });

  it('deleteVersion removes one version and its later turns; the only version of a message cannot be deleted', async () => {
    const { h, engine, say, texts, events } = await setup();
    await say('Hi', 'FIRST');
    fake.enqueue('openai-responses', { kind: 'text', text: 'SECOND' });
    await h.regenerateTurn({ conversationId: 'c1', target: OPENAI }, 'extension');
    await engine.settled('c1');
    const view = await h.getConversation({ id: 'c1' }, 'extension');
    const second = view.turns.at(-1)!.id;
    await expect(
      h.deleteVersion({ conversationId: 'c1', turnId: view.turns[0]!.id }, 'extension'),
    ).rejects.toMatchObject({ code: 'bad_request' });
    const meta = await h.deleteVersion({ conversationId: 'c1', turnId: second }, 'extension');
    expect(meta.turnCount).toBe(2);
    // Every page's list learns the new count and preview.
    expect(events.at(-1)).toEqual({ type: 'conversationUpdated', meta });
    expect(await texts()).toEqual(['Hi', 'FIRST']);
    expect((await h.getConversation({ id: 'c1' }, 'extension')).versions).toBeUndefined();
    await expect(h.selectVersion({ conversationId: 'c1', turnId: second }, 'extension')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
