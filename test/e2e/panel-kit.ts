/**
 * Shared pieces of the side-panel e2e files: a browser with the fake providers configured and the
 * panel open, a conversation seeded through the worker's store, a small real PNG, a long markdown answer with its expected rendering, and a
 * recorder of every network request the extension makes.
 */
import zlib from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { startFakes, type FakeSet } from './fakes';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Transcript } from '../../lib/transcript/schema';
import { ExtensionBrowser, waitFor, type LaunchOptions } from './harness';
import { configureProviders, SidePanel } from './pages';

/** A launched browser with the three built-in providers pointed at their fakes and the side panel open. */
export interface PanelSession {
  fakes: FakeSet;
  browser: ExtensionBrowser;
  /** The side panel's tab; replaced by {@link PanelSession.reopenPanel}. */
  page: Page;
  /** The side panel driven through {@link page}; replaced by {@link PanelSession.reopenPanel}. */
  panel: SidePanel;
  /**
   * Opens `sidepanel.html` again in a new tab (same viewport), waits until it is ready and points
   * `page` and `panel` at it; the old tab is left as it is. For a panel after `browser.restart()`.
   */
  reopenPanel(): Promise<void>;
  /** Closes the browser (and its profile), then the fakes. */
  close(): Promise<void>;
}

/** Extra set-up for {@link openPanelSession}; each field is optional and leaves the default set-up unchanged when absent. */
export interface PanelSessionOptions {
  /** Passed to {@link ExtensionBrowser.launch} (e.g. `extraArgs` to serve pages under real host names); default the test build alone. */
  launch?: LaunchOptions;
  /**
   * Runs after the providers are configured and before the side panel opens (e.g. seeding
   * conversations through the worker, so the panel lists them when it loads). A throw fails the
   * set-up: the browser and the fakes are closed and the error is rethrown.
   */
  beforePanel?: (started: { fakes: FakeSet; browser: ExtensionBrowser }) => Promise<void>;
}

/** Opens `sidepanel.html` in a new tab of `browser` at `viewport` (px) and waits until the panel is ready. */
async function openSidePanel(
  browser: ExtensionBrowser,
  viewport: { width: number; height: number },
): Promise<{ page: Page; panel: SidePanel }> {
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(`chrome-extension://${browser.extensionId}/sidepanel.html`);
  const panel = new SidePanel(page);
  await panel.ready();
  return { page, panel };
}

/**
 * Starts the fakes and Chromium (with `options.launch`), configures the three built-in providers
 * over the protocol (base URL and key each), runs `options.beforePanel`, then opens
 * `sidepanel.html` (viewport `width`×`height` px) and waits until it is ready. If any step throws,
 * whatever was started is closed before the error is rethrown.
 */
export async function openPanelSession(
  viewport = { width: 420, height: 900 },
  options: PanelSessionOptions = {},
): Promise<PanelSession> {
  const fakes = await startFakes();
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await ExtensionBrowser.launch(options.launch);
    const optionsPage = await browser.openPage('options.html');
    await configureProviders(optionsPage, fakes);
    await optionsPage.close();
    await options.beforePanel?.({ fakes, browser });
    const started = browser;
    const session: PanelSession = {
      fakes,
      browser,
      ...(await openSidePanel(browser, viewport)),
      reopenPanel: async () => {
        const reopened = await openSidePanel(started, viewport);
        session.page = reopened.page;
        session.panel = reopened.panel;
      },
      close: async () => {
        await started.close();
        await fakes.close();
      },
    };
    return session;
  } catch (e) {
    await browser?.close();
    await fakes.close();
    throw e;
  }
}

/**
 * Stores a conversation (`seed.id`, titled `title`, with `seed.turns` and `seed.tools`) through the
 * worker's own store, as an import would, then reloads the panel, opens the conversation and waits
 * until all its turns are shown.
 */
export async function seedConversation(session: PanelSession, seed: Transcript, title: string): Promise<void> {
  await session.browser.evalInWorker(
    async ({ t, title }) => {
      const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
        .batonReady;
      const now = new Date().toISOString();
      await store.create({ id: t.id!, title, now, ...(t.tools ? { tools: t.tools } : {}) });
      for (const turn of t.turns) await store.appendTurn(t.id!, turn, now);
    },
    { t: seed, title },
  );
  await session.page.reload();
  await session.panel.ready();
  await session.panel.openConversation(seed.id!);
  await waitFor('the seeded turns', async () => (await session.panel.turns().count()) === seed.turns.length);
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * A real PNG (8-bit RGB, no interlace) of `width`×`height` px with a colour gradient, built by
 * hand (signature, IHDR, one zlib IDAT, IEND) so any decoder accepts it.
 */
export function makePng(width = 8, height = 8): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter, no interlace
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push((x * 255) / width, (y * 255) / height, 128);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What a correct rendering of {@link longMarkdown} shows, element by element (textContent). */
export interface ExpectedRendering {
  headings: string[];
  paragraphs: string[];
  listItems: string[];
  tableCells: string[];
  /** Each code block's code, exactly. */
  code: string[];
  /** Each code block's language (shown in its toolbar). */
  languages: string[];
}

/**
 * A markdown answer of at least `minBytes` UTF-8 bytes: sections each with a heading, a paragraph
 * with emphasis and inline code, a bullet list, a table and a fenced code block (some with
 * characters that must stay literal: `<`, `&`, `*`). Returns it with its expected rendering.
 */
export function longMarkdown(minBytes = 50_000): { md: string; expected: ExpectedRendering } {
  const expected: ExpectedRendering = {
    headings: [],
    paragraphs: [],
    listItems: [],
    tableCells: [],
    code: [],
    languages: [],
  };
  const parts: string[] = [];
  const langs = ['ts', 'python', 'rust', 'sh'];
  for (let i = 0; Buffer.byteLength(parts.join('\n\n')) < minBytes; i++) {
    const lang = langs[i % langs.length]!;
    const code = [
      `// section ${i}: a <generic> & "quoted" value`,
      `const value${i} = compute(${i}, "x * y");`,
      `if (value${i} < ${i * 7} && ok) {`,
      `  log(\`value ${i} is \${value${i}}\`);`,
      '}',
    ].join('\n');
    parts.push(
      `## Section ${i}: résumé of part ${i}`,
      `Paragraph ${i} has **bold words**, *emphasis*, \`inline_code(${i})\` and a literal 3 < 4 & 5 > 2 comparison; it keeps going so the answer grows steadily with ordinary prose about item ${i}.`,
      [`- first point of ${i}`, `- second point with **strong** ${i}`, `- third point \`code ${i}\``].join('\n'),
      [
        '| Name | Value | Note |',
        '|---|---:|---|',
        `| alpha-${i} | ${i * 3} | plain |`,
        `| beta-${i} | ${i * 5} | *styled* |`,
      ].join('\n'),
      `\`\`\`${lang}\n${code}\n\`\`\``,
    );
    expected.headings.push(`Section ${i}: résumé of part ${i}`);
    expected.paragraphs.push(
      `Paragraph ${i} has bold words, emphasis, inline_code(${i}) and a literal 3 < 4 & 5 > 2 comparison; it keeps going so the answer grows steadily with ordinary prose about item ${i}.`,
    );
    expected.listItems.push(`first point of ${i}`, `second point with strong ${i}`, `third point code ${i}`);
    expected.tableCells.push(
      'Name',
      'Value',
      'Note',
      `alpha-${i}`,
      `${i * 3}`,
      'plain',
      `beta-${i}`,
      `${i * 5}`,
      'styled',
    );
    expected.code.push(code);
    expected.languages.push(lang);
  }
  return { md: parts.join('\n\n'), expected };
}

/** Splits `text` into pieces of `size` characters (never splitting a surrogate pair). */
export function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Every request the browser context makes (pages and, where Playwright reports them, workers), by URL. */
export function recordRequests(session: PanelSession): { urls: string[]; stop(): void } {
  const urls: string[] = [];
  const on = (r: Request) => void urls.push(r.url());
  session.browser.context.on('request', on);
  return { urls, stop: () => session.browser.context.off('request', on) };
}
