/** Where the e2e suite finds the project, the two extension builds and Chromium. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (absolute). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The build folder: `.output/`, or `BATON_OUT_DIR` (as in wxt.config.ts) for side-by-side runs. */
export const OUT_DIR = path.resolve(ROOT, process.env.BATON_OUT_DIR ?? '.output');
/** The test build (`BATON_TEST_BUILD=1 wxt build`): loopback host permission, `globalThis.batonReady`. */
export const TEST_BUILD_DIR = path.join(OUT_DIR, 'chrome-mv3-test');
/** The production build (`wxt build`). */
export const PROD_BUILD_DIR = path.join(OUT_DIR, 'chrome-mv3');
/** The system Chromium (toolchain.md); no browser download is possible here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether the browser files can run; they skip with a visible message otherwise. */
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM_PATH);

/** Logs the skip once per file (so a machine without Chromium still shows why nothing ran). */
export function warnIfNoChromium(file: string): void {
  if (!HAS_CHROMIUM) console.warn(`skipping ${file}: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
}
