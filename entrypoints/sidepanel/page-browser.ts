/**
 * The side panel's {@link PageBrowser} for "Add this page" (docs/side-panel.md#add-this-page): the
 * active tab of the panel's window (when the panel runs in a tab of its own, as in the e2e tests,
 * the active tab of that window or of the last focused one that is not the panel), read by
 * injecting `page-reader.js` into its top frame with `scripting.executeScript`. Chrome allows that
 * only under the `activeTab` grant or a host permission (docs/security.md#reading-the-page-you-are-on).
 */
import { browser } from 'wxt/browser';
import type { PageReadResult } from '../../lib/page/read-page';
import type { PageBrowser } from '../../lib/ui/page-context';

interface ScriptingApi {
  executeScript(o: { target: { tabId: number }; files: string[] }): Promise<{ result?: unknown }[]>;
}

export function realPageBrowser(): PageBrowser {
  return {
    async activeTab() {
      const own = await browser.tabs.getCurrent().catch(() => undefined);
      const pick = (tabs: { id?: number; url?: string }[]) => tabs.find((t) => t.id !== undefined && t.id !== own?.id);
      const tab =
        pick(await browser.tabs.query({ active: true, currentWindow: true })) ??
        pick(await browser.tabs.query({ active: true, lastFocusedWindow: true }));
      return tab ? { id: tab.id!, ...(tab.url ? { url: tab.url } : {}) } : undefined;
    },
    async read(tabId) {
      const scripting = (browser as unknown as { scripting?: ScriptingApi }).scripting;
      if (!scripting) throw new Error('This browser has no scripting API.');
      const [first] = await scripting.executeScript({ target: { tabId }, files: ['page-reader.js'] });
      return first?.result as PageReadResult | undefined;
    },
  };
}
