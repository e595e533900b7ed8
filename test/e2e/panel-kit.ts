/**
 * Shared pieces of the side-panel e2e files: a browser with the fake providers configured and the
 * panel open, a small real PNG, a long markdown answer with its expected rendering, and a
 * recorder of every network request the extension makes.
 */
import zlib from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { startFakes, type FakeSet } from './fakes';
import { ExtensionBrowser } from './harness';
import { configureProviders, SidePanel } from './pages';

/** A launched browser with the three built-in providers pointed at their fakes and the side panel open. */
export interface PanelSession {
  fakes: FakeSet;
  browser: ExtensionBrowser;
  page: Page;
  panel: SidePanel;
  close(): Promise<void>;
}

/** Starts the fakes and Chromium, configures the providers, opens `sidepanel.html` (viewport `width`×`height` px). */
export async function openPanelSession(viewport = { width: 420, height: 900 }): Promise<PanelSession> {
  const fakes = await startFakes();
  const browser = await ExtensionBrowser.launch();
  const options = await browser.openPage('options.html');
  await configureProviders(options, fakes);
  await options.close();
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(`chrome-extension://${browser.extensionId}/sidepanel.html`);
  const panel = new SidePanel(page);
  await panel.ready();
  return {
    fakes,
    browser,
    page,
    panel,
    close: async () => {
      await browser.close();
      await fakes.close();
    },
  };
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
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
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
  const expected: ExpectedRendering = { headings: [], paragraphs: [], listItems: [], tableCells: [], code: [], languages: [] };
  const parts: string[] = [];
  const langs = ['ts', 'python', 'rust', 'sh'];
  for (let i = 0; Buffer.byteLength(parts.join('\n\n')) < minBytes; i++) {
    const lang = langs[i % langs.length]!;
    const code = [`// section ${i}: a <generic> & "quoted" value`, `const value${i} = compute(${i}, "x * y");`, `if (value${i} < ${i * 7} && ok) {`, `  log(\`value ${i} is \${value${i}}\`);`, '}'].join('\n');
    parts.push(
      `## Section ${i}: résumé of part ${i}`,
      `Paragraph ${i} has **bold words**, *emphasis*, \`inline_code(${i})\` and a literal 3 < 4 & 5 > 2 comparison; it keeps going so the answer grows steadily with ordinary prose about item ${i}.`,
      [`- first point of ${i}`, `- second point with **strong** ${i}`, `- third point \`code ${i}\``].join('\n'),
      ['| Name | Value | Note |', '|---|---:|---|', `| alpha-${i} | ${i * 3} | plain |`, `| beta-${i} | ${i * 5} | *styled* |`].join('\n'),
      `\`\`\`${lang}\n${code}\n\`\`\``,
    );
    expected.headings.push(`Section ${i}: résumé of part ${i}`);
    expected.paragraphs.push(
      `Paragraph ${i} has bold words, emphasis, inline_code(${i}) and a literal 3 < 4 & 5 > 2 comparison; it keeps going so the answer grows steadily with ordinary prose about item ${i}.`,
    );
    expected.listItems.push(`first point of ${i}`, `second point with strong ${i}`, `third point code ${i}`);
    expected.tableCells.push('Name', 'Value', 'Note', `alpha-${i}`, `${i * 3}`, 'plain', `beta-${i}`, `${i * 5}`, 'styled');
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
