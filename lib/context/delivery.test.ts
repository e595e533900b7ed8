/**
 * Snapshot or delta (docs/disclosure.md): delta only when every condition holds; one test per fallback.
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { assistant, user } from './context.test-helper';
import { chooseDelivery, providerSessionKey, type DeliveryInput, type DeliveryReceipt } from './delivery';
import { contentHash, turnContentHash } from './hash';

const TARGET = { api: 'openai-responses', model: 'gpt-5.5' } as const;
const ORIGIN = { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' } as const;
const SESSION = providerSessionKey(TARGET, 'key-1');

const history: Turn[] = [
  user('u0', 'too old, never sent'),
  user('u1', 'Hello'),
  assistant('a1', 'Hi!', ORIGIN, { responseId: 'resp_1' }),
  user('u2', 'How are you?'),
];
const receipt: DeliveryReceipt = {
  providerSessionKey: SESSION,
  branchId: 'main',
  responseId: 'resp_1',
  status: 'completed',
  anchorTurnId: 'a1',
  anchorHash: turnContentHash(history[2]!),
  deliveredTurns: [['u1', turnContentHash(history[1]!)]],
};
const input: DeliveryInput = {
  policy: 'stateful',
  target: TARGET,
  providerSessionKey: SESSION,
  turns: history,
  branchId: 'main',
  receipt,
};

const replace = (turns: Turn[], id: string, t: Turn) => turns.map((x) => (x.id === id ? t : x));

describe('chooseDelivery', () => {
  it('sends only the new turns when every condition holds', () => {
    expect(chooseDelivery(input)).toEqual({ mode: 'delta', previousResponseId: 'resp_1', newTurnIds: ['u2'] });
  });

  it('builds on a chain: every turn the server holds, earlier anchors included', () => {
    const more = [...history, assistant('a2', 'Fine.', ORIGIN), user('u3', 'Good.')];
    const chained: DeliveryReceipt = {
      ...receipt,
      responseId: 'resp_2',
      anchorTurnId: 'a2',
      anchorHash: turnContentHash(more[4]!),
      deliveredTurns: [...receipt.deliveredTurns, ['a1', receipt.anchorHash], ['u2', turnContentHash(more[3]!)]],
    };
    expect(chooseDelivery({ ...input, turns: more, receipt: chained })).toEqual({
      mode: 'delta',
      previousResponseId: 'resp_2',
      newTurnIds: ['u3'],
    });
  });

  const fallbacks: [string, DeliveryInput, string][] = [
    ['the policy is snapshot (the default)', { ...input, policy: 'snapshot' }, 'policy-snapshot'],
    ['the target keeps no state', { ...input, target: { api: 'openai-chat', model: 'gpt-4o' } }, 'target-not-stateful'],
    ['there is no receipt', { ...input, receipt: undefined }, 'no-receipt'],
    ['the delivery failed', { ...input, receipt: { ...receipt, status: 'failed' } }, 'response-not-completed'],
    ['the delivery is unknown', { ...input, receipt: { ...receipt, status: 'unknown' } }, 'response-not-completed'],
    [
      'another provider session',
      { ...input, providerSessionKey: providerSessionKey(TARGET, 'key-2') },
      'other-session',
    ],
    [
      'another endpoint is another session',
      { ...input, providerSessionKey: providerSessionKey({ ...TARGET, endpoint: 'https://proxy.example' }, 'key-1') },
      'other-session',
    ],
    ['another branch', { ...input, branchId: 'edit-1' }, 'other-branch'],
    ['the anchor turn was deleted', { ...input, turns: history.filter((x) => x.id !== 'a1') }, 'anchor-missing'],
    [
      'the anchor id is not unique',
      { ...input, turns: [...history, assistant('a1', 'Hi!', ORIGIN)] },
      'anchor-not-unique',
    ],
    [
      'the anchor turn was edited',
      { ...input, turns: replace(history, 'a1', assistant('a1', 'Hello!', ORIGIN)) },
      'anchor-changed',
    ],
    [
      'a delivered turn was deleted',
      { ...input, turns: history.filter((x) => x.id !== 'u1') },
      'delivered-turn-missing',
    ],
    [
      'a delivered turn was edited',
      { ...input, turns: replace(history, 'u1', user('u1', 'Hello there')) },
      'delivered-turn-changed',
    ],
    [
      'a turn was inserted before the anchor',
      { ...input, turns: [history[0]!, history[1]!, user('u1b', 'inserted'), history[2]!, history[3]!] },
      'history-changed',
    ],
    [
      'the delivered turns were reordered',
      {
        ...input,
        turns: [history[1]!, history[0]!, history[2]!, history[3]!],
        receipt: {
          ...receipt,
          deliveredTurns: [
            ['u0', turnContentHash(history[0]!)],
            ['u1', turnContentHash(history[1]!)],
          ],
        },
      },
      'history-changed',
    ],
    ['nothing follows the anchor', { ...input, turns: history.slice(0, 3) }, 'nothing-new'],
  ];

  it.each(fallbacks)('falls back to the snapshot when %s', (_name, given, reason) => {
    const d = chooseDelivery(given);
    expect(d).toMatchObject({ mode: 'snapshot', reason });
    expect(d.mode === 'snapshot' && d.detail.length > 0).toBe(true);
  });

  it('pinning the anchor or recording usage is not an edit', () => {
    const pinned = replace(history, 'a1', { ...history[2]!, meta: { pinned: true }, usage: { inputTokens: 10 } });
    expect(chooseDelivery({ ...input, turns: pinned }).mode).toBe('delta');
  });
});

describe('content hashes', () => {
  it('are stable, 16 hex digits, and change with any content', () => {
    const t = user('u', 'hello');
    expect(turnContentHash(t)).toMatch(/^[0-9a-f]{16}$/);
    expect(turnContentHash(structuredClone(t))).toBe(turnContentHash(t));
    expect(turnContentHash(user('u', 'hellp'))).not.toBe(turnContentHash(t));
    expect(turnContentHash(user('other-id', 'hello'))).toBe(turnContentHash(t));
    expect(turnContentHash({ ...t, blocks: [{ type: 'text', text: 'hello', meta: { x: 1 } }] })).not.toBe(
      turnContentHash(t),
    );
    expect(contentHash({ a: 1, b: [true, null] })).not.toBe(contentHash({ a: 1, b: [true] }));
    expect(contentHash(['ab', 'c'])).not.toBe(contentHash(['a', 'bc']));
    expect(contentHash({ a: undefined, b: 1 })).toBe(contentHash({ b: 1 }));
  });
});
