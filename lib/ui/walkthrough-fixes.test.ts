/**
 * docs/side-panel.md, item 8: what the new-user walkthrough found, one test each (UI-side parts).
 */
import { describe, expect, it } from 'vitest';
import type { ChatState } from './chat-state';
import { reduceEvent } from './chat-events';
import { describeError } from './error-text';

describe('an empty capture (docs/side-panel.md, item 8)', () => {
  it('"Nothing was captured" is said in Baton\'s words, never as "The provider refused the request as invalid"', () => {
    const effect = reduceEvent({} as ChatState, {
      type: 'captureReady',
      error: { code: 'bad_request', message: 'Nothing was captured: The page shows no conversation to capture.' },
    });
    const shown = describeError(effect.patch!.error!);
    expect(shown.sentence).toBe('Nothing was captured: The page shows no conversation to capture.');
    expect(shown.sentence).not.toMatch(/provider/i);
    expect(shown.detail).toBeUndefined();
  });

  it('a page Baton cannot read is not "Access was refused. The key may not have access…"', () => {
    const message = 'Baton reads conversations only on chatgpt.com, claude.ai and gemini.google.com.';
    const effect = reduceEvent({} as ChatState, { type: 'captureReady', error: { code: 'forbidden', message } });
    expect(describeError(effect.patch!.error!).sentence).toBe(message);
  });

  it("a provider's bad_request still reads as the provider refusing it", () => {
    expect(describeError({ code: 'bad_request', message: 'messages: roles must alternate' }).sentence).toBe(
      'The provider refused the request as invalid.',
    );
  });
});

describe('no internal rule ids in what people read (docs/side-panel.md, item 8)', () => {
  it('withoutRuleIds removes parenthesised rule-id lists and nothing else', async () => {
    const { withoutRuleIds } = await import('./rule-ids');
    expect(withoutRuleIds('empty or whitespace-only text (X4, A-E1)')).toBe('empty or whitespace-only text');
    expect(withoutRuleIds("The file is 40 MiB, over Baton's 32 MiB import limit; nothing was read (I3).")).toBe(
      "The file is 40 MiB, over Baton's 32 MiB import limit; nothing was read.",
    );
    expect(withoutRuleIds('reasoning cannot be replayed to another model (X3, A-K6, R-K6)')).toBe(
      'reasoning cannot be replayed to another model',
    );
    expect(withoutRuleIds('the history starts on an assistant turn (A-R3, G-R5, M-3)')).toBe(
      'the history starts on an assistant turn',
    );
    expect(withoutRuleIds('Claude Sonnet 4 (Anthropic) at 3 (of 5) tries')).toBe(
      'Claude Sonnet 4 (Anthropic) at 3 (of 5) tries',
    );
  });

  it('error sentences and details carry no rule id', () => {
    const t = describeError({
      code: 'provider_error',
      message: 'The provider answered with a redirect to https://x.test/, which Baton refuses to follow (N3)',
    });
    expect(`${t.sentence} ${t.detail}`).not.toMatch(/\([A-Z]-?[A-Z]?\d/);
    expect(t.detail).toBe('The provider answered with a redirect to https://x.test/, which Baton refuses to follow');
  });
});
