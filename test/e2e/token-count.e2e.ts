/**
 * docs/disclosure.md end to end, "Token estimates per target": after a send to the fake Anthropic, the
 * expanded preview offers "Ask Anthropic for an exact count"; the fake's count endpoint receives
 * exactly the stored turns (never the draft) and nothing else goes anywhere; the line then shows
 * the calibrated estimate and says so. Not offered for a provider that has received nothing, nor
 * for OpenAI (exact tokenizer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTokens } from '../../components/side-panel/disclosure-format';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import { fakeTokenCount } from '../fake-providers/count-tokens';
import { expectKeysOnlyToTheirOrigins, expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { openPanelSession, type PanelSession } from './panel-kit';
import { request, storedTurns } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('token-count.e2e.ts');

const ANTHROPIC = { providerId: 'anthropic', model: 'claude-sonnet-4-6' };

describe.skipIf(!HAS_CHROMIUM)('exact count with the provider token-count endpoint (docs/disclosure.md)', () => {
  let s: PanelSession;
  beforeAll(async () => {
    s = await openPanelSession({ width: 420, height: 1000 });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('after a send to Anthropic: offered; the fake counts exactly the stored turns (no draft); the line shows the calibrated figure', async () => {
    const { page, panel, fakes } = s;
    const summary = page.locator('[data-disclosure-summary]');
    fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'The number is 42.' });
    await panel.choose('anthropic', 'claude-sonnet-4-6');
    await panel.send('Remember the number 42.', { confirm: false });
    expect(await panel.waitForAnswer(1)).toBe('complete');
    const conversationId = await panel.currentConversationId();

    const draft = 'DRAFT-NEVER-COUNTED: which number was it?';
    await page.getByLabel('Message', { exact: true }).fill(draft);
    await waitFor(
      'the preview with the draft',
      async () => ((await summary.textContent()) ?? '').startsWith('3 of 3 turns') || undefined,
    );
    await summary.click();
    const ask = page.getByRole('button', { name: 'Ask Anthropic for an exact count', exact: true });
    await ask.waitFor();
    expect(await page.locator('[data-exact-count]').textContent()).toContain(
      'Sends only the turns Anthropic has already received (never your draft) to its free token-count endpoint.',
    );

    fakes.reset();
    await ask.click();
    const line = page.locator('[data-count-line]');
    await line.waitFor();

    // Exactly one request left the browser: the count, to Anthropic, with the stored turns only.
    expect(fakes.openai.requests.concat(fakes.google.requests, fakes.custom.requests)).toEqual([]);
    expect(fakes.anthropic.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages/count_tokens']);
    const [req] = posts(fakes.anthropic, 'anthropic-count-tokens');
    expectValid(req!);
    const stored = await storedTurns(page, conversationId);
    const storedText = stored.map((t) => t.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''));
    expect(storedText).toEqual(['Remember the number 42.', 'The number is 42.']);
    expect(req!.body).toEqual({
      model: 'claude-sonnet-4-6',
      messages: [
        { role: 'user', content: [{ type: 'text', text: storedText[0] }] },
        { role: 'assistant', content: [{ type: 'text', text: storedText[1] }] },
        // The fixed repair of a history ending on an answer (transcript-v1.md): no conversation content.
        { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
      ],
    });
    expect(JSON.stringify(req!.body)).not.toContain('DRAFT-NEVER-COUNTED');
    expect(req!.headers['x-api-key']).toBeDefined();
    expect(expectKeysOnlyToTheirOrigins(fakes)).toBe(1);

    // The line shows the calibrated figure — the background's own preview of the same inputs — and says so.
    const counted = fakeTokenCount(JSON.stringify(req!.body));
    const preview = await request<DisclosurePreview>(page, 'previewSend', {
      conversationId,
      target: ANTHROPIC,
      text: draft,
    });
    expect(preview).toMatchObject({
      estimateSource: 'provider-count',
      providerCount: { tokens: counted, turns: 2 },
      exactCountAvailable: true,
    });
    expect(await line.textContent()).toBe(
      `~${formatTokens(preview.estimatedInputTokens)} tokens, calibrated by Anthropic's count of the 2 turns it has already seen (${counted.toLocaleString('en')} tokens).`,
    );
    expect(await summary.textContent()).toContain(`~${formatTokens(preview.estimatedInputTokens)} tokens (calibrated)`);
    expect(await page.getByRole('button', { name: 'Ask Anthropic to count again', exact: true }).count()).toBe(1);
  });

  it('not offered to a provider that has received nothing (Gemini), nor to OpenAI (exact tokenizer); nothing is sent', async () => {
    const { page, panel, fakes } = s;
    fakes.reset();
    for (const [id, model] of [
      ['google', 'gemini-2.5-flash'],
      ['openai', 'gpt-5.5'],
    ] as const) {
      await panel.choose(id, model);
      await waitFor(
        `the preview for ${id}`,
        async () =>
          ((await page.locator('[data-disclosure-summary]').textContent()) ?? '').includes(model) || undefined,
      );
      // Expanded (so the offer would show), with no offer and no count line.
      if (!(await page.locator('#baton-disclosure-details').isVisible()))
        await page.locator('[data-disclosure-summary]').click();
      await page.getByRole('list', { name: 'Turns in this send' }).waitFor();
      expect(await page.locator('[data-exact-count]').count()).toBe(0);
      expect(await page.getByRole('button', { name: /exact count/ }).count()).toBe(0);
    }
    // OpenAI's count is exact: the worker fetched the ranks and built the tokenizer on first use
    // (gpt-tokenizer's module code runs then, not at start-up: docs/architecture.md#the-service-workers-start-up).
    const preview = await request<DisclosurePreview>(page, 'previewSend', {
      conversationId: await panel.currentConversationId(),
      target: { providerId: 'openai', model: 'gpt-5.5' },
      text: 'How many tokens is this?',
    });
    expect(preview.estimateSource).toBe('tokenizer');
    expect(preview.estimatedInputTokens).toBeGreaterThan(0);
    expect(fakes.all().flatMap((f) => posts(f))).toEqual([]);
  });
});
