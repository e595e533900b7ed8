/**
 * How turns render in real Chromium at 360 px (docs/side-panel.md, items 4–5): a streamed answer's fenced
 * code is highlighted and `$$e^{i\pi}+1=0$$` is typeset by KaTeX (MathML for screen readers, the
 * packaged fonts, nothing fetched from outside the extension); an attached PNG shows as a thumbnail
 * decoded from its stored bytes; a turn with five tool calls is one group with the tool names and
 * no ids visible. Screenshots of the chat with code and math and of the tool group, light and
 * dark, go to `test-results/screenshots/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Transcript } from '../../lib/transcript/schema';
import { waitFor } from './harness';
import { horizontalOverflow, lowContrast } from './panel-look';
import { makePng, openPanelSession, recordRequests, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('side-panel-render.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
const PNG = makePng(96, 64).toString('base64');
const CLAUDE = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-20250514' } as const;

const SEED: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'seed-render',
  turns: [
    {
      id: 'u1',
      role: 'user',
      blocks: [
        { type: 'text', text: 'Here is the **failing** screenshot. Run the tests and find why.' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    },
    {
      id: 'a1',
      role: 'assistant',
      origin: CLAUDE,
      status: 'complete',
      blocks: [
        { type: 'thinking', text: 'Run the suite first, then look for the test files.', signature: 'sig-1' },
        { type: 'text', text: 'I will run the tests and look around the repository.' },
        {
          type: 'tool_call',
          id: 'toolu_01A1',
          name: 'Bash',
          input: { command: 'npm test -- --run', description: 'Run the tests' },
        },
        { type: 'tool_call', id: 'toolu_01B2', name: 'Glob', input: { pattern: '**/*.test.ts' } },
        { type: 'thinking', text: 'One failure in a.test.ts; read it.', signature: 'sig-2' },
        { type: 'tool_call', id: 'toolu_01C3', name: 'Glob', input: { pattern: 'legacy/**/*.ts' } },
        { type: 'tool_call', id: 'toolu_01D4', name: 'Read', input: { file_path: '/repo/src/a.test.ts' } },
        { type: 'tool_call', id: 'toolu_01E5', name: 'Grep', input: { pattern: 'toBeCloseTo', path: 'src' } },
      ],
    },
    {
      id: 't1',
      role: 'tool',
      blocks: [
        {
          type: 'tool_result',
          callId: 'toolu_01A1',
          content: 'FAIL src/a.test.ts > rounds prices\n1 failed, 41 passed',
        },
        { type: 'tool_result', callId: 'toolu_01B2', content: 'src/a.test.ts\nsrc/b.test.ts' },
        { type: 'tool_result', callId: 'toolu_01C3', content: 'No such directory: legacy', isError: true },
        { type: 'tool_result', callId: 'toolu_01D4', content: 'expect(total([0.1, 0.2])).toBe(0.3);' },
        { type: 'tool_result', callId: 'toolu_01E5', content: 'src/b.test.ts:12: expect(x).toBeCloseTo(0.3)' },
      ],
    },
    {
      id: 'a2',
      role: 'assistant',
      origin: CLAUDE,
      status: 'complete',
      blocks: [
        { type: 'text', text: '`a.test.ts` compares floats with `toBe`; use `toBeCloseTo` as `b.test.ts` does.' },
      ],
    },
  ],
};

const ANSWER = [
  'Floating-point sums are not exact, so compare with a tolerance:',
  '',
  '```ts',
  'export function total(prices: number[]): number {',
  '  // Round to cents: 0.1 + 0.2 is 0.30000000000000004',
  '  return Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100;',
  '}',
  '```',
  '',
  'The error of one addition is at most half an ulp, $|\\hat{x} - x| \\le \\tfrac{1}{2}\\,\\mathrm{ulp}(x)$, and the identity everyone likes:',
  '',
  '$$e^{i\\pi}+1=0$$',
  '',
  'Run `npm test` again and it passes.',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('side panel rendering: code, math, images and tool groups', () => {
  let s: PanelSession;
  let outside: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await openPanelSession(
      { width: 360, height: 800 },
      {
        beforePanel: async ({ browser }) => {
          await browser.evalInWorker(async (t) => {
            const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
              .batonReady;
            const now = new Date().toISOString();
            await store.create({ id: t.id!, title: 'Failing test', now });
            for (const turn of t.turns) await store.appendTurn(t.id!, turn, now);
          }, SEED);
        },
      },
    );
    const recorder = recordRequests(s);
    await s.panel.openConversation('seed-render');
    await waitFor('the seeded turns', async () => (await s.panel.turns().count()) === SEED.turns.length);
    s.fakes.anthropic.enqueue('anthropic-messages', {
      kind: 'thinking',
      thinking: 'Explain the float comparison and show a fix.',
      signature: 'sig-3',
      text: ANSWER,
    });
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('How do I fix it?');
    expect(await s.panel.waitForAnswer(3, 45_000)).toBe('complete');
    await waitFor(
      'math typeset and code highlighted',
      async () =>
        (await s.page.locator('.md-math-done').count()) >= 2 && (await s.page.locator('code.hljs').count()) >= 1,
    );
    recorder.stop();
    const extension = `chrome-extension://${s.browser.extensionId}/`;
    const fake = new URL(s.fakes.anthropic.url).origin;
    outside = recorder.urls.filter(
      (u) =>
        !u.startsWith(extension) &&
        !u.startsWith('data:') &&
        !u.startsWith('blob:') &&
        !u.startsWith(fake) &&
        !/\/v1\/models|\/v1beta\/models|\/models\b/.test(u),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  const answer = () => s.page.locator('[data-turn-id][data-role="assistant"]').last();

  it('highlights the fenced TypeScript code', async () => {
    const code = answer().locator('code.language-ts.hljs');
    await expect(code.count()).resolves.toBe(1);
    const kinds = await code.evaluate((c) => [...c.querySelectorAll('span')].map((x) => x.className));
    expect(kinds).toContain('hljs-keyword');
    expect(kinds).toContain('hljs-comment');
    // Coloured, not only classed: a keyword is drawn in another colour than plain code.
    const colours = await code.evaluate((c) => [
      getComputedStyle(c.querySelector('.hljs-keyword')!).color,
      getComputedStyle(c).color,
    ]);
    expect(colours[0]).not.toBe(colours[1]);
    expect(await code.textContent()).toContain('return Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100;');
  });

  it('typesets $$e^{i\\pi}+1=0$$ with KaTeX: display math, MathML for screen readers, its packaged fonts', async () => {
    const display = answer().locator('.md-math-display.md-math-done');
    await expect(display.count()).resolves.toBe(1);
    const info = await display.evaluate(async (el) => {
      await document.fonts.ready;
      const math = el.querySelector('math');
      return {
        katex: el.querySelector('.katex-display .katex .katex-html') !== null,
        mathml: math?.namespaceURI,
        annotation: el.querySelector('annotation')?.textContent,
        font: getComputedStyle(el.querySelector('.katex')!).fontFamily,
        fontLoaded: document.fonts.check('1em KaTeX_Main'),
        rawDollars: el.textContent?.includes('$$'),
      };
    });
    expect(info).toEqual({
      katex: true,
      mathml: 'http://www.w3.org/1998/Math/MathML',
      annotation: 'e^{i\\pi}+1=0',
      font: expect.stringContaining('KaTeX_Main'),
      fontLoaded: true,
      rawDollars: false,
    });
    await expect(answer().locator('.md-math-inline.md-math-done .katex').count()).resolves.toBe(1);
  });

  it('loaded the fonts and scripts from the extension only (R3)', () => {
    expect(outside).toEqual([]);
  });

  it('shows the attached PNG as a thumbnail from its stored bytes, and enlarges it in a dialog', async () => {
    const thumb = s.page.locator('[data-turn-id="u1"] button[data-image-thumb]');
    await expect(thumb.count()).resolves.toBe(1);
    const img = await thumb.locator('img').evaluate(async (i: HTMLImageElement) => {
      await i.decode();
      return { src: i.src.slice(0, 5), w: i.naturalWidth, h: i.naturalHeight };
    });
    expect(img).toEqual({ src: 'blob:', w: 96, h: 64 });
    expect(await thumb.getAttribute('aria-label')).toMatch(
      /^Attached image: PNG image, 96 × 64, \d+ K?B\. Open larger$/,
    );
    await thumb.click();
    const dialog = s.page.getByRole('dialog', { name: /Attached image: PNG image, 96 × 64/ });
    await dialog.waitFor();
    await s.page.keyboard.press('Escape');
    await waitFor('the dialog closed', async () => (await dialog.count()) === 0);
  });

  it('renders the turn with five tool calls as one group: the tool names, no ids, a mark per call', async () => {
    const a1 = s.page.locator('[data-turn-id="a1"]');
    await expect(a1.locator('[data-tool-group]').count()).resolves.toBe(1);
    const seen = await a1.innerText();
    expect(seen).toContain('5 tool calls: Bash, Glob ×2, Read, Grep');
    for (const arg of ['npm test -- --run', '**/*.test.ts', '/repo/src/a.test.ts']) expect(seen).toContain(arg);
    expect(seen).not.toMatch(/toolu_/);
    expect(seen.match(/Anthropic/g)).toHaveLength(1);
    expect(
      await a1.locator('details.tool-call').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))),
    ).toEqual(['ok', 'ok', 'error', 'ok', 'ok']);
    // The tool turn is shown under the calls: it takes no room of its own.
    expect(await s.page.locator('[data-turn-id="t1"]').isVisible()).toBe(false);
    // One Thinking section for the turn's two thinking blocks.
    await expect(a1.locator('details.block-thinking').count()).resolves.toBe(1);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`screenshots at 360 px, ${scheme}: the chat with code and math, and the tool group; contrast ≥ 4.5:1, nothing sticks out`, async () => {
      await s.page.emulateMedia({ colorScheme: scheme });
      await s.page.setViewportSize({ width: 360, height: 800 });
      await s.page.waitForFunction(
        (dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark,
        scheme === 'dark',
      );
      await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await answer().evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await s.page.screenshot({ path: path.join(SHOTS, `render-code-math-${scheme}.png`) });
      const contrast = await lowContrast(
        s.page,
        '.turn .markdown span, .turn .markdown code, .turn .markdown p, .tool-group summary span, .turn-origin',
      );
      expect(contrast.low).toEqual([]);
      expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });

      const a1 = s.page.locator('[data-turn-id="a1"]');
      const row = a1.locator('details.tool-call').first();
      await row.evaluate((d) => ((d as HTMLDetailsElement).open = true));
      await s.page.locator('[data-turn-id="u1"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await s.page.screenshot({ path: path.join(SHOTS, `render-tool-group-${scheme}.png`) });
      await row.evaluate((d) => ((d as HTMLDetailsElement).open = false));
      expect(fs.statSync(path.join(SHOTS, `render-tool-group-${scheme}.png`)).size).toBeGreaterThan(10_000);
    });
  }
});
