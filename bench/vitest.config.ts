import { defineConfig } from 'vitest/config';

/** The benchmark's own unit tests (the root config covers lib/, test/ and components/ only): `npx vitest run --config bench/vitest.config.ts`. */
export default defineConfig({
  test: {
    include: ['bench/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
