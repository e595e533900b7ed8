/**
 * The options page fits its tab: from 280 to 1,200 px wide, at the browser's default font (16 px) and
 * Chrome's "Large" (20 px), with the providers configured (cards with saved keys), the page never
 * scrolls sideways and no element sticks out past its right edge (docs/side-panel.md). Screenshots go
 * to `test-results/screenshots/options-*.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanelSession, type PanelSession } from './panel-kit';
import { horizontalOverflow } from './panel-look';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('options-look.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');

describe.skipIf(!HAS_CHROMIUM)('options page at any width', () => {
  let s: PanelSession;
  let page: Page;

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await openPanelSession({ width: 420, height: 900 });
    page = await s.browser.openPage('options.html');
    await page.getByRole('heading', { level: 1 }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await s?.close();
  });

  for (const font of [16, 20])
    it(`default font ${font} px: no sideways scrolling from 280 to 1,200 px`, async () => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: font, fixed: 13 } });
      await cdp.detach();
      for (const width of [280, 300, 320, 360, 420, 480, 600, 800, 1200]) {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const { pageScrolls, outside } = await horizontalOverflow(page);
        expect(outside, `elements past the right edge at ${width} px`).toEqual([]);
        expect(pageScrolls, `the page scrolls sideways at ${width} px`).toBe(false);
        if (width === 280) {
          // The parts that stuck out before: the import fields and the endpoint form.
          await page
            .locator('.transfer')
            .screenshot({ path: path.join(SHOTS, `options-${width}-${font}px-import.png`) });
          await page
            .locator('.endpoint-form')
            .screenshot({ path: path.join(SHOTS, `options-${width}-${font}px-endpoint.png`) });
        }
        if (width === 1200)
          await page.screenshot({ path: path.join(SHOTS, `options-${width}-${font}px.png`), fullPage: true });
      }
    });
});
