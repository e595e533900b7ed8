/**
 * The side panel in real Chromium against the fake providers (docs/side-panel.md): a long answer streamed in
 * hundreds of small chunks renders completely (every heading, paragraph, list item, table cell
 * and code block, each code block with its Copy button) and is stored exactly as streamed; an
 * image picked in the composer reaches Anthropic, an OpenAI-compatible Chat endpoint and Gemini
 * in each API's native image form.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeApi } from '../fake-providers';
import { E2E_KEYS, expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { request, storedTurns, textOf } from './pages';
import {
  longMarkdown,
  makePng,
  openPanelSession,
  pieces,
  type ExpectedRendering,
  type PanelSession,
} from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('side-panel.e2e.ts');

describe.skipIf(!HAS_CHROMIUM)('side panel: long streamed answers and attached images', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a ≥ 50 KB markdown answer arriving in many small chunks renders completely and is stored exactly as streamed', async () => {
    const { md, expected } = longMarkdown(50_000);
    expect(Buffer.byteLength(md)).toBeGreaterThanOrEqual(50_000);
    const chunks = pieces(md, 97);
    expect(chunks.length).toBeGreaterThan(400);
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: md, chunks, delayMs: 1 });
    await s.panel.newChat();
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('Write a long answer.');
    expect(await s.panel.waitForAnswer(1, 45_000)).toBe('complete');

    const answer = s.page.locator('[data-turn-id][data-role="assistant"]').last().locator('.markdown');
    const shown = await answer.evaluate((root): ExpectedRendering & { copyButtons: number; openBlocks: number } => {
      const texts = (sel: string) => [...root.querySelectorAll(sel)].map((e) => e.textContent ?? '');
      return {
        headings: texts('h2'),
        paragraphs: texts('p'),
        listItems: texts('li'),
        tableCells: texts('th, td'),
        code: texts('.md-code pre'),
        languages: texts('.md-code-bar > span'),
        copyButtons: root.querySelectorAll('.md-code .md-code-bar > button[data-md-copy]').length,
        openBlocks: root.querySelectorAll('.md-open').length,
      };
    });
    const { copyButtons, openBlocks, ...rendered } = shown;
    expect(rendered).toEqual(expected);
    expect(copyButtons).toBe(expected.code.length);
    expect(openBlocks, 'a finished answer has no open block').toBe(0);

    // Past 32 settled blocks they sit in groups (docs/side-panel.md#streaming-a-long-answer); the look
    // across a group's edge is a test artifact, to compare with a build before the grouping.
    const shots = path.join(ROOT, 'test-results/screenshots');
    fs.mkdirSync(shots, { recursive: true });
    // Blocks 30 to ~40 (the first group starts at the 33rd) at the top of the view.
    await answer.evaluate((root) => root.querySelectorAll('.md-block')[30]!.scrollIntoView({ block: 'start' }));
    await s.page.screenshot({ path: path.join(shots, 'streamed-long-answer.png') });
    const layout = await answer.evaluate((root) => ({
      loose: [...root.children].filter((c) => c.classList.contains('md-block')).length,
      groups: [...root.children].filter((c) => c.classList.contains('md-group')).map((g) => g.children.length),
    }));
    expect(layout.loose, 'the first 32 blocks are children of the answer').toBe(32);
    expect(layout.groups.length).toBeGreaterThan(0);
    expect(layout.groups.slice(0, -1).every((n) => n === 32)).toBe(true);

    const id = await s.panel.currentConversationId();
    const turns = await storedTurns(s.page, id);
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(textOf(turns[1]!)).toBe(md);
    const sent = posts(s.fakes.anthropic);
    expect(sent).toHaveLength(1);
    expectValid(sent[0]!);
  });

  describe('an image picked in the composer reaches each provider in its native form', () => {
    const png = makePng(16, 12);
    const b64 = png.toString('base64');
    let customId = '';

    beforeAll(async () => {
      const status = await request<{ id: string }>(s.page, 'saveEndpoint', {
        name: 'Local compat',
        baseUrl: s.fakes.customBaseUrl,
      });
      customId = status.id;
      await request(s.page, 'setKey', { providerId: customId, key: E2E_KEYS.compat });
      // The panel reads the provider list when it opens.
      await s.page.reload();
      await s.panel.ready();
    });

    /** Sends a message with the PNG attached through the file picker; returns the one recorded request body. */
    async function sendImage(
      providerId: string,
      model: string,
      fake: keyof typeof s.fakes & ('anthropic' | 'google' | 'custom'),
      api: FakeApi,
    ): Promise<unknown> {
      const before = posts(s.fakes[fake], api).length;
      await s.panel.newChat();
      await s.panel.choose(providerId, model);
      await s.page
        .locator('.composer input[type="file"]')
        .setInputFiles({ name: 'swatch.png', mimeType: 'image/png', buffer: png });
      const attached = s.page.getByRole('list', { name: 'Attachments' }).locator('li');
      await waitFor('the attachment in the composer', async () => (await attached.count()) === 1);
      expect(await attached.first().getAttribute('data-attachment-kind')).toBe('image');
      expect(await attached.first().innerText()).toContain('swatch.png');
      await s.panel.send('What colours does this image have?');
      expect(await s.panel.waitForAnswer(1)).toBe('complete');
      expect(await attached.count(), 'the composer is emptied after the send').toBe(0);
      // The user turn shows the image as a thumbnail made from its stored bytes (docs/side-panel.md; nothing fetched).
      const thumb = s.panel.turns().first().locator('button[data-image-thumb]');
      expect(await thumb.getAttribute('aria-label')).toContain(`PNG image`);
      expect(await thumb.locator('img').getAttribute('src')).toMatch(/^blob:/);
      const sent = posts(s.fakes[fake], api).slice(before);
      expect(sent).toHaveLength(1);
      expectValid(sent[0]!);
      return sent[0]!.body;
    }

    it('Anthropic: an image block with a base64 source', async () => {
      const body = (await sendImage('anthropic', 'claude-sonnet-4-6', 'anthropic', 'anthropic-messages')) as {
        messages: { role: string; content: unknown[] }[];
      };
      expect(body.messages.map((m) => m.role)).toEqual(['user']);
      const [image, text, ...rest] = body.messages[0]!.content;
      expect(image).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } });
      // The text part may carry a prompt-caching breakpoint (`cache_control`); the image is what matters here.
      expect(text).toMatchObject({ type: 'text', text: 'What colours does this image have?' });
      expect(rest).toEqual([]);
    });

    it('OpenAI Chat (custom endpoint): an image_url part with a data URL', async () => {
      const body = (await sendImage(customId, 'gpt-4o', 'custom', 'openai-chat')) as {
        messages: { role: string; content: unknown }[];
      };
      const user = body.messages.filter((m) => m.role === 'user');
      expect(user).toHaveLength(1);
      expect(user[0]!.content).toEqual([
        { type: 'image_url', image_url: expect.objectContaining({ url: `data:image/png;base64,${b64}` }) },
        { type: 'text', text: 'What colours does this image have?' },
      ]);
    });

    it('Gemini: an inlineData part', async () => {
      const body = (await sendImage('google', 'gemini-3-pro-preview', 'google', 'gemini-generate-content')) as {
        contents: unknown[];
      };
      expect(body.contents).toEqual([
        {
          role: 'user',
          parts: [{ inlineData: { mimeType: 'image/png', data: b64 } }, { text: 'What colours does this image have?' }],
        },
      ]);
    });
  });
});
