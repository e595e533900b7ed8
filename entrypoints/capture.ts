/**
 * The chat sites' content script (docs/architecture.md#the-background-by-feature). Built as an unlisted script and declared in the
 * manifest by wxt.config.ts (`content_scripts`: exactly chatgpt.com, claude.ai and
 * gemini.google.com, `all_frames: false`, N1) rather than as a WXT `*.content.ts` entrypoint,
 * whose wrapper posts window messages and listens for DOM CustomEvents (M5 forbids both).
 * It captures only when Baton's background asks (lib/capture/content-listener.ts).
 */
import { browser } from 'wxt/browser';
import { createCaptureListener } from '../lib/capture/content-listener';
import { readConversation } from '../lib/capture/index';

export default defineUnlistedScript(() => {
  // Top frame only (N1), even if a future manifest change matched frames.
  if (window.top !== window) return;
  browser.runtime.onMessage.addListener(
    createCaptureListener({
      ownId: browser.runtime.id,
      read: () => readConversation(document, location.href),
      send: (m) => browser.runtime.sendMessage(m),
    }) as Parameters<typeof browser.runtime.onMessage.addListener>[0],
  );
});
