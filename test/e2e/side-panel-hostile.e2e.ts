/**
 * R1–R3 in real Chromium (security-requirements.md): the hostile corpus
 * (`components/markdown/hostile-corpus.ts`) streamed from a fake provider as one assistant answer
 * in small chunks. No script runs (the `window.__pwned` sentinel stays unset, also after every
 * element got mouse, focus, toggle, load and error events), no element carries an `on*` attribute or a
 * fetching element, no CSP violation is reported (nothing even tried to load), and no network
 * request leaves the browser except Baton's one request to the fake provider.
 */
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_CORPUS, HOSTILE_DOCUMENT } from '../../components/markdown/hostile-corpus';
import { posts } from './fakes';
import { storedTurns, textOf } from './pages';
import { openPanelSession, pieces, recordRequests, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('side-panel-hostile.e2e.ts');

describe.skipIf(!HAS_CHROMIUM)('hostile model output in the side panel', () => {
  let s: PanelSession;
  let recorder: ReturnType<typeof recordRequests>;
  let cdp: CDPSession;
  const cdpUrls: string[] = [];
  const answer = () => s.page.locator('[data-turn-id][data-role="assistant"]').last();

  beforeAll(async () => {
    s = await openPanelSession();
    recorder = recordRequests(s);
    // Everything the panel page itself asks the network for, as Chromium sees it (CDP Network).
    cdp = await s.browser.context.newCDPSession(s.page);
    cdp.on('Network.requestWillBeSent', (e) => void cdpUrls.push(e.request.url));
    await cdp.send('Network.enable');
    await s.page.evaluate(() => {
      const w = window as unknown as { __cspViolations: string[] };
      w.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });

    s.fakes.anthropic.enqueue('anthropic-messages', {
      kind: 'text',
      text: HOSTILE_DOCUMENT,
      chunks: pieces(HOSTILE_DOCUMENT, 37),
      delayMs: 1,
    });
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('Render these, please.');
    expect(await s.panel.waitForAnswer(1, 45_000)).toBe('complete');
    // Give anything that would load lazily (images, styles, prefetches) time to try.
    await s.page.waitForTimeout(500);
  });
  afterAll(async () => {
    recorder?.stop();
    await s?.close();
  });

  it('the whole corpus arrived and was stored as streamed', async () => {
    const turns = await storedTurns(s.page, await s.panel.currentConversationId());
    expect(textOf(turns[1]!)).toBe(HOSTILE_DOCUMENT);
    // Rendered, not dropped: the benign links are anchors, the images placeholders with their full URL.
    const anchors = await answer()
      .locator('.markdown a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(anchors).toEqual(
      expect.arrayContaining([
        'https://example.com/docs?a=1&b=2',
        'http://example.com/',
        'mailto:someone@example.com',
        'https://example.com/auto',
        'https://example.com/ref',
      ]),
    );
    const urls = await answer().locator('.markdown .md-image .md-url').allTextContents();
    for (const p of HOSTILE_CORPUS.filter((x) => x.imageUrl)) expect(urls).toContain(p.imageUrl);
  });

  it('R1 no script ran: the sentinel stays unset, also after mouse, focus and toggle events on every element', async () => {
    const pwned = await s.page.evaluate(() => {
      const root = [...document.querySelectorAll('[data-turn-id][data-role="assistant"]')].at(-1) ?? document.body;
      for (const el of [root, ...root.querySelectorAll('*')]) {
        // Not `click`: a click on an image placeholder opens its URL in a new tab, by design (R3).
        for (const type of [
          'mouseover',
          'mouseenter',
          'mousemove',
          'focus',
          'focusin',
          'toggle',
          'animationstart',
          'load',
          'error',
        ])
          el.dispatchEvent(new Event(type, { bubbles: true }));
        if (el instanceof HTMLElement) el.focus();
      }
      return (window as unknown as { __pwned?: unknown }).__pwned;
    });
    expect(pwned).toBeUndefined();
    expect(s.browser.logs.filter((l) => l.includes('uncaught'))).toEqual([]);
  });

  it('R1 no element in the panel has an on* attribute, and the answer holds no element that can run or fetch', async () => {
    const found = await s.page.evaluate(() => {
      const withHandlers = [...document.querySelectorAll('*')].flatMap((el) =>
        el
          .getAttributeNames()
          .filter((n) => n.toLowerCase().startsWith('on'))
          .map((n) => `${el.localName}[${n}]`),
      );
      const answer = document.querySelectorAll('[data-turn-id][data-role="assistant"] .markdown');
      // Typeset math (KaTeX, docs/side-panel.md) may hold MathML, SVG shapes and sizing styles: none of them fetches unless its style does.
      const typesetOk = (el: Element) =>
        el.closest('.katex, .katex-error') !== null &&
        ['math', 'svg', 'path', 'line', 'span'].includes(el.localName) &&
        !/url|image|@import|expression|\\/i.test(el.getAttribute('style') ?? '') &&
        !['src', 'srcset', 'background', 'ping', 'href', 'xlink:href'].some((n) => el.hasAttribute(n));
      const fetching = [...answer].flatMap((a) =>
        [
          ...a.querySelectorAll(
            'script, img, iframe, frame, object, embed, svg, math, style, link, meta, base, form, input, video, audio, source, picture, template, textarea, [src], [srcset], [style], [background], [ping]',
          ),
        ]
          .filter((el) => !typesetOk(el))
          .map((el) => el.localName),
      );
      const linksInMath = [...document.querySelectorAll('.katex [href], .katex [src], .katex a, .katex-error [href]')]
        .length;
      const typeset = document.querySelectorAll('[data-turn-id][data-role="assistant"] .md-math-done').length;
      return { withHandlers, fetching, linksInMath, typeset: typeset > 0 };
    });
    expect(found).toEqual({ withHandlers: [], fetching: [], linksInMath: 0, typeset: true });
  });

  it("R3 zero network requests leave the browser except Baton's request to the fake provider; no CSP violation", async () => {
    const anthropicOrigin = new URL(s.fakes.anthropic.url).origin;
    const extensionOrigin = `chrome-extension://${s.browser.extensionId}`;
    const outside = [...recorder.urls, ...cdpUrls].filter(
      (u) => !u.startsWith(`${extensionOrigin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'),
    );
    // The panel lists the models of the provider chosen at start (OpenAI) and then of Anthropic: model
    // lists carry no conversation and may still be in flight when recording starts. They go only to
    // the configured (fake) providers; everything else goes to Anthropic alone.
    const fakeOrigins = new Set(s.fakes.all().map((f) => new URL(f.url).origin));
    const isModelList = (u: string) => /\/models$/.test(new URL(u).pathname);
    expect(
      outside.filter(isModelList).every((u) => fakeOrigins.has(new URL(u).origin)),
      outside.join('\n'),
    ).toBe(true);
    const rest = outside.filter((u) => !isModelList(u));
    expect(rest.length).toBeGreaterThan(0);
    expect(
      rest.every((u) => new URL(u).origin === anthropicOrigin),
      rest.join('\n'),
    ).toBe(true);
    expect(
      cdpUrls.filter((u) => !u.startsWith(`${extensionOrigin}/`)),
      'the page itself fetched nothing',
    ).toEqual([]);
    expect(posts(s.fakes.anthropic)).toHaveLength(1);
    expect(
      s.fakes.all().flatMap((f) => posts(f)),
      'one send, to Anthropic',
    ).toHaveLength(1);
    expect(await s.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual(
      [],
    );
  });
});
