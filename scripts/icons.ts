/**
 * Renders the extension icons (public/icon/16.png … 128.png) from public/icon/baton.svg with the
 * Chromium the e2e suite uses (dev time only; the PNGs are committed). Run: `npx tsx scripts/icons.ts`.
 * CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/icon');
const svg = readFileSync(path.join(dir, 'baton.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  for (const size of [16, 32, 48, 128]) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg style="display:block;width:${size}px;height:${size}px" `)}</body></html>`,
    );
    writeFileSync(
      path.join(dir, `${size}.png`),
      await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
    );
    await page.close();
  }
} finally {
  await browser.close();
}
