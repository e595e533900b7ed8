/**
 * A re-plan after an append does per-turn work only for the turns that changed
 * (docs/architecture.md#long-conversations-and-speed): the turns that stay dropped for the same
 * reason are not looked at again — their candidate, count, dropped entry and report entries come
 * from the last plan — and the plan is still the one a new cache gives.
 */
import { describe, expect, it } from 'vitest';
import type { Transcript, Turn } from '../transcript/schema';
import { exchanges, transcript, user } from './context.test-helper';
import { plan } from './plan';
import { createTokenCache } from './token-cache';
import type { Plan } from './types';

const TARGET = { api: 'gemini-generate-content', model: 'gemini-2.5-pro' } as const;

/** `turns` with every property read of a turn recorded (by turn id) in `read`. */
function watched(turns: readonly Turn[], read: Set<string>): Turn[] {
  return turns.map((turn) => {
    const id = turn.id;
    return new Proxy(turn, {
      get(target, key, receiver) {
        read.add(id);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  });
}

const data = (p: Plan): unknown => JSON.parse(JSON.stringify(p)) as unknown;

describe('re-planning a conversation grown by a turn', () => {
  const base = transcript(exchanges(300, 'a few words in every turn, the same length'));
  const policy = { maxTokens: 800 };

  it('reads none of the turns that stay dropped, and gives the plan a new cache gives', () => {
    const read = new Set<string>();
    const turns = watched(base.turns, read);
    const before: Transcript = { ...base, turns };
    const cache = createTokenCache();
    const first = plan(before, TARGET, policy, cache);
    void first.report;
    expect(first.dropped.length).toBeGreaterThan(500);

    const after: Transcript = { ...base, turns: [...turns, user('u-new', 'one more question')] };
    read.clear();
    const second = plan(after, TARGET, policy, cache);
    void second.report;

    const includedEither = new Set([...first.included, ...second.included, 'u-new']);
    const readDropped = [...read].filter((id) => !includedEither.has(id));
    // Without the last plan's results every turn is read again (about 550 of them here).
    expect(readDropped).toEqual([]);
    // The entries of turns dropped in both plans are the last plan's, not built again.
    const last = new Set(first.dropped);
    const stillDropped = second.dropped.filter((d) => first.dropped.some((x) => x.turn === d.turn));
    expect(stillDropped.length).toBeGreaterThan(500);
    expect(stillDropped.every((d) => last.has(d))).toBe(true);

    expect(data(second)).toEqual(data(plan(after, TARGET, policy, createTokenCache())));
  });

  it('reuses nothing for another target, and the plan is still the cold one', () => {
    const read = new Set<string>();
    const turns = watched(base.turns, read);
    const cache = createTokenCache();
    void plan({ ...base, turns }, TARGET, policy, cache).report;
    read.clear();
    const other = { api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;
    const p = plan({ ...base, turns }, other, policy, cache);
    void p.report;
    // Every turn is counted again for the other target's tokenizer and origin rules.
    expect(read.size).toBe(turns.length);
    expect(data(p)).toEqual(data(plan(base, other, policy, createTokenCache())));
  });
});
