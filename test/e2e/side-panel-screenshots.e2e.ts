/**
 * Screenshots of the side panel (light, dark, 320 px wide) and the options page, written to
 * `test-results/screenshots/` as test artifacts (docs/side-panel.md), of a real conversation: tool calls,
 * tool results and thinking from three providers (the `mixed-origins` fixture, seeded) and a
 * streamed markdown answer with thinking. Each is also checked: text contrast ≥ 4.5:1 in both
 * themes (WCAG AA), and nothing sticks out sideways at 320 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Transcript } from '../../lib/transcript/schema';
import { loadNeutralTranscript } from '../fixtures/transcripts';
import { waitFor } from './harness';
import { horizontalOverflow, lowContrast } from './panel-look';
import { openPanelSession, type PanelSession } from './panel-kit';
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

describe.skipIf(!HAS_CHROMIUM)('side panel and options screenshots', () => {
  let s: PanelSession;

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await openPanelSession({ width: 420, height: 1000 });
    const fixture = loadNeutralTranscript('mixed-origins');
    const seed: Transcript = { ...fixture, id: 'seed-screenshots', turns: fixture.turns.slice(0, -1) };
    await s.browser.evalInWorker(async (t) => {
      const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
        .batonReady;
      const now = new Date().toISOString();
      await store.create({ id: t.id!, title: 'Trip to Lisbon', now, ...(t.tools ? { tools: t.tools } : {}) });
      for (const turn of t.turns) await store.appendTurn(t.id!, turn, now);
    }, seed);
    await s.page.reload();
    await s.panel.ready();
    await s.panel.openConversation('seed-screenshots');
    await waitFor('the seeded turns', async () => (await s.panel.turns().count()) === seed.turns.length);
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

  for (const scheme of ['light', 'dark'] as const) {
    it(`side panel, ${scheme}: screenshot written; every text ≥ 4.5:1 contrast`, async () => {
      await s.page.emulateMedia({ colorScheme: scheme });
      await s.page.setViewportSize({ width: 420, height: 1000 });
      await toEnd();
      const file = path.join(SHOTS, `side-panel-${scheme}.png`);
      await s.page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      const contrast = await lowContrast(s.page, TEXT);
      expect(contrast.checked).toBeGreaterThan(60);
      expect(contrast.low).toEqual([]);
    });
  }

  it('side panel, 320 px wide: screenshot written; nothing sticks out sideways', async () => {
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.page.setViewportSize({ width: 320, height: 1000 });
    await toEnd();
    const file = path.join(SHOTS, 'side-panel-narrow.png');
    await s.page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`options page, ${scheme}: screenshot written; every text ≥ 4.5:1 contrast`, async () => {
      const options = await s.browser.openPage('options.html');
      try {
        await options.setViewportSize({ width: 800, height: 1000 });
        await options.emulateMedia({ colorScheme: scheme });
        await options.locator('section[data-provider="anthropic"]').waitFor();
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
