/**
 * Receipt-checked chaining on Gemini Interactions (docs/disclosure.md, "Snapshot or delta"; GI-P1,
 * GI-P2): stateless by default; with server-side state allowed, a send after a completed stored
 * interaction carries only the new turns with `previous_interaction_id` and `store: true`, and
 * every doubt (an edit, a version switch, another model) sends the whole history with the reason.
 * Real stores (fake-indexeddb), the SDK transport and the fake providers on 127.0.0.1, whose
 * validator judges each body and which keep stored interactions.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { ANTHROPIC, createTestBackground, fakeProvidersForFile } from '../background.test-helper';
import { validateGeminiInteractionsRequest } from '../../../test/contract/gemini-interactions';

const fake = fakeProvidersForFile();
let db: BatonDb;
afterEach(() => db?.close());

const GI: SendTarget = { providerId: 'google', model: 'gemini-3.8-flash', api: 'gemini-interactions' };

async function setup(stateful = true) {
  const bg = await createTestBackground(fake, { name: 'delta-gi', providers: ['anthropic', 'google'] });
  db = bg.db;
  const { engine, h } = bg;
  if (stateful) await h.setDisclosurePolicy({ conversationId: 'c1', policy: { delivery: 'stateful' } }, 'extension');
  const say = async (text: string, target: SendTarget = GI) => {
    fake.enqueue(target.providerId === 'google' ? 'gemini-interactions' : 'anthropic-messages', {
      kind: 'text',
      text: `re: ${text}`,
    });
    await h.sendMessage({ conversationId: 'c1', text, target, confirmedDisclosure: true }, 'extension');
    await engine.settled('c1');
    const last = fake.requests.filter((r) => r.method === 'POST').at(-1)!;
    return { path: last.path, body: last.body as Record<string, unknown> };
  };
  return { ...bg, say };
}

const texts = (body: Record<string, unknown>) => JSON.stringify(body.input).match(/"text":"[^"]*"/g);

describe('Gemini Interactions: stateless by default, receipt-checked chaining when allowed', () => {
  it('GI-P2: policy off, every send is store: false with the whole history', async () => {
    const { say } = await setup(false);
    await say('one');
    const { path, body } = await say('two');
    expect(path).toContain('/interactions');
    expect(body.store).toBe(false);
    expect(body.previous_interaction_id).toBeUndefined();
    expect(texts(body)).toEqual(['"text":"one"', '"text":"re: one"', '"text":"two"']);
  });

  it('GI-P1: allowed, the first send stores the whole history, the next only the new turn with previous_interaction_id, as previewed; the ledger says Google keeps it', async () => {
    const { h, say } = await setup();
    const first = (await say('one')).body;
    expect(first).toMatchObject({ store: true });
    expect(first.previous_interaction_id).toBeUndefined();
    const preview = await h.previewSend({ conversationId: 'c1', target: GI, text: 'two' }, 'extension');
    expect(preview.delivery).toMatchObject({ mode: 'delta' });
    expect(preview.delivery.detail).toContain('previous_interaction_id');
    expect(preview.perTurn.find((t) => t.id === 't1')?.droppedReason).toContain('previous_interaction_id');
    const second = (await say('two')).body;
    expect(second).toEqual(preview.body);
    expect(second).toMatchObject({ store: true });
    expect(second.previous_interaction_id).toMatch(/^v1_/);
    expect(texts(second)).toEqual(['"text":"two"']);
    // The fake's validator accepted it, and the server's chain holds the whole conversation.
    expect(validateGeminiInteractionsRequest(second)).toEqual([]);
    const chained = fake.interactions.get(
      (await h.listDisclosures({ conversationId: 'c1' }, 'extension')).entries.at(-1)!.responseId!,
    )!;
    // (The fake's chain keeps the inputs; the model's own steps live on the server.)
    expect(JSON.stringify(chained.input).match(/"text":"[^"]*"/g)).toEqual(['"text":"one"', '"text":"two"']);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries.map((e) => [e.mode, e.stored])).toEqual([
      ['snapshot', true],
      ['delta', true],
    ]);
    expect(ledger.seenBy).toEqual([expect.objectContaining({ providerId: 'google', keeps: ['stored interactions'] })]);
  });

  it('a stateless target in between: back on Interactions, everything since the stored interaction goes as new turns', async () => {
    const { say } = await setup();
    await say('one');
    const claude = (await say('two', ANTHROPIC)).body;
    expect(claude.store).toBeUndefined();
    const back = (await say('three')).body;
    expect(back.previous_interaction_id).toMatch(/^v1_/);
    expect(texts(back)).toEqual(['"text":"two"', '"text":"re: two"', '"text":"three"']);
  });

  it('GI-P2: another model is another store: the whole history, with the reason', async () => {
    const { h, say } = await setup();
    await say('one');
    const other = { ...GI, model: 'gemini-3.7-flash' };
    const p = await h.previewSend({ conversationId: 'c1', target: other, text: 'two' }, 'extension');
    expect(p.delivery).toEqual({
      mode: 'snapshot',
      stateful: true,
      detail: 'the stored interaction is from another model, key or endpoint',
    });
    expect(p.body).toMatchObject({ store: true });
    expect(p.body.previous_interaction_id).toBeUndefined();
  });

  it('an edit before the stored answer (a new version) falls back to the whole history, with the reason', async () => {
    const { h, say, engine } = await setup();
    await say('one');
    await say('two');
    fake.enqueue('gemini-interactions', { kind: 'text', text: 're: one, edited' });
    await h.editAndResend(
      { conversationId: 'c1', turnId: 't1', text: 'one, edited', target: GI, confirmedDisclosure: true },
      'extension',
    );
    await engine.settled('c1');
    const edited = fake.requests.filter((r) => r.method === 'POST').at(-1)!.body as Record<string, unknown>;
    // The edit's own send: the receipt's turns are not on the active version any more.
    expect(edited.previous_interaction_id).toBeUndefined();
    expect(texts(edited)).toEqual(['"text":"one, edited"']);
    // Its answer is a new receipt: the next send chains from it.
    const next = await h.previewSend({ conversationId: 'c1', target: GI, text: 'three' }, 'extension');
    expect(next.delivery.mode).toBe('delta');
    // Back on the earlier version: its stored answer is no longer the receipt's, so the whole history.
    const conv = await h.getConversation({ id: 'c1' }, 'extension');
    const older = conv.versions?.[conv.turns[0]!.id]?.previous;
    expect(older).toBeDefined();
    await h.selectVersion({ conversationId: 'c1', turnId: older! }, 'extension');
    const p = await h.previewSend({ conversationId: 'c1', target: GI, text: 'three' }, 'extension');
    expect(p.delivery).toMatchObject({ mode: 'snapshot', stateful: true });
    expect(p.delivery.detail).toMatch(/no longer in this conversation's active version/);
  });
});
