/**
 * The worker script's ASCII-only output (scripts/ascii-only.ts): every non-ASCII character becomes
 * an escape meaning the same character, so the program computes the same values; where an escape
 * would change the program (tagged templates, comments, whitespace) the build fails.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { toAscii } from '../../scripts/ascii-only';

/** Runs `code` (an expression statement list ending in an array) in a fresh context and returns its value as JSON. */
function run(code: string): string {
  return JSON.stringify(vm.runInNewContext(code));
}

const isAscii = (s: string) => [...s].every((c) => c.charCodeAt(0) < 0x80);

describe('toAscii', () => {
  it('leaves an ASCII program as it is', () => {
    const code = 'var a = "plain", b = /x+/g; [a, b.source]';
    expect(toAscii(code)).toBe(code);
  });

  it('escapes strings, templates, regular expressions and identifiers, and the values stay the same', () => {
    const code = [
      'var café = "… — ×", t = `→ ${café} ←`, e = "😀 ok";',
      'var r = /【[^】\\n]{0,3}】/, u = /^(.+?[。！？])/u, v = /[😀-😂]/u;',
      'var id = "\\é";', // an identity escape: the same as "é"
      '[café, t, e, e.length, r.test("【ab】"), u.exec("一。二")[1], v.test("😁"), v.test("😃"), id, new RegExp(r.source).test("【cd】")]',
    ].join('\n');
    const out = toAscii(code, 'sample.js');
    expect(isAscii(out)).toBe(true);
    expect(run(out)).toBe(run(code));
    expect(JSON.parse(run(out))).toContain('é');
  });

  it('refuses non-ASCII text in a tagged template (its tag sees the raw text)', () => {
    expect(() => toAscii('String.raw`é`', 'tagged.js')).toThrow(/tagged template/);
  });

  it('escapes comments, and refuses non-ASCII whitespace or a line terminator outside a literal', () => {
    const commented = '/* a — b */ var a = 1; // c → d\na';
    expect(isAscii(toAscii(commented))).toBe(true);
    expect(run(toAscii(commented))).toBe('1');
    expect(() => toAscii('var a = 1; // a line\u2028a = 2;\na', 'comment.js')).toThrow(/whitespace/);
    expect(() => toAscii('var a =\u00a01; a', 'space.js')).toThrow(/whitespace/);
  });
});
