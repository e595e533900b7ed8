/**
 * The panel's footer fits whatever it holds: with a compare of two models, in a short or narrow
 * panel and with a large default font (Chrome's "Large", 20 px), the draft, Attach, Send and the
 * disclosure line stay inside the panel and the line can still be opened (docs/side-panel.md). The
 * footer scrolls when its content is taller than it may be; the composer stays at its bottom.
 * Screenshots go to `test-results/screenshots/panel-fit-*.png`. Down to 320 × 500 px with either font,
 * the chat shrinks to a few lines before the draft, Attach or Send leave the panel.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../lib/transcript/schema';
import { loadNeutralTranscript } from '../fixtures/transcripts';
import { waitFor } from './harness';
import { openPanelSession, seedConversation, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('panel-fit.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');

/** The element's box lies inside the viewport (1 px of rounding allowed). */
async function expectInView(page: Page, what: string, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  expect(box, `${what} is laid out`).not.toBeNull();
  expect(box!.height, `${what} has a height`).toBeGreaterThan(4);
  expect(box!.y, `${what} starts inside the panel`).toBeGreaterThanOrEqual(-1);
  expect(box!.y + box!.height, `${what} ends inside the panel (height ${view.height})`).toBeLessThanOrEqual(
    view.height + 1,
  );
  expect(box!.x + box!.width, `${what} ends inside the panel's width`).toBeLessThanOrEqual(view.width + 1);
}

/** Sets Chrome's default font size (px) and the viewport, then waits two frames for the layout. */
async function resize(page: Page, width: number, height: number, font: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: font, fixed: 13 } });
  await cdp.detach();
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The element's content is not cut: it scrolls or clips nothing sideways (1 px of rounding allowed). */
async function expectNotCut(what: string, locator: Locator): Promise<void> {
  const { scroll, client } = await locator.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  expect(scroll, `${what}: content width ${scroll} within its box ${client}`).toBeLessThanOrEqual(client + 1);
}

/**
 * The provider fields whose chosen name is wider than the room their box leaves for text (padding and
 * the drop-down arrow, 1.5em, taken off), measured with the field's own font: a name the field cuts.
 */
async function cutProviderNames(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const cut: string[] = [];
    for (const select of document.querySelectorAll<HTMLSelectElement>('.panel-foot select.provider-select')) {
      const style = getComputedStyle(select);
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const name = select.selectedOptions[0]?.textContent ?? '';
      const room =
        select.clientWidth -
        parseFloat(style.paddingLeft) -
        parseFloat(style.paddingRight) -
        1.5 * parseFloat(style.fontSize);
      if (ctx.measureText(name).width > room)
        cut.push(
          `${select.getAttribute('aria-label')}: "${name}" ${Math.round(ctx.measureText(name).width)} > ${Math.round(room)} px`,
        );
    }
    return cut;
  });
}

describe.skipIf(!HAS_CHROMIUM)('the footer fits the panel', () => {
  let s: PanelSession;

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await openPanelSession({ width: 420, height: 900 });
    const fixture = loadNeutralTranscript('mixed-origins');
    const seed: Transcript = { ...fixture, id: 'seed-fit', turns: fixture.turns };
    await seedConversation(s, seed, 'Trip to Lisbon');
    await s.panel.choose('openai', 'gpt-5.5');
    await s.page.getByRole('button', { name: '+ Ask several models' }).click();
    await s.page.getByLabel('Model 2', { exact: true }).fill('claude-sonnet-4-6');
    await s.page.getByLabel('Message', { exact: true }).fill('And what would you pick for the whole family?');
  }, 120_000);

  afterAll(async () => {
    await s?.close();
  });

  const cases: { name: string; width: number; height: number; font: number; dark?: boolean }[] = [
    { name: '320x760-large-font', width: 320, height: 760, font: 20 },
    { name: '320x700-large-font', width: 320, height: 700, font: 20 },
    { name: '320x500-large-font', width: 320, height: 500, font: 20 },
    { name: '320x500', width: 320, height: 500, font: 16 },
    { name: '360x500-large-font', width: 360, height: 500, font: 20 },
    { name: '360x560', width: 360, height: 560, font: 16 },
    { name: '420x640-large-font', width: 420, height: 640, font: 20 },
    { name: '420x500-large-font', width: 420, height: 500, font: 20 },
    { name: '320x500-large-font-dark', width: 320, height: 500, font: 20, dark: true },
    { name: '360x560-dark', width: 360, height: 560, font: 16, dark: true },
  ];
  for (const c of cases) {
    it(`compare of two models, ${c.width}×${c.height} px, default font ${c.font} px${c.dark ? ', dark' : ''}: the draft, Attach, Send and the disclosure line are in view, and the line opens`, async () => {
      const page = s.page;
      await page.emulateMedia({ colorScheme: c.dark ? 'dark' : 'light' });
      await resize(page, c.width, c.height, c.font);
      await expectInView(page, 'the message field', page.getByLabel('Message', { exact: true }));
      await expectInView(page, 'Attach', page.getByRole('button', { name: 'Attach images or PDFs' }));
      await expectInView(page, 'Send', page.getByRole('button', { name: 'Send', exact: true }));
      expect(await cutProviderNames(page), 'provider names cut').toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `panel-fit-${c.name}.png`) });
      const line = page.locator('[data-disclosure-summary]').first();
      await line.scrollIntoViewIfNeeded();
      await expectInView(page, 'the disclosure line', line);
      await line.click();
      await waitFor('the disclosure sheet', async () => (await page.getByRole('tab').count()) > 0);
      await expectInView(page, 'the first disclosure tab', page.getByRole('tab').first());
      await expectInView(page, 'Send, with the sheet open', page.getByRole('button', { name: 'Send', exact: true }));
      // The open tab's own box holds at least two lines of its text, whatever the tabs' rows take.
      const room = await page.getByRole('tabpanel').evaluate((el) => {
        const st = getComputedStyle(el);
        const line = st.lineHeight === 'normal' ? 1.2 * parseFloat(st.fontSize) : parseFloat(st.lineHeight);
        return { inner: el.clientHeight - parseFloat(st.paddingTop) - parseFloat(st.paddingBottom), line };
      });
      expect(room.inner, `the open tab shows ${room.inner} px, lines of ${room.line} px`).toBeGreaterThanOrEqual(
        2 * room.line,
      );
      await page.screenshot({ path: path.join(SHOTS, `panel-fit-${c.name}-open.png`) });
      await line.click();
      await waitFor('the sheet closed', async () => (await page.getByRole('tab').count()) === 0);
      await page.emulateMedia({ colorScheme: 'light' });
    });
  }
  for (const font of [16, 20])
    it(`header, default font ${font} px, 280 to 480 px wide: every control is in view and none is cut; New chat keeps its name`, async () => {
      const page = s.page;
      const bar = page.getByRole('banner');
      for (const width of [280, 300, 320, 340, 360, 380, 400, 420, 480]) {
        await resize(page, width, 700, font);
        await expectNotCut(`the header at ${width} px`, bar);
        const buttons = bar.getByRole('button');
        const n = await buttons.count();
        expect(n, 'the header has its buttons').toBeGreaterThanOrEqual(4);
        for (let i = 0; i < n; i++) {
          const name = (await buttons.nth(i).getAttribute('aria-label')) ?? (await buttons.nth(i).innerText());
          await expectInView(page, `header button "${name}" at ${width} px`, buttons.nth(i));
          await expectNotCut(`header button "${name}" at ${width} px`, buttons.nth(i));
        }
        const newChat = bar.getByRole('button', { name: 'New chat', exact: true });
        await expectInView(page, `New chat at ${width} px`, newChat);
        expect(await newChat.getAttribute('title'), 'New chat has a tooltip').toBeTruthy();
      }
      await page.screenshot({
        path: path.join(SHOTS, `panel-fit-header-${font}px-480.png`),
        clip: { x: 0, y: 0, width: 480, height: 60 },
      });
      await resize(page, 320, 700, font);
      await page.screenshot({
        path: path.join(SHOTS, `panel-fit-header-${font}px-320.png`),
        clip: { x: 0, y: 0, width: 320, height: 60 },
      });
    });

  it('every model field of a compare shows the same arrow, at the same size', async () => {
    const page = s.page;
    await resize(page, 420, 800, 16);
    const arrows = await page.evaluate(() =>
      [...document.querySelectorAll('.panel-foot input')]
        .filter((i) => /^Model( \d)?$/.test(i.getAttribute('aria-label') ?? ''))
        .map((input) => {
          const toggle = input.parentElement?.querySelector('button');
          const glyph = toggle?.querySelector('[aria-hidden="true"]');
          const box = glyph?.getBoundingClientRect();
          return {
            field: input.getAttribute('aria-label'),
            text: glyph?.textContent ?? null,
            size: glyph ? getComputedStyle(glyph).fontSize : null,
            width: box ? Math.round(box.width) : null,
            height: box ? Math.round(box.height) : null,
          };
        }),
    );
    expect(arrows.map((a) => a.field)).toEqual(['Model', 'Model 2']);
    expect(arrows[1], 'Model 2 has the arrow Model has').toEqual({ ...arrows[0], field: 'Model 2' });
    expect(arrows[0]!.text).toBe('▾');
  });

  it("280 px wide: the disclosure sheet's tabs are all in view, none scrolled out of sight", async () => {
    const page = s.page;
    await resize(page, 280, 700, 16);
    const line = page.locator('[data-disclosure-summary]').first();
    await line.scrollIntoViewIfNeeded();
    await line.click();
    await waitFor('the disclosure sheet', async () => (await page.getByRole('tab').count()) > 0);
    const list = page.getByRole('tablist');
    await expectNotCut('the tab list', list);
    const tabs = page.getByRole('tab');
    for (let i = 0; i < (await tabs.count()); i++) await expectInView(page, `tab ${i + 1}`, tabs.nth(i));
    await page.screenshot({ path: path.join(SHOTS, 'panel-fit-280-tabs.png') });
    await line.click();
    await waitFor('the sheet closed', async () => (await page.getByRole('tab').count()) === 0);
  });
});
