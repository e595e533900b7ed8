/**
 * The Chromium section of `npm run bench` (bench/README.md, "Storage and rendering", and the service
 * worker's cold start): builds the test build when needed (`chromium-build.ts`), launches the
 * system Chromium with it (the e2e harness, `test/e2e/harness.ts`), seeds the store, and runs
 * each part in turn. Never throws: a part that fails becomes a `skipped` row with the reason, and
 * no Chromium at all skips the section with a visible note.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { decodeTranscript } from '../lib/transcript/codec';
import { ExtensionBrowser } from '../test/e2e/harness';
import { CHROMIUM_PATH } from '../test/e2e/paths';
import { ensureTestBuild } from './chromium-build';
import { conversationRecords, listRecords } from './chromium-data';
import { benchListRoundTrip, benchOpen, NAME_SHIM, openPanel } from './chromium-panel';
import { benchRender } from './chromium-render';
import type { ChromiumResult, ChromiumSizes, Part } from './chromium-rows';
import { benchColdPreview } from './chromium-preview';
import { benchStartup, benchStartupSyncOn, EmptyWorker, writeEmptyExtension } from './chromium-startup';
import { benchAppend, benchList, seedStore } from './chromium-storage';
import { generateTranscript } from './generate';
import { Rng } from './random';
import { markdown } from './text';

/** Sizes and sample counts of one run. */
export interface ChromiumProfile {
  sizes: ChromiumSizes;
  /** Untimed + timed repetitions per figure. */
  append: [number, number];
  list: [number, number];
  roundTrip: [number, number];
  open: [number, number];
  startup: [number, number];
  /** Cold previews (each after a worker restart). */
  preview: [number, number];
}

/** The full run: the sizes of bench/README.md. */
export const CHROMIUM_FULL: ChromiumProfile = {
  sizes: { turns: 10_000, conversations: 5_000, chars: 200_000, chunks: 2_000 },
  append: [5, 50],
  list: [3, 30],
  roundTrip: [3, 20],
  open: [0, 3],
  startup: [1, 10],
  preview: [1, 5],
};

/** The CI smoke run (under a minute when the test build is already there): small sizes, a few samples. */
export const CHROMIUM_QUICK: ChromiumProfile = {
  sizes: { turns: 500, conversations: 500, chars: 20_000, chunks: 200 },
  append: [2, 10],
  list: [1, 5],
  roundTrip: [1, 5],
  open: [1, 2],
  startup: [1, 2],
  preview: [1, 2],
};

const CONVERSATION_ID = 'bench-conversation';

/**
 * A browser one section hands to the next (`--quick`: the search section takes the Chromium
 * section's, bench/README.md), so that the run starts Chromium once. Whoever takes it closes it.
 */
export interface SharedBrowser {
  browser?: ExtensionBrowser;
}

async function part<V>(name: string, log: (line: string) => void, run: () => Promise<V>): Promise<Part<V>> {
  log(`  ${name}`);
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    const note = `failed: ${((e as Error).message ?? String(e)).split('\n')[0]}`;
    log(`  ${name} ${note}`);
    return { ok: false, note };
  }
}

/**
 * Runs the Chromium benchmarks with `profile`; `log` gets progress lines. With `share`, the browser
 * is left open in it after a run that succeeded (its pages closed), for the next section.
 */
export async function benchChromium(
  profile: ChromiumProfile,
  log: (line: string) => void,
  share?: SharedBrowser,
): Promise<ChromiumResult> {
  if (!fs.existsSync(CHROMIUM_PATH)) return { ok: false, note: `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)` };
  const build = ensureTestBuild(log);
  if (!build.ok) return { ok: false, note: build.note };
  const { sizes } = profile;

  const transcript = decodeTranscript(generateTranscript({ turns: sizes.turns }));
  const { record, turns } = conversationRecords(transcript, CONVERSATION_ID);
  const list = listRecords(sizes.conversations);
  const newest = transcript.turns.map((t) => t.id).reverse();
  const sample =
    transcript.turns.find((t) => t.role === 'assistant' && t.blocks.some((b) => b.type === 'text')) ??
    transcript.turns[0]!;
  const rng = new Rng(9);
  const answer = markdown(rng, sizes.chars).slice(0, sizes.chars);
  const warmAnswer = markdown(new Rng(10), Math.round(sizes.chars / 10)).slice(0, Math.round(sizes.chars / 10));

  log('  inputs generated; launching Chromium');
  // The start-up rows restart an empty extension worker beside Baton's, in the same browser (chromium-startup.ts).
  const emptyDir = writeEmptyExtension();
  let browser: ExtensionBrowser;
  try {
    browser = await ExtensionBrowser.launch({ extensionDir: build.dir, extraExtensions: [emptyDir] });
  } catch (e) {
    fs.rmSync(emptyDir, { recursive: true, force: true });
    return {
      ok: false,
      note: `Chromium did not start with the test build: ${((e as Error).message ?? String(e)).split('\n')[0]}`,
    };
  }
  const shim = async () => {
    await browser.wakeServiceWorker();
    await browser.worker().evaluate(NAME_SHIM);
  };
  const pages: Page[] = [];
  let keep = false;
  try {
    log(
      `  seeding ${sizes.conversations.toLocaleString('en')} conversations and a ${sizes.turns.toLocaleString('en')}-turn one`,
    );
    await shim();
    await seedStore(browser, [...list, record], turns);
    const empty = await EmptyWorker.attach(browser).catch((e: Error) => {
      log(`  the empty extension worker is not measured: ${(e.message ?? String(e)).split('\n')[0]}`);
      return undefined;
    });
    const startup = await part('service worker cold start', log, () =>
      benchStartup(browser, ...profile.startup, empty),
    );
    const startupSync = await part('service worker cold start, sync on', log, () =>
      benchStartupSyncOn(browser, ...profile.startup, empty),
    );
    const append = await part(
      'append',
      log,
      async () => (await shim(), benchAppend(browser, CONVERSATION_ID, sample, ...profile.append)),
    );
    const listed = await part('list', log, async () => (await shim(), benchList(browser, ...profile.list)));
    let panel: Page | undefined;
    const roundTrip = await part('list round trip from the side panel', log, async () => {
      panel = await openPanel(browser, CONVERSATION_ID);
      pages.push(panel);
      return benchListRoundTrip(panel, ...profile.roundTrip);
    });
    const open = await part('open in the side panel, heap', log, async () => {
      if (!panel) throw new Error('the side panel did not open');
      return benchOpen(panel, CONVERSATION_ID, list[1]?.id ?? list[0]!.id, newest, ...profile.open);
    });
    await panel?.close();
    const render = await part('streaming render', log, async () => {
      const page = await openPanel(browser, CONVERSATION_ID);
      pages.push(page);
      // The stateless floor is timed on ~200 evenly spaced chunks (every 10th of 2,000).
      return benchRender(
        page,
        answer,
        sizes.chunks,
        warmAnswer,
        Math.max(1, Math.round(sizes.chunks / 10)),
        Math.max(1, Math.floor(sizes.chunks / 200)),
      );
    });
    // Last: it configures a provider, which gives the side panel a target (and so previews) from then on.
    for (const p of pages.splice(0)) await p.close().catch(() => undefined);
    const preview = await part('cold preview', log, () =>
      benchColdPreview(browser, CONVERSATION_ID, sizes.turns, ...profile.preview, log),
    );
    keep = share !== undefined;
    return {
      ok: true,
      sizes,
      builtNow: build.built,
      startup,
      startupSync,
      append,
      list: listed,
      roundTrip,
      open,
      render,
      preview,
    };
  } catch (e) {
    return { ok: false, note: `failed: ${((e as Error).message ?? String(e)).split('\n')[0]}` };
  } finally {
    for (const p of pages) await p.close().catch(() => undefined);
    if (keep && share) share.browser = browser;
    else {
      await browser.close();
      // Left in place while a shared browser still has it loaded (a few hundred bytes in the temporary folder).
      fs.rmSync(emptyDir, { recursive: true, force: true });
    }
  }
}
