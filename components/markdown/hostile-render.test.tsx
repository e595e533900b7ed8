// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"enableJavaScriptEvaluation":true,"disableJavaScriptFileLoading":true,"disableCSSFileLoading":true,"disableIframePageLoading":true}}
/**
 * R1–R3 over the hostile corpus: each payload rendered whole and streamed (char by char, and in
 * two chunks split at every offset), plus the whole corpus as one streamed message. JavaScript
 * evaluation is on in happy-dom, so a script that reached the document would set the sentinel
 * (the first test proves the harness would notice).
 */
import '../testing/happy-dom-compat';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inertProblems } from '../testing/inert';
import { enhanceBlock, enhancersLoaded } from './enhance';
import { HOSTILE_CORPUS, HOSTILE_DOCUMENT, type HostilePayload } from './hostile-corpus';
import { MarkdownStream } from './markdown-stream';

type Sentinel = { __pwned?: unknown; __canary?: unknown };
const w = window as unknown as Sentinel & { Image: unknown; fetch: unknown; XMLHttpRequest: unknown };

let fetches: unknown[] = [];
const originals = { fetch: w.fetch, Image: w.Image, XMLHttpRequest: w.XMLHttpRequest };
beforeAll(() => {
  w.fetch = vi.fn((...args: unknown[]) => {
    fetches.push(args[0]);
    return Promise.reject(new Error('no network in tests'));
  });
  w.Image = vi.fn(function (this: unknown) {
    fetches.push('new Image()');
  });
  w.XMLHttpRequest = vi.fn(function (this: unknown) {
    fetches.push('new XMLHttpRequest()');
  });
});
afterAll(() => Object.assign(w, originals));
afterEach(() => {
  document.body.replaceChildren();
  fetches = [];
  delete w.__pwned;
});

function mount(): HTMLElement {
  const root = document.createElement('div');
  document.body.append(root);
  return root;
}

/** Checks the live document after a render: inert DOM, no sentinel, nothing fetched. */
function expectInert(root: HTMLElement, where: string): void {
  const problems = inertProblems(root);
  if (problems.length) throw new Error(`${where}: ${problems.join('; ')}\n${root.innerHTML}`);
  expect(w.__pwned, where).toBeUndefined();
  expect(fetches, where).toEqual([]);
}

function reqs(p: HostilePayload): string {
  return p.req.join(' ');
}

describe('the harness', () => {
  it('would notice a script that reached the document, and a fetch', async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__canary = 1';
    document.body.append(s);
    expect(w.__canary).toBe(1);
    delete w.__canary;
    const root = mount();
    root.innerHTML =
      '<img src="https://attacker.test/x" onerror="x()"><a href="javascript:x()">a</a><div style="background:url(https://attacker.test/y)"></div>';
    expect(inertProblems(root)).toEqual([
      'tag <img> is not allowlisted',
      '<img> has src="https://attacker.test/x"',
      '<img> has event handler onerror',
      '<a> with href "javascript:x()"',
      '<a> without target=_blank',
      '<a> without rel="noopener noreferrer"',
      '<div> has style="background:url(https://attacker.test/y)"',
    ]);
  });
});

describe('hostile corpus, rendered whole', () => {
  for (const p of HOSTILE_CORPUS) {
    it(`${reqs(p)} ${p.id}`, () => {
      const root = mount();
      new MarkdownStream(root).update(p.md, true);
      expectInert(root, p.id);
      if (p.anchor === false) expect(root.querySelector('a'), p.id).toBeNull();
      if (p.anchor === true) {
        const a = root.querySelector('a')!;
        expect(a, p.id).not.toBeNull();
        // R2: the full destination is visible text, not only an attribute.
        expect(root.textContent, p.id).toContain(a.getAttribute('href')!.replace(/^mailto:/, ''));
      }
      if (p.imageUrl) {
        const placeholder = root.querySelector('button.md-image');
        expect(placeholder?.textContent, p.id).toContain(p.imageUrl);
        expect(placeholder?.getAttribute('data-md-open'), p.id).toBe(p.imageUrl);
      }
    });
  }
});

describe('hostile corpus, streamed', () => {
  for (const p of HOSTILE_CORPUS) {
    it(`${reqs(p)} ${p.id}: char by char, and split in two at every offset`, () => {
      // Every prefix is a rendered state when streamed one character at a time.
      const root = mount();
      const s = new MarkdownStream(root);
      for (let k = 1; k <= p.md.length; k++) {
        s.update(p.md.slice(0, k));
        expectInert(root, `${p.id} after ${k} chars`);
      }
      s.update(p.md, true);
      expectInert(root, `${p.id} final`);
      const whole = mount();
      new MarkdownStream(whole).update(p.md, true);
      expect(root.innerHTML, `${p.id}: streamed ends as rendered whole`).toBe(whole.innerHTML);
      // Two chunks, split at every offset.
      for (let k = 1; k < p.md.length; k++) {
        root.replaceChildren();
        const two = new MarkdownStream(root);
        two.update(p.md.slice(0, k));
        two.update(p.md, true);
        expectInert(root, `${p.id} split at ${k}`);
      }
    });
  }

  it('R1 R2 R3 the whole corpus as one message, in chunks of 1 to 40 characters', () => {
    const root = mount();
    const s = new MarkdownStream(root);
    let at = 0;
    let n = 0;
    while (at < HOSTILE_DOCUMENT.length) {
      at = Math.min(HOSTILE_DOCUMENT.length, at + 1 + ((n++ * 7919) % 40));
      s.update(HOSTILE_DOCUMENT.slice(0, at));
      expectInert(root, `corpus after ${at} chars`);
    }
    s.update(HOSTILE_DOCUMENT, true);
    expectInert(root, 'corpus final');
    const whole = mount();
    new MarkdownStream(whole).update(HOSTILE_DOCUMENT, true);
    expect(root.innerHTML).toBe(whole.innerHTML);
  });
});

describe('hostile corpus, typeset (highlight.js and KaTeX loaded, docs/side-panel.md)', () => {
  beforeAll(async () => {
    await enhancersLoaded();
  });

  for (const p of HOSTILE_CORPUS) {
    it(`${reqs(p)} ${p.id}: rendered whole, then streamed char by char`, () => {
      const root = mount();
      new MarkdownStream(root, enhanceBlock).update(p.md, true);
      expectInert(root, p.id);
      if (p.anchor === false) expect(root.querySelector('a'), p.id).toBeNull();
      const streamed = mount();
      const s = new MarkdownStream(streamed, enhanceBlock);
      for (let k = 1; k <= p.md.length; k++) {
        s.update(p.md.slice(0, k));
        expectInert(streamed, `${p.id} after ${k} chars`);
      }
    });
  }

  it('R1 R2 R3 the whole corpus as one typeset message', () => {
    const root = mount();
    new MarkdownStream(root, enhanceBlock).update(HOSTILE_DOCUMENT, true);
    expectInert(root, 'typeset corpus');
    expect(root.querySelectorAll('.md-math-done').length).toBeGreaterThanOrEqual(10);
    expect(root.querySelectorAll('code.hljs').length).toBeGreaterThanOrEqual(1);
  });
});
