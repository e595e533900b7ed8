// @vitest-environment happy-dom
/**
 * "Ask <provider> for an exact count" in the expanded preview (docs/disclosure.md, token-count endpoints):
 * offered only when the background says so, asks with the preview's own inputs, then shows the
 * calibrated estimate and says so; errors as sentences.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { CountTokensResult, DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';
import { MockRequestError, sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { samplePreview } from '../testing/preview-fixture';

afterEach(cleanup);

const T0 = '2026-11-30T08:00:00.000Z';
const TARGET = { providerId: 'anthropic', model: 'claude-sonnet-4-5' };
const meta: ConversationMeta = { id: 'c1', title: 'Chat c1', createdAt: T0, updatedAt: T0, turnCount: 2, preview: '' };
const TURNS: Turn[] = [
  { id: 'u1', role: 'user', createdAt: T0, blocks: [{ type: 'text', text: 'First question' }] },
  {
    id: 'a1',
    role: 'assistant',
    origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
    status: 'complete',
    blocks: [{ type: 'text', text: 'First answer' }],
  },
];

function preview(over: Partial<DisclosurePreview> = {}): DisclosurePreview {
  return samplePreview({
    target: {
      providerId: 'anthropic',
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-5',
      origin: 'https://api.anthropic.com',
    },
    estimatedCostUsd: undefined,
    contextWindow: 200000,
    inputBudget: 184000,
    thinkingDropped: 0,
    blocksDropped: 0,
    perTurn: [],
    delivery: { mode: 'snapshot', detail: '' },
    body: {},
    exactCountAvailable: true,
    estimateSource: 'estimate',
    ...over,
  });
}

const COUNTED: CountTokensResult = {
  countedTokens: 2000,
  countedTurns: 2,
  preview: preview({
    estimatedInputTokens: 4100,
    estimateSource: 'provider-count',
    providerCount: { tokens: 2000, turns: 2, model: 'claude-sonnet-4-5', at: T0 },
  }),
};

async function open(extra: MockHandlers): Promise<MockConnector> {
  const m = await openConversation(meta, TURNS, {
    getSettings: () => ({ ...sampleSettings(), defaultTarget: TARGET }),
    listModels: () => [{ id: 'claude-sonnet-4-5' }],
    ...extra,
  });
  fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Next' } });
  fireEvent.click(await screen.findByRole('button', { name: /3 of 3 turns/ }));
  return m;
}

const summary = () => document.querySelector('[data-disclosure-summary]')!.textContent;

describe('exact count', () => {
  it("offered with what it sends; asks with the preview's inputs; then the line shows the calibrated estimate and says so", async () => {
    const m = await open({ previewSend: () => preview(), countTokens: () => COUNTED });
    expect(
      screen.getByText(
        /Sends only the turns Anthropic has already received \(never your draft\) to its free token-count endpoint/,
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask Anthropic for an exact count' }));
    await screen.findByText(
      "~4.1k tokens, calibrated by Anthropic's count of the 2 turns it has already seen (2,000 tokens).",
    );
    // The preview's inputs (the collapsed line asks for counts only, docs/architecture.md#long-conversations-and-speed; the count needs no such flag).
    const { countsOnly: _countsOnly, ...asked } = m.callsOf('previewSend').at(-1)!;
    expect(m.callsOf('countTokens')).toEqual([asked]);
    expect(m.callsOf('countTokens')[0]).toEqual({ conversationId: 'c1', target: TARGET, text: 'Next' });
    expect(summary()).toBe('3 of 3 turns · ~4.1k tokens (calibrated) · to Anthropic claude-sonnet-4-5');
    expect(screen.getByRole('button', { name: 'Ask Anthropic to count again' })).toBeTruthy();
  });

  it('is drawn as a button (outlined, not as a line of text) and described by what it sends', async () => {
    await open({ previewSend: () => preview(), countTokens: () => COUNTED });
    const ask = screen.getByRole('button', { name: 'Ask Anthropic for an exact count' });
    expect(ask.classList.contains('outlined')).toBe(true);
    const hint = document.getElementById(ask.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toMatch(/^Sends only the turns Anthropic has already received/);
  });

  it('not offered when the preview says it is not available (nothing received, or no count endpoint)', async () => {
    const m = await open({ previewSend: () => preview({ exactCountAvailable: false }), countTokens: () => COUNTED });
    expect(screen.queryByRole('button', { name: /exact count/ })).toBeNull();
    expect(document.querySelector('[data-exact-count]')).toBeNull();
    expect(m.callsOf('countTokens')).toEqual([]);
  });

  it('an error is shown as a sentence, and the estimate stays as it was', async () => {
    await open({
      previewSend: () => preview(),
      countTokens: () => {
        throw new MockRequestError({
          code: 'rate_limited',
          message: 'Rate limited (HTTP 429): slow down',
          retryAfterSec: 12,
        });
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask Anthropic for an exact count' }));
    const alert = await screen.findByRole('alert');
    expect(alert.getAttribute('data-error-code')).toBe('rate_limited');
    expect(alert.textContent).toContain('Try again in 12 seconds');
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Ask Anthropic for an exact count' }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    expect(summary()).toBe('3 of 3 turns · ~3.2k tokens · to Anthropic claude-sonnet-4-5');
  });
});
