/**
 * The side panel's words and decisions for "summarise the earlier part" (docs/disclosure.md, "Fitting").
 */
import { describe, expect, it } from 'vitest';
import type { DisclosurePreview } from '../messaging/disclosure-types';
import type { ProviderStatus } from '../messaging/protocol';
import { defaultSummariser, droppedToFit, summaryDialogLines, summaryNoticeText } from './summary';

const providers: ProviderStatus[] = [
  { id: 'openai', name: 'OpenAI', api: 'openai-responses', hasKey: true, keyInvalid: true },
  { id: 'anthropic', name: 'Anthropic', api: 'anthropic-messages', hasKey: true, defaultModel: 'claude-haiku-4-5' },
  { id: 'google', name: 'Google Gemini', api: 'gemini-generate-content', hasKey: false },
];

describe('summary text and choices', () => {
  it('offers to summarise only turns dropped to fit, and never for a forbidden provider', () => {
    const p = (over: Partial<DisclosurePreview>) =>
      ({ allowed: true, droppedByReason: {}, ...over }) as DisclosurePreview;
    expect(droppedToFit(undefined)).toBe(0);
    expect(droppedToFit(p({ droppedByReason: { excluded: 3, summarised: 4 } }))).toBe(0);
    expect(droppedToFit(p({ droppedByReason: { 'over-budget': 2, 'over-max-turns': 1, excluded: 1 } }))).toBe(3);
    expect(droppedToFit(p({ allowed: false, droppedByReason: { 'over-budget': 2 } }))).toBe(0);
  });

  it('says what the notice says, applied or stale', () => {
    const by = { provider: 'anthropic', model: 'claude-haiku-4-5' };
    expect(summaryNoticeText({ state: 'applied', turnId: 's', replaces: 1, by })).toBe(
      'Earlier 1 turn is sent as a summary written by claude-haiku-4-5',
    );
    expect(summaryNoticeText({ state: 'stale', replaces: 6, by, reason: 'turn u2 was edited' })).toBe(
      'The summary of 6 earlier turns is not sent: a summarised turn was edited or deleted. Summarise again, or stop using it.',
    );
  });

  it('defaults the summariser to the target when it has a usable key, else the first usable provider', () => {
    expect(defaultSummariser({ providerId: 'anthropic', model: 'claude-sonnet-4-6' }, providers)).toEqual({
      providerId: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    expect(defaultSummariser({ providerId: 'openai', model: 'gpt-5' }, providers)).toEqual({
      providerId: 'anthropic',
      model: 'claude-haiku-4-5',
    });
    expect(defaultSummariser(undefined, providers.slice(2))).toBeUndefined();
  });

  it('describes the request: turns, tokens, an upper bound of the cost, who receives it', () => {
    const lines = summaryDialogLines(
      {
        turnIds: ['a', 'b', 'c'],
        viaSummary: 2,
        summariser: {
          providerId: 'anthropic',
          api: 'anthropic-messages',
          model: 'claude-haiku-4-5',
          origin: 'https://api.anthropic.com',
        },
        estimatedInputTokens: 12_345,
        maxOutputTokens: 2048,
        estimatedCostUsd: 0.001,
        needsConfirmation: true,
        allowed: true,
        fits: true,
        body: {},
      },
      'Anthropic',
    );
    expect(lines).toEqual([
      '3 earlier turns will be summarised (2 of them through the current summary, which is summarised again).',
      '~12,345 tokens in, at most 2,048 out: under $0.01.',
      'Anthropic (https://api.anthropic.com) will receive those turns, model claude-haiku-4-5.',
    ]);
  });
});
