/**
 * docs/disclosure.md end to end, through the side panel UI against the fake providers: the request the
 * preview shows ("View request") is the JSON the provider then receives; Cancel on the
 * first-disclosure confirmation sends nothing (also on Regenerate with a new provider); the ledger
 * lists both providers after a switch; a screenshot of the expanded preview (`test-results/screenshots/disclosure-preview.png`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DisclosureLedger, DisclosurePreview } from '../../lib/messaging/disclosure-types';
import { expectValid, findKeyMaterial, posts } from './fakes';
import { waitFor } from './harness';
import { request, storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('disclosure.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');

describe.skipIf(!HAS_CHROMIUM)('disclosure preview, confirmation and ledger (docs/disclosure.md)', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession({ width: 420, height: 1000 });
  });
  afterAll(async () => {
    await s?.close();
  });

  const summary = () => s.page.locator('[data-disclosure-summary]');

  it('preview = received body; Cancel sends nothing; the ledger lists both providers', async () => {
    // A new conversation's first message discloses nothing earlier: no confirmation.
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Hello from OpenAI.' });
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Hi, please remember the number 42.', { confirm: false });
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    expect(await s.page.getByRole('dialog').count()).toBe(0);
    const conversationId = await s.panel.currentConversationId();

    // Switch to Anthropic and type: the line refreshes for the new target and draft.
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    const draft = 'And you, Claude: which number was it?';
    await s.page.getByLabel('Message', { exact: true }).fill(draft);
    await waitFor(
      'the preview for Anthropic',
      async () => ((await summary().textContent()) ?? '').includes('to Anthropic claude-sonnet-4-6') || undefined,
    );
    expect(await summary().textContent()).toMatch(
      /^3 of 3 turns · ~\d+ tokens · (~\$\d+\.\d\d · |<\$0\.01 · )?to Anthropic claude-sonnet-4-6$/,
    );

    // Expand it and view the request.
    await summary().click();
    await s.page.getByRole('tab', { name: 'Request', exact: true }).click();
    const shown = JSON.parse((await s.page.getByLabel('Request body').textContent()) ?? '') as { messages: unknown[] };
    expect(shown.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi, please remember the number 42.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello from OpenAI.' }] },
      { role: 'user', content: [{ type: 'text', text: draft }] },
    ]);
    expect(findKeyMaterial(JSON.stringify(shown))).toEqual([]);
    // The turns are the sheet's other tab (docs/side-panel.md).
    await s.page.getByRole('tab', { name: 'Turns', exact: true }).click();
    expect(
      await s.page
        .locator('[data-disclosure-turn]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-included'))),
    ).toEqual(['true', 'true', 'true']);
    fs.mkdirSync(SHOTS, { recursive: true });
    await s.page.screenshot({ path: path.join(SHOTS, 'disclosure-preview.png'), fullPage: true });
    expect(fs.statSync(path.join(SHOTS, 'disclosure-preview.png')).size).toBeGreaterThan(1000);

    // Anthropic has not received this conversation: Send asks first; Cancel sends nothing.
    await s.page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Send this conversation to Anthropic?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('2 earlier turns and your new message (3 of 3 turns)');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await new Promise((r) => setTimeout(r, 500));
    expect(posts(s.fakes.anthropic)).toEqual([]);
    expect(await s.page.getByLabel('Message', { exact: true }).inputValue()).toBe(draft);

    // Confirmed: the provider receives exactly the body the preview showed.
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'It was 42.' });
    await s.page.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.getByRole('button', { name: 'Disclose and send', exact: true }).click();
    expect(await s.panel.waitForAnswer(2)).toBe('complete');
    const received = posts(s.fakes.anthropic);
    expect(received).toHaveLength(1);
    expectValid(received[0]!);
    expect(received[0]!.body).toEqual(shown);

    // The ledger: both providers, per conversation and per turn.
    const ledger = await request<DisclosureLedger>(s.page, 'listDisclosures', { conversationId });
    expect(ledger.seenBy.map((s) => [s.providerId, s.endpoint, s.sends])).toEqual([
      ['openai', new URL(s.fakes.baseUrls.openai).origin, 1],
      ['anthropic', new URL(s.fakes.baseUrls.anthropic).origin, 1],
    ]);
    expect(ledger.entries.map((e) => [e.providerId, e.status, e.turns.length])).toEqual([
      ['openai', 'completed', 1],
      ['anthropic', 'completed', 3],
    ]);
    // And in the panel: the sheet's "Who has seen this" tab.
    await s.page.getByLabel('Message', { exact: true }).fill('One more');
    await waitFor(
      'a fresh preview',
      async () => ((await summary().textContent()) ?? '').startsWith('5 of 5 turns') || undefined,
    );
    if ((await s.page.getByRole('tab', { name: 'Who has seen this' }).count()) === 0) await summary().click();
    await s.page.getByRole('tab', { name: 'Who has seen this' }).click();
    const providers = s.page.getByRole('list', { name: 'Providers' });
    await providers.waitFor();
    expect(
      await providers.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-seen-provider'))),
    ).toEqual(['openai', 'anthropic']);
  });

  it('Regenerate on a provider that has not received the conversation asks first; Cancel sends nothing; Confirm sends the previewed body', async () => {
    await s.page.getByLabel('Message', { exact: true }).fill('');
    await s.panel.newChat();
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Blue, says OpenAI.' });
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Name a colour.', { confirm: false });
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const conversationId = await s.panel.currentConversationId();
    const before = await storedTurns(s.page, conversationId);

    // Provider B (Gemini) has never received this conversation: Regenerate asks, showing what it would disclose.
    await s.panel.choose('google', 'gemini-3-pro-preview');
    const answer = s.panel.turns().last();
    await answer.getByRole('button', { name: 'Regenerate answer' }).click();
    const dialog = s.page.getByRole('dialog', { name: /^Send this conversation to / });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 of 1 turns of this conversation, to answer again');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await new Promise((r) => setTimeout(r, 500));
    expect(posts(s.fakes.google)).toEqual([]);
    expect(await storedTurns(s.page, conversationId)).toEqual(before);
    expect(await s.panel.turnSummary()).toEqual(['user:complete', 'assistant:complete']);
    expect(await s.page.locator('[data-error-code]').count()).toBe(0);

    // Confirmed: Gemini receives the body the preview of this regenerate shows, once.
    const preview = await request<DisclosurePreview>(s.page, 'previewSend', {
      conversationId,
      target: { providerId: 'google', model: 'gemini-3-pro-preview' },
      resend: { kind: 'regenerate' },
    });
    expect(preview.needsConfirmation).toBe(true);
    s.fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'Green, says Gemini.' });
    await answer.getByRole('button', { name: 'Regenerate answer' }).click();
    await dialog.getByRole('button', { name: 'Disclose and send', exact: true }).click();
    await waitFor('the regenerated answer', async () =>
      (await s.panel.lastTurnText()).includes('Green, says Gemini.') ? true : undefined,
    );
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const received = posts(s.fakes.google);
    expect(received).toHaveLength(1);
    expectValid(received[0]!);
    expect(received[0]!.body).toEqual(preview.body);
    // The regenerated answer is a new version; OpenAI's stays stored (docs/transcript.md#versions-and-branches).
    expect((await storedTurns(s.page, conversationId)).map((t) => [t.role, textOf(t)])).toEqual([
      ['user', 'Name a colour.'],
      ['assistant', 'Blue, says OpenAI.'],
      ['assistant', 'Green, says Gemini.'],
    ]);
  });
});
