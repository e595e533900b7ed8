/**
 * The side panel's shell in real Chromium (docs/side-panel.md), at 360 px and 800 px wide, against the fake
 * providers: a send in a 200-turn conversation leaves the new message and the answer's last line
 * inside the visible chat; scrolling up while an answer streams stops the follow and shows *Jump
 * to latest*; the *Model* combobox lists the fake provider's models and keeps a model across
 * provider switches; the expanded disclosure sheet leaves the composer and the newest turn
 * visible on every tab. Screenshots (light and dark, 360 px) of the model picker open, the
 * disclosure sheet on each tab and the list drawer go to `test-results/screenshots/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Turn } from '../../lib/transcript/schema';
import { waitFor } from './harness';
import { openPanelSession, pieces, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('panel-shell.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
const ID = 'seed-200';
const T0 = Date.parse('2026-11-01T09:00:00.000Z');
/** The models each fake provider lists (its `/models` answer) for these tests. */
const MODELS = {
  openai: ['gpt-5.5', 'gpt-5.4-mini', 'gpt-4.1-mini', 'ft:gpt-5.4-mini:acme::tuned'],
  anthropic: ['claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-opus-4-6'],
  google: ['gemini-3-pro-preview', 'gemini-2.5-flash'],
};

/** 200 turns, alternating questions and short answers, each a few lines long. */
function seedTurns(): Turn[] {
  return Array.from({ length: 200 }, (_, i): Turn => {
    const createdAt = new Date(T0 + i * 60_000).toISOString();
    return i % 2 === 0
      ? {
          id: `t${i}`,
          role: 'user',
          createdAt,
          blocks: [{ type: 'text', text: `Question ${i}: how does step ${i / 2} of the plan work?` }],
        }
      : {
          id: `t${i}`,
          role: 'assistant',
          createdAt,
          status: 'complete',
          origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
          blocks: [{ type: 'text', text: `Answer ${i}.\n\n- first point of ${i}\n- second point of ${i}` }],
        };
  });
}

/** Whether `el`'s box lies within the visible part of the chat (main.chat), both in px. */
async function insideChat(page: Page, el: Locator): Promise<boolean> {
  const chat = await page.locator('main.chat').boundingBox();
  const box = await el.boundingBox();
  if (!chat || !box) return false;
  return box.y >= chat.y - 1 && box.y + box.height <= chat.y + chat.height + 1;
}

/** Whether `el`'s box overlaps the visible part of the chat by at least `px`. */
async function showsInChat(page: Page, el: Locator, px = 16): Promise<boolean> {
  const chat = await page.locator('main.chat').boundingBox();
  const box = await el.boundingBox();
  if (!chat || !box) return false;
  return Math.min(box.y + box.height, chat.y + chat.height) - Math.max(box.y, chat.y) >= px;
}

/** Whether `el` lies entirely inside the viewport. */
async function inViewport(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const vp = page.viewportSize()!;
  return (
    !!box && box.y >= 0 && box.x >= 0 && box.y + box.height <= vp.height + 0.5 && box.x + box.width <= vp.width + 0.5
  );
}

const endGap = (page: Page) => page.locator('main.chat').evaluate((m) => m.scrollHeight - m.scrollTop - m.clientHeight);

for (const viewport of [
  { width: 360, height: 640 },
  { width: 800, height: 900 },
]) {
  describe.skipIf(!HAS_CHROMIUM)(`side panel shell at ${viewport.width} px`, () => {
    let s: PanelSession;
    const narrow = viewport.width < 600;
    const shot = (name: string) => path.join(SHOTS, `panel-shell-${name}.png`);

    beforeAll(async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      s = await openPanelSession(viewport, {
        beforePanel: async ({ fakes, browser }) => {
          for (const f of fakes.all()) f.configure({ models: MODELS });
          const turns = seedTurns();
          await browser.evalInWorker(
            async ({ id, turns }) => {
              const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
                .batonReady;
              await store.create({ id, title: 'Planning the move', now: turns[0]!.createdAt! });
              for (const t of turns) await store.appendTurn(id, t, t.createdAt ?? new Date().toISOString());
            },
            { id: ID, turns },
          );
        },
      });
    }, 120_000);
    afterAll(async () => {
      await s?.close();
    });

    it(`the list is ${narrow ? 'a closed drawer' : 'docked and open'}; a 200-turn conversation opens at its newest turn`, async () => {
      const toggle = s.page.getByRole('button', { name: 'Conversations', exact: true });
      expect(await toggle.getAttribute('aria-expanded')).toBe(narrow ? 'false' : 'true');
      if (narrow) {
        await toggle.click();
        await s.page.getByRole('searchbox', { name: 'Search conversations' }).waitFor();
        if (viewport.width === 360)
          for (const scheme of ['light', 'dark'] as const) {
            await s.page.emulateMedia({ colorScheme: scheme });
            await s.page.screenshot({ path: shot(`drawer-${scheme}`) });
          }
        await s.page.emulateMedia({ colorScheme: 'light' });
      }
      await s.panel.openConversation(ID);
      await waitFor('the newest 50 turns', async () => (await s.panel.turns().count()) === 50);
      expect(await s.page.locator('#baton-conversations').isVisible()).toBe(!narrow);
      await waitFor(
        'the view at the newest turn',
        async () => (await insideChat(s.page, s.panel.turns().last())) || undefined,
      );
      expect(await endGap(s.page)).toBeLessThanOrEqual(24);
      if (!narrow) await s.page.screenshot({ path: shot(`wide-${viewport.width}-light`) });
    });

    it('a send leaves the new message and the answer’s last line inside the visible chat', async () => {
      const text = [
        'Here is the short version:',
        '',
        '1. Pack the kitchen first.',
        '2. Label every box.',
        '',
        'Last line: call the movers on Monday.',
      ].join('\n');
      s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text, chunks: pieces(text, 6), delayMs: 15 });
      await s.panel.choose('anthropic', 'claude-sonnet-4-6');
      await s.panel.send('What should I do first?');
      const answers = s.page.locator('[data-turn-id][data-role="assistant"]');
      // Wait on the answer itself, not on a turn count: the newest-50 window may drop older turns
      // while the answer streams, so a count taken after the send can race with it.
      await waitFor(
        'the answer finished',
        async () => {
          const last = answers.last();
          const done = (await last.getAttribute('data-status')) === 'complete';
          return done && (await last.innerText()).includes('call the movers on Monday') ? true : undefined;
        },
        30_000,
      );
      const mine = s.page.locator('[data-turn-id][data-role="user"]').last();
      expect(await mine.innerText()).toContain('What should I do first?');
      const lastLine = answers.last().getByText('Last line: call the movers on Monday.');
      await waitFor(
        'the new message and the last line in view',
        async () => ((await insideChat(s.page, mine)) && (await insideChat(s.page, lastLine))) || undefined,
        5_000,
      );
    });

    it('scrolling up while the answer streams stops the follow and shows Jump to latest; clicking it follows again', async () => {
      const long = Array.from(
        { length: 40 },
        (_, i) => `Paragraph ${i} of a slow answer, long enough to grow the chat steadily.`,
      ).join('\n\n');
      s.fakes.anthropic.enqueue('anthropic-messages', {
        kind: 'text',
        text: long,
        chunks: pieces(long, 12),
        delayMs: 25,
      });
      await s.panel.send('Tell me everything, slowly.');
      const stop = s.page.getByRole('button', { name: 'Stop', exact: true });
      await stop.waitFor({ timeout: 10_000 });
      const streaming = s.page.locator('[data-turn-id][data-role="assistant"][data-status="streaming"]');
      await waitFor(
        'some streamed text',
        async () =>
          (await streaming.count()) && (await streaming.innerText()).includes('Paragraph 3') ? true : undefined,
        15_000,
      );
      expect(await endGap(s.page)).toBeLessThanOrEqual(24);
      // The person scrolls up with the wheel.
      const chat = await s.page.locator('main.chat').boundingBox();
      await s.page.mouse.move(chat!.x + chat!.width / 2, chat!.y + chat!.height / 2);
      await s.page.mouse.wheel(0, -500);
      const jump = s.page.getByRole('button', { name: /Jump to latest/ });
      await jump.waitFor({ timeout: 5_000 });
      const top = await s.page.locator('main.chat').evaluate((m) => m.scrollTop);
      await waitFor(
        'more text below',
        async () =>
          (await streaming.count()) && (await streaming.innerText()).includes('Paragraph 12') ? true : undefined,
        20_000,
      );
      expect(await s.page.locator('main.chat').evaluate((m) => m.scrollTop)).toBe(top);
      expect(await endGap(s.page)).toBeGreaterThan(100);
      if (viewport.width === 360) await s.page.screenshot({ path: shot('jump-to-latest-light') });
      await jump.click();
      await waitFor('Jump to latest gone', async () => ((await jump.count()) === 0 ? true : undefined));
      expect(await endGap(s.page)).toBeLessThanOrEqual(24);
      await waitFor(
        'still following',
        async () =>
          (await streaming.count()) && (await streaming.innerText()).includes('Paragraph 20') ? true : undefined,
        20_000,
      );
      expect(await endGap(s.page)).toBeLessThanOrEqual(24);
      await stop.click();
      await stop.waitFor({ state: 'hidden', timeout: 10_000 });
    });

    it('the Model combobox lists the fake provider’s models and keeps a model across provider switches', async () => {
      const provider = s.page.getByRole('combobox', { name: 'Provider', exact: true });
      const model = s.page.getByRole('combobox', { name: 'Model', exact: true });
      await provider.selectOption('anthropic');
      await model.click();
      const listbox = s.page.getByRole('listbox');
      await listbox.waitFor();
      const listed = () =>
        listbox.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('data-model-id')));
      await waitFor('the fake provider’s models', async () =>
        (await listed()).length >= MODELS.anthropic.length ? true : undefined,
      );
      const ids = await listed();
      for (const id of MODELS.anthropic) expect(ids).toContain(id);
      // Listed by the provider first, with names from the registry.
      expect(ids.slice(0, MODELS.anthropic.length).sort()).toEqual([...MODELS.anthropic].sort());
      expect(await listbox.getByRole('option', { name: /Claude Haiku 4\.5/ }).count()).toBe(1);
      if (viewport.width === 360)
        for (const scheme of ['light', 'dark'] as const) {
          await s.page.emulateMedia({ colorScheme: scheme });
          await s.page.screenshot({ path: shot(`model-picker-${scheme}`) });
        }
      await s.page.emulateMedia({ colorScheme: 'light' });
      await listbox.getByRole('option', { name: /Claude Haiku 4\.5/ }).click();
      expect(await model.inputValue()).toBe('claude-haiku-4-5');
      await provider.selectOption('openai');
      expect(await model.inputValue()).not.toBe('');
      await model.click();
      await waitFor('OpenAI’s models', async () => ((await listed()).includes('gpt-5.4-mini') ? true : undefined));
      await listbox.getByRole('option', { name: /GPT-5\.4 mini/ }).click();
      expect(await model.inputValue()).toBe('gpt-5.4-mini');
      await provider.selectOption('google');
      expect(await model.inputValue()).not.toBe('');
      await provider.selectOption('anthropic');
      expect(await model.inputValue()).toBe('claude-haiku-4-5');
      await provider.selectOption('openai');
      expect(await model.inputValue()).toBe('gpt-5.4-mini');
      // Free text for an id neither list knows.
      await model.fill('gpt-5.5-experimental');
      await s.page.getByLabel('Message', { exact: true }).click();
      expect(await model.inputValue()).toBe('gpt-5.5-experimental');
      await model.fill('gpt-5.5');
      await provider.selectOption('anthropic');
    });

    it('the expanded disclosure sheet leaves the composer and the newest turn visible, on every tab', async () => {
      await s.page.getByLabel('Message', { exact: true }).fill('And after the movers?');
      const line = s.page.locator('button.disclosure-line');
      await waitFor(
        'the disclosure line',
        async () => ((await line.innerText()).includes('turns') ? true : undefined),
        10_000,
      );
      await line.click();
      const names = ['Turns', 'Request', 'Who has seen this', 'Policy'];
      expect(await s.page.getByRole('tab').allInnerTexts()).toEqual(names);
      for (const name of names) {
        await s.page.getByRole('tab', { name, exact: true }).click();
        expect(await s.page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
        const panel = s.page.getByRole('tabpanel');
        await waitFor(
          `the ${name} tab's content`,
          async () =>
            (await panel.innerText()).trim().length > 10 && !(await panel.innerText()).includes('Loading')
              ? true
              : undefined,
          10_000,
        );
        // What was clicked shows: the tab and its panel are on screen.
        expect(await inViewport(s.page, s.page.getByRole('tab', { name, exact: true }))).toBe(true);
        expect(await inViewport(s.page, panel)).toBe(true);
        expect((await panel.boundingBox())!.height).toBeGreaterThan(24);
        // The composer and the newest turn stay visible; the chat keeps real room.
        expect(await inViewport(s.page, s.page.getByLabel('Message', { exact: true }))).toBe(true);
        expect(await inViewport(s.page, s.page.getByRole('button', { name: 'Send', exact: true }))).toBe(true);
        expect((await s.page.locator('main.chat').boundingBox())!.height).toBeGreaterThanOrEqual(80);
        await waitFor(
          'the newest turn in view',
          async () => ((await showsInChat(s.page, s.panel.turns().last())) ? true : undefined),
          3_000,
        );
        if (viewport.width === 360)
          for (const scheme of ['light', 'dark'] as const) {
            await s.page.emulateMedia({ colorScheme: scheme });
            await s.page.screenshot({ path: shot(`disclosure-${name.toLowerCase().replace(/ /g, '-')}-${scheme}`) });
          }
        await s.page.emulateMedia({ colorScheme: 'light' });
      }
      await s.page.getByRole('button', { name: 'Close the details' }).click();
      expect(await s.page.getByRole('tablist').count()).toBe(0);
    });
  });
}
