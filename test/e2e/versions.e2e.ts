/**
 * Versions and branches in Chromium with the fake providers (docs/transcript.md#versions-and-branches):
 * a regenerate with another provider keeps the first answer reachable with *Previous version* /
 * *Next version*, and the next request body carries the active version only; editing the third
 * of six messages starts a branch, and both branches stay reachable after a browser restart
 * (real IndexedDB); a database in the schema-version-1 shape (linear turns, as Baton wrote them
 * before versions) is upgraded by the extension itself and its conversation opens as one path. A
 * screenshot of a turn with versions at 360 px goes to `test-results/screenshots/versions-360.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_VERSION } from '../../lib/store/db';
import type { Turn } from '../../lib/transcript/schema';
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

/** A conversation as schema version 1 stored it: list metadata with `nextSeq`, no `activeLeaf`. */
interface V1Conversation {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  turnCount: number;
  preview: string;
  nextSeq: number;
  lastTarget?: { providerId: string; model: string };
}

/**
 * Replaces the extension's `baton` database with one in the schema-version-1 shape (the stores
 * and indexes the version-1 ladder step created; turns keyed `[conversationId, seq]` with no
 * `parentId`) holding `conv` and its `turns` in order, plus the keys and settings the set-up had
 * saved. Runs in an extension page (the worker's origin); the worker closes its connection on
 * `versionchange` (D3), so the delete is not blocked. Returns the version the database now has.
 */
function seedVersion1Database(page: Page, conv: V1Conversation, turns: Turn[]): Promise<number> {
  return page.evaluate(
    async ({ conv, turns }) => {
      const done = <T>(r: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
      const current = await done(indexedDB.open('baton'));
      const read = current.transaction(['vault', 'settings'], 'readonly');
      const vault = await done(read.objectStore('vault').getAll());
      const settings = await done(read.objectStore('settings').getAll());
      current.close();
      await done(indexedDB.deleteDatabase('baton'));
      const open = indexedDB.open('baton', 1);
      open.onupgradeneeded = () => {
        const db = open.result;
        const conversations = db.createObjectStore('conversations', { keyPath: 'id' });
        conversations.createIndex('byUpdatedAt', 'updatedAt');
        const store = db.createObjectStore('turns', { keyPath: ['conversationId', 'seq'] });
        store.createIndex('byTurnId', ['conversationId', 'turn.id'], { unique: true });
        store.createIndex('byStatus', 'turn.status');
        const disclosures = db.createObjectStore('disclosures', { keyPath: 'id', autoIncrement: true });
        disclosures.createIndex('byConversation', 'conversationId');
        db.createObjectStore('vault', { keyPath: 'providerId' });
        db.createObjectStore('settings', { keyPath: 'key' });
      };
      const db = await done(open);
      const write = db.transaction(['conversations', 'turns', 'vault', 'settings'], 'readwrite');
      for (const r of vault) write.objectStore('vault').put(r);
      for (const r of settings) write.objectStore('settings').put(r);
      write.objectStore('conversations').put(conv);
      turns.forEach((turn, seq) => write.objectStore('turns').put({ conversationId: conv.id, seq, turn }));
      await new Promise<void>((resolve, reject) => {
        write.oncomplete = () => resolve();
        write.onerror = () => reject(write.error);
      });
      const version = db.version;
      db.close();
      return version;
    },
    { conv, turns },
  );
}

/** The version the `baton` database has now (`indexedDB.databases()`; nothing is opened). */
const dbVersion = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).find((d) => d.name === 'baton')?.version);

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
      // The regenerate went to the pair chosen (never the previous provider's model with the new provider).
      const regenerated = posts(s.fakes.anthropic, 'anthropic-messages');
      expect(regenerated).toHaveLength(1);
      expectValid(regenerated[0]!);
      expect((regenerated[0]!.body as { model?: unknown }).model).toBe('claude-sonnet-4-6');

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
    'D4 a schema-version-1 database (linear turns) opens in the current build as one path, and a regenerate adds a version',
    { timeout: 120_000 },
    async () => {
      const T0 = '2026-10-01T09:00:00.000Z';
      const origin = { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' } as const;
      const turns: Turn[] = [
        { id: 'old-u1', role: 'user', createdAt: T0, blocks: [{ type: 'text', text: 'OLD-QUESTION-1' }] },
        {
          id: 'old-a1',
          role: 'assistant',
          createdAt: T0,
          status: 'complete',
          origin,
          blocks: [{ type: 'text', text: 'OLD-ANSWER-1' }],
        },
        { id: 'old-u2', role: 'user', createdAt: T0, blocks: [{ type: 'text', text: 'OLD-QUESTION-2' }] },
        {
          id: 'old-a2',
          role: 'assistant',
          createdAt: T0,
          status: 'complete',
          origin,
          blocks: [{ type: 'text', text: 'OLD-ANSWER-2' }],
        },
      ];
      const conv: V1Conversation = {
        id: 'v1-linear',
        title: 'Written before versions',
        createdAt: T0,
        updatedAt: T0,
        turnCount: turns.length,
        preview: 'OLD-ANSWER-2',
        nextSeq: turns.length,
        lastTarget: { providerId: 'openai', model: 'gpt-5.5' },
      };
      s = await openPanelSession(undefined, {
        beforePanel: async ({ browser }) => {
          const page = await browser.openPage('options.html');
          expect(await seedVersion1Database(page, conv, turns)).toBe(1);
          expect(await dbVersion(page)).toBe(1);
          await page.close();
          // The current build starts on that profile: its worker opens the database and runs the ladder.
          await browser.restart();
        },
      });
      await waitFor('the old conversation listed', async () =>
        (await s!.page.locator(`li[data-conversation-id="${conv.id}"]`).count()) === 1 ? true : undefined,
      );
      await s.panel.openConversation(conv.id);
      await waitFor('its four turns', async () => ((await s!.panel.turns().count()) === 4 ? true : undefined));
      expect(await dbVersion(s.page)).toBe(DB_VERSION);
      expect(await shownTexts(s)).toEqual([
        expect.stringContaining('OLD-QUESTION-1'),
        expect.stringContaining('OLD-ANSWER-1'),
        expect.stringContaining('OLD-QUESTION-2'),
        expect.stringContaining('OLD-ANSWER-2'),
      ]);
      // One path: no turn has versions yet; the ladder chained each turn to the one before it.
      expect(await s.page.getByRole('group', { name: 'Versions' }).count()).toBe(0);
      const migrated = await readDb(s.page);
      const records = migrated.turns.filter((r) => r.conversationId === conv.id).sort((a, b) => a.seq - b.seq);
      expect(records.map((r) => (r as { parentId?: string }).parentId)).toEqual(['', 'old-u1', 'old-a1', 'old-u2']);
      expect(migrated.conversations.find((c) => c.id === conv.id)?.activeLeaf).toBe('old-a2');

      s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'NEW-ANSWER-2' });
      await s.panel.choose('openai', 'gpt-5.5');
      await s.panel.turns().last().getByRole('button', { name: 'Regenerate answer' }).click();
      await s.page
        .getByRole('dialog', { name: /^Send this conversation to / })
        .getByRole('button', { name: 'Disclose and send' })
        .click();
      await waitFor('the new version, labelled 2 / 2', async () =>
        (await versionLabel(s!, 'assistant', 1)) === '2 / 2' ? true : undefined,
      );
      expect(await s.panel.waitForAnswer(2)).toBe('complete');
      expect(await s.panel.lastTurnText()).toContain('NEW-ANSWER-2');
      const req = posts(s.fakes.openai).at(-1)!;
      expectValid(req);
      expect((req.body as { model?: unknown }).model).toBe('gpt-5.5');
      const body = JSON.stringify(req.body);
      for (const sent of ['OLD-QUESTION-1', 'OLD-ANSWER-1', 'OLD-QUESTION-2']) expect(body).toContain(sent);
      expect(body).not.toContain('OLD-ANSWER-2');
      expect((await storedTurns(s.page, conv.id)).map(textOf)).toEqual([
        'OLD-QUESTION-1',
        'OLD-ANSWER-1',
        'OLD-QUESTION-2',
        'OLD-ANSWER-2',
        'NEW-ANSWER-2',
      ]);
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
