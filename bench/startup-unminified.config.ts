/**
 * The project's WXT configuration with minification off, for `bench/startup-node.ts --modules 1`:
 * the worker keeps its module comments (`// lib/…`), so each module's top level can be timed.
 *
 *   BATON_OUT_DIR=.output-unminified BATON_TEST_BUILD=1 npx wxt build -c bench/startup-unminified.config.ts
 */
import type { UserConfig } from 'wxt';
import base from '../wxt.config';

type ViteOption = Extract<NonNullable<UserConfig['vite']>, (env: never) => unknown>;

const vite = base.vite as ViteOption;

export default {
  ...base,
  vite: (env: Parameters<ViteOption>[0]) => {
    const v = vite(env) as Awaited<ReturnType<ViteOption>>;
    return { ...v, build: { ...v.build, minify: false } };
  },
} satisfies UserConfig;
