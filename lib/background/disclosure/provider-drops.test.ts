/**
 * What the provider reported it dropped goes on the ledger record of that send (docs/disclosure.md,
 * "What the provider dropped"; A-B5): the pure lookup of `input_transformations` paths in the body
 * sent, and a whole send through the fake Anthropic endpoint, which under the thinking-binding beta
 * drops a block whose prefix changed and says so (A-B3).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import { toEntry, type LedgerRecord } from '../../store/disclosures';
import type { Transcript, Turn } from '../../transcript/schema';
import { ANTHROPIC, createTestBackground, fakeProvidersForFile, NOW } from '../background.test-helper';
import { providerDropOf } from './provider-drops';

const fake = fakeProvidersForFile();
let db: BatonDb;
afterEach(() => db?.close());

const u = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const claude = (id: string, signature: string, meta?: Turn['meta']): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
  blocks: [
    { type: 'thinking', text: `thought ${id}`, signature },
    { type: 'text', text: `answer ${id}` },
  ],
  ...(meta ? { meta } : {}),
});
const transcript = (turns: Turn[]): Transcript => ({ format: 'baton.transcript', version: 1, id: 'c', turns });
const bodyOf = (turns: Turn[]) => ({
  messages: turns.map((t) => ({
    role: t.role,
    content: t.blocks.map((b) =>
      b.type === 'thinking' ? { type: 'thinking', thinking: b.text, signature: b.signature } : b,
    ),
  })),
});

describe('providerDropOf (A-B5)', () => {
  const turns = [u('u1', 'a'), claude('a1', 'sig-1'), u('u2', 'b'), claude('a2', 'sig-2'), u('u3', 'c')];

  it('A-B5 places each thinking_dropped path in the body sent and names the turn that held the block', () => {
    const answer = claude('a3', 'sig-3', {
      inputTransformations: [
        { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'prefix_binding_mismatch' },
        { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'model_binding_mismatch' },
        { type: 'thinking_mismatch_allowed', path: 'messages.1.content.0' },
      ],
    });
    expect(providerDropOf('anthropic-messages', bodyOf(turns), transcript(turns), answer)).toEqual({
      what: 'reasoning',
      blocks: 2,
      turns: ['a1', 'a2'],
      reasons: ['prefix_binding_mismatch', 'model_binding_mismatch'],
    });
  });

  it('A-B5 a path that names no thinking block still counts as a dropped block, with no turn', () => {
    const answer = claude('a3', 'sig-3', {
      inputTransformations: [
        { type: 'thinking_dropped', path: 'messages.0.content.0', reason: 'prefix_binding_mismatch' },
      ],
    });
    expect(providerDropOf('anthropic-messages', bodyOf(turns), transcript(turns), answer)).toEqual({
      what: 'reasoning',
      blocks: 1,
      turns: [],
      reasons: ['prefix_binding_mismatch'],
    });
  });

  it('nothing is recorded when nothing was dropped, or for an API that reports no drops (R-K7 is silent)', () => {
    const plain = claude('a3', 'sig-3');
    expect(providerDropOf('anthropic-messages', bodyOf(turns), transcript(turns), plain)).toBeUndefined();
    const onlyAllowed = claude('a3', 'sig-3', { inputTransformations: [{ type: 'thinking_mismatch_allowed' }] });
    expect(providerDropOf('anthropic-messages', bodyOf(turns), transcript(turns), onlyAllowed)).toBeUndefined();
    const dropped = claude('a3', 'sig-3', {
      inputTransformations: [{ type: 'thinking_dropped', path: 'messages.1.content.0' }],
    });
    expect(providerDropOf('openai-responses', bodyOf(turns), transcript(turns), dropped)).toBeUndefined();
  });

  it('a ledger record written before the field existed is still listed, without a drop', () => {
    const old: LedgerRecord = {
      id: 4,
      conversationId: 'c',
      at: NOW,
      providerId: 'anthropic',
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-6',
      endpoint: 'https://api.anthropic.com',
      turns: [['u1', 'h']],
      status: 'completed',
      mode: 'snapshot',
    };
    const entry = toEntry(old);
    expect(entry.dropped).toBeUndefined();
    expect(entry).toMatchObject({ id: 4, model: 'claude-sonnet-4-6', turns: [['u1', 'h']] });
  });
});

/**
 * Two Claude answers with thinking, then a third send that leaves the first answer out, so
 * everything before the second answer's thinking changed (A-B2). `policy`: the global disclosure
 * policy set first.
 */
async function changedHistory(policy?: { prefixMismatchBehavior: 'error' }) {
  const bg = await createTestBackground(fake, { name: 'provider-drops' });
  db = bg.db;
  const { h, engine } = bg;
  if (policy) await h.setDisclosurePolicy({ policy }, 'extension');
  const send = async (text: string, excludeTurns?: string[]) => {
    await h.sendMessage(
      {
        conversationId: 'c1',
        text,
        target: { ...ANTHROPIC, thinking: true },
        confirmedDisclosure: true,
        ...(excludeTurns ? { excludeTurns } : {}),
      },
      'extension',
    );
    await engine.settled('c1');
  };
  fake.enqueue('anthropic-messages', { kind: 'thinking', thinking: 'First.', signature: 'sig-pd-1', text: 'One.' });
  await send('Plan a trip.');
  fake.enqueue('anthropic-messages', { kind: 'thinking', thinking: 'Second.', signature: 'sig-pd-2', text: 'Two.' });
  await send('And back?');
  const [, first, , second] = (await bg.store.get('c1')).turns;
  expect(second?.blocks[0]).toMatchObject({ type: 'thinking', signature: 'sig-pd-2' });
  // A-B2: before the send, the preview says Anthropic will drop the second answer's thinking.
  const preview = (excludeTurns?: string[]) =>
    h.previewSend(
      {
        conversationId: 'c1',
        text: 'Once more.',
        target: { ...ANTHROPIC, thinking: true },
        ...(excludeTurns ? { excludeTurns } : {}),
      },
      'extension',
    );
  const before = { unchanged: await preview(), changed: await preview([first!.id]) };
  fake.enqueue('anthropic-messages', { kind: 'text', text: 'Three.' });
  await send('Once more.', [first!.id]);
  const last = fake.requests.filter((r) => r.method === 'POST').at(-1)!;
  const ledger = await h.listDisclosures({ conversationId: 'c1' }, 'extension');
  const turns = (await bg.store.get('c1')).turns;
  return { second: second!, last, ledger, turns, send, before };
}

describe('the ledger records what Anthropic dropped (A-B3, A-B5)', () => {
  it('A-B5 a send whose history changed before replayed thinking: the beta drop is on that send’s ledger entry', async () => {
    const { second, last, ledger } = await changedHistory();
    expect(last.headers['anthropic-beta']).toContain('thinking-binding-controls');
    expect(ledger.entries.map((e) => e.dropped)).toEqual([
      undefined,
      undefined,
      { what: 'reasoning', blocks: 1, turns: [second.id], reasons: ['prefix_binding_mismatch'] },
    ]);
  });

  it('A-B2 the preview says before the send that Anthropic will drop thinking whose history changed; not when nothing changed', async () => {
    const { before } = await changedHistory();
    expect(before.unchanged.reasoningUnused ?? []).toEqual([]);
    expect(before.changed.reasoningUnused).toContainEqual({
      reason: 'prefix-changed',
      turns: 1,
      reasoningTokens: expect.any(Number),
    });
  });

  it('A-B5 the dropped block is placed against the body sent: the next full send leaves out exactly that block', async () => {
    const { second, turns, send } = await changedHistory();
    const answer = turns.at(-1)!;
    expect(answer.meta?.droppedThinking).toEqual([{ turn: second.id, index: 0, reason: 'prefix_binding_mismatch' }]);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Four.' });
    await send('Cheaper?');
    const json = JSON.stringify(fake.requests.filter((r) => r.method === 'POST').at(-1)!.body);
    // The first answer is back in this send with its prefix unchanged: its thinking goes; the
    // second's was dropped by the API and is not sent again.
    expect(json).toContain('sig-pd-1');
    expect(json).not.toContain('sig-pd-2');
  });

  it('A-B3 the person’s policy "fail" is used by the send: no beta, the thinking Baton knows is unbound is not sent, nothing reported dropped', async () => {
    const { last, ledger, turns } = await changedHistory({ prefixMismatchBehavior: 'error' });
    expect(last.headers['anthropic-beta'] ?? '').not.toContain('thinking-binding-controls');
    const json = JSON.stringify(last.body);
    expect(json).not.toContain('drop_block');
    expect(json).not.toContain('sig-pd-2');
    expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
    expect(ledger.entries.every((e) => e.dropped === undefined)).toBe(true);
  });
});
