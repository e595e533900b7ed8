/**
 * Screenshots of the side panel (light, dark, 320 px wide) and the options page, written to
 * `test-results/screenshots/` as test artifacts (docs/side-panel.md), of a real conversation: tool calls,
 * tool results and thinking from three providers (the `mixed-origins` fixture, seeded) and a
 * streamed markdown answer with thinking. At the moment of each shot the test reads what the page
 * shows, by role and accessible name: the conversation's title, the end of the new answer, the
 * composer and its target, each inside the viewport; the colour scheme asked for and a page
 * background that matches it (no forced theme). Each is also checked: text contrast ≥ 4.5:1 in
 * both themes (WCAG AA), and nothing sticks out sideways at 320 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../lib/transcript/schema';
import { loadNeutralTranscript } from '../fixtures/transcripts';
import { fontSizes, horizontalOverflow, lowContrast, textBelow } from './panel-look';
import { openPanelSession, seedConversation, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('side-panel-screenshots.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
const TEXT =
  'p, span, strong, em, summary, button, label, h1, h2, h3, h4, li, td, th, a, code, pre, div.block-text, div.block-placeholder, select, textarea, input';

const ANSWER = [
  '## Where the trip stands',
  '',
  'The weather tool says **Lisbon** is sunny; the flight search found two options:',
  '',
  '| Flight | Leaves | Price |',
  '|---|---|---:|',
  '| TP 1351 | 07:05 | €142 |',
  '| FR 7412 | 18:40 | €89 |',
  '',
  '1. Book the morning flight for a full first day.',
  '2. Pack light: `carry-on only` keeps the cheap fare cheap.',
  '',
  '```python',
  'def total(prices: list[float]) -> float:',
  '    return round(sum(prices) * 1.23, 2)  # with VAT, a fairly long line that must scroll at 320 px',
  '```',
  '',
  'See the [airline’s baggage rules](https://example.com/baggage) and ![map](https://example.com/lisbon-map.png).',
].join('\n');

/**
 * Where `loc` is drawn in the viewport: `inView` when any of it is inside the visible area
 * vertically and all of it horizontally (nothing cut off at the side), with its box in CSS px.
 */
function placement(
  loc: Locator,
): Promise<{ inView: boolean; left: number; right: number; top: number; bottom: number }> {
  return loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inView =
      r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.left >= 0 && r.right <= innerWidth + 0.5;
    return { inView, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
}

/**
 * The colour scheme the page renders in: `dark` as the browser reports `prefers-color-scheme`,
 * `forced` the `data-theme` the page set (none: it follows the system), and the relative luminance
 * (WCAG 2) of the page's background as drawn (0 black … 1 white).
 */
function schemeShown(page: Page): Promise<{ dark: boolean; forced: string | null; background: number }> {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const opaque = (el: Element | null): string => {
      for (let e = el; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = c;
        ctx.fillRect(0, 0, 1, 1);
        if (ctx.getImageData(0, 0, 1, 1).data[3] === 255) return c;
      }
      return 'Canvas';
    };
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = opaque(document.body);
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...ctx.getImageData(0, 0, 1, 1).data].map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return {
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      forced: document.documentElement.getAttribute('data-theme'),
      background: 0.2126 * r! + 0.7152 * g! + 0.0722 * b!,
    };
  });
}

/** Asserts the page is drawn in `scheme`: the browser reports it, no theme is forced, and the background is dark or light to match. */
async function expectScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  const shown = await schemeShown(page);
  expect({ dark: shown.dark, forced: shown.forced }).toEqual({ dark: scheme === 'dark', forced: null });
  if (scheme === 'dark') expect(shown.background).toBeLessThan(0.1);
  else expect(shown.background).toBeGreaterThan(0.8);
}

describe.skipIf(!HAS_CHROMIUM)('side panel and options screenshots', () => {
  let s: PanelSession;

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await openPanelSession({ width: 420, height: 1000 });
    const fixture = loadNeutralTranscript('mixed-origins');
    const seed: Transcript = { ...fixture, id: 'seed-screenshots', turns: fixture.turns.slice(0, -1) };
    await seedConversation(s, seed, 'Trip to Lisbon');
    s.fakes.anthropic.enqueue('anthropic-messages', {
      kind: 'thinking',
      thinking: 'Compare the two flights on time and price, then suggest one.',
      signature: 'sig-shot',
      text: ANSWER,
    });
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('Which flight should I take?');
    expect(await s.panel.waitForAnswer(seed.turns.filter((t) => t.role === 'assistant').length + 1, 45_000)).toBe(
      'complete',
    );
    // Show one tool call and the last thinking opened, as a person would look at them.
    await s.page
      .locator('details[data-block="tool_call"]')
      .last()
      .evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await s.page
      .locator('details[data-block="thinking"]')
      .last()
      .evaluate((d) => ((d as HTMLDetailsElement).open = true));
  });

  /**
   * What the side panel must show in every shot: the conversation's title, the end of the new
   * answer (its last link) and the composer with its Send button, each in the viewport; the
   * answer's table and the opened thinking drawn; the target the send used; nothing streaming and
   * no error. Returns the
   * placements, for the narrow shot's width check.
   */
  async function expectPanelShows(): Promise<Record<string, { right: number }>> {
    const p = s.page;
    const title = p.getByRole('heading', { name: 'Trip to Lisbon', exact: true });
    const lastLink = p.getByRole('link', { name: 'airline’s baggage rules' });
    const message = p.getByLabel('Message', { exact: true });
    const sendButton = p.getByRole('button', { name: 'Send', exact: true });
    const placed: Record<string, { inView: boolean; right: number }> = {};
    for (const [name, loc] of Object.entries({ title, lastLink, message, sendButton }))
      placed[name] = await placement(loc);
    expect(Object.fromEntries(Object.entries(placed).map(([k, v]) => [k, v.inView]))).toEqual({
      title: true,
      lastLink: true,
      message: true,
      sendButton: true,
    });
    // The answer is finished: nothing streams, so no Stop button.
    expect(await p.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await p.getByRole('cell', { name: 'FR 7412' }).isVisible()).toBe(true);
    expect(await p.getByText('Compare the two flights on time and price, then suggest one.').isVisible()).toBe(true);
    expect(await p.getByText('Which flight should I take?', { exact: true }).isVisible()).toBe(true);
    expect(await p.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-sonnet-4-6');
    expect(await p.locator('[data-error-code]').count()).toBe(0);
    return placed;
  }

  /** Scrolls the chat to its end (the new answer), as the panel shows it after a send. */
  const toEnd = () => s.page.locator('main.chat').evaluate((m) => void (m.scrollTop = m.scrollHeight));
  afterAll(async () => {
    await s?.close();
  });

  it('an opened thinking or tool block reads as an aside: a left rule and muted text, unlike the answer', async () => {
    const style = (sel: string) =>
      s.page
        .locator(sel)
        .last()
        .evaluate((el) => {
          const c = getComputedStyle(el);
          return { rule: c.borderLeftStyle !== 'none' && parseFloat(c.borderLeftWidth) > 0, color: c.color };
        });
    const thinking = await style('details[data-block="thinking"][open] > .block-text');
    const tool = await style('details[data-block="tool_call"][open] > .block-code');
    const answer = await style('[data-turn-id][data-role="assistant"] .block-text.markdown');
    expect(thinking.rule).toBe(true);
    expect(tool.rule).toBe(true);
    expect(answer.rule).toBe(false);
    expect(thinking.color).not.toBe(answer.color);
  });

  /** The computed sizes of the panel's type scale (docs/side-panel.md#type-scale), as Chromium draws them. */
  const panelSizes = () =>
    fontSizes(s.page, {
      answer: '[data-turn-id][data-role="assistant"] .block-text.markdown p',
      message: '[data-turn-id][data-role="user"] .block-text',
      role: '.turn-head .turn-role',
      action: '.turn-head .turn-actions button',
      code: '.markdown pre code',
      heading: '.markdown h2',
      title: '.chat-title',
      composer: 'textarea',
    });

  for (const [width, turnText] of [
    [420, 14],
    [320, 13],
  ] as const) {
    it(`type scale at ${width} px: turn text ${turnText} px (not Chrome's 75 % of the body), labels and code smaller, headings larger, no text under 12 px`, async () => {
      await s.page.emulateMedia({ colorScheme: 'light' });
      await s.page.setViewportSize({ width, height: 1000 });
      await toEnd();
      const px = await panelSizes();
      expect(px.answer).toBe(turnText);
      expect(px.message).toBe(turnText);
      expect(px.composer).toBe(turnText);
      // Labels ("You", "Copy") are smaller than the text they label; code is not larger than the prose around it.
      expect(px.role!).toBeLessThan(px.answer!);
      expect(px.action!).toBeLessThan(px.answer!);
      expect(px.role!).toBeGreaterThanOrEqual(12);
      expect(px.code!).toBeLessThanOrEqual(px.answer!);
      expect(px.code!).toBeGreaterThanOrEqual(12);
      expect(px.heading!).toBeGreaterThan(px.answer!);
      expect(px.title!).toBeGreaterThan(px.answer!);
      const small = await textBelow(s.page, TEXT, 12);
      expect(small.checked).toBeGreaterThan(60);
      expect(small.small).toEqual([]);
    });
  }

  for (const scheme of ['light', 'dark'] as const) {
    it(`side panel, ${scheme}: shows the conversation, the answer's end and the composer in ${scheme}; screenshot written; every text ≥ 4.5:1 contrast`, async () => {
      await s.page.emulateMedia({ colorScheme: scheme });
      await s.page.setViewportSize({ width: 420, height: 1000 });
      await toEnd();
      await expectScheme(s.page, scheme);
      await expectPanelShows();
      const file = path.join(SHOTS, `side-panel-${scheme}.png`);
      await s.page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      const contrast = await lowContrast(s.page, TEXT);
      expect(contrast.checked).toBeGreaterThan(60);
      expect(contrast.low).toEqual([]);
    });
  }

  it('side panel, 320 px wide: the same state fits the width; screenshot written; nothing sticks out sideways', async () => {
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.page.setViewportSize({ width: 320, height: 1000 });
    await toEnd();
    await expectScheme(s.page, 'light');
    const placed = await expectPanelShows();
    for (const [name, box] of Object.entries(placed)) expect(box.right, name).toBeLessThanOrEqual(320.5);
    const file = path.join(SHOTS, 'side-panel-narrow.png');
    await s.page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`options page, ${scheme}: shows its title and the three providers with their saved keys in ${scheme}; screenshot written; every text ≥ 4.5:1 contrast`, async () => {
      const options = await s.browser.openPage('options.html');
      try {
        await options.setViewportSize({ width: 800, height: 1000 });
        await options.emulateMedia({ colorScheme: scheme });
        await options.locator('section[data-provider="anthropic"]').waitFor();
        await expectScheme(options, scheme);
        const heading = options.getByRole('heading', { name: 'Baton options', level: 1 });
        expect((await placement(heading)).inView).toBe(true);
        expect(await options.getByRole('heading', { name: 'Providers', level: 2 }).isVisible()).toBe(true);
        // Each built-in provider's group, named by its heading, says its key is saved (the session configured all three).
        for (const name of ['OpenAI', 'Anthropic', 'Google Gemini']) {
          const group = options.getByRole('group', { name, exact: true });
          expect(await group.isVisible(), name).toBe(true);
          expect(await group.getByText(/^Key saved: /).isVisible(), name).toBe(true);
        }
        expect((await placement(options.getByRole('group', { name: 'OpenAI', exact: true }))).inView).toBe(true);
        // The options page's scale (docs/side-panel.md#type-scale): body 14 px, labels smaller, headings larger.
        const px = await fontSizes(options, {
          body: 'body',
          h1: 'h1',
          h2: 'h2',
          h3: '.provider h3',
          label: '.provider .field-label',
          status: '.provider .key-status',
        });
        expect(px.body).toBe(14);
        expect(px.label!).toBeLessThan(14);
        expect(px.status!).toBeLessThan(14);
        expect(px.h3!).toBeGreaterThan(14);
        expect(px.h2!).toBeGreaterThan(px.h3!);
        expect(px.h1!).toBeGreaterThan(px.h2!);
        expect((await textBelow(options, TEXT, 12)).small).toEqual([]);
        const file = path.join(SHOTS, `options-${scheme}.png`);
        await options.screenshot({ path: file, fullPage: true });
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
        const contrast = await lowContrast(options, TEXT);
        expect(contrast.checked).toBeGreaterThan(30);
        expect(contrast.low).toEqual([]);
      } finally {
        await options.close();
      }
    });
  }
});
