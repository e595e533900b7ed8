/**
 * Adversarial disclosure requests through the real router, handlers, send engine and stores
 * (docs/disclosure.md, N5, M3): exclusions of unknown turns and blocks, every turn excluded, a policy that
 * forbids the provider, invalid policy values, a preview while an answer streams, and a stored
 * turn whose id is the preview's draft id. The previewed body is the sent body in every case.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply, SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { memorySession } from '../../vault/session';
import { callFrom, createTestBackground, NOW } from '../background.test-helper';
import type { Transport } from '../core/transport';

const KEY = 'sk-proj-AdversarialDisclosure-0123456789';
const OPENAI: SendTarget = { providerId: 'openai', model: 'gpt-5.5' };

let db: BatonDb | undefined;
afterEach(() => db?.close());

/**
 * The shared background without fake providers: one OpenAI key on its real origin, and a scripted
 * transport that records each body, streams a little text and fails, or holds mid-stream while
 * `gate.hold` is set.
 */
async function setup() {
  const requests: unknown[] = [];
  const gate = { hold: false, release: () => undefined as void };
  const transport: Transport = {
    streamRequest: async (_conn, body, opts) => {
      requests.push(body);
      opts.onEvent({ type: 'response.created', response: { id: 'r1', model: 'gpt-5.5' } });
      opts.onEvent({
        type: 'response.output_text.delta',
        item_id: 'm1',
        output_index: 0,
        content_index: 0,
        delta: 'partial ',
      });
      if (gate.hold) await new Promise<void>((r) => (gate.release = r));
      throw Object.assign(new Error('scripted end'), { name: 'TransportError', code: 'network' });
    },
    withRetries: (attempt) => attempt(),
    listModels: async () => [],
    countTokens: async () => {
      throw new Error('no count request in these tests');
    },
  };
  const bg = await createTestBackground(undefined, {
    name: 'adv-disclosure',
    transport,
    keys: { openai: KEY },
    vault: { session: memorySession(), iterations: 1_000 },
    // No checkpoint timer fires while a stream is held (as before the shared helper).
    engine: { clock: { now: () => Date.parse(NOW), sleep: async () => undefined, setTimer: () => () => undefined } },
  });
  ({ db } = bg);
  const { store, engine } = bg;
  const call = callFrom(bg.h, 'sidepanel.html');
  await store.appendTurn(
    'c1',
    {
      id: 'u1',
      role: 'user',
      blocks: [
        { type: 'text', text: 'first question' },
        { type: 'text', text: 'more' },
      ],
    },
    NOW,
  );
  await store.appendTurn(
    'c1',
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
      blocks: [{ type: 'text', text: 'first answer' }],
    },
    NOW,
  );
  return { call, store, engine, requests, gate };
}
interface Preview {
  allowed: boolean;
  turns: number;
  includedTurns: number;
  perTurn: { id: string; draft?: boolean; included: boolean; droppedReason?: string; blocks: { fate: string }[] }[];
  unknownExclusions?: { turns: string[]; blocks: { turn: string; index: number }[] };
  body: Record<string, unknown>;
}
const data = <T>(r: Reply<unknown>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data as T;
};
const rows = (p: Preview) =>
  p.perTurn.map((t) => [t.id, t.draft === true, t.included, t.blocks.map((b) => b.fate).join()]);

describe('previewSend and sendMessage: adversarial exclusions and policies', () => {
  it('exclusions of unknown turns and out-of-range blocks change nothing but are reported; the previewed body is the sent body', async () => {
    const { call, engine, requests } = await setup();
    const plain = data<Preview>(await call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'next' }));
    const odd = {
      excludeTurns: ['nope', 'draft'],
      excludeBlocks: [
        { turn: 'u1', index: 99 },
        { turn: 'zzz', index: 0 },
        { turn: 'draft', index: 0 },
      ],
    };
    const p = data<Preview>(await call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'next', ...odd }));
    // docs/disclosure.md: reported, so the panel can say so and drop them; the draft's own (meaningless) ones are not.
    const { unknownExclusions, ...rest } = p;
    expect(unknownExclusions).toEqual({
      turns: ['nope'],
      blocks: [
        { turn: 'u1', index: 99 },
        { turn: 'zzz', index: 0 },
      ],
    });
    expect(rest).toEqual(plain);
    expect(rows(p)).toEqual([
      ['u1', false, true, 'kept,kept'],
      ['a1', false, true, 'kept'],
      ['draft', true, true, 'kept'],
    ]);
    data(
      await call('sendMessage', {
        conversationId: 'c1',
        target: OPENAI,
        text: 'next',
        confirmedDisclosure: true,
        ...odd,
      }),
    );
    await engine.settled('c1');
    expect(requests).toEqual([p.body]);
  });

  it('every stored turn excluded: only the new message is previewed and sent; with no message, nothing is included and a retry is refused', async () => {
    const { call, engine, requests, store } = await setup();
    const all = { excludeTurns: ['u1', 'a1'] };
    const p = data<Preview>(await call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'alone', ...all }));
    expect(rows(p)).toEqual([
      ['u1', false, false, 'dropped,dropped'],
      ['a1', false, false, 'dropped'],
      ['draft', true, true, 'kept'],
    ]);
    expect(JSON.stringify(p.body)).not.toContain('first');
    const none = data<Preview>(await call('previewSend', { conversationId: 'c1', target: OPENAI, ...all }));
    expect([none.turns, none.includedTurns]).toEqual([2, 0]);
    data(
      await call('sendMessage', {
        conversationId: 'c1',
        target: OPENAI,
        text: 'alone',
        confirmedDisclosure: true,
        ...all,
      }),
    );
    await engine.settled('c1');
    expect(requests).toEqual([p.body]);
    expect((await store.get('c1')).turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('N5 a policy that forbids the provider: the preview says so and sends nothing; the send is refused before anything is written', async () => {
    const { call, requests, store } = await setup();
    for (const policy of [{ neverProviders: ['openai'] }, { lockedProvider: 'anthropic' }]) {
      expect(await call('setDisclosurePolicy', { conversationId: 'c1', policy })).toEqual({ ok: true, data: null });
      const p = data<Preview>(await call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'next' }));
      expect([p.allowed, p.includedTurns, p.perTurn.every((t) => !t.included)]).toEqual([false, 0, true]);
      const refused = await call('sendMessage', {
        conversationId: 'c1',
        target: OPENAI,
        text: 'next',
        confirmedDisclosure: true,
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'policy_forbidden' } });
    }
    expect((await store.get('c1')).turns.map((t) => t.id)).toEqual(['u1', 'a1']);
    expect(requests).toEqual([]);
  });

  it('M3 invalid policy values (negative, zero, fractional, NaN, Infinity, null, huge, empty names, unknown or prototype keys) are refused with their path; the stored policy stays', async () => {
    const { call } = await setup();
    expect(await call('setDisclosurePolicy', { conversationId: 'c1', policy: { maxTokens: 5000 } })).toEqual({
      ok: true,
      data: null,
    });
    const cases: [unknown, string][] = [
      [{ maxTokens: -1 }, 'policy.maxTokens: Too small: expected number to be >0'],
      [{ maxTokens: 0 }, 'policy.maxTokens: Too small: expected number to be >0'],
      [{ maxTokens: 1.5 }, 'policy.maxTokens: Invalid input: expected int, received number'],
      [{ maxTokens: Number.NaN }, 'policy.maxTokens: Invalid input: expected number, received NaN'],
      [{ maxTokens: Infinity }, 'policy.maxTokens: Invalid input: expected number, received Infinity'],
      [{ maxTokens: null }, 'policy.maxTokens: Invalid input: expected number, received null'],
      [{ maxTokens: '5000' }, 'policy.maxTokens: Invalid input: expected number, received string'],
      [{ maxTurns: 1e300 }, 'policy.maxTurns: Too big: expected int to be <=9007199254740991'],
      [{ neverProviders: [''] }, 'policy.neverProviders[0]: Too small: expected string to have >=1 characters'],
      [{ lockedProvider: '' }, 'policy.lockedProvider: Too small: expected string to have >=1 characters'],
      [{ images: 'maybe' }, 'policy.images: Invalid option: expected one of "send"|"omit"'],
      [{ excludeTurns: ['u1'] }, 'policy: Unrecognized key: "excludeTurns"'],
      [JSON.parse('{"__proto__":{"maxTokens":1}}'), 'policy: Unrecognized key: "__proto__"'],
    ];
    for (const [policy, message] of cases)
      expect(await call('setDisclosurePolicy', { conversationId: 'c1', policy })).toEqual({
        ok: false,
        error: { code: 'bad_request', message: `setDisclosurePolicy: ${message}` },
      });
    expect(await call('setDisclosurePolicy', { conversationId: 'nope', policy: {} })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'This conversation no longer exists.' },
    });
    expect(
      data<{ conversation: unknown }>(await call('getDisclosurePolicy', { conversationId: 'c1' })).conversation,
    ).toEqual({ maxTokens: 5000 });
    expect(({} as Record<string, unknown>).maxTokens).toBeUndefined();
  });

  it('a preview while an answer streams works and shows the streaming turn; a send then is `busy` and writes nothing', async () => {
    const { call, engine, gate, store, requests } = await setup();
    gate.hold = true;
    data(
      await call('sendMessage', { conversationId: 'c1', target: OPENAI, text: 'streamed', confirmedDisclosure: true }),
    );
    await new Promise((r) => setTimeout(r, 20));
    const during = (await store.get('c1')).turns;
    expect(during.map((t) => [t.role, t.status])).toEqual([
      ['user', undefined],
      ['assistant', undefined],
      ['user', undefined],
      ['assistant', 'streaming'],
    ]);
    const p = data<Preview>(
      await call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'while streaming' }),
    );
    expect(p.perTurn.map((t) => t.id)).toEqual([...during.map((t) => t.id), 'draft']);
    expect(
      await call('sendMessage', { conversationId: 'c1', target: OPENAI, text: 'again', confirmedDisclosure: true }),
    ).toEqual({ ok: false, error: { code: 'busy', message: 'An answer is still streaming in this conversation.' } });
    expect((await store.get('c1')).turns.map((t) => t.id)).toEqual(during.map((t) => t.id));
    gate.release();
    await engine.settled('c1');
    expect(requests).toHaveLength(1);
    expect(
      data<Preview>(await call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'after' })).turns,
    ).toBe(5);
  });

  it('a stored turn called "draft" (an import may name it so) is its own turn: one draft row, excludable, and the previewed body is the sent body', async () => {
    const { call, engine, store, requests } = await setup();
    await store.create({ id: 'c2', now: NOW });
    await store.appendTurn(
      'c2',
      { id: 'draft', role: 'user', blocks: [{ type: 'text', text: 'a turn called draft' }] },
      NOW,
    );
    await store.appendTurn(
      'c2',
      {
        id: 'a2',
        role: 'assistant',
        origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
        blocks: [{ type: 'text', text: 'ok' }],
      },
      NOW,
    );
    const p = data<Preview>(await call('previewSend', { conversationId: 'c2', target: OPENAI, text: 'next' }));
    expect(rows(p)).toEqual([
      ['draft', false, true, 'kept'],
      ['a2', false, true, 'kept'],
      ['draft-2', true, true, 'kept'],
    ]);
    const left = data<Preview>(
      await call('previewSend', { conversationId: 'c2', target: OPENAI, text: 'next', excludeTurns: ['draft'] }),
    );
    expect(rows(left)).toEqual([
      ['draft', false, false, 'dropped'],
      ['a2', false, true, 'kept'],
      ['draft-2', true, true, 'kept'],
    ]);
    expect(JSON.stringify(left.body)).not.toContain('a turn called draft');
    data(
      await call('sendMessage', {
        conversationId: 'c2',
        target: OPENAI,
        text: 'next',
        confirmedDisclosure: true,
        excludeTurns: ['draft'],
      }),
    );
    await engine.settled('c2');
    expect(requests).toEqual([left.body]);
  });
});
