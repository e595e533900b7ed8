import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { lookupTable } from './lookup';

describe('docs/security.md defect 1 (at depth): provider-supplied strings never index plain objects', () => {
  it('a lookupTable answers undefined for prototype-named keys and keeps its own entries', () => {
    const t: Readonly<Record<string, string>> = lookupTable({ stop: 'end_turn', length: 'max_tokens' });
    for (const k of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf']) expect(t[k]).toBeUndefined();
    expect(t.stop).toBe('end_turn');
    expect(Object.isFrozen(t)).toBe(true);
  });

  it('eslint refuses a string-keyed plain-object constant table anywhere in lib/, and accepts lookupTable or a Map', async () => {
    const eslint = new ESLint();
    const lint = async (code: string) =>
      (await eslint.lintText(code, { filePath: 'lib/providers/x.ts' }))[0]!.messages.map((m) => m.message);
    const plain = await lint("export const REASONS: Readonly<Record<string, string>> = { stop: 'end_turn' };\n");
    expect(plain.join('\n')).toMatch(/lookupTable/);
    const built = await lint(
      "export const CALLS: Readonly<Record<string, string>> = Object.fromEntries([['a', 'b']]);\n",
    );
    expect(built.join('\n')).toMatch(/lookupTable/);
    const ok = await lint(
      "import { lookupTable } from '../transcript/lookup';\nexport const REASONS: Readonly<Record<string, string>> = lookupTable({ stop: 'end_turn' });\nexport const M = new Map<string, string>([['a', 'b']]);\n",
    );
    expect(ok.filter((m) => /lookupTable|prototype/.test(m))).toEqual([]);
  });
});
