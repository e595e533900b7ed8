/**
 * Snapshot or delta, the background side (docs/disclosure.md): a stateful Responses conversation sends only
 * the new turns after a completed, stored response; every doubt sends the bounded snapshot.
 * Real stores (fake-indexeddb), SDK transports and the fake providers on 127.0.0.1.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { ANTHROPIC, createTestBackground, fakeProvidersForFile, NOW, OPENAI } from '../background.test-helper';

const fake = fakeProvidersForFile();
let db: BatonDb;
afterEach(() => db?.close());

async function setup(stateful = true) {
  const bg = await createTestBackground(fake, { name: 'delta', providers: ['openai', 'anthropic'] });
  db = bg.db;
  const { store, vault, engine, h, origin } = bg;
  if (stateful) await h.setDisclosurePolicy({ conversationId: 'c1', policy: { delivery: 'stateful' } }, 'extension');
  const say = async (text: string, target: SendTarget = OPENAI, extra: { excludeTurns?: string[] } = {}) => {
    fake.enqueue(target === OPENAI ? 'openai-responses' : 'anthropic-messages', { kind: 'text', text: `re: ${text}` });
    await h.sendMessage({ conversationId: 'c1', text, target, confirmedDisclosure: true, ...extra }, 'extension');
    await engine.settled('c1');
    return fake.requests.filter((r) => r.method === 'POST').at(-1)!.body as Record<string, unknown>;
  };
  return { h, say, vault, origin, store, engine };
}

const inputTexts = (body: Record<string, unknown>) => JSON.stringify(body.input).match(/"text":"[^"]*"/g);

describe('snapshot or delta (background)', () => {
  it('stateful + Responses: the first send stores the snapshot, the next sends only the new turn with previous_response_id, as previewed', async () => {
    const { h, say } = await setup();
    const first = await say('one');
    expect(first).toMatchObject({ store: true });
    expect(first.previous_response_id).toBeUndefined();
    const preview = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'two' }, 'extension');
    expect(preview.delivery.mode).toBe('delta');
    expect(preview.perTurn.map((t) => [t.id, t.included])).toEqual([
      ['t1', false],
      ['t2', false],
      ['draft', true],
    ]);
    const second = await say('two');
    expect(second).toEqual(preview.body);
    expect(second).toMatchObject({ store: true, previous_response_id: 'resp_fake1' });
    expect(inputTexts(second)).toEqual(['"text":"two"']);
    // A chain: the third builds on the second response.
    const third = await say('three');
    expect(third).toMatchObject({ previous_response_id: 'resp_fake2' });
    expect(inputTexts(third)).toEqual(['"text":"three"']);
    const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
    expect(ledger.entries.map((e) => [e.mode, e.turns.map(([id]) => id)])).toEqual([
      ['snapshot', ['t1']],
      ['delta', ['t3']],
      ['delta', ['t5']],
    ]);
    // Receipts are internal: never in a listed entry.
    expect(JSON.stringify(ledger)).not.toMatch(/receipt|anchor|providerSessionKey/);
  });

  it('policy off (the default): every send is the snapshot with store: false', async () => {
    const { say } = await setup(false);
    await say('one');
    const second = await say('two');
    expect(second).toMatchObject({ store: false });
    expect(second.previous_response_id).toBeUndefined();
    expect(inputTexts(second)).toEqual(['"text":"one"', '"text":"re: one"', '"text":"two"']);
  });

  it('a target that keeps no state (Anthropic) gets the snapshot; back on OpenAI, everything since its stored response is sent', async () => {
    const { say } = await setup();
    await say('one');
    const claude = await say('two', ANTHROPIC);
    expect(claude.previous_response_id).toBeUndefined();
    expect(claude.store).toBeUndefined();
    const back = await say('three');
    expect(back).toMatchObject({ store: true, previous_response_id: 'resp_fake1' });
    expect(inputTexts(back)).toEqual(['"text":"two"', '"text":"re: two"', '"text":"three"']);
  });

  it('a failed last response falls back to the snapshot', async () => {
    const { h, say, engine } = await setup();
    await say('one');
    fake.enqueue('openai-responses', { kind: 'error', status: 400 });
    await h.sendMessage({ conversationId: 'c1', text: 'two', target: OPENAI }, 'extension');
    await engine.settled('c1');
    const preview = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'three' }, 'extension');
    expect(preview.delivery.mode).toBe('snapshot');
  });

  it('an edited or deleted turn falls back to the snapshot (anchor missing)', async () => {
    const { h, say, store } = await setup();
    await say('one');
    await say('two');
    // Editing the last message removes it and its answer (the receipt's anchor).
    await store.deleteTurnsFrom('c1', 't3', NOW);
    const p = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'two, edited' }, 'extension');
    expect(p.delivery).toEqual({
      mode: 'snapshot',
      stateful: true,
      detail:
        "the stored answer t4 is no longer in this conversation's active version (an edit, a regenerate or a version switch)",
    });
    const body = await say('two, edited');
    expect(body).toEqual(p.body);
    expect(body.previous_response_id).toBeUndefined();
    expect(inputTexts(body)).toEqual(['"text":"one"', '"text":"re: one"', '"text":"two, edited"']);
  });

  it('another provider session (a new key) falls back to the snapshot', async () => {
    const { h, say, vault, origin } = await setup();
    await say('one');
    await vault.setKey('openai', `${fake.keys.openai}`, origin, 'later');
    expect((await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'x' }, 'extension')).delivery.mode).toBe(
      'delta',
    );
    await vault.setKey('openai', 'sk-another-account-key-000000', origin, 'later');
    const p = await h.previewSend({ conversationId: 'c1', target: OPENAI, text: 'x' }, 'extension');
    expect(p.delivery).toEqual({
      mode: 'snapshot',
      stateful: true,
      detail: 'the receipt is from another provider session',
    });
  });

  it('turns left out of the send force the snapshot', async () => {
    const { say } = await setup();
    await say('one');
    await say('two');
    const body = await say('three', OPENAI, { excludeTurns: ['t1'] });
    expect(body.previous_response_id).toBeUndefined();
    expect(JSON.stringify(body.input)).not.toContain('"one"');
  });
});
