/**
 * The side panel's {@link PageBrowser} for "Add this page" (docs/side-panel.md#add-this-page): the
 * active tab of the panel's window (when the panel runs in a tab of its own, as in the e2e tests,
 * the active tab of that window or of the last focused one that is not the panel), read by
 * injecting `page-reader.js` into its top frame with `scripting.executeScript`; a PDF in the browser's
 * viewer is downloaded again by the tab and read with PDF.js, loaded on demand. Chrome allows that
 * only under the `activeTab` grant or a host permission (docs/security.md#reading-the-page-you-are-on).
 */
import { browser } from 'wxt/browser';
import { ADD_PAGE_REQUEST_KEY, freshAddPageRequest } from '../../lib/messaging/page-request';
import type { PageReadResult } from '../../lib/page/read-page';
import type { PageBrowser } from '../../lib/ui/page-context';

interface ScriptingApi {
  executeScript(
    o: { target: { tabId: number } } & ({ files: string[] } | { func: (...args: never[]) => unknown; args: unknown[] }),
  ): Promise<{ result?: unknown }[]>;
}

function scriptingApi(): ScriptingApi {
  const scripting = (browser as unknown as { scripting?: ScriptingApi }).scripting;
  if (!scripting) throw new Error('This browser has no scripting API.');
  return scripting;
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
      const [first] = await scriptingApi().executeScript({ target: { tabId }, files: ['page-reader.js'] });
      return first?.result as PageReadResult | undefined;
    },
    async readPdf(tabId) {
      // Everything for PDFs, PDF.js included, is a chunk of its own: the panel's first load stays small.
      const { readPdfInTab } = await import('./pdf-reader');
      return readPdfInTab(scriptingApi(), tabId);
    },
    onAddRequest(add) {
      const area = browser.storage.session;
      // The read at start and the change event may both see one request: take it once.
      let taken = -1;
      const take = (value: unknown) => {
        const req = freshAddPageRequest(value, Date.now());
        if (!req || req.at === taken) return;
        taken = req.at;
        void area.remove(ADD_PAGE_REQUEST_KEY);
        add(req.tabId);
      };
      void area.get(ADD_PAGE_REQUEST_KEY).then((v) => take(v[ADD_PAGE_REQUEST_KEY]));
      const listener = (changes: Record<string, { newValue?: unknown }>, name: string) => {
        if (name === 'session' && changes[ADD_PAGE_REQUEST_KEY]) take(changes[ADD_PAGE_REQUEST_KEY].newValue);
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
  };
}
