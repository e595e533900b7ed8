/**
 * Counts kept with the turns (docs/architecture.md#token-counts-with-the-turn): a plan reads a
 * turn's stored count for its tokenizer variant instead of counting it, hands every count it had
 * to make to the store, and gives the same plan as a plan that counted everything itself.
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import type { TurnCount } from './tokens';
import { exchanges, transcript } from './context.test-helper';
import { plan } from './plan';
import { createTokenCache, type StoredCounts } from './token-cache';

const TARGETS = [
  { api: 'openai-chat', model: 'gpt-4o' },
  { api: 'openai-responses', model: 'gpt-5.5' },
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  { api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
] as const;

/** A store-like source: counts per turn object and variant, as a stored turn record would hold them. */
function memoryStore(): StoredCounts & { kept: WeakMap<Turn, Record<string, TurnCount>>; sets: number; gets: number } {
  const kept = new WeakMap<Turn, Record<string, TurnCount>>();
  const s = {
    kept,
    sets: 0,
    gets: 0,
    get(turn: Turn, variant: string) {
      s.gets++;
      return kept.get(turn)?.[variant];
    },
    set(turn: Turn, variant: string, count: TurnCount) {
      s.sets++;
      const c = kept.get(turn) ?? {};
      c[variant] = count;
      kept.set(turn, c);
    },
  };
  return s;
}

describe.each(TARGETS)('a plan with counts stored with the turns → $api', (target) => {
  const t = transcript(exchanges(30, 'a sentence of some length to count, with numbers 12345 and words'));

  it('stores every count on the first plan and reads them on a cold one, with the same result', () => {
    const store = memoryStore();
    const first = plan(t, target, {}, createTokenCache({ stored: store }));
    expect(store.sets).toBe(t.turns.length);
    const reference = plan(t, target, {}, createTokenCache());
    const setsBefore = store.sets;
    const cold = plan(t, target, {}, createTokenCache({ stored: store }));
    expect(store.sets).toBe(setsBefore); // nothing counted again
    for (const p of [first, cold]) {
      expect(p.turns).toEqual(reference.turns);
      expect(p.estimatedInputTokens).toBe(reference.estimatedInputTokens);
    }
  });

  it('uses the stored count as it is (the store, not the tokenizer, answers)', () => {
    const store = memoryStore();
    plan(t, target, {}, createTokenCache({ stored: store }));
    const turn = t.turns[4]!;
    for (const variant of Object.keys(store.kept.get(turn)!))
      store.kept.get(turn)![variant] = { tokens: 7777, toolCalls: false };
    const p = plan(t, target, {}, createTokenCache({ stored: store }));
    expect(p.turns[4]!.tokens).toBe(7777);
  });

  it('an edited turn (a new object, no stored counts) is counted again', () => {
    const store = memoryStore();
    plan(t, target, {}, createTokenCache({ stored: store }));
    const edited: Turn = { ...t.turns[6]!, blocks: [{ type: 'text', text: 'edited, much longer text '.repeat(20) }] };
    const t2 = { ...t, turns: t.turns.map((x, i) => (i === 6 ? edited : x)) }; // the others keep their objects
    const sets = store.sets;
    const p = plan(t2, target, {}, createTokenCache({ stored: store }));
    expect(store.sets).toBe(sets + 1);
    expect(p.turns[6]!.tokens).toBe(plan(t2, target, {}, createTokenCache()).turns[6]!.tokens);
  });
});
