/**
 * Claude → GPT → Claude with thinking on, and a send that leaves the detour out (an edit in the
 * middle of the history), against the fakes that enforce the 2026 rules
 * (docs/provider-rules.md, docs/disclosure.md "What the provider dropped"):
 * - the panel's preview says GPT's reasoning will not be used by Claude (X3);
 * - back on Claude, Claude's own earlier thinking is replayed unchanged (X9, X10);
 * - leaving GPT's answer out changes everything before Claude's second thinking block: under the
 *   thinking-binding beta the fake Anthropic endpoint drops that block and says so in
 *   `input_transformations` (A-B2, A-B3, A-B5);
 * - the ledger records the drop on that send, and *Who has seen this?* says it in plain words.
 *
 * The side panel has no thinking switch, so the sends go over the protocol from the panel's page
 * with `thinking: true` (the panel shows them as they stream); the preview and the ledger are read
 * in the panel UI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DisclosureLedger } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import { expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { request, storedTurns } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('thinking-switch.e2e.ts');

const CLAUDE = { providerId: 'anthropic', model: 'claude-sonnet-4-6', thinking: true };
const GPT = { providerId: 'openai', model: 'gpt-5.5', thinking: true };

type Message = { role: string; content: { type: string; signature?: string; text?: string }[] };

describe.skipIf(!HAS_CHROMIUM)('Claude → GPT → Claude with thinking, then an edit in the middle', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession({ width: 420, height: 1000 });
  });
  afterAll(async () => {
    await s?.close();
  });

  const summary = () => s.page.locator('[data-disclosure-summary]');
  const warnings = () => s.page.locator('[data-reasoning-warnings] li');

  it('A-B5 the preview warns, the beta drop happens, and the ledger shows it under Who has seen this', async () => {
    const meta = await request<ConversationMeta>(s.page, 'createConversation', { title: 'Drive to Oslo' });
    let answers = 0;
    const send = async (target: typeof CLAUDE, text: string, excludeTurns?: string[]) => {
      await request(s.page, 'sendMessage', {
        conversationId: meta.id,
        text,
        target,
        confirmedDisclosure: true,
        ...(excludeTurns ? { excludeTurns } : {}),
      });
      expect(await s.panel.waitForAnswer(++answers)).toBe('complete');
    };

    // Claude thinks, GPT thinks.
    s.fakes.anthropic.enqueue('anthropic-messages', {
      kind: 'thinking',
      thinking: 'Coast or inland?',
      signature: 'sig-e2e-claude-1',
      text: 'Take the coast road.',
    });
    await request(s.page, 'sendMessage', {
      conversationId: meta.id,
      text: 'Plan a drive from Bergen to Oslo.',
      target: CLAUDE,
    });
    // The list shows a conversation once it has turns: open it there, then follow it in the panel.
    await s.panel.openConversation(meta.id);
    expect(await s.panel.waitForAnswer(++answers)).toBe('complete');
    s.fakes.openai.enqueue('openai-responses', {
      kind: 'thinking',
      thinking: 'Compare with rail.',
      signature: 'enc-e2e-gpt-1',
      text: 'Or take the train.',
    });
    await send(GPT, 'GPT, any other idea?');

    // Back to Claude: the panel's preview says GPT's reasoning will not be used (X3).
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.page.getByLabel('Message', { exact: true }).fill('Claude, which is faster?');
    await waitFor('the reasoning note for Claude', async () => ((await warnings().count()) > 0 ? true : undefined));
    expect(await warnings().allTextContents()).toEqual([
      expect.stringMatching(/^Earlier reasoning on 1 turn will not be used: it was written by another model/),
    ]);
    await s.page.getByLabel('Message', { exact: true }).fill('');

    s.fakes.anthropic.enqueue('anthropic-messages', {
      kind: 'thinking',
      thinking: 'The train avoids ferries.',
      signature: 'sig-e2e-claude-2',
      text: 'The train.',
    });
    await send(CLAUDE, 'Claude, which is faster?');
    const back = posts(s.fakes.anthropic)[1]!;
    expectValid(back);
    // Claude's first thinking goes back as Claude wrote it; GPT's reasoning does not go to Claude.
    const backMessages = (back.body as { messages: Message[] }).messages;
    expect(backMessages[1]!.content[0]).toMatchObject({ type: 'thinking', signature: 'sig-e2e-claude-1' });
    expect(JSON.stringify(back.body)).not.toContain('enc-e2e-gpt-1');

    // The edit in the middle: this send leaves GPT's answer out, so the history before Claude's
    // second thinking block is no longer the one it was made after (A-B2).
    const turns = await storedTurns(s.page, meta.id);
    const gptAnswer = turns.find((t) => t.role === 'assistant' && t.origin?.provider === 'openai')!;
    const claudeSecond = turns.filter((t) => t.role === 'assistant' && t.origin?.provider === 'anthropic')[1]!;
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Without the detour: the coast road.' });
    await send(CLAUDE, 'Forget the train idea. Coast road then?', [gptAnswer.id]);

    const edited = posts(s.fakes.anthropic)[2]!;
    expectValid(edited);
    expect(edited.headers['anthropic-beta']).toContain('thinking-binding-controls-2026-08-01');
    expect(edited.body).toMatchObject({ thinking: { block_binding: { prefix_mismatch_behavior: 'drop_block' } } });
    const editedMessages = (edited.body as { messages: Message[] }).messages;
    const at = editedMessages.findIndex((m) => m.content.some((b) => b.signature === 'sig-e2e-claude-2'));
    expect(at).toBeGreaterThan(0);
    // The fake dropped the block and said so; the reader kept that on the answer (A-B5).
    const last = (await storedTurns(s.page, meta.id)).at(-1)!;
    expect(last.meta?.inputTransformations).toEqual([
      { type: 'thinking_dropped', path: `messages.${at}.content.0`, reason: 'prefix_binding_mismatch' },
    ]);

    // The ledger entry of that send records it...
    const ledger = await request<DisclosureLedger>(s.page, 'listDisclosures', { conversationId: meta.id });
    expect(ledger.entries.map((e) => [e.providerId, e.dropped ?? null])).toEqual([
      ['anthropic', null],
      ['openai', null],
      ['anthropic', null],
      ['anthropic', { what: 'reasoning', blocks: 1, turns: [claudeSecond.id], reasons: ['prefix_binding_mismatch'] }],
    ]);

    // ...and Who has seen this says it in plain words.
    await s.page.getByLabel('Message', { exact: true }).fill('One more question.');
    await waitFor(
      'a fresh preview',
      async () => ((await summary().textContent()) ?? '').startsWith('9 of 9 turns') || undefined,
    );
    if ((await s.page.getByRole('tab', { name: 'Who has seen this' }).count()) === 0) await summary().click();
    await s.page.getByRole('tab', { name: 'Who has seen this' }).click();
    const dropped = s.page.getByRole('list', { name: 'Dropped by the provider' });
    await dropped.waitFor();
    expect(await dropped.locator('li').allTextContents()).toEqual([
      expect.stringMatching(
        /Anthropic dropped Claude's reasoning on 1 earlier turn \(the conversation before them changed\)\.$/,
      ),
    ]);
  });
});
