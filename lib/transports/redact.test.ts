/** redactSecrets / cleanErrorText: no key material (S4), plain text ≤ 500 characters (P5). */
import { describe, expect, it } from 'vitest';
import { cleanErrorText, redactSecrets } from './redact';

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('redactSecrets', () => {
  it('removes a whole key wherever it appears', () => {
    expect(redactSecrets(`Incorrect API key provided: ${KEY}. See ${KEY}!`, [KEY])).toBe(
      'Incorrect API key provided: [redacted]. See [redacted]!',
    );
  });

  it('removes any run of 12 or more characters of a key, taking the longest run', () => {
    const middle = KEY.slice(5, 30);
    expect(redactSecrets(`key=${middle};`, [KEY])).toBe('key=[redacted];');
    expect(redactSecrets(`x${KEY.slice(10, 22)}y`, [KEY])).toBe('x[redacted]y');
  });

  it('keeps shorter fragments (masked keys as providers print them) and unrelated text', () => {
    const masked = `${KEY.slice(0, 8)}****${KEY.slice(-4)}`;
    expect(redactSecrets(`Incorrect API key provided: ${masked}`, [KEY])).toBe(`Incorrect API key provided: ${masked}`);
    expect(redactSecrets('nothing secret here', [KEY, 'AIzaOther0123456789'])).toBe('nothing secret here');
  });

  it('handles several keys, short keys (whole match only) and empty keys', () => {
    expect(redactSecrets('a=AIzaOther0123456789 b=short1 c=sho', ['AIzaOther0123456789', 'short1', ''])).toBe(
      'a=[redacted] b=[redacted] c=sho',
    );
  });
});

describe('cleanErrorText', () => {
  it('strips HTML, collapses whitespace and control characters', () => {
    expect(
      cleanErrorText(
        '<html><head><style>b{}</style></head><body>\n<h1>413 Request\tEntity Too Large</h1>\u0007</body></html>',
        [],
      ),
    ).toBe('413 Request Entity Too Large');
  });

  it('cuts to 500 characters after redaction, so no key survives the cut', () => {
    const text = `${'x'.repeat(490)}${KEY}${'y'.repeat(100)}`;
    const out = cleanErrorText(text, [KEY]);
    expect(out).toHaveLength(500);
    expect(out.startsWith(`${'x'.repeat(490)}[redacted]`.slice(0, 499))).toBe(true);
    expect(out.endsWith('…')).toBe(true);
  });
});
