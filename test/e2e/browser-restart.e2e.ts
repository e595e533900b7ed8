/**
 * Scenario 4: close the browser and start it again on the same profile — the conversations
 * (IndexedDB) are intact, listed and shown, the keys still work, and the conversation continues
 * with its earlier turns.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValid, findKeyMaterial, posts, startFakes, type FakeSet } from './fakes';
import { ExtensionBrowser, waitFor } from './harness';
import { configureProviders, readDb, SidePanel, type DbDump } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('browser-restart.e2e.ts');

describe.skipIf(!HAS_CHROMIUM)('a browser restart with the same profile', () => {
  let fakes: FakeSet;
  let browser: ExtensionBrowser;
  let page: Page;
  let panel: SidePanel;
  let before: DbDump;
  let firstId: string;
  let secondId: string;

  const openPanel = async () => {
    page = await browser.openPage('sidepanel.html');
    panel = new SidePanel(page);
    await panel.ready();
  };

  beforeAll(async () => {
    fakes = await startFakes();
    browser = await ExtensionBrowser.launch();
    const options = await browser.openPage('options.html');
    await configureProviders(options, fakes);
    await options.close();
    await openPanel();
  });
  afterAll(async () => {
    await browser?.close();
    await fakes?.close();
  });

  it('two conversations are stored before the restart', async () => {
    fakes.openai.enqueue('openai-responses', { kind: 'thinking', thinking: 'Think first.', signature: 'enc-restart-1', text: 'First answer.' });
    await panel.choose('openai', 'gpt-5.5');
    await panel.send('First conversation');
    expect(await panel.waitForAnswer(1)).toBe('complete');
    fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Claude adds to it.' });
    await panel.choose('anthropic', 'claude-sonnet-4-6');
    await panel.send('Go on, Claude');
    expect(await panel.waitForAnswer(2)).toBe('complete');
    firstId = await panel.currentConversationId();

    await panel.newChat();
    await panel.choose('google', 'gemini-3-pro-preview');
    await panel.send('Second conversation');
    expect(await panel.waitForAnswer(1)).toBe('complete');
    secondId = await panel.currentConversationId();
    expect(secondId).not.toBe(firstId);

    before = await readDb(page);
    expect(before.conversations.map((c) => c.id).sort()).toEqual([firstId, secondId].sort());
    expect(before.turns).toHaveLength(6);
  });

  it('after the restart IndexedDB holds exactly the same records, and the side panel lists and shows them', async () => {
    const id = browser.extensionId;
    await browser.restart();
    expect(browser.extensionId).toBe(id);
    await openPanel();
    const after = await readDb(page);
    expect(after).toEqual(before);

    await waitFor('both conversations listed', async () => (await page.locator('li[data-conversation-id]').count()) === 2);
    const listed = await page.locator('li[data-conversation-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-conversation-id')));
    expect(listed.sort()).toEqual([firstId, secondId].sort());

    await page.locator(`li[data-conversation-id="${firstId}"] button`).click();
    await waitFor('the first conversation shown', async () => (await panel.turns().count()) === 4);
    const shownIds = await panel.turns().evaluateAll((els) => els.map((e) => e.getAttribute('data-turn-id')));
    const storedIds = before.turns.filter((t) => t.conversationId === firstId).sort((a, b) => a.seq - b.seq).map((t) => t.turn.id);
    expect(shownIds).toEqual(storedIds);
    expect(await panel.turnSummary()).toEqual(['user:complete', 'assistant:complete', 'user:complete', 'assistant:complete']);
    expect(await panel.turns().nth(1).innerText()).toContain('First answer.');
  });

  it('the keys survived too: the conversation continues on OpenAI with its earlier turns and its own reasoning state', async () => {
    fakes.reset();
    fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Still here after the restart.' });
    await panel.choose('openai', 'gpt-5.5');
    await panel.send('Are you still there?');
    expect(await panel.waitForAnswer(3)).toBe('complete');
    const [req] = posts(fakes.openai);
    expectValid(req!);
    const body = JSON.stringify(req!.body);
    for (const text of ['First conversation', 'First answer.', 'Go on, Claude', 'Claude adds to it.', 'Are you still there?']) expect(body).toContain(text);
    expect(body).toContain('enc-restart-1');
    expect(body).not.toContain('Second conversation');
  });

  it('S4 no key material in the console output across both browser runs', async () => {
    expect(findKeyMaterial((await browser.capturedLogs(page)).join('\n'))).toEqual([]);
  });
});
