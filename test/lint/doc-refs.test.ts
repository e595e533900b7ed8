/**
 * Code and tests point to the project's own documents, never to tracker issues: a plain clone can
 * follow every reference. Two checks over the source trees:
 * - no "issue N" reference (the issues are not in the repository; the documents in docs/ are);
 * - every `docs/<name>.md` (or `bench/README.md`) a source file names exists, and a `#anchor`
 *   after it matches a heading of that document.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIRS = ['lib', 'components', 'entrypoints', 'test', 'bench', 'scripts'];
const EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.css', '.html']);
const ROOT_FILES = ['wxt.config.ts', 'eslint.config.js', 'vitest.config.ts', '.dependency-cruiser.cjs'];

/** "issue 6", "Issue 14" — a tracker reference (not "issue #12", which is sample text in a test). */
const ISSUE_REF = /\b[Ii]ssues? \d+\b/g;
/** A document reference: `docs/x.md` or `bench/README.md`, with an optional `#anchor`. */
const DOC_REF = /(?<![\w./-])((?:docs\/[\w-]+|bench\/README)\.md)(?:#([\w-]+))?/g;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return EXTENSIONS.has(path.extname(name)) ? [p] : [];
  });
}

/** GitHub-style anchors of a Markdown document's headings. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const line of markdown.split('\n')) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    out.add(
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\w\s-]/g, '')
        .replace(/\s/g, '-'),
    );
  }
  return out;
}

/** Problems with the references in `text` of `file`: tracker references and dangling documents. */
export function referenceProblems(file: string, text: string, root: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(ISSUE_REF))
      problems.push(`${file}:${i + 1} names a tracker issue ("${m[0]}"): point to a document in docs/`);
    for (const m of line.matchAll(DOC_REF)) {
      const doc = path.join(root, m[1]!);
      if (!existsSync(doc)) problems.push(`${file}:${i + 1} names ${m[1]}, which does not exist`);
      else if (m[2] !== undefined && !anchors(readFileSync(doc, 'utf8')).has(m[2]))
        problems.push(`${file}:${i + 1} names ${m[1]}#${m[2]}, which has no such heading`);
    }
  });
  return problems;
}

describe('references from code and tests go to the project documents', () => {
  it('no source file names a tracker issue, and every named document and heading exists', () => {
    // This file spells out bad references on purpose (its own sample below).
    const self = fileURLToPath(import.meta.url);
    const files = [
      ...SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d))),
      ...ROOT_FILES.map((f) => path.join(ROOT, f)).filter((f) => existsSync(f)),
    ].filter((f) => f !== self);
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((f) => referenceProblems(path.relative(ROOT, f), readFileSync(f, 'utf8'), ROOT));
    expect(problems).toEqual([]);
  });

  it('reports an issue reference, a missing document and a missing heading (the check can fail)', () => {
    const sample = [
      '// see issue 6',
      '// docs/nowhere.md',
      '// docs/architecture.md#no-such-heading',
      '// docs/architecture.md#layers',
      '// issue #12 is sample text',
    ].join('\n');
    expect(referenceProblems('x.ts', sample, ROOT)).toEqual([
      'x.ts:1 names a tracker issue ("issue 6"): point to a document in docs/',
      'x.ts:2 names docs/nowhere.md, which does not exist',
      'x.ts:3 names docs/architecture.md#no-such-heading, which has no such heading',
    ]);
  });
});
