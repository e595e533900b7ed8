/**
 * The token cache (docs/disclosure.md): counts reused per turn id + content hash + tokenizer family, the
 * correction learned from reported usage, and the reused conversion.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../transcript/codec';
import { exchanges, transcript, user } from './context.test-helper';
import { plan } from './plan';
import {
  CORRECTION_BOUNDS,
  CORRECTION_DECAY_TOKENS,
  correctionRatio,
  createTokenCache,
  recordUsage,
} from './token-cache';

const CLAUDE_TARGET = { api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;
const GPT4O = { api: 'openai-chat', model: 'gpt-4o' } as const;

describe('recordUsage and the correction ratio', () => {
  it('sums reported against estimated tokens per provider', () => {
    const cache = createTokenCache();
    expect(correctionRatio(cache, 'anthropic')).toBe(1);
    recordUsage(cache, 'anthropic', 1_000, 1_200);
    recordUsage(cache, 'anthropic', 3_000, 3_400);
    recordUsage(cache, 'google', 1_000, 900);
    expect(cache.correction).toEqual({
      anthropic: { actual: 4_600, estimated: 4_000 },
      google: { actual: 900, estimated: 1_000 },
    });
    expect(correctionRatio(cache, 'anthropic')).toBe(1.15);
    expect(correctionRatio(cache, 'google')).toBe(0.9);
    expect(correctionRatio(undefined, 'anthropic')).toBe(1);
  });

  it('bounds the ratio and lets old usage fade', () => {
    const cache = createTokenCache();
    recordUsage(cache, 'anthropic', 100, 10_000);
    expect(correctionRatio(cache, 'anthropic')).toBe(CORRECTION_BOUNDS.max);
    recordUsage(cache, 'google', 100, 1);
    expect(correctionRatio(cache, 'google')).toBe(CORRECTION_BOUNDS.min);
    const fade = createTokenCache();
    recordUsage(fade, 'anthropic', CORRECTION_DECAY_TOKENS, CORRECTION_DECAY_TOKENS);
    recordUsage(fade, 'anthropic', 1_000, 2_000);
    expect(fade.correction.anthropic).toEqual({
      actual: (CORRECTION_DECAY_TOKENS + 2_000) / 2,
      estimated: (CORRECTION_DECAY_TOKENS + 1_000) / 2,
    });
  });

  it('ignores a zero estimate and rejects counts that are not tokens', () => {
    const cache = createTokenCache();
    recordUsage(cache, 'anthropic', 0, 50);
    expect(cache.correction).toEqual({});
    expect(() => recordUsage(cache, 'anthropic', -1, 5)).toThrow(
      new TranscriptError('estimatedTokens', 'must be a non-negative number of tokens, got -1'),
    );
    expect(() => recordUsage(cache, 'anthropic', 5, Number.NaN)).toThrow(
      new TranscriptError('actualInputTokens', 'must be a non-negative number of tokens, got NaN'),
    );
  });

  it('corrects estimated families in the plan, not exact OpenAI counts', () => {
    const t = transcript(exchanges(3), { system: 'Be brief.' });
    const cache = createTokenCache();
    const before = plan(t, CLAUDE_TARGET, {}, cache);
    expect(before.correction).toBe(1);
    recordUsage(cache, 'anthropic', 1_000, 1_500);
    const after = plan(t, CLAUDE_TARGET, {}, cache);
    expect(after.correction).toBe(1.5);
    expect(after.uncorrectedInputTokens).toBe(before.uncorrectedInputTokens);
    expect(after.estimatedInputTokens).toBe(Math.ceil(before.uncorrectedInputTokens * 1.5));

    recordUsage(cache, 'openai', 1_000, 1_500);
    const gpt = plan(t, GPT4O, {}, cache);
    expect([gpt.correction, gpt.estimatedInputTokens]).toEqual([1, gpt.uncorrectedInputTokens]);
  });

  it('fits against the corrected estimate', () => {
    const t = transcript(exchanges(4));
    const cache = createTokenCache();
    const budget = plan(t, CLAUDE_TARGET, {}, cache).estimatedInputTokens;
    expect(plan(t, CLAUDE_TARGET, { maxTokens: budget }, cache).included).toHaveLength(8);
    recordUsage(cache, 'anthropic', 100, 120);
    const p = plan(t, CLAUDE_TARGET, { maxTokens: budget }, cache);
    expect(p.included.length).toBeLessThan(8);
    expect(p.estimatedInputTokens).toBeLessThanOrEqual(budget);
  });
});

describe('cached counts and conversions', () => {
  const t = transcript(exchanges(20), { system: 'Be brief.' });

  it('a second plan counts nothing again and reuses the conversion', () => {
    const cache = createTokenCache();
    const first = plan(t, GPT4O, {}, cache);
    const size = cache.turns.size;
    expect(size).toBe(41); // 40 turns + the request base
    const second = plan(t, GPT4O, {}, cache);
    expect(cache.turns.size).toBe(size);
    expect(second.body).toBe(first.body);
    expect(second).toEqual(first);
  });

  it('equal turns in new objects hit the id + content hash entries; an edited turn is counted again', () => {
    const cache = createTokenCache();
    const first = plan(t, GPT4O, {}, cache);
    const size = cache.turns.size;
    plan(structuredClone(t), GPT4O, {}, cache);
    expect(cache.turns.size).toBe(size);
    const edited = {
      ...t,
      turns: t.turns.map((x) =>
        x.id === 'u3' ? user('u3', 'a much longer question than before, with many more words in it') : x,
      ),
    };
    const p = plan(edited, GPT4O, {}, cache);
    expect(cache.turns.size).toBe(size + 1);
    expect(p.estimatedInputTokens).toBeGreaterThan(first.estimatedInputTokens);
    expect(JSON.stringify(p.body)).toContain('a much longer question');
  });

  it('keeps separate counts per tokenizer family and counting options', () => {
    const cache = createTokenCache();
    plan(t, GPT4O, {}, cache);
    plan(t, CLAUDE_TARGET, {}, cache);
    plan(t, CLAUDE_TARGET, { images: 'omit' }, cache);
    expect(cache.turns.size).toBe(3 * 40 + 2); // the request base does not depend on the image policy
    expect(plan(t, CLAUDE_TARGET, {}, cache).estimatedInputTokens).toBe(plan(t, CLAUDE_TARGET).estimatedInputTokens);
  });
});
