import { describe, expect, it } from 'vitest';
import { cleanPolicy, providerChoices, readLimit, readLimits } from './policy-fields';

describe('policy fields', () => {
  it('reads a limit: empty is no limit, positive whole numbers with separators, anything else explained', () => {
    expect(readLimit('maxTurns', '  ', 'Max turns')).toEqual({ ok: true, value: undefined });
    expect(readLimit('maxTurns', ' 20 ', 'Max turns')).toEqual({ ok: true, value: 20 });
    expect(readLimit('maxTokens', '32,000', 'Max tokens')).toEqual({ ok: true, value: 32000 });
    expect(readLimit('maxTokens', '1 000_000', 'Max tokens')).toEqual({ ok: true, value: 1_000_000 });
    expect(readLimit('maxTurns', '0', 'Max turns')).toEqual({
      ok: false,
      error: 'Max turns: must be at least 1, or empty for no limit.',
    });
    expect(readLimit('maxTurns', '-3', 'Max turns')).toEqual({
      ok: false,
      error: 'Max turns: enter a whole number of turns, or leave it empty for no limit.',
    });
    expect(readLimit('maxTokens', '1.5', 'Max tokens')).toEqual({
      ok: false,
      error: 'Max tokens: enter a whole number of tokens, or leave it empty for no limit.',
    });
    expect(readLimit('maxTokens', '1e5', 'Max tokens')).toEqual({
      ok: false,
      error: 'Max tokens: enter a whole number of tokens, or leave it empty for no limit.',
    });
    expect(readLimit('maxTurns', '1000001', 'Max turns')).toEqual({
      ok: false,
      error: 'Max turns: at most 1,000,000.',
    });
    expect(readLimit('maxTokens', '100000000', 'Max tokens')).toEqual({ ok: true, value: 100_000_000 });
  });

  it('reads both limits, or every error', () => {
    const labels = { maxTurns: 'Max turns', maxTokens: 'Max tokens' };
    expect(readLimits({ maxTurns: '10', maxTokens: '' }, labels)).toEqual({ ok: true, limits: { maxTurns: 10 } });
    expect(readLimits({ maxTurns: 'x', maxTokens: '0' }, labels)).toEqual({
      ok: false,
      errors: {
        maxTurns: 'Max turns: enter a whole number of turns, or leave it empty for no limit.',
        maxTokens: 'Max tokens: must be at least 1, or empty for no limit.',
      },
    });
  });

  it('cleans a policy and keeps unknown provider ids as choices', () => {
    expect(cleanPolicy({ maxTurns: undefined, images: 'omit', neverProviders: [] })).toEqual({ images: 'omit' });
    expect(providerChoices([{ id: 'openai', name: 'OpenAI' }], ['openai', 'gone'])).toEqual([
      { id: 'openai', name: 'OpenAI' },
      { id: 'gone', name: 'gone (not configured)' },
    ]);
  });
});
