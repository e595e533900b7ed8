/**
 * Full-text search in Chromium with the fake providers and real IndexedDB
 * (docs/side-panel.md#search): a word that occurs only in an assistant answer — an earlier
 * version, on a branch that is no longer shown — is found from *Search conversations* in another
 * conversation, and the match opens that conversation at that turn, its version selected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from './harness';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('search.e2e.ts');

const WORD = 'Quetzalcoatlus';

describe.skipIf(!HAS_CHROMIUM)('full-text search', () => {
  let s: PanelSession | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('finds a word that occurs only in an assistant answer and jumps to that turn', { timeout: 120_000 }, async () => {
    s = await openPanelSession({ width: 800, height: 900 });
    await s.panel.choose('openai', 'gpt-5.5');
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: `${WORD} northropi was the largest flyer.` });
    await s.panel.send('Name a big flying reptile.');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const first = await s.panel.currentConversationId();
    const answerId = await s.panel.turns().last().getAttribute('data-turn-id');

    // Regenerate: the answer with the word becomes an earlier version, off the shown path.
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Pteranodon, perhaps.' });
    await s.panel.turns().last().getByRole('button', { name: 'Regenerate answer' }).click();
    const dialog = s.page.getByRole('dialog', { name: /^Send this conversation to / });
    await waitFor('the second version', async () => {
      if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Disclose and send' }).click();
      return (await s!.panel.lastTurnText()).includes('Pteranodon') ? true : undefined;
    });
    expect(await s.panel.waitForAnswer(1)).toBe('complete');

    // Another conversation is open when searching.
    await s.panel.newChat();
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Hello there.' });
    await s.panel.send('Hi');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    expect(await s.panel.currentConversationId()).not.toBe(first);

    await s.page.getByRole('searchbox', { name: 'Search conversations' }).fill('quetzal');
    const matches = s.page.getByRole('region', { name: 'Matches in messages' });
    const hit = matches.getByRole('button', { name: new RegExp(`Answer: ${WORD} northropi`) });
    await hit.waitFor({ timeout: 10_000 });
    expect(await matches.getByRole('button').count()).toBe(1);
    expect(await hit.locator('mark').innerText()).toBe(WORD);

    await hit.click();
    const target = s.page.locator(`[data-turn-id="${answerId}"]`);
    await waitFor('the matched turn shown and highlighted', async () =>
      (await target.count()) === 1 && (await target.getAttribute('data-search-target')) !== null ? true : undefined,
    );
    expect(await target.getAttribute('data-role')).toBe('assistant');
    expect(await target.innerText()).toContain(WORD);
    // Its version was selected: the later version is no longer shown.
    expect(await s.panel.lastTurnText()).not.toContain('Pteranodon');
    expect(await target.evaluate((el) => el === document.activeElement)).toBe(true);
    const box = await target.boundingBox();
    expect(box && box.y >= 0 && box.y < 900).toBe(true);
    // The list filtered by title showed no row; cleared, it marks the conversation opened.
    await s.page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
    expect(await s.panel.currentConversationId()).toBe(first);
  });
});
