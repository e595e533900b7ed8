/**
 * Versions and branches in Chromium with the fake providers (docs/transcript.md#versions-and-branches):
 * a regenerate with another provider keeps the first answer reachable with *Previous version* /
 * *Next version*, and the next request body carries the active version only; editing the third
 * of six messages starts a branch, and both branches stay reachable after a browser restart
 * (real IndexedDB). A screenshot of a turn with versions at 360 px goes to
 * `test-results/screenshots/versions-360.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { horizontalOverflow } from './panel-look';
import { readDb, storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('versions.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');

/** The version label ("n / m") of the turn shown at `index` of the given role, or undefined. */
async function versionLabel(s: PanelSession, role: string, index: number): Promise<string | undefined> {
  const nav = s.panel
    .turns()
    .and(s.page.locator(`[data-role="${role}"]`))
    .nth(index)
    .getByRole('group', { name: 'Versions' });
  return (await nav.count()) ? (await nav.locator('.turn-version-label').innerText()).trim() : undefined;
}

const shownTexts = (s: PanelSession) => s.panel.turns().evaluateAll((els) => els.map((e) => e.textContent ?? ''));

describe.skipIf(!HAS_CHROMIUM)('versions and branches', () => {
  let s: PanelSession | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it(
    'regenerate with another provider keeps the first answer reachable; the next body holds the active version only (360 px)',
    { timeout: 120_000 },
    async () => {
      s = await openPanelSession({ width: 360, height: 780 });
      s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'OPENAI-FIRST-ANSWER' });
      await s.panel.choose('openai', 'gpt-5.5');
      await s.panel.send('Name a colour.');
      expect(await s.panel.waitForAnswer(1)).toBe('complete');

      s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'CLAUDE-SECOND-ANSWER' });
      await s.panel.choose('anthropic', 'claude-sonnet-4-6');
      await s.panel.turns().last().getByRole('button', { name: 'Regenerate answer' }).click();
      await s.page
        .getByRole('dialog', { name: /^Send this conversation to / })
        .getByRole('button', { name: 'Disclose and send' })
        .click();
      await waitFor('the second version, labelled 2 / 2', async () =>
        (await versionLabel(s!, 'assistant', 0)) === '2 / 2' ? true : undefined,
      );
      expect(await s.panel.lastTurnText()).toContain('CLAUDE-SECOND-ANSWER');

      fs.mkdirSync(SHOTS, { recursive: true });
      await s.page.screenshot({ path: path.join(SHOTS, 'versions-360.png'), fullPage: true });
      expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });

      // The first answer is one click away, and back.
      const answer = s.panel.turns().last();
      await answer.getByRole('button', { name: 'Previous version' }).click();
      await waitFor('the first answer', async () =>
        (await s!.panel.lastTurnText()).includes('OPENAI-FIRST-ANSWER') ? true : undefined,
      );
      expect(await versionLabel(s, 'assistant', 0)).toBe('1 / 2');
      await s.panel.turns().last().getByRole('button', { name: 'Next version' }).click();
      await waitFor('the second answer again', async () =>
        (await s!.panel.lastTurnText()).includes('CLAUDE-SECOND-ANSWER') ? true : undefined,
      );

      // Nothing a provider wrote was deleted: both answers are stored.
      const conversationId = await s.panel.currentConversationId();
      expect((await storedTurns(s.page, conversationId)).map(textOf)).toEqual([
        'Name a colour.',
        'OPENAI-FIRST-ANSWER',
        'CLAUDE-SECOND-ANSWER',
      ]);

      // The next request carries the active version only.
      s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Noted.' });
      await s.panel.send('Why that one?');
      expect(await s.panel.waitForAnswer(2)).toBe('complete');
      const req = posts(s.fakes.anthropic).at(-1)!;
      expectValid(req);
      const body = JSON.stringify(req.body);
      expect(body).toContain('CLAUDE-SECOND-ANSWER');
      expect(body).not.toContain('OPENAI-FIRST-ANSWER');
    },
  );

  it(
    'editing the third of six messages starts a branch; both branches stay reachable after a browser restart',
    { timeout: 180_000 },
    async () => {
      s = await openPanelSession();
      await s.panel.choose('openai', 'gpt-5.5');
      for (let i = 1; i <= 6; i++) {
        s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: `ANSWER-${i}` });
        await s.panel.send(`QUESTION-${i}`);
        expect(await s.panel.waitForAnswer(i)).toBe('complete');
      }
      const conversationId = await s.panel.currentConversationId();

      const third = s.panel.turns().and(s.page.locator('[data-role="user"]')).nth(2);
      await third.getByRole('button', { name: 'Edit and resend' }).click();
      await s.page.getByLabel('Edit message', { exact: true }).fill('QUESTION-3-EDITED');
      s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'ANSWER-3-EDITED' });
      await s.page.getByRole('button', { name: 'Save and resend', exact: true }).click();
      await waitFor('the edited branch, labelled 2 / 2', async () =>
        (await versionLabel(s!, 'user', 2)) === '2 / 2' && (await s!.panel.turns().count()) === 6 ? true : undefined,
      );
      expect(await s.panel.waitForAnswer(3)).toBe('complete');
      expect(await s.panel.lastTurnText()).toContain('ANSWER-3-EDITED');
      // The edited request carried the first two exchanges and the edit, nothing of the old branch.
      const body = JSON.stringify(posts(s.fakes.openai).at(-1)!.body);
      expect(body).toContain('QUESTION-3-EDITED');
      for (const gone of ['QUESTION-3"', 'ANSWER-3"', 'QUESTION-4', 'ANSWER-6']) expect(body).not.toContain(gone);
      const stored = (await readDb(s.page)).turns.filter((t) => t.conversationId === conversationId);
      expect(stored).toHaveLength(14);

      // A browser restart on the same profile: the tree is still there, both branches reachable.
      await s.browser.restart();
      await s.reopenPanel();
      await waitFor(
        'the conversation listed',
        async () => (await s!.page.locator(`li[data-conversation-id="${conversationId}"]`).count()) === 1,
      );
      await s.panel.openConversation(conversationId);
      await waitFor('the edited branch shown', async () => ((await s!.panel.turns().count()) === 6 ? true : undefined));
      expect((await shownTexts(s)).join('\n')).toContain('QUESTION-3-EDITED');
      expect(await versionLabel(s, 'user', 2)).toBe('2 / 2');

      await s.panel
        .turns()
        .and(s.page.locator('[data-role="user"]'))
        .nth(2)
        .getByRole('button', { name: 'Previous version' })
        .click();
      await waitFor('the first branch, all twelve turns', async () =>
        (await s!.panel.turns().count()) === 12 ? true : undefined,
      );
      expect(await versionLabel(s, 'user', 2)).toBe('1 / 2');
      expect(await s.panel.lastTurnText()).toContain('ANSWER-6');
      await s.panel
        .turns()
        .and(s.page.locator('[data-role="user"]'))
        .nth(2)
        .getByRole('button', { name: 'Next version' })
        .click();
      await waitFor('the edited branch again', async () => ((await s!.panel.turns().count()) === 6 ? true : undefined));
      expect(await s.panel.lastTurnText()).toContain('ANSWER-3-EDITED');
    },
  );
});
