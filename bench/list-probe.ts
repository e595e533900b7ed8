/**
 * Where the time of `store.list()` goes, in the service worker of one test build with the list
 * pages (bench/README.md, "List from pages"): raw `getAll` of the pages, the whole `list()`, and
 * the floor (raw `getAll` of the conversation records), interleaved, medians; plus the pages' size.
 *
 *   node --import tsx bench/list-probe.ts <build dir> [--samples 15] [--conversations 5000]
 */
import os from 'node:os';
import path from 'node:path';
import { ExtensionBrowser } from '../test/e2e/harness';
import { listRecords } from './chromium-data';
import { NAME_SHIM } from './chromium-panel';
import { seedStore } from './chromium-storage';
import { median } from './harness';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const samples = flag('--samples', 15);
const conversations = flag('--conversations', 5_000);
const dir = path.resolve(args[0] ?? '.output/chrome-mv3-test');

const browser = await ExtensionBrowser.launch({ extensionDir: dir });
try {
  await browser.wakeServiceWorker();
  await browser.worker().evaluate(NAME_SHIM);
  await seedStore(browser, listRecords(conversations), []);
  const r = await browser.evalInWorker(
    async (a) => {
      const { store } = await (
        globalThis as unknown as { batonReady: Promise<{ store: { list(): Promise<unknown[]> } }> }
      ).batonReady;
      const raw = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('baton');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const getAll = (name: string) =>
        new Promise<unknown[]>((resolve, reject) => {
          const req = raw.transaction(name, 'readonly').objectStore(name).getAll();
          req.onsuccess = () => resolve(req.result as unknown[]);
          req.onerror = () => reject(req.error);
        });
      const time = async (f: () => Promise<unknown>) => {
        const t0 = performance.now();
        await f();
        return performance.now() - t0;
      };
      const pages: number[] = [];
      const list: number[] = [];
      const floor: number[] = [];
      for (let i = 0; i < 3 + a.samples; i++) {
        const p = await time(() => getAll('summaries'));
        const l = await time(() => store.list());
        const f = await time(() => getAll('conversations'));
        if (i < 3) continue;
        pages.push(p);
        list.push(l);
        floor.push(f);
      }
      const all = (await getAll('summaries')) as Uint8Array[];
      raw.close();
      return { pages, list, floor, count: all.length, bytes: all.reduce((n, s) => n + s.byteLength, 0) };
    },
    { samples },
  );
  const ms = (x: number[]) => `${median(x).toFixed(1)} ms`;
  console.log(
    `pages getAll ${ms(r.pages)} · list() ${ms(r.list)} · floor ${ms(r.floor)} · list/floor ${(median(r.list) / median(r.floor)).toFixed(2)}× · ${r.count} pages, ${(r.bytes / 1024).toFixed(0)} KB · load ${os.loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  await browser.close();
}
