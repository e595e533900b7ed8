import { registerBackground } from '../lib/background';
import { sdkTransport } from '../lib/background/core/sdk-transport';
import { keepSdkScripts } from '../lib/transports/sdk-loaders';
import { keepPouchScript } from '../lib/background/sync/pouch-loader';
import { registerFirstRun } from '../lib/background/core/first-run';
import { zodWithoutEval } from '../lib/messaging/zod-no-eval';
import { setRanksSource } from '../lib/context/tokenizer-ranks';
import { browser } from 'wxt/browser';

// Every listener is registered synchronously inside registerBackground (L1); logic lives in lib/background.
export default defineBackground(() => {
  // zod never probes for eval in the worker (the CSP forbids it; see zod-no-eval.ts).
  zodWithoutEval();
  // docs/architecture.md#the-service-workers-start-up: the tokenizers' rank tables are packaged data files, fetched on first use.
  setRanksSource({
    load: async (encoding) => {
      // Written by the build (wxt.config.ts), so not among WXT's typed public paths.
      const url = (browser.runtime.getURL as (path: string) => string)(`/tokenizer/${encoding}.json`);
      const res = await fetch(url);
      if (!res.ok) throw new Error(`tokenizer/${encoding}.json: HTTP ${res.status}`);
      return (await res.json()) as (string | number[])[];
    },
  });
  const { ready, capture } = registerBackground(sdkTransport);
  // After the listeners (L1): at install, the Chromium build imports the SDKs' and PouchDB's own scripts so
  // that the loaders may import them again on first use in later lives (docs/architecture.md#the-service-workers-start-up).
  keepSdkScripts();
  keepPouchScript();
  // docs/side-panel.md: a fresh install opens the options page on "Add your first key". Test builds skip it so
  // the end-to-end suite's browser opens on the pages its tests choose.
  if (!__BATON_TEST_BUILD__) registerFirstRun(browser.runtime);
  // WXT wraps the background in a closure: test builds expose the engine for end-to-end tests (toolchain.md).
  if (__BATON_TEST_BUILD__) {
    const g = globalThis as { batonReady?: unknown; batonStartup?: { evaluatedMs: number; readyMs?: number } };
    g.batonReady = ready;
    // The context-menu click handler, called by test/e2e/capture.e2e.ts with the data Chrome passes (docs/architecture.md#the-background-by-feature).
    (globalThis as { batonCapture?: unknown }).batonCapture = capture;
    // Start-up marks for bench/chromium-startup.ts, in ms since the worker's time origin.
    const marks: { evaluatedMs: number; readyMs?: number } = (g.batonStartup = { evaluatedMs: performance.now() });
    void ready.then(() => (marks.readyMs = performance.now()));
  }
});
