// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { normaliseText } from './normalise-text';
import { readPage } from './read-page';

function doc(html: string, url = 'https://news.example/a'): Document {
  const d = new DOMParser().parseFromString(html, 'text/html');
  Object.defineProperty(d, 'URL', { value: url });
  return d;
}

const para = (s: string) => `<p>${s} ${'Schedules, tickets and harbours are described here in full. '.repeat(5)}</p>`;

describe('readPage (Readability on a clone of the tab’s document)', () => {
  it('returns the article’s text without the navigation and footer, and leaves the page unchanged', () => {
    const d = doc(
      `<html><head><title>Ferries | Coast</title></head><body><nav><a href="/">Home</a> Subscribe now</nav>
      <article><h1>Ferries</h1>${para('First paragraph.')}${para('Second paragraph.')}${para('Third.')}</article>
      <footer>Cookie settings</footer></body></html>`,
    );
    const before = d.documentElement.outerHTML;
    const r = readPage(d);
    expect(r.method).toBe('readability');
    expect(r.url).toBe('https://news.example/a');
    expect(r.title).toMatch(/Ferries/);
    expect(r.text).toContain('First paragraph.');
    expect(r.text).toContain('Third.');
    expect(r.text).not.toContain('Subscribe now');
    expect(r.text).not.toContain('Cookie settings');
    expect(d.documentElement.outerHTML).toBe(before);
  });

  it('a short page without an article still gives its text and title', () => {
    const r = readPage(doc('<html><head><title> Short </title></head><body><div>Just a line.</div></body></html>'));
    expect(r.title).toBe('Short');
    expect(r.text).toBe('Just a line.');
  });

  it('a page with no text reads as empty; the title falls back to the host', () => {
    const r = readPage(doc('<html><head></head><body></body></html>', 'https://host.example/x'));
    expect(r.text).toBe('');
    expect(r.title).toBe('host.example');
  });

  it('tidies layout whitespace', () => {
    expect(normaliseText('  a \t b \r\n\r\n\r\n\n c\u00a0 ')).toBe('a b\n\nc');
  });
});
