/**
 * The end-to-end suite: playwright-core drives the system Chromium with the test build of the
 * extension loaded (toolchain.md, "End-to-end in Chromium"). Files run one at a time (each
 * launches its own browser); the global setup builds both extension builds once.
 *
 * Run: `npm run test:e2e`. `BATON_E2E_SKIP_BUILD=1` reuses existing builds; `CHROMIUM_PATH`
 * overrides `/usr/bin/chromium` (the browser files skip, with a message, when it is missing).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest-e2e.json' },
  },
});
