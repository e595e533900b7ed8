import { describe, it, expect } from 'vitest';
import { TranscriptError } from '../transcript/codec';
import { estimateCostUsd, lookupModel } from './registry';

describe('estimateCostUsd', () => {
  it('prices input, output, cache reads and cache writes separately (Claude Sonnet 4.5: $3/$15, read $0.30, write $3.75)', () => {
    const usd = estimateCostUsd(lookupModel('claude-sonnet-4-5'), {
      inputTokens: 10_000,
      outputTokens: 2_000,
      cacheReadTokens: 50_000,
      cacheWriteTokens: 20_000,
    });
    // 10k*3 + 2k*15 + 50k*0.3 + 20k*3.75 = 150,000 micro-dollars
    expect(usd).toBeCloseTo(0.15, 12);
  });

  it('counts missing fields as zero', () => {
    expect(estimateCostUsd(lookupModel('gpt-4o'), {})).toBe(0);
    expect(estimateCostUsd(lookupModel('gpt-4o'), { outputTokens: 1_000_000 })).toBeCloseTo(10, 12);
  });

  it('switches the whole request to the long-context tier once the prompt exceeds the threshold (GPT-5.5 > 272K)', () => {
    const gpt55 = lookupModel('gpt-5.5');
    expect(estimateCostUsd(gpt55, { inputTokens: 272_000, outputTokens: 1_000 })).toBeCloseTo(
      272_000 * 5e-6 + 1_000 * 30e-6,
      12,
    );
    expect(estimateCostUsd(gpt55, { inputTokens: 272_001, outputTokens: 1_000 })).toBeCloseTo(
      272_001 * 10e-6 + 1_000 * 45e-6,
      12,
    );
    // Cached prompt tokens count towards the threshold and are billed at the tier's cache rate ($1).
    expect(estimateCostUsd(gpt55, { inputTokens: 200_000, cacheReadTokens: 100_000 })).toBeCloseTo(
      200_000 * 10e-6 + 100_000 * 1e-6,
      12,
    );
  });

  it('applies the Gemini 2.5 Pro tier above 200K and the Claude Haiku 5.5 tier above 100K', () => {
    const pro = lookupModel('gemini-2.5-pro');
    expect(estimateCostUsd(pro, { inputTokens: 100_000, outputTokens: 50_000 })).toBeCloseTo(0.125 + 0.5, 12);
    expect(estimateCostUsd(pro, { inputTokens: 300_000 })).toBeCloseTo(0.75, 12);
    const haiku = lookupModel('claude-haiku-5-5');
    expect(estimateCostUsd(haiku, { inputTokens: 100_000, outputTokens: 1_000_000 })).toBeCloseTo(0.01 + 0.5, 12);
    expect(estimateCostUsd(haiku, { inputTokens: 100_001 })).toBeCloseTo(100_001 * 0.5e-6, 12);
  });

  it('bills cache tokens at the input price when the model lists no cache price', () => {
    const terra = lookupModel('gpt-5.6-terra'); // $2 input, no cache price recorded
    expect(estimateCostUsd(terra, { cacheReadTokens: 100_000, cacheWriteTokens: 100_000 })).toBeCloseTo(0.4, 12);
  });

  it('returns undefined when the price is unknown', () => {
    expect(estimateCostUsd(lookupModel('mystery-model'), { inputTokens: 1_000 })).toBeUndefined();
  });

  it.each([
    ['inputTokens', -1],
    ['outputTokens', Number.NaN],
    ['cacheReadTokens', Number.POSITIVE_INFINITY],
  ] as const)('rejects %s = %s with a TranscriptError naming the field', (field, value) => {
    const call = () => estimateCostUsd(lookupModel('gpt-5'), { [field]: value });
    expect(call).toThrow(TranscriptError);
    expect(call).toThrow(`usage.${field}: must be a non-negative number of tokens, got ${String(value)}`);
  });
});
