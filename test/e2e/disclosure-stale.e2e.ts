/**
 * docs/disclosure.md end to end, a stale panel: the preview requests failed (so the panel had no preview of
 * the send to decide on), the composer sends unconfirmed, and the background refuses with
 * `confirmation_required`. The panel then opens the first-disclosure confirmation with a fresh
 * preview of that send — never an error; Cancel sends nothing and keeps the draft; Confirm sends.
 * When that fresh preview needs no confirmation (another window sent the conversation to that
 * provider between the send and the refusal), the same send goes again: no dialog, no error.
 * Real extension in Chromium, real IndexedDB, the fake providers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DisclosureLedger } from '../../lib/messaging/disclosure-types';
import { expectValid, posts } from './fakes';
import { openPanelSession, type PanelSession } from './panel-kit';
import { request, storedTurns } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('disclosure-stale.e2e.ts');

/** The `chrome.runtime` slice patched in the panel page. */
interface PatchedRuntime {
  sendMessage(message: { type?: string; payload?: unknown }, ...rest: unknown[]): Promise<unknown>;
}

describe.skipIf(!HAS_CHROMIUM)('a composer send refused as confirmation_required (docs/disclosure.md)', () => {
  let s: PanelSession;
  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('opens the confirmation with a fresh preview; Cancel sends nothing and keeps the draft; Confirm sends', async () => {
    const { page, panel, fakes } = s;
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Noted: 7.' });
    await panel.choose('openai', 'gpt-5.5');
    await panel.send('Please remember the number 7.', { confirm: false });
    expect(await panel.waitForAnswer(1)).toBe('complete');
    const conversationId = await panel.currentConversationId();
    const before = await storedTurns(page, conversationId);

    // From here on the panel's preview requests fail (as with an older or busy background) until
    // the composer sends: the panel decides without a preview of this send.
    await page.evaluate(() => {
      const g = globalThis as unknown as { chrome: { runtime: PatchedRuntime }; batonFailPreview?: boolean };
      const runtime = g.chrome.runtime;
      const original = runtime.sendMessage.bind(runtime);
      g.batonFailPreview = true;
      runtime.sendMessage = (message, ...rest) => {
        if (message?.type === 'previewSend' && g.batonFailPreview)
          return Promise.resolve({ ok: false, error: { code: 'internal', message: 'no preview (test)' } });
        if (message?.type === 'sendMessage') g.batonFailPreview = false;
        return original(message, ...rest);
      };
    });
    await panel.choose('anthropic', 'claude-sonnet-4-6');
    const draft = 'Which number was it, Claude?';
    await page.getByLabel('Message', { exact: true }).fill(draft);
    await new Promise((r) => setTimeout(r, 600));

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send this conversation to Anthropic?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('2 earlier turns and your new message (3 of 3 turns)');
    expect(await dialog.textContent()).toContain(`at ${new URL(fakes.baseUrls.anthropic).origin}`);
    expect(await page.locator('[data-error-code]').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { batonFailPreview?: boolean }).batonFailPreview)).toBe(
      false,
    );

    // Cancel: nothing sent, nothing stored, the draft stays.
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await new Promise((r) => setTimeout(r, 500));
    expect(posts(fakes.anthropic)).toEqual([]);
    expect(await storedTurns(page, conversationId)).toEqual(before);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe(draft);
    expect(await page.locator('[data-error-code]').count()).toBe(0);

    // Send again: the panel now knows (the fresh preview) and asks first; Confirm sends once.
    fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'It was 7.' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.getByRole('button', { name: 'Disclose and send', exact: true }).click();
    expect(await panel.waitForAnswer(2)).toBe('complete');
    const received = posts(fakes.anthropic);
    expect(received).toHaveLength(1);
    expectValid(received[0]!);
    const ledger = await request<DisclosureLedger>(page, 'listDisclosures', { conversationId });
    expect(ledger.seenBy.map((x) => x.providerId)).toEqual(['openai', 'anthropic']);
  });

  it('refused, but another window sent the conversation to that provider meanwhile: the same send goes again, no dialog, no error', async () => {
    const { page, panel, fakes } = s;
    await page.reload();
    await panel.ready();
    await page.getByRole('button', { name: 'New chat', exact: true }).click();
    fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Noted: 9.' });
    await panel.choose('openai', 'gpt-5.5');
    await panel.send('Please remember the number 9.', { confirm: false });
    expect(await panel.waitForAnswer(1)).toBe('complete');
    const conversationId = await panel.currentConversationId();

    // The panel has no preview of the send (its preview requests fail until it sends, as in the
    // test above), so it sends unconfirmed and the background refuses: Gemini has not received the
    // conversation. Before the refusal reaches the panel, "another window" sends to Gemini
    // (confirmed) and its answer ends: the fresh preview then needs no confirmation.
    await page.evaluate((id) => {
      const g = globalThis as unknown as { chrome: { runtime: PatchedRuntime }; batonDialogSeen?: boolean };
      new MutationObserver(() => {
        if (document.querySelector('[role="dialog"]')) g.batonDialogSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
      const runtime = g.chrome.runtime;
      const original = runtime.sendMessage.bind(runtime);
      let raced = false;
      runtime.sendMessage = async (message, ...rest) => {
        if (message?.type === 'previewSend' && !raced)
          return { ok: false, error: { code: 'internal', message: 'no preview (test)' } };
        const reply = (await original(message, ...rest)) as { ok: boolean; error?: { code: string } };
        if (message?.type !== 'sendMessage' || raced || reply.ok || reply.error?.code !== 'confirmation_required')
          return reply;
        raced = true;
        const payload = message.payload as Record<string, unknown>;
        await original({
          type: 'sendMessage',
          payload: { ...payload, text: 'From another window: 9 or 10?', confirmedDisclosure: true },
        });
        for (let i = 0; i < 200; i++) {
          const view = (await original({ type: 'getConversation', payload: { id } })) as { data: { busy: boolean } };
          if (!view.data.busy) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        return reply;
      };
    }, conversationId);
    await panel.choose('google', 'gemini-3-pro-preview');
    const draft = 'Which number was it, Gemini?';
    await page.getByLabel('Message', { exact: true }).fill(draft);
    await new Promise((r) => setTimeout(r, 600));
    fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'Nine, from the other window.' });
    fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'It was 9.' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await panel.waitForAnswer(3)).toBe('complete');

    const received = posts(fakes.google);
    expect(received).toHaveLength(2);
    for (const r of received) expectValid(r);
    expect(JSON.stringify(received[1]!.body)).toContain(draft);
    const stored = await storedTurns(page, conversationId);
    expect(
      stored.map((t) => `${t.role}:${t.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`),
    ).toEqual([
      'user:Please remember the number 9.',
      'assistant:Noted: 9.',
      'user:From another window: 9 or 10?',
      'assistant:Nine, from the other window.',
      `user:${draft}`,
      'assistant:It was 9.',
    ]);
    expect(
      await page.evaluate(() => (globalThis as unknown as { batonDialogSeen?: boolean }).batonDialogSeen),
    ).toBeUndefined();
    expect(await page.locator('[data-error-code]').count()).toBe(0);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
  });
});
