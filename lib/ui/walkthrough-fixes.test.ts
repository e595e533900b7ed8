/**
 * Issue 14, item 8: what the new-user walkthrough found, one test each (UI-side parts).
 */
import { describe, expect, it } from 'vitest';
import type { ChatState } from './chat-state';
import { reduceEvent } from './chat-events';
import { describeError } from './error-text';

describe('an empty capture (issue 14, item 8)', () => {
  it('"Nothing was captured" is said in Baton\'s words, never as "The provider refused the request as invalid"', () => {
    const effect = reduceEvent({} as ChatState, { type: 'captureReady', error: { code: 'bad_request', message: 'Nothing was captured: The page shows no conversation to capture.' } });
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

  it('a provider\'s bad_request still reads as the provider refusing it', () => {
    expect(describeError({ code: 'bad_request', message: 'messages: roles must alternate' }).sentence).toBe('The provider refused the request as invalid.');
  });
});
