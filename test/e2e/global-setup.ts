/**
 * Builds the extension once for the whole e2e suite: the test build (`BATON_TEST_BUILD=1`, into
 * `.output/chrome-mv3-test/`) that the browser files load, and the production build
 * (`.output/chrome-mv3/`) whose manifest `manifest.e2e.ts` checks. `BATON_E2E_SKIP_BUILD=1`
 * skips both (reusing what is on disk).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { CHROMIUM_PATH, PROD_BUILD_DIR, ROOT, TEST_BUILD_DIR } from './paths';

function build(label: string, env: NodeJS.ProcessEnv): void {
  const started = Date.now();
  const r = spawnSync('npx', ['wxt', 'build'], { cwd: ROOT, env, encoding: 'utf8', stdio: 'pipe' });
  if (r.status !== 0)
    throw new Error(`e2e global setup: ${label} build failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  console.log(`e2e: ${label} build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export default function setup(): void {
  if (!fs.existsSync(CHROMIUM_PATH))
    console.warn(`e2e: skipping the browser tests: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
  if (process.env.BATON_E2E_SKIP_BUILD === '1') {
    console.log('e2e: BATON_E2E_SKIP_BUILD=1, using the builds in .output/');
    return;
  }
  const { BATON_TEST_BUILD: _drop, ...prodEnv } = process.env;
  build('test', { ...prodEnv, BATON_TEST_BUILD: '1' });
  build('production', prodEnv);
  for (const dir of [TEST_BUILD_DIR, PROD_BUILD_DIR])
    if (!fs.existsSync(`${dir}/manifest.json`))
      throw new Error(`e2e global setup: ${dir}/manifest.json is missing after the build`);
}
