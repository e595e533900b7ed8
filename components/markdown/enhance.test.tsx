// @vitest-environment happy-dom
/**
 * Code highlighting and math (docs/side-panel.md): fenced code with a language gets highlight.js colours,
 * `$…$`, `$$…$$`, `\(…\)` and `\[…\]` become KaTeX, both loaded on demand; prices and code stay
 * text; an unfinished stream shows the TeX as written; the output stays inert (R1–R3).
 */
import '../testing/happy-dom-compat';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inertProblems } from '../testing/inert';
import { enhanceBlock, enhancersLoaded } from './enhance';
import { MarkdownStream } from './markdown-stream';

beforeAll(async () => {
  await enhancersLoaded();
});
afterEach(() => document.body.replaceChildren());

function render(md: string, final = true): HTMLElement {
  const root = document.createElement('div');
  document.body.append(root);
  new MarkdownStream(root, enhanceBlock).update(md, final);
  return root;
}

describe('code highlighting', () => {
  it('colours a fenced block with a known language and keeps its text exactly', () => {
    const code = 'def total(xs: list[float]) -> float:\n    return sum(xs)  # VAT <b>';
    const root = render(`\`\`\`python\n${code}\n\`\`\``);
    const el = root.querySelector('pre code')!;
    expect(el.classList.contains('hljs')).toBe(true);
    expect(el.querySelector('.hljs-keyword')?.textContent).toBe('def');
    expect(el.querySelector('.hljs-comment')?.textContent).toBe('# VAT <b>');
    expect(el.textContent).toBe(code);
    expect(inertProblems(root)).toEqual([]);
  });

  it('leaves a block without a language, or with an unknown one, plain', () => {
    const root = render('```\nplain text\n```\n\n```nosuchlang\nx = 1\n```');
    for (const el of root.querySelectorAll('pre code')) expect(el.children).toHaveLength(0);
  });
});

describe('math', () => {
  it.each([
    ['$$e^{i\\pi}+1=0$$', true],
    ['\\[\\int_0^1 x\\,dx\\]', true],
    ['Euler: $e^{i\\pi}+1=0$ holds.', false],
    ['Euler: \\(e^{i\\pi}+1=0\\) holds.', false],
    ['$$\n\\frac{a}{b}\n$$', true],
  ])('%s → KaTeX (display: %s)', (md, display) => {
    const root = render(md);
    const math = root.querySelector('.md-math')!;
    expect(math.classList.contains('md-math-done')).toBe(true);
    expect(math.querySelector('.katex')).not.toBeNull();
    expect(!!math.querySelector('.katex-display')).toBe(display);
    expect(math.querySelector('.katex-html')).not.toBeNull();
    // The TeX stays readable on hover. (happy-dom parses no MathML namespace: the MathML part is checked in Chromium, side-panel-render.e2e.ts.)
    expect(math.getAttribute('title')).toBe(
      md.replace(/^[^$\\]*(\$\$|\$|\\\[|\\\()\n?/, '').replace(/\n?(\$\$|\$|\\\]|\\\)).*$/, ''),
    );
    expect(inertProblems(root)).toEqual([]);
  });

  it('keeps prices, escaped dollars and code as text', () => {
    const root = render('It costs $5 and $10.\n\nWrite \\$x\\$ or `$y$`.\n\n```\n$z$\n```');
    expect(root.querySelector('.md-math')).toBeNull();
    expect(root.textContent).toContain('It costs $5 and $10.');
    expect(root.textContent).toContain('Write $x$ or $y$.');
  });

  it('shows unfinished display math as written while it streams, then typesets it', () => {
    const root = document.createElement('div');
    document.body.append(root);
    const s = new MarkdownStream(root, enhanceBlock);
    s.update('Here:\n\n$$\\sum_{k=1}^{n} k', false);
    expect(root.querySelector('.katex')).toBeNull();
    expect(root.textContent).toContain('$$\\sum_{k=1}^{n} k');
    s.update('Here:\n\n$$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$\n\nDone.', true);
    expect(root.querySelectorAll('.katex')).toHaveLength(1);
    expect(root.textContent).not.toContain('$$');
  });

  it('refuses what needs trust and renders bad TeX as an error in place, inert', () => {
    const root = render(
      '$\\href{javascript:alert(1)}{x}$ and $\\includegraphics{https://attacker.test/x.png}$ and $\\htmlStyle{background:url(https://attacker.test/y)}{z}$ and $\\frac{1}{$',
    );
    expect(root.querySelectorAll('.md-math')).toHaveLength(4);
    expect(root.querySelector('[href], [src], a, img')).toBeNull();
    for (const el of root.querySelectorAll('[style]')) expect(el.getAttribute('style')).not.toMatch(/url|image/i);
    // The refused commands show as errors in place.
    expect(root.textContent).toContain('\\href');
    expect(inertProblems(root)).toEqual([]);
  });
});
