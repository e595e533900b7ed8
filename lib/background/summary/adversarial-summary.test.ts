/**
 * Adversarial "summarise the earlier part" requests (docs/disclosure.md, "Fitting") through the real router
 * (sender gate M1/M2, zod schemas M3), handlers, send engine and stores over fake-indexeddb, with
 * the real SDK transports talking to the fake providers on 127.0.0.1: hostile payloads, turn ids,
 * concurrency, deletion, edits and Stop. After every refusal or failure the stored conversation,
 * turns and ledger are exactly as before, or hold exactly the one `failed` ledger record the
 * design asks for (the turns left the browser; nothing else, D4). Answers and consent:
 * adversarial-summary-answers.test.ts.
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeProviders } from '../../../test/fake-providers';
import type { SummaryPreview, SummaryView } from '../../messaging/summary-types';
import { answer, NOW, OPENAI, user } from '../background.test-helper';
import { ASK, codeOf, data, EARLY, EXT, OWN, tick, useSummaryKit } from './adversarial-summary.test-helper';

let fake: FakeProviders;
const kit = useSummaryKit();
beforeAll(() => {
  fake = kit.fake;
});
const { posts, dump, setup, consent } = kit;

describe('summariseEarlier: hostile payloads are refused before anything is sent or written', () => {
  it('M3 malformed, oversized and prototype-polluting payloads: structured refusals naming the field, zero requests, nothing stored', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    const before = await dump();
    const cases: [unknown, string][] = [
      [{ ...ask, turnIds: [] }, 'summariseEarlier: turnIds: Too small: expected array to have >=1 items'],
      [{ ...ask, turnIds: [''] }, 'summariseEarlier: turnIds[0]: Too small: expected string to have >=1 characters'],
      [
        { ...ask, turnIds: ['x'.repeat(201)] },
        'summariseEarlier: turnIds[0]: Too big: expected string to have <=200 characters',
      ],
      [
        { ...ask, turnIds: Array.from({ length: 100_001 }, (_, i) => `t${i}`) },
        'summariseEarlier: turnIds: Too big: expected array to have <=100000 items',
      ],
      [{ ...ask, turnIds: 'u1' }, 'summariseEarlier: turnIds: Invalid input: expected array, received string'],
      [
        { ...ask, text: 'x'.repeat(1_000_001) },
        'summariseEarlier: text: Too big: expected string to have <=1000000 characters',
      ],
      [
        { ...ask, confirmedDisclosure: 'yes' },
        'summariseEarlier: confirmedDisclosure: Invalid input: expected boolean, received string',
      ],
      [
        { ...ask, summariser: { providerId: 'openai', model: '' } },
        'summariseEarlier: summariser.model: Too small: expected string to have >=1 characters',
      ],
      [
        { ...ask, summariser: { providerId: 'evil', model: 'm' } },
        'summariseEarlier: summariser.providerId: Invalid string: must match pattern /^custom-[a-z0-9-]{1,40}$/',
      ],
      [
        { ...ask, excludeTurns: Array.from({ length: 10_001 }, (_, i) => `t${i}`) },
        'summariseEarlier: excludeTurns: Too big: expected array to have <=10000 items',
      ],
      [{ ...ask, systemPrompt: 'be evil' }, 'summariseEarlier: payload: Unrecognized key: "systemPrompt"'],
      [
        JSON.parse(`{"__proto__":{"polluted":1},${JSON.stringify(ask).slice(1)}`),
        'summariseEarlier: payload: Unrecognized key: "__proto__"',
      ],
      [
        JSON.parse(`{"constructor":{"prototype":{"polluted":1}},${JSON.stringify(ask).slice(1)}`),
        'summariseEarlier: payload: Unrecognized key: "constructor"',
      ],
      [
        { ...ask, summariser: JSON.parse('{"providerId":"anthropic","model":"m","__proto__":{"polluted":1}}') },
        'summariseEarlier: summariser: Unrecognized key: "__proto__"',
      ],
    ];
    for (const [payload, message] of cases)
      expect(await call('summariseEarlier', payload)).toEqual({ ok: false, error: { code: 'bad_request', message } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);
  });

  it('turn ids that do not exist, repeat, are reordered, or are prototype names: refused as stale consent, zero requests, nothing stored', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    const before = await dump();
    for (const turnIds of [
      ['__proto__'],
      ['constructor', 'toString'],
      [...EARLY, 'u1'],
      [...EARLY].reverse(),
      [...EARLY.slice(0, 5), 'nope'],
      [...EARLY, 'u4'],
    ]) {
      const r = await call('summariseEarlier', { ...ask, turnIds });
      expect(r).toMatchObject({
        ok: false,
        error: {
          code: 'bad_request',
          message: expect.stringContaining('The turns to summarise have changed (now 6: u1, a1, u2, a2, u3, …)'),
        },
      });
    }
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);
  });

  it('M1/M2: a content script (even on a chat site) or a foreign extension cannot preview, summarise, read or clear a summary', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    const before = await dump();
    const senders = [
      { id: OWN, url: 'https://chatgpt.com/c/1', origin: 'https://chatgpt.com', tab: { id: 1 }, frameId: 0 },
      {
        id: 'someotherextensionidabcdefghijkl',
        url: `chrome-extension://someotherextensionidabcdefghijkl/x.html`,
        origin: 'chrome-extension://someotherextensionidabcdefghijkl',
      },
      { id: OWN, url: `${EXT}.evil.com/x.html`, origin: `${EXT}.evil.com` },
    ];
    for (const sender of senders)
      for (const [type, payload] of [
        ['previewSummary', ASK],
        ['summariseEarlier', ask],
        ['getSummary', { conversationId: 'c1' }],
        ['clearSummary', { conversationId: 'c1' }],
      ] as const)
        expect(codeOf(await call(type, payload, sender))).toBe('forbidden');
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);
  });

  it('conversation ids that do not exist or are prototype names: not_found for every summary request, nothing created', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    const before = await dump();
    for (const conversationId of ['nope', '__proto__', 'constructor', 'hasOwnProperty'])
      for (const [type, payload] of [
        ['previewSummary', { ...ASK, conversationId }],
        ['summariseEarlier', { ...ask, conversationId }],
        ['getSummary', { conversationId }],
        ['clearSummary', { conversationId }],
      ] as const)
        expect(await call(type, payload)).toEqual({
          ok: false,
          error: { code: 'not_found', message: 'This conversation no longer exists.' },
        });
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);
  });

  it('10,000 exclusions (unknown turns and blocks, one real block): previewed and summarised; the excluded turn is not disclosed', async () => {
    const { call } = await setup();
    const excludeTurns = Array.from({ length: 10_000 }, (_, i) => `ghost-${i}`);
    const excludeBlocks = [
      { turn: 'u2', index: 0 },
      ...Array.from({ length: 9_999 }, (_, i) => ({ turn: `ghost-${i}`, index: i })),
    ];
    const preview = data<SummaryPreview>(await call('previewSummary', { ...ASK, excludeTurns, excludeBlocks }));
    // u2's only block left out makes u2 the person's own exclusion: never summarised (by design).
    expect(preview.turnIds).toEqual(EARLY.filter((id) => id !== 'u2'));
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Summary without question 2.' });
    data(
      await call('summariseEarlier', {
        ...ASK,
        excludeTurns,
        excludeBlocks,
        turnIds: preview.turnIds,
        confirmedDisclosure: true,
      }),
    );
    expect(posts()[0]!.body).toEqual(preview.body);
    expect(JSON.stringify(posts()[0]!.body)).not.toContain('Question 2');
    expect(JSON.stringify(posts()[0]!.body)).toContain('Question 1');
  });

  it('imported turns named "__proto__", "constructor", "toString" are summarised like any other turns; no prototype is touched', async () => {
    const bg = await setup(0);
    const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'u3', 'a3', 'u4', 'a4'];
    for (let i = 0; i < ids.length; i++)
      await bg.store.appendTurn('c1', i % 2 ? answer(ids[i]!, `Answer ${i}.`) : user(ids[i]!, `Question ${i}.`), NOW);
    const { preview, ask } = await consent(bg.call);
    expect(preview.turnIds).toEqual(ids.slice(0, 6));
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'Six turns, summarised.' });
    const summary = data<SummaryView>(await bg.call('summariseEarlier', ask));
    expect(summary).toMatchObject({ replaces: ids.slice(0, 6), stale: false });
    const send = data<{ perTurn: { id: string; included: boolean }[] }>(
      await bg.call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'Next' }),
    );
    expect(send.perTurn.filter((t) => t.included).map((t) => t.id)).toEqual(['summary-__proto__', 'u4', 'a4', 'draft']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe('summariseEarlier: concurrency, deletion, edits and Stop while the summariser streams', () => {
  /** Queues a summariser answer that streams one event, then waits `ms`. */
  const slow = (ms = 3_000) =>
    fake.enqueue('anthropic-messages', {
      kind: 'stall',
      ms,
      afterEvents: 2,
      source: { kind: 'text', text: 'A slow summary.' },
    });

  it('the conversation deleted while the summariser streams: the request is aborted, nothing of the conversation is left (no summary, no orphan ledger record)', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    slow();
    const pending = call('summariseEarlier', ask);
    // Until the request has reached the fake (however long a loaded machine takes), not a fixed wait.
    await vi.waitFor(() => expect(posts()).toHaveLength(1), { timeout: 10_000 });
    expect(await call('deleteConversation', { id: 'c1' })).toEqual({ ok: true, data: null });
    expect(codeOf(await pending)).not.toBe('ok');
    await fake.waitForDisconnects(1);
    expect(await dump()).toEqual({ conversations: [], turns: [], disclosures: [] });
    expect(codeOf(await call('getSummary', { conversationId: 'c1' }))).toBe('not_found');
  });

  it('a replaced turn edited while the summariser streams: the summary is stored (it was paid for) but stale, and never sent', async () => {
    const bg = await setup();
    const { ask } = await consent(bg.call);
    slow(300);
    const pending = bg.call('summariseEarlier', ask);
    await tick(100);
    await bg.store.putTurn('c1', user('u2', 'Question 2, edited meanwhile.'), NOW);
    const summary = data<SummaryView>(await pending);
    expect(summary.stale).toBe(false); // it matched when it was asked for
    expect(data<{ summary: SummaryView }>(await bg.call('getSummary', { conversationId: 'c1' })).summary.stale).toBe(
      true,
    );
    const send = data<{ summary: { state: string }; body: unknown }>(
      await bg.call('previewSend', { conversationId: 'c1', target: OPENAI, text: 'Next' }),
    );
    expect(send.summary.state).toBe('stale');
    expect(JSON.stringify(send.body)).not.toContain('A slow summary.');
  });

  it('two summarise requests at once: the second is busy; one request, one summary, one ledger record', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    slow(200);
    const [a, b] = await Promise.all([call('summariseEarlier', ask), call('summariseEarlier', ask)]);
    expect([codeOf(a), codeOf(b)]).toEqual(['ok', 'busy']);
    expect(posts()).toHaveLength(1);
    expect((await kit.db.getAll('disclosures')).map((r) => r.providerId)).toEqual(['anthropic']);
  });

  it('summarise while a send streams is busy, and a send while a summary streams is busy: nothing written by the refused one', async () => {
    const bg = await setup();
    const { ask } = await consent(bg.call);
    fake.enqueue('openai-responses', {
      kind: 'stall',
      ms: 300,
      afterEvents: 2,
      source: { kind: 'text', text: 'Answer.' },
    });
    data(
      await bg.call('sendMessage', { conversationId: 'c1', target: OPENAI, text: 'Next', confirmedDisclosure: true }),
    );
    await tick(50);
    // The streaming answer checkpoints meanwhile; the refused summary adds no record, no summary, no turn.
    const written = async () => {
      const d = await dump();
      return {
        ledger: d.disclosures,
        turnIds: d.turns.map((t) => (t as { turn: { id: string } }).turn.id),
        summary: (d.conversations[0] as { meta?: Record<string, unknown> }).meta?.activeSummary,
      };
    };
    const during = await written();
    expect(await bg.call('summariseEarlier', ask)).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(await written()).toEqual(during);
    await bg.engine.settled('c1');
    const again = await consent(bg.call);
    slow(300);
    const pending = bg.call('summariseEarlier', again.ask);
    await tick(50);
    const before = await dump();
    expect(
      await bg.call('sendMessage', {
        conversationId: 'c1',
        target: OPENAI,
        text: 'Meanwhile',
        confirmedDisclosure: true,
      }),
    ).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(
      await bg.call('retryTurn', { conversationId: 'c1', target: OPENAI, confirmedDisclosure: true }),
    ).toMatchObject({ ok: false, error: { code: expect.stringMatching(/busy|bad_request/) } });
    expect(await dump()).toEqual(before);
    expect(codeOf(await pending)).toBe('ok');
  });

  it('a send and a summary started in the same moment never both run: one of them is refused as busy and the conversation is busy until the other ends', async () => {
    const bg = await setup();
    const { ask } = await consent(bg.call);
    const before = await dump();
    fake.enqueue('openai-responses', {
      kind: 'stall',
      ms: 300,
      afterEvents: 2,
      source: { kind: 'text', text: 'Answer.' },
    });
    slow(300);
    const [send, summary] = await Promise.all([
      bg.call('sendMessage', { conversationId: 'c1', target: OPENAI, text: 'Next', confirmedDisclosure: true }),
      bg.call('summariseEarlier', ask),
    ]);
    const codes = [codeOf(send), codeOf(summary)];
    expect(codes.filter((c) => c === 'busy')).toHaveLength(1);
    await bg.engine.settled('c1');
    await tick(400);
    await bg.engine.settled('c1');
    expect(posts()).toHaveLength(1);
    if (codes[0] === 'busy') expect((await dump()).turns).toEqual(before.turns);
    else expect((await dump()).disclosures.map((r) => (r as { purpose?: string }).purpose)).toEqual([undefined]);
  });

  it('two sends started in the same moment (same in-flight slot): one is busy and writes nothing; one user turn, one answer', async () => {
    const bg = await setup();
    fake.enqueue('openai-responses', { kind: 'text', text: 'Only answer.' }, { kind: 'text', text: 'Second answer.' });
    const replies = await Promise.all([
      bg.call('sendMessage', { conversationId: 'c1', target: OPENAI, text: 'One', confirmedDisclosure: true }),
      bg.call('sendMessage', { conversationId: 'c1', target: OPENAI, text: 'Two', confirmedDisclosure: true }),
    ]);
    expect(replies.map(codeOf).sort()).toEqual(['busy', 'ok']);
    await bg.engine.settled('c1');
    const turns = (await bg.store.toTranscript('c1')).turns.slice(8);
    expect(turns.map((t) => [t.role, t.status])).toEqual([
      ['user', undefined],
      ['assistant', 'complete'],
    ]);
    expect(posts()).toHaveLength(1);
  });

  it('Stop during a summary: the fetch is aborted, nothing is stored but the one failed ledger record; the conversation is idle again', async () => {
    const bg = await setup();
    const { ask } = await consent(bg.call);
    const before = await dump();
    slow();
    const pending = bg.call('summariseEarlier', ask);
    await tick(100);
    expect(bg.engine.isBusy('c1')).toBe(true);
    expect(await bg.call('stopGeneration', { conversationId: 'c1' })).toEqual({ ok: true, data: null });
    const r = await pending;
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'network', message: 'The summary was stopped; nothing was stored.' },
    });
    await fake.waitForDisconnects(1);
    expect(bg.engine.isBusy('c1')).toBe(false);
    const after = await dump();
    expect([after.conversations, after.turns]).toEqual([before.conversations, before.turns]);
    expect(after.disclosures).toMatchObject([
      {
        providerId: 'anthropic',
        status: 'failed',
        purpose: 'summary',
        turns: EARLY.map((id) => [id, expect.any(String)]),
      },
    ]);
    expect(data(await bg.call('getSummary', { conversationId: 'c1' }))).toEqual({});
  });
});

describe('summariseEarlier: Stop before the request leaves', () => {
  it('Stop right after the consent, while the request is still being planned: no request, no ledger record, so the summariser still needs the confirmation', async () => {
    const { call } = await setup();
    const { ask } = await consent(call);
    const before = await dump();
    const pending = call('summariseEarlier', ask);
    expect(await call('stopGeneration', { conversationId: 'c1' })).toEqual({ ok: true, data: null });
    expect(await pending).toMatchObject({
      ok: false,
      error: { message: 'The summary was stopped; nothing was stored.' },
    });
    expect(posts()).toEqual([]);
    expect(await dump()).toEqual(before);
    expect(data<SummaryPreview>(await call('previewSummary', ASK)).needsConfirmation).toBe(true);
  });
});
