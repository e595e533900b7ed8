// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"disableJavaScriptFileLoading":true,"disableCSSFileLoading":true,"disableIframePageLoading":true}}
/**
 * The sanitiser on its own, fed the hostile corpus as raw HTML — as if the markdown renderer had
 * let markup through (defence in depth for R1–R3). JavaScript evaluation stays off here: happy-dom,
 * unlike browsers, would run scripts inside the sanitiser's inert DOMParser document.
 */
import '../testing/happy-dom-compat';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeImageUrl, safeLinkUrl } from '../../lib/ui/safe-url';
import { inertProblems } from '../testing/inert';
import { HOSTILE_CORPUS } from './hostile-corpus';
import { sanitizeToFragment } from './sanitize';

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('the sanitiser alone', () => {
  for (const p of HOSTILE_CORPUS) {
    it(`${p.req.join(' ')} ${p.id}`, () => {
      const fetchSpy = vi.spyOn(window, 'fetch');
      const root = document.createElement('div');
      document.body.append(root);
      root.append(sanitizeToFragment(p.md));
      expect(inertProblems(root), root.innerHTML).toEqual([]);
      expect(fetchSpy).not.toHaveBeenCalled();
    });
  }

  it('R1 keeps the allowlisted structure and drops everything else', () => {
    const root = document.createElement('div');
    root.append(
      sanitizeToFragment(
        '<p class="md-raw evil" style="color:red" onclick="x()" id="a">t <b>b</b><strong title="t">s</strong></p><ol start="3"><li>x</li></ol>',
      ),
    );
    expect(root.innerHTML).toBe('<p class="md-raw">t b<strong title="t">s</strong></p><ol start="3"><li>x</li></ol>');
  });
});

describe('R2 link destinations', () => {
  it('allows only absolute https, http and mailto', () => {
    expect(
      ['https://a.test/x', 'http://a.test', 'mailto:a@b.test', ' https://a.test', 'HTTPS://A.TEST/'].map(
        (u) => safeLinkUrl(u)?.href,
      ),
    ).toEqual(['https://a.test/x', 'http://a.test/', 'mailto:a@b.test', 'https://a.test/', 'https://a.test/']);
    const refused = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:x',
      'vbscript:x',
      'data:text/html,x',
      'file:///etc/passwd',
      'chrome://settings',
      'chrome-extension://abc/x',
      'CHROME-EXTENSION://abc/x',
      '/relative',
      '//host/x',
      'relative',
      '',
      'javascript&#58;x',
    ];
    expect(refused.map((u) => safeLinkUrl(u))).toEqual(refused.map(() => undefined));
  });

  it('R3 image placeholders open only https and http', () => {
    expect(safeImageUrl('https://a.test/i.png')?.href).toBe('https://a.test/i.png');
    expect(safeImageUrl('mailto:a@b.test')).toBeUndefined();
    expect(safeImageUrl('data:image/png;base64,AAAA')).toBeUndefined();
  });
});
