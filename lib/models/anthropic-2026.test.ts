import { describe, expect, it } from 'vitest';
import { defaultModelFor, isPastEndOfLife, listModels, lookupModel } from './registry';

/** "Today" for these checks: the session date the rules were written against. */
const TODAY = new Date('2026-12-01T12:00:00Z');

describe('Anthropic 2026 traits in the registry', () => {
  it('A-V4: prefill only where the model takes it (not Opus 5, the 5.5 family, Fable)', () => {
    for (const id of [
      'claude-opus-5',
      'claude-opus-5-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-fable-5',
      'claude-fable-5-1',
      'claude-fable-5-2',
    ])
      expect(lookupModel(id).prefill, id).toBe(false);
    for (const id of ['claude-opus-4-8', 'claude-opus-4-7', 'claude-sonnet-5', 'claude-sonnet-4-6', 'claude-haiku-4-5'])
      expect(lookupModel(id).prefill, id).toBe(true);
    // Unknown Claude ids: not recorded, read as "no prefill" (the safe side).
    expect(lookupModel('claude-opus-9-9').prefill).toBeUndefined();
  });

  it('A-V5: adaptive thinking (never budget_tokens) on Opus 4.7+, Sonnet 5.x and Fable; budget on the older models', () => {
    for (const id of [
      'claude-opus-4-7',
      'claude-opus-4-8',
      'claude-opus-5',
      'claude-opus-5-5',
      'claude-sonnet-5',
      'claude-sonnet-5-5',
      'claude-fable-5-2',
    ])
      expect(lookupModel(id).thinking, id).toBe('adaptive');
    expect(lookupModel('claude-sonnet-4-5').thinking).toBe('budget');
    expect(lookupModel('claude-haiku-4-5').thinking).toBe('budget');
  });

  it('A-V5: forced tool use is refused by Sonnet 5.5 only', () => {
    expect(lookupModel('claude-sonnet-5-5').forcedToolUse).toBe(false);
    expect(lookupModel('claude-sonnet-5').forcedToolUse).toBe(true);
    expect(lookupModel('claude-opus-5-5').forcedToolUse).toBe(true);
  });

  it('A-M1: mid-conversation system messages from Opus 4.8 on', () => {
    for (const id of [
      'claude-opus-4-8',
      'claude-opus-5',
      'claude-opus-5-5',
      'claude-sonnet-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-fable-5-1',
    ])
      expect(lookupModel(id).systemMessages, id).toBe(true);
    for (const id of ['claude-opus-4-7', 'claude-sonnet-4-6', 'claude-haiku-4-5'])
      expect(lookupModel(id).systemMessages, id).toBe(false);
  });
});

describe('end-of-life dates', () => {
  it('claude-sonnet-4-5 reached its end of life on 2026-11-30; Opus 4.5 has until 2027-01-22', () => {
    const sonnet = lookupModel('claude-sonnet-4-5');
    expect(sonnet.endOfLife).toBe('2026-11-30');
    expect(isPastEndOfLife(sonnet, new Date('2026-11-29T23:59:59Z'))).toBe(false);
    expect(isPastEndOfLife(sonnet, new Date('2026-11-30T00:00:00Z'))).toBe(true);
    expect(isPastEndOfLife(lookupModel('claude-opus-4-5'), TODAY)).toBe(false);
    expect(isPastEndOfLife(lookupModel('claude-sonnet-4-6'), TODAY)).toBe(false);
  });

  it('the model list leaves out models past their date', () => {
    const ids = listModels('anthropic', { now: TODAY }).map((m) => m.id);
    expect(ids).not.toContain('claude-sonnet-4-5-20250929');
    expect(ids).not.toContain('claude-3-7-sonnet-20250219');
    expect(ids).toContain('claude-opus-4-5-20251101');
    expect(listModels('anthropic', { now: new Date('2026-06-01T00:00:00Z') }).map((m) => m.id)).toContain(
      'claude-sonnet-4-5-20250929',
    );
  });

  it('the Anthropic default is never claude-sonnet-4-5 once it reached its end of life', () => {
    for (const clock of [new Date('2026-11-30T00:00:00Z'), TODAY, new Date('2099-01-01T00:00:00Z')]) {
      const id = defaultModelFor('anthropic', clock)!;
      expect(lookupModel(id).id).not.toBe('claude-sonnet-4-5-20250929');
      expect(isPastEndOfLife(lookupModel(id), clock), id).toBe(false);
    }
  });
});
