import { registerBackground } from '../lib/background';
import { sdkTransport } from '../lib/background/sdk-transport';

// Every listener is registered synchronously inside registerBackground (L1); logic lives in lib/background.
export default defineBackground(() => {
  const { ready } = registerBackground(sdkTransport);
  // WXT wraps the background in a closure: test builds expose the engine for end-to-end tests (toolchain.md).
  if (__BATON_TEST_BUILD__) (globalThis as { batonReady?: unknown }).batonReady = ready;
});
