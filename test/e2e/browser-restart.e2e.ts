/**
 * Scenario 4: close the browser and start it again on the same profile — the conversations
 * (IndexedDB) are intact, listed and shown, the keys still work, and the conversation continues
 * with its earlier turns.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectValid, findKeyMaterial, posts } from './fakes';
import { waitFor } from './harness';
import { readDb, type DbDump } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('browser-restart.e2e.ts');

/** The two conversations every test starts from, stored in a fresh browser, and the database as it stands then. */
interface Stored {
  /** OpenAI, then Claude (two answers; OpenAI's reasoning state `enc-restart-1`). */
  firstId: string;
  /** Gemini (one answer). */
  secondId: string;
  before: DbDump;
}

/** Stores the two conversations of {@link Stored} through the side panel. */
async function storeTwo(s: PanelSession): Promise<Stored> {
  s.fakes.openai.enqueue('openai-responses', {
    kind: 'thinking',
    thinking: 'Think first.',
    signature: 'enc-restart-1',
    text: 'First answer.',
  });
  await s.panel.choose('openai', 'gpt-5.5');
  await s.panel.send('First conversation');
  expect(await s.panel.waitForAnswer(1)).toBe('complete');
  s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Claude adds to it.' });
  await s.panel.choose('anthropic', 'claude-sonnet-4-6');
  await s.panel.send('Go on, Claude');
  expect(await s.panel.waitForAnswer(2)).toBe('complete');
  const firstId = await s.panel.currentConversationId();

  await s.panel.newChat();
  await s.panel.choose('google', 'gemini-3-pro-preview');
  await s.panel.send('Second conversation');
  expect(await s.panel.waitForAnswer(1)).toBe('complete');
  const secondId = await s.panel.currentConversationId();
  return { firstId, secondId, before: await readDb(s.page) };
}

/** {@link storeTwo}, then the browser closed and started again on the same profile, and the side panel reopened. */
async function storeTwoAndRestart(s: PanelSession): Promise<Stored> {
  const stored = await storeTwo(s);
  const id = s.browser.extensionId;
  await s.browser.restart();
  expect(s.browser.extensionId).toBe(id);
  await s.reopenPanel();
  return stored;
}

/** Opens the conversation `id` in the side panel and waits for its `turns` turns. */
async function open(s: PanelSession, id: string, turns: number): Promise<void> {
  await waitFor(
    'the conversation listed',
    async () => (await s.page.locator(`li[data-conversation-id="${id}"]`).count()) === 1,
  );
  await s.panel.openConversation(id);
  await waitFor('the conversation shown', async () => (await s.panel.turns().count()) === turns);
}

// Each test starts its own browser and stores its own conversations: none depends on another's run.
describe.skipIf(!HAS_CHROMIUM)('a browser restart with the same profile', () => {
  let s: PanelSession | undefined;

  beforeEach(async () => {
    s = await openPanelSession();
  });
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('two conversations are stored before the restart', { timeout: 120_000 }, async () => {
    const { firstId, secondId, before } = await storeTwo(s!);
    expect(secondId).not.toBe(firstId);
    expect(before.conversations.map((c) => c.id).sort()).toEqual([firstId, secondId].sort());
    expect(before.turns).toHaveLength(6);
  });

  it(
    'after the restart IndexedDB holds exactly the same records, and the side panel lists and shows them',
    { timeout: 120_000 },
    async () => {
      const { firstId, secondId, before } = await storeTwoAndRestart(s!);
      const after = await readDb(s!.page);
      expect(after).toEqual(before);

      await waitFor(
        'both conversations listed',
        async () => (await s!.page.locator('li[data-conversation-id]').count()) === 2,
      );
      const listed = await s!.page
        .locator('li[data-conversation-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-conversation-id')));
      expect(listed.sort()).toEqual([firstId, secondId].sort());

      await open(s!, firstId, 4);
      const shownIds = await s!.panel.turns().evaluateAll((els) => els.map((e) => e.getAttribute('data-turn-id')));
      const storedIds = before.turns
        .filter((t) => t.conversationId === firstId)
        .sort((a, b) => a.seq - b.seq)
        .map((t) => t.turn.id);
      expect(shownIds).toEqual(storedIds);
      expect(await s!.panel.turnSummary()).toEqual([
        'user:complete',
        'assistant:complete',
        'user:complete',
        'assistant:complete',
      ]);
      expect(await s!.panel.turns().nth(1).innerText()).toContain('First answer.');
    },
  );

  it(
    'the keys survived too: the conversation continues on OpenAI with its earlier turns and its own reasoning state',
    { timeout: 120_000 },
    async () => {
      const { firstId } = await storeTwoAndRestart(s!);
      await open(s!, firstId, 4);
      s!.fakes.reset();
      s!.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Still here after the restart.' });
      await s!.panel.choose('openai', 'gpt-5.5');
      await s!.panel.send('Are you still there?');
      expect(await s!.panel.waitForAnswer(3)).toBe('complete');
      const [req] = posts(s!.fakes.openai);
      expectValid(req!);
      const body = JSON.stringify(req!.body);
      for (const text of [
        'First conversation',
        'First answer.',
        'Go on, Claude',
        'Claude adds to it.',
        'Are you still there?',
      ])
        expect(body).toContain(text);
      expect(body).toContain('enc-restart-1');
      expect(body).not.toContain('Second conversation');
      // The send ran the OpenAI SDK from its own script, imported on demand by a worker that was not
      // being installed (scripts/lazy-modules.ts: Chromium serves again what the install imported).
      expect(
        await s!.browser.evalInWorker(
          () => ({
            state: (globalThis as unknown as { serviceWorker?: { state: string } }).serviceWorker?.state,
            openai: typeof (globalThis as { __batonLazy_loadOpenAI?: unknown }).__batonLazy_loadOpenAI,
          }),
          undefined,
        ),
      ).toEqual({ state: 'activated', openai: 'object' });
    },
  );

  it('S4 no key material in the console output across both browser runs', { timeout: 120_000 }, async () => {
    await storeTwoAndRestart(s!);
    expect(findKeyMaterial((await s!.browser.capturedLogs(s!.page)).join('\n'))).toEqual([]);
  });
});
