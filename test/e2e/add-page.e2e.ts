/**
 * "Add this page" (docs/side-panel.md#add-this-page) in Chromium against the fakes: an article
 * served on 127.0.0.1 is the active tab; the panel's *Add this page* reads it (the test build's
 * loopback host permission stands in for the `activeTab` grant a person gives by invoking Baton,
 * docs/security.md#reading-the-page-you-are-on); the attachment shows the title and URL, the
 * disclosure preview lists it as its own row with tokens, and the fake Anthropic endpoint receives
 * the page text as a native `document` block (A text source); a browser page gets a clear message.
 * A PDF served on 127.0.0.1 opens in Chromium's own PDF viewer (headless Chromium shows it too):
 * *Add this page* downloads it in the tab, reads it with PDF.js and attaches its text the same
 * way; a scanned PDF and one that needs a password each get their sentence. Screenshots, light
 * and dark: `test-results/screenshots/add-page-pdf-*.png`, `add-page-scan-pdf-*.png`, `add-page-locked-pdf-*.png`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../fixtures/pdf';
import { expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('add-page.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
/** Screenshots of the panel as it is, light and dark (`add-page-<name>-<scheme>.png`); light again afterwards. */
async function shoot(s: PanelSession, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await s.page.emulateMedia({ colorScheme: scheme });
    await s.page.waitForFunction(
      (dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark,
      scheme === 'dark',
    );
    await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await s.page.screenshot({ path: path.join(SHOTS, `add-page-${name}-${scheme}.png`) });
  }
  await s.page.emulateMedia({ colorScheme: 'light' });
}

const TITLE = 'Fjord ferries in winter';
const PARAGRAPHS = [
  'The ferry from Bergen to Stavanger runs twice a day in winter, weather permitting.',
  'Passengers should arrive forty minutes early; the car deck closes fifteen minutes before departure.',
  'Storms on the open stretch past Karmøy can cancel crossings, and the timetable says so by six in the morning.',
];
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${TITLE} | Coast News</title></head>
<body><nav><a href="/">Home</a> · <a href="/weather">Weather</a> · <a href="/ads">Subscribe now</a></nav>
<article><h1>${TITLE}</h1>${PARAGRAPHS.map((p) => `<p>${p} ${'More detail about schedules, tickets and harbours. '.repeat(4)}</p>`).join('')}</article>
<footer>© Coast News · Cookie settings</footer></body></html>`;

const PDF_TITLE = 'Harbour notice 14';
const PDF_LINES = [
  ['Harbour notice: the Stavanger quay closes for repairs in March.', 'Ferries berth at the north pier.'],
  ['Page two: tickets bought online stay valid for the north pier.'],
];
const PDFS: Record<string, Uint8Array> = {
  '/docs/notice.pdf': makePdf(PDF_LINES, { title: PDF_TITLE }),
  '/docs/scan.pdf': makePdf(['image', 'image']),
  '/docs/locked.pdf': makePdf([['Locked text']], { userPassword: 'fjord' }),
};

describe.skipIf(!HAS_CHROMIUM)('Add this page', () => {
  let s: PanelSession;
  let server: http.Server;
  let articleUrl = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const pdf = PDFS[new URL(req.url ?? '/', 'http://x').pathname];
      if (pdf) {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.byteLength });
        res.end(pdf);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(ARTICLE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    articleUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/news/ferries.html`;
    s = await openPanelSession({ width: 420, height: 1000 });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('attaches the active tab as a labelled document, lists it in the preview with tokens, and sends it natively', async () => {
    // The article is the tab the person is reading (the panel runs in a tab of its own here).
    const article = await s.browser.context.newPage();
    await article.goto(articleUrl);
    await article.bringToFront();

    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.page.getByRole('button', { name: 'Add this page', exact: true }).click();
    const row = s.page.getByRole('list', { name: 'Attachments' }).locator('li');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const shown = await row.first().innerText();
    expect(shown).toContain(TITLE);
    expect(shown).toContain(articleUrl);
    expect(shown).toContain('page text');

    // The preview: the page is its own row of the draft, named, with its tokens.
    const question = 'When should I arrive for the ferry?';
    await s.page.getByLabel('Message', { exact: true }).fill(question);
    const summary = s.page.locator('[data-disclosure-summary]');
    await waitFor('the preview for Anthropic', async () =>
      ((await summary.textContent()) ?? '').includes('claude-sonnet-4-6') ? true : undefined,
    );
    await summary.click();
    await s.page.getByRole('tab', { name: 'Turns', exact: true }).click();
    const blockRows = s.page.locator('[data-disclosure-turn] .disclosure-blocks li');
    const lines = await waitFor('the draft block rows', async () => {
      const all = await blockRows.allTextContents();
      return all.some((l) => l.includes(TITLE)) ? all : undefined;
    });
    const pageLine = lines.find((l) => l.includes(TITLE))!;
    expect(pageLine).toContain(articleUrl);
    expect(pageLine).toMatch(/~\d+ tokens: sent/);
    expect(Number(/~(\d+) tokens/.exec(pageLine)![1])).toBeGreaterThan(50);

    // Send: Anthropic receives the text as a document with a text source and the page's label as its title.
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Forty minutes early.' });
    await s.panel.send(question);
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const received = posts(s.fakes.anthropic);
    expect(received).toHaveLength(1);
    expectValid(received[0]!);
    const messages = (received[0]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] })
      .messages;
    const [doc, text] = messages[0]!.content;
    expect(doc).toMatchObject({ type: 'document', source: { type: 'text', media_type: 'text/plain' } });
    const docTitle = doc!.title as string;
    expect(docTitle.startsWith(TITLE) && docTitle.endsWith(` — ${articleUrl}`)).toBe(true);
    const sentText = (doc!.source as { data: string }).data;
    for (const p of PARAGRAPHS) expect(sentText).toContain(p);
    // Readability kept the article, not the navigation or the footer.
    expect(sentText).not.toContain('Subscribe now');
    expect(sentText).not.toContain('Cookie settings');
    expect(text).toEqual({ type: 'text', text: question });
    // The attachment was taken by the send.
    expect(await s.page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);

    // The same page to OpenAI (Responses has no text document): labelled text with the title and URL.
    await s.panel.choose('openai', 'gpt-5.5');
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Yes, forty minutes.' });
    await s.panel.send('Do you agree, GPT?');
    expect(await s.panel.waitForAnswer(2)).toBe('complete');
    const toOpenAi = posts(s.fakes.openai);
    expect(toOpenAi).toHaveLength(1);
    expectValid(toOpenAi[0]!);
    const input = (toOpenAi[0]!.body as { input: { role?: string; content?: { type: string; text?: string }[] }[] })
      .input;
    const firstUser = input.find((i) => i.role === 'user')!;
    const labelled = firstUser.content!.find((c) => c.type === 'input_text' && c.text!.includes(PARAGRAPHS[0]!))!;
    expect(labelled.text).toContain(`[Document "${docTitle}" (text/plain)]`);
    await article.close();
  });

  it('the context menu hand-over: a request in storage.session makes the open panel add that tab (not the active one)', async () => {
    const article = await s.browser.context.newPage();
    await article.goto(`${articleUrl}?menu`);
    const other = await s.browser.context.newPage();
    await other.goto('chrome://version');
    await other.bringToFront();
    // What the background writes after the menu click (lib/background/capture/wiring.ts); the click itself is browser UI.
    await s.page.evaluate(async (url) => {
      const c = (globalThis as unknown as { chrome: any }).chrome; // eslint-disable-line @typescript-eslint/no-explicit-any
      const [tab] = await c.tabs.query({ url });
      await c.storage.session.set({ 'baton.addPageRequest': { tabId: tab.id, at: Date.now() } });
    }, `${articleUrl}?menu`);
    const row = s.page.getByRole('list', { name: 'Attachments' }).locator('li');
    await row.first().waitFor();
    expect(await row.first().innerText()).toContain(`${articleUrl}?menu`);
    // Taken once: the request is removed.
    const left = await s.page.evaluate(
      async () => (globalThis as unknown as { chrome: any }).chrome.storage.session.get('baton.addPageRequest'), // eslint-disable-line @typescript-eslint/no-explicit-any
    );
    expect(left).toEqual({});
    await s.page.getByRole('button', { name: /^Remove / }).click();
    await other.close();
    await article.close();
  });

  it('says clearly when the browser does not let Baton read the page', async () => {
    const settings = await s.browser.context.newPage();
    await settings.goto('chrome://version');
    await settings.bringToFront();
    await s.page.getByRole('button', { name: 'Add this page', exact: true }).click();
    const note = s.page.locator('.attach-note[role="alert"]');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Browsers do not let extensions read this page/);
    expect(await s.page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);
    await settings.close();
  });

  it('a PDF in Chromium’s viewer: its text is attached as the page, listed in the preview, and sent', async () => {
    const pdfUrl = articleUrl.replace(/\/news\/ferries\.html$/, '/docs/notice.pdf');
    const tab = await s.browser.context.newPage();
    await tab.goto(pdfUrl);
    // Chromium's viewer, not a download: the tab's document is the PDF.
    expect(await tab.evaluate(() => document.contentType)).toBe('application/pdf');
    await tab.bringToFront();

    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.page.getByRole('button', { name: 'Add this page', exact: true }).click();
    const row = s.page.getByRole('list', { name: 'Attachments' }).locator('li');
    await row.first().waitFor({ timeout: 30_000 });
    const shown = await row.first().innerText();
    expect(shown).toContain(`${PDF_TITLE} — ${pdfUrl}`);
    expect(shown).toContain('page text');

    const question = 'Where do the ferries berth?';
    await s.page.getByLabel('Message', { exact: true }).fill(question);
    const summary = s.page.locator('[data-disclosure-summary]');
    await waitFor('the preview for Anthropic', async () =>
      ((await summary.textContent()) ?? '').includes('claude-sonnet-4-6') ? true : undefined,
    );
    // The preview may still be open from the first send.
    const turnsTab = s.page.getByRole('tab', { name: 'Turns', exact: true });
    if (!(await turnsTab.isVisible())) await summary.click();
    await turnsTab.click();
    const blockRows = s.page.locator('[data-disclosure-turn] .disclosure-blocks li');
    const lines = await waitFor('the draft block rows', async () => {
      const all = await blockRows.allTextContents();
      return all.some((l) => l.includes(PDF_TITLE)) ? all : undefined;
    });
    expect(lines.find((l) => l.includes(PDF_TITLE))).toMatch(/~\d+ tokens: sent/);
    await shoot(s, 'pdf');

    const before = posts(s.fakes.anthropic).length;
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'At the north pier.' });
    const answers = await s.page.locator('[data-turn-id][data-role="assistant"]').count();
    await s.panel.send(question);
    expect(await s.panel.waitForAnswer(answers + 1)).toBe('complete');
    await waitFor('the request to Anthropic', () => posts(s.fakes.anthropic).length > before || undefined, 30_000);
    const received = posts(s.fakes.anthropic).at(-1)!;
    expectValid(received);
    const messages = (received.body as { messages: { role: string; content: Record<string, unknown>[] }[] }).messages;
    const doc = messages.at(-1)!.content.find((c) => c.type === 'document')!;
    expect(doc).toMatchObject({
      source: { type: 'text', media_type: 'text/plain' },
      title: `${PDF_TITLE} — ${pdfUrl}`,
    });
    const sent = (doc.source as { data: string }).data;
    expect(sent).toBe(PDF_LINES.map((page) => page.join('\n')).join('\n\n'));
    await tab.close();
  });

  it('a scanned PDF and a PDF that needs a password each get a clear message, and nothing is attached', async () => {
    for (const [file, sentence] of [
      ['scan.pdf', /^This PDF has no text to read: it looks scanned/],
      ['locked.pdf', /^This PDF is protected by a password/],
    ] as const) {
      const tab = await s.browser.context.newPage();
      await tab.goto(articleUrl.replace(/\/news\/ferries\.html$/, `/docs/${file}`));
      await tab.bringToFront();
      await s.page.getByRole('button', { name: 'Add this page', exact: true }).click();
      const note = s.page.locator('.attach-note[role="alert"]');
      await waitFor(
        `the message for ${file}`,
        async () => (sentence.test((await note.textContent().catch(() => '')) ?? '') ? true : undefined),
        30_000,
      );
      expect(await s.page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);
      await shoot(s, file.replace(/\.pdf$/, '-pdf'));
      await tab.close();
    }
  });
});
