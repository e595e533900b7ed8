// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarkdownStream } from './markdown-stream';
import { MarkdownView } from './markdown-view';

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

function mount(): HTMLElement {
  const root = document.createElement('div');
  document.body.append(root);
  return root;
}
const whole = (md: string) => {
  const root = mount();
  new MarkdownStream(root).update(md, true);
  return root;
};

describe('markdown rendering', () => {
  it('renders the usual chat markdown', () => {
    const root = whole(
      '# Title\n\nSome **bold** and *em* and `code`.\nNext line.\n\n- one\n- two\n\n1. first\n\n> quoted\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~gone~~\n\n---',
    );
    expect(root.querySelector('h1')!.textContent).toBe('Title');
    expect(root.querySelector('p')!.innerHTML).toBe(
      'Some <strong>bold</strong> and <em>em</em> and <code>code</code>.<br>Next line.',
    );
    expect([...root.querySelectorAll('ul')[0]!.querySelectorAll('li')].map((l) => l.textContent)).toEqual([
      'one',
      'two',
    ]);
    expect(root.querySelector('ol li')!.textContent).toBe('first');
    expect(root.querySelector('blockquote')!.textContent!.trim()).toBe('quoted');
    expect([...root.querySelectorAll('th')].map((t) => [t.textContent, t.getAttribute('align')])).toEqual([
      ['a', null],
      ['b', 'center'],
    ]);
    expect([...root.querySelectorAll('ul')[1]!.querySelectorAll('li')].map((l) => l.textContent)).toEqual([
      '☑ done',
      '☐ todo',
    ]);
    expect(root.querySelector('del')!.textContent).toBe('gone');
    expect(root.querySelector('hr')).not.toBeNull();
    expect(root.querySelector('input')).toBeNull();
  });

  it('R1 shows raw HTML as the text the model wrote', () => {
    const root = whole(
      'Use <b>bold</b> here.\n\n<div class="retry-bar" id="x">block</div>\n\n<script>alert(1)</script> and text',
    );
    expect(root.querySelector('b')).toBeNull();
    expect(root.querySelector('#x')).toBeNull();
    expect(root.textContent).toContain('Use <b>bold</b> here.');
    expect(root.textContent).toContain('<div class="retry-bar" id="x">block</div>');
    expect(root.textContent).toContain('<script>alert(1)</script> and text');
  });

  it('R2 links open in a new tab, without opener or referrer, with the destination shown', () => {
    const root = whole(
      'See [the docs](https://example.com/a?b=1) or <https://example.com/auto> or [evil](javascript:alert(1)).',
    );
    const links = [...root.querySelectorAll('a')];
    expect(
      links.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel'), a.textContent]),
    ).toEqual([
      ['https://example.com/a?b=1', '_blank', 'noopener noreferrer', 'the docs'],
      ['https://example.com/auto', '_blank', 'noopener noreferrer', 'https://example.com/auto'],
    ]);
    expect(root.textContent!.trim()).toBe(
      'See the docs (https://example.com/a?b=1) or https://example.com/auto or evil.',
    );
  });

  it('R3 an image becomes a placeholder with its full URL; a click opens it in a new tab', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { container } = render(<MarkdownView text={'Look: ![chart](https://attacker.test/p?q=SECRET)'} />);
    expect(container.querySelector('img')).toBeNull();
    const button = container.querySelector('button.md-image') as HTMLButtonElement;
    expect(button.textContent).toBe('Image: chart https://attacker.test/p?q=SECRET');
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(button.querySelector('.md-url')!);
    expect(open).toHaveBeenCalledWith('https://attacker.test/p?q=SECRET', '_blank', 'noopener,noreferrer');
  });

  it('code blocks have a Copy button that copies the code', async () => {
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (t: string) => void writes.push(t) },
      configurable: true,
    });
    const { container } = render(<MarkdownView text={'```ts\nconst a = "<b>";\n```'} />);
    expect(container.querySelector('.md-code-bar')!.textContent).toBe('tsCopy');
    const copy = container.querySelector('button.md-copy') as HTMLButtonElement;
    expect(copy.getAttribute('aria-label')).toBe('Copy ts code');
    fireEvent.click(copy);
    await vi.waitFor(() => expect(copy.textContent).toBe('Copied'));
    expect(writes).toEqual(['const a = "<b>";']);
    // The language stays on the block (highlighting may add `hljs` once it has loaded).
    expect(container.querySelector('code')!.classList.contains('language-ts')).toBe(true);
  });
});

const LONG = Array.from({ length: 60 }, (_, i) =>
  i % 5 === 0
    ? `## Part ${i}\n\n`
    : i % 5 === 1
      ? '```js\nconsole.log(' + i + ');\n```\n\n'
      : i % 5 === 2
        ? `- item ${i}\n- more ${i}\n\n`
        : `Paragraph ${i} with [a link](https://example.com/${i}) and **bold**.\n\n`,
).join('');

describe('streaming: cost per chunk follows the chunk, not the message', () => {
  it("keeps a settled block's DOM node when later chunks arrive", () => {
    const root = mount();
    const s = new MarkdownStream(root);
    s.update('First paragraph.\n\nSecond, still');
    const first = root.querySelector('p')!;
    expect(first.textContent).toBe('First paragraph.');
    const openBefore = root.querySelector('.md-open')!;
    for (const more of [' open', ' text.\n\n', '- a list', '\n- grows', '\n\nThe end.']) s.update(`${s['src']}${more}`);
    s.update('First paragraph.\n\nSecond, still open text.\n\n- a list\n- grows\n\nThe end.', true);
    expect(root.querySelector('p')).toBe(first);
    expect(first.isConnected).toBe(true);
    expect(openBefore.isConnected).toBe(false);
    expect([...root.children].map((c) => c.textContent!.trim())).toEqual([
      'First paragraph.',
      'Second, still open text.',
      'a list\ngrows',
      'The end.',
    ]);
  });

  it('lexes only the open part plus the new chunk, and ends as a whole render would', () => {
    const root = mount();
    const s = new MarkdownStream(root);
    let maxLexed = 0;
    for (let at = 0; at < LONG.length;) {
      at = Math.min(LONG.length, at + 17);
      s.update(LONG.slice(0, at));
      maxLexed = Math.max(maxLexed, s.stats.lastLexedChars);
    }
    s.update(LONG, true);
    // The longest open part here is one block (≤ ~60 characters) plus a 17-character chunk.
    expect(maxLexed).toBeLessThan(120);
    expect(LONG.length).toBeGreaterThan(2000);
    expect(s.stats.resets).toBe(0);
    expect(root.innerHTML).toBe(whole(LONG).innerHTML);
  });

  it('a reference definition arriving after its use re-renders once, then matches a whole render', () => {
    const md =
      'See [the spec][s] and ![fig][f].\n\nMore text.\n\n[s]: https://example.com/spec\n[f]: https://attacker.test/fig.png\n';
    const root = mount();
    const s = new MarkdownStream(root);
    for (let k = 1; k <= md.length; k++) s.update(md.slice(0, k));
    s.update(md, true);
    expect(s.stats.resets).toBe(1);
    expect(root.innerHTML).toBe(whole(md).innerHTML);
    expect(root.querySelector('a')!.getAttribute('href')).toBe('https://example.com/spec');
    expect(root.querySelector('button.md-image')!.getAttribute('data-md-open')).toBe('https://attacker.test/fig.png');
  });

  it('starts again when the text is replaced rather than extended, and handles CRLF', () => {
    const root = mount();
    const s = new MarkdownStream(root);
    s.update('one\r\n\r\ntwo\r\n\r\nthree');
    expect([...root.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['one', 'two', 'three']);
    s.update('other\n\ntext', true);
    expect([...root.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['other', 'text']);
    expect(s.stats.resets).toBe(1);
  });

  it('append(chunk) renders exactly what update(text so far) renders, at every chunk size, CRLF and late definitions included', () => {
    const md = `${LONG.slice(0, 700)}\n\nRef [the spec][s].\r\n\r\n\`\`\`\r\ncode\r\n\`\`\`\r\n\r\n[s]: https://example.com/spec\r\nTail line`;
    for (const size of [3, 17, 200]) {
      const a = mount();
      const b = mount();
      const byAppend = new MarkdownStream(a);
      const byUpdate = new MarkdownStream(b);
      for (let at = 0; at < md.length; at += size) {
        byAppend.append(md.slice(at, at + size));
        byUpdate.update(md.slice(0, at + size));
        expect(a.innerHTML).toBe(b.innerHTML);
        expect(byAppend.stats.lastLexedChars).toBe(byUpdate.stats.lastLexedChars);
      }
      byAppend.append('', true);
      byUpdate.update(md, true);
      expect(a.innerHTML).toBe(b.innerHTML);
      expect(a.innerHTML).toBe(whole(md).innerHTML);
      expect(byAppend.stats.resets).toBe(1);
    }
  });

  it('past 32 settled blocks, groups them 32 to a div.md-group without moving a settled node, in the order of the text', () => {
    // 100 paragraphs: 32 children of the root, then groups of 32, 32 and 4.
    const md = Array.from({ length: 100 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const root = mount();
    const s = new MarkdownStream(root);
    const seen = new Map<string, Element>();
    for (let at = 0; at < md.length; at += 11) {
      s.append(md.slice(at, at + 11));
      // A settled paragraph keeps its node from then on (the open one is replaced per chunk until it settles).
      for (const p of root.querySelectorAll('p')) {
        if (p.closest('.md-open')) continue;
        const was = seen.get(p.textContent!);
        if (was) expect(p).toBe(was);
        seen.set(p.textContent!, p);
      }
    }
    s.append('', true);
    expect([...root.querySelectorAll('p')].map((p) => p.textContent)).toEqual(
      Array.from({ length: 100 }, (_, i) => `Paragraph ${i}.`),
    );
    const kids = [...root.children];
    expect(kids.slice(0, 32).every((k) => k.className === 'md-block')).toBe(true);
    expect(kids.slice(32).map((k) => [k.className, k.children.length])).toEqual([
      ['md-group', 32],
      ['md-group', 32],
      ['md-group', 4],
    ]);
    expect(root.innerHTML).toBe(whole(md).innerHTML);
    // A replaced text starts over: no group is left behind.
    s.update('Other.', true);
    expect([...root.children].map((k) => k.className)).toEqual(['md-block']);
    expect(root.textContent!.trim()).toBe('Other.');
  });

  it('append after update continues the same text; update with a shorter text starts again', () => {
    const root = mount();
    const s = new MarkdownStream(root);
    s.update('One.\n\nTw');
    s.append('o.\n\nThree');
    expect([...root.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['One.', 'Two.', 'Three']);
    s.update('One.\n\nTwo.\n\nThree', true);
    expect(s.stats.resets).toBe(0);
    s.update('One.', true);
    expect([...root.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['One.']);
    expect(s.stats.resets).toBe(1);
  });

  it('MarkdownView keeps settled nodes across re-renders with longer text', () => {
    const { container, rerender } = render(<MarkdownView text={'Hello.\n\nWor'} streaming />);
    const first = container.querySelector('p')!;
    rerender(<MarkdownView text={'Hello.\n\nWorld, and more.'} streaming />);
    rerender(<MarkdownView text={'Hello.\n\nWorld, and more.'} />);
    expect(container.querySelector('p')).toBe(first);
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Hello.', 'World, and more.']);
  });
});
