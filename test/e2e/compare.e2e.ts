/**
 * Ask several models at once in Chromium with the fake providers
 * (docs/side-panel.md#ask-several-models-at-once): a two-model send (OpenAI and Anthropic, both
 * first disclosures) asks for each confirmation separately, stores two versions of one answer,
 * shows them stacked at 360 px and side by side in a wider panel, and *Continue with this* on the
 * second makes the next request go to Anthropic with the chosen answer only in its body.
 * Before the send, a row per model says what it receives; after a reload the answers are side by
 * side again until one is picked.
 * Screenshots: `test-results/screenshots/compare-preview-360.png`, `compare-360.png` (each also
 * `-dark`) and `compare-wide.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { horizontalOverflow } from './panel-look';
import { storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('compare.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
const OPENAI_ANSWER =
  'OPENAI-ANSWER: take the **train**. It is faster door to door on this route, and you can work on the way.';
const CLAUDE_ANSWER =
  'CLAUDE-ANSWER: it depends. If you travel light, the train; with a family and luggage, the car is easier.';

const boxes = (s: PanelSession) =>
  s.page
    .locator('[data-compare-answer]')
    .evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom, left: r.left })),
    );

/** The "tokens" figures of a line: "~57 tokens" → "~57". */
const figures = (t: string) => [...t.matchAll(/(\S+) tokens/g)].map((m) => m[1]);

/**
 * What each model receives and the disclosure line, once settled: the rows say they are no
 * longer those of earlier inputs (`data-compare-settled`), every row has its counts, and the
 * line's figure for the first target is the first row's (both preview the same request).
 */
async function settledEstimates(s: PanelSession) {
  const list = s.page.getByRole('list', { name: 'What each model receives' });
  return waitFor('the compare previews settled', async () => {
    if ((await list.getAttribute('data-compare-settled')) !== 'true') return undefined;
    const rows = await list.locator('[data-compare-preview]').allInnerTexts();
    if (rows.length !== 2 || !rows.every((r) => /tokens/.test(r))) return undefined;
    const line = await s.page.locator('[data-disclosure-summary]').innerText();
    if (figures(line)[0] !== figures(rows[0]!)[0]) return undefined;
    return { rows: rows.map(figures), line: figures(line) };
  });
}

/** A screenshot of the page as it is, in the dark scheme; the page is light again afterwards. */
async function shootDark(s: PanelSession, file: string): Promise<void> {
  await s.page.emulateMedia({ colorScheme: 'dark' });
  await s.page.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches);
  await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await s.page.screenshot({ path: path.join(SHOTS, file) });
  await s.page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!HAS_CHROMIUM)('ask several models at once', () => {
  let s: PanelSession | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it(
    'two models: each first disclosure confirmed separately, two versions stored, Continue with this sends the chosen answer only',
    { timeout: 180_000 },
    async () => {
      s = await openPanelSession({ width: 360, height: 780 });
      // The conversation starts with Gemini, so OpenAI and Anthropic would each receive it for the first time.
      s.fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'Gemini was here.' });
      await s.panel.choose('google', 'gemini-2.5-flash');
      await s.panel.send('Train or car from Lyon to Paris?');
      expect(await s.panel.waitForAnswer(1)).toBe('complete');

      await s.panel.choose('openai', 'gpt-5.5');
      await s.page.getByRole('button', { name: '+ Ask several models' }).click();
      expect(await s.page.getByLabel('Provider 2', { exact: true }).inputValue()).toBe('anthropic');
      await s.page.getByLabel('Model 2', { exact: true }).fill('claude-sonnet-4-6');
      const words = (t: string) => t.split(/(?<= )/);
      s.fakes.openai.enqueue('openai-responses', {
        kind: 'text',
        text: OPENAI_ANSWER,
        chunks: words(OPENAI_ANSWER),
        delayMs: 15,
      });
      s.fakes.anthropic.enqueue('anthropic-messages', {
        kind: 'text',
        text: CLAUDE_ANSWER,
        chunks: words(CLAUDE_ANSWER),
        delayMs: 15,
      });
      await s.page.getByLabel('Message', { exact: true }).fill('And what would you pick?');
      // Before the send: what each model receives, one row each, both marked as first disclosures.
      const receives = s.page.getByRole('list', { name: 'What each model receives' });
      await waitFor('a preview row per model', async () => {
        const rows = await receives.locator('[data-compare-preview]').allInnerTexts();
        return rows.length === 2 && rows.every((r) => r.includes('First disclosure') && /tokens/.test(r))
          ? rows
          : undefined;
      });
      expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });
      fs.mkdirSync(SHOTS, { recursive: true });
      // The shots show the settled figures, the same in both (the same conversation and draft).
      const beforeSend = await settledEstimates(s);
      await s.page.screenshot({ path: path.join(SHOTS, 'compare-preview-360.png') });
      await shootDark(s, 'compare-preview-360-dark.png');
      expect(await settledEstimates(s)).toEqual(beforeSend);
      await s.page.getByRole('button', { name: 'Send', exact: true }).click();

      // One confirmation per provider, one after the other; nothing goes before both are answered.
      const asked: string[] = [];
      for (let i = 0; i < 2; i++) {
        const dialog = s.page.getByRole('dialog', { name: /^Send this conversation to / });
        await dialog.waitFor();
        const name = (await dialog.getByRole('heading').innerText()).trim();
        asked.push(name);
        if (i === 0) expect(posts(s.fakes.openai).length + posts(s.fakes.anthropic).length).toBe(0);
        await dialog.getByRole('button', { name: 'Disclose and send' }).click();
        await waitFor('the dialog to close', async () =>
          (await s!.page.getByRole('heading', { name }).count()) === 0 ? true : undefined,
        );
      }
      expect(asked).toEqual(['Send this conversation to OpenAI?', 'Send this conversation to Anthropic?']);

      const region = s.page.getByRole('region', { name: 'Answers to compare' });
      await waitFor(
        'both answers done',
        async () => ((await region.getAttribute('data-compare-done')) === 'true' ? true : undefined),
        30_000,
      );
      const cards = region.locator('[data-compare-answer]');
      expect(await cards.count()).toBe(2);
      expect(await cards.nth(0).innerText()).toContain('OPENAI-ANSWER');
      expect(await cards.nth(1).innerText()).toContain('CLAUDE-ANSWER');
      await waitFor('the stats of both answers', async () =>
        (await region.locator('[data-compare-stats]').allInnerTexts()).every((t) => / s$/.test(t.trim()))
          ? true
          : undefined,
      );

      // The answers are stored with their ledger records: no row says First disclosure any more, and
      // the rows asked again for the stored turns say so too.
      expect((await receives.locator('[data-compare-preview]').allInnerTexts()).join('\n')).not.toContain(
        'First disclosure',
      );
      await waitFor('the rows asked again after the answers', async () => {
        const rows = await receives.locator('[data-compare-preview]').allInnerTexts();
        return rows.length === 2 && rows.every((r) => /tokens/.test(r) && !r.includes('First disclosure'))
          ? rows
          : undefined;
      });

      // The figures shown are final before any shot: the rows asked after both answers ended, Anthropic's
      // estimate corrected by the usage it reported (the same figure in every shot below).
      const source = (n: number) =>
        receives.locator(`[data-compare-preview="${n}"]`).getAttribute('data-estimate-source');
      await waitFor('Anthropic’s estimate corrected by its reported usage', async () =>
        (await receives.getAttribute('data-compare-settled')) === 'true' && (await source(2)) === 'corrected'
          ? true
          : undefined,
      );
      const afterAnswers = await settledEstimates(s);

      // Stacked at 360 px, nothing sticking out.
      const narrow = await boxes(s);
      expect(narrow[1]!.top).toBeGreaterThanOrEqual(narrow[0]!.bottom);
      expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });
      await region.scrollIntoViewIfNeeded();
      await s.page.screenshot({ path: path.join(SHOTS, 'compare-360.png') });
      await shootDark(s, 'compare-360-dark.png');
      expect(await settledEstimates(s)).toEqual(afterAnswers);

      // Side by side in a wider panel.
      await s.page.setViewportSize({ width: 1000, height: 800 });
      await waitFor('side by side', async () => {
        const b = await boxes(s!);
        return b.length === 2 && Math.abs(b[0]!.top - b[1]!.top) < 2 && b[1]!.left > b[0]!.left ? true : undefined;
      });
      await region.scrollIntoViewIfNeeded();
      expect(await settledEstimates(s)).toEqual(afterAnswers);
      await s.page.screenshot({ path: path.join(SHOTS, 'compare-wide.png') });
      expect(await settledEstimates(s)).toEqual(afterAnswers);
      await s.page.setViewportSize({ width: 360, height: 780 });

      // A reload before one is picked: the conversation opens with its answers side by side again.
      const conversationId = await s.panel.currentConversationId();
      await s.page.reload();
      await s.panel.ready();
      await s.panel.openConversation(conversationId);
      await waitFor('the compare shown again', async () =>
        (await region.getAttribute('data-compare-done').catch(() => null)) === 'true' ? true : undefined,
      );
      expect(await cards.count()).toBe(2);
      expect(await cards.nth(1).innerText()).toContain('CLAUDE-ANSWER');

      // Two versions of one answer, stored; both providers got the same history, natively.
      const stored = (await storedTurns(s.page, conversationId)).map(textOf);
      expect(stored.filter((t) => t.startsWith('OPENAI-ANSWER') || t.startsWith('CLAUDE-ANSWER'))).toHaveLength(2);
      expectValid(posts(s.fakes.openai).at(-1)!);
      expectValid(posts(s.fakes.anthropic).at(-1)!);

      // Continue with the second: the picker switches to Anthropic; the next body holds that answer only.
      await cards
        .nth(1)
        .getByRole('button', { name: /^Continue with this/ })
        .click();
      await waitFor('the compare closed', async () => ((await region.count()) === 0 ? true : undefined));
      expect(await s.page.getByLabel('Provider', { exact: true }).inputValue()).toBe('anthropic');
      expect(await s.page.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-sonnet-4-6');
      // The chosen version is drawn after the compare closes (a version switch), not in the same frame.
      const panel = s.panel;
      await waitFor('the chosen answer shown', async () =>
        (await panel.lastTurnText()).includes('CLAUDE-ANSWER') ? true : undefined,
      );
      const before = posts(s.fakes.anthropic).length;
      s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Because of the luggage.' });
      await s.panel.send('Why?');
      await waitFor('the next request to Anthropic', async () =>
        posts(s!.fakes.anthropic).length > before ? true : undefined,
      );
      const next = posts(s.fakes.anthropic).at(-1)!;
      expectValid(next);
      const body = JSON.stringify(next.body);
      expect(body).toContain('CLAUDE-ANSWER');
      expect(body).not.toContain('OPENAI-ANSWER');
      expect(posts(s.fakes.openai)).toHaveLength(1);
    },
  );
});
