/**
 * The toolbar button opens the side panel (docs/side-panel.md): the behaviour is set when Baton is
 * installed (`runtime.onInstalled`, lib/background/core/panel-behavior.ts), not at every worker
 * start, so Chrome must keep it across a worker stop and a browser restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtensionBrowser, waitFor } from './harness';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('panel-behavior.e2e.ts');

describe.skipIf(!HAS_CHROMIUM)('the side panel opens from the toolbar button', () => {
  let browser: ExtensionBrowser;
  const behaviour = () =>
    browser.evalInWorker(
      () =>
        (
          globalThis as unknown as {
            chrome: { sidePanel: { getPanelBehavior(): Promise<{ openPanelOnActionClick?: boolean }> } };
          }
        ).chrome.sidePanel.getPanelBehavior(),
      undefined,
    );

  beforeAll(async () => {
    browser = await ExtensionBrowser.launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is set at install and kept across a worker stop and a browser restart', async () => {
    await waitFor('the behaviour set at install', async () => (await behaviour()).openPanelOnActionClick === true);
    await browser.stopServiceWorker();
    await browser.wakeServiceWorker();
    expect((await behaviour()).openPanelOnActionClick).toBe(true);
    await browser.restart();
    expect((await behaviour()).openPanelOnActionClick).toBe(true);
  });
});
