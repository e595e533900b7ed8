/**
 * S1 (security-requirements.md): no code path widens `storage.session` to untrusted contexts. The
 * project's ESLint config forbids `setAccessLevel` and the `TRUSTED_AND_UNTRUSTED_CONTEXTS` literal;
 * this test runs the real config on probe code, so removing the rule fails it (`npm run lint`
 * applies the rule to every source file).
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: ROOT });
const ruleHits = (results: ESLint.LintResult[]) =>
  results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message));

describe('S1 storage.session access', () => {
  it('S1 the lint config refuses setAccessLevel and TRUSTED_AND_UNTRUSTED_CONTEXTS', async () => {
    const probe = [
      'declare const browser: { storage: { session: { setAccessLevel(o: { accessLevel: string }): Promise<void> } } };',
      "void browser.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_AND_UNTRUSTED_CONTEXTS' });",
    ].join('\n');
    const hits = ruleHits(await eslint.lintText(probe, { filePath: path.join(ROOT, 'lib/background/probe.ts') }));
    expect(hits).toEqual([
      'S1: never widen storage.session access (no setAccessLevel).',
      'S1: content scripts must not read storage.session.',
    ]);
  });
});
