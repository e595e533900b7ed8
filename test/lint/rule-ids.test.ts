/**
 * Every rule id the code, the tests, the benchmarks, the root files and the docs cite is defined
 * in `docs/` (docs/provider-rules.md, docs/security.md): a plain clone can look each one up.
 *
 * What counts as a rule id (the grammar of the brief's rule tables):
 * - a hyphenated id: one or two capitals, a hyphen, up to two more capitals, one or two digits —
 *   `A-T2`, `G-K10`, `GI-R1`, `R-1`, `M-1`, `D-G1`, `OR-2`, `BR-9`, `V-A1`. Any family counts, so a
 *   mistyped family (a made-up `Q` family after `A-`) is reported too.
 * - a bare id of the families the docs define without a hyphen: `X` (cross-provider) and the
 *   security families `S`, `M`, `R`, `N`, `D`, `L`, `P`, `I` — `X4`, `N5`, `R1`, `L4`.
 *   Other bare capital + digit tokens are not ids: test constants (`T0`, `U1`, `A1`, `G3`), `C0`
 *   controls, `V8`, model names.
 * An id is a whole token: not inside a word or a longer hyphenated name (`UTF-8`, `SHA-256`,
 * `GPT-5`, `P-256`, the hex colour `#D1D5DB`, `I18n` are not ids).
 *
 * An id is *defined* by a Markdown table row in `docs/` whose first cell is the id.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = path.join(ROOT, 'docs');
/** Where ids are cited: the source trees, the root's Markdown and config files, and docs/ itself. */
const SOURCE_DIRS = ['lib', 'components', 'entrypoints', 'test', 'bench'];
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.css', '.html', '.md']);
const ROOT_FILES = [
  'README.md',
  'SECURITY.md',
  'CONTRIBUTING.md',
  'wxt.config.ts',
  'eslint.config.js',
  'vitest.config.ts',
];

const HYPHENATED = String.raw`[A-Z]{1,2}-[A-Z]{0,2}\d{1,2}`;
const BARE = String.raw`[XSMRNDLPI]\d{1,2}`;
/** A cited id: whole token, neither inside a word nor inside a longer hyphenated name. */
const CITED = new RegExp(String.raw`(?<![\w-])(?:${HYPHENATED}|${BARE})(?![\w-])`, 'g');
/** A definition: a table row whose first cell is an id (optionally in bold or backticks). */
const DEFINITION = new RegExp(String.raw`^\|\s*[*\x60]*(${HYPHENATED}|${BARE})[*\x60]*\s*\|`);

/** One citation of an id the docs do not define. */
interface Undefined {
  file: string;
  line: number;
  id: string;
}

/** The ids cited in `text`, with their 1-based line numbers. */
function citations(text: string): { line: number; id: string }[] {
  return text.split('\n').flatMap((l, i) => [...l.matchAll(CITED)].map((m) => ({ line: i + 1, id: m[0] })));
}

/** The citations in `text` (of `file`) whose id is not in `defined`. */
function undefinedCitations(file: string, text: string, defined: ReadonlySet<string>): Undefined[] {
  return citations(text)
    .filter((c) => !defined.has(c.id))
    .map((c) => ({ file, ...c }));
}

/** Ids defined in Markdown `text`, in order (duplicates kept, so they can be reported). */
function definitions(text: string): string[] {
  return text.split('\n').flatMap((l) => {
    const m = DEFINITION.exec(l);
    return m ? [m[1]!] : [];
  });
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE_EXTENSIONS.has(path.extname(name))) out.push(full);
  }
  return out;
}

function docFiles(): string[] {
  return walk(DOCS).filter((f) => f.endsWith('.md'));
}

function definedIds(): { ids: Set<string>; duplicates: string[] } {
  const all = docFiles().flatMap((f) => definitions(readFileSync(f, 'utf8')));
  const ids = new Set<string>();
  const duplicates: string[] = [];
  for (const id of all) {
    if (ids.has(id)) duplicates.push(id);
    ids.add(id);
  }
  return { ids, duplicates };
}

function citingFiles(): string[] {
  const roots = ROOT_FILES.map((f) => path.join(ROOT, f)).filter((f) => {
    try {
      return statSync(f).isFile();
    } catch {
      return false;
    }
  });
  return [...roots, ...docFiles(), ...SOURCE_DIRS.flatMap((d) => walk(path.join(ROOT, d)))];
}

const format = (u: Undefined) => `${path.relative(ROOT, u.file)}:${u.line} ${u.id}`;

describe('rule ids', () => {
  it('the grammar reports an undefined id with its line, and ignores look-alikes', () => {
    const defined = new Set(['A-T2', 'X4', 'N5', 'GI-R1']);
    // Built from pieces so that this file itself cites no undefined id.
    const unknownFamily = ['A', 'Q3'].join('-');
    const unknownNumber = ['X', '99'].join('');
    const sample = [
      'enforces A-T2 and X4 (N5); GI-R1 in the body',
      `a mistyped ${unknownFamily} rule`,
      `and ${unknownNumber}, too`,
      'UTF-8, SHA-256, GPT-5, P-256, #D1D5DB, I18n, const T1 = 1, A1, C0, V8, mid-X4x',
    ].join('\n');
    expect(undefinedCitations('sample.ts', sample, defined)).toEqual([
      { file: 'sample.ts', line: 2, id: unknownFamily },
      { file: 'sample.ts', line: 3, id: unknownNumber },
    ]);
  });

  it('a definition is a table row whose first cell is the id', () => {
    const md = [
      '| A-T2 | rule | source |',
      '| **X4** | rule | source |',
      '| `N5` | rule |',
      'A-K1 in prose is a citation, not a definition',
      '| rule | A-K2 |',
    ].join('\n');
    expect(definitions(md)).toEqual(['A-T2', 'X4', 'N5']);
  });

  it('docs/ defines each id once', () => {
    const { ids, duplicates } = definedIds();
    expect(ids.size).toBeGreaterThan(200);
    expect(duplicates).toEqual([]);
  });

  it('every id cited in lib/, components/, entrypoints/, test/, bench/, the root files and docs/ is defined in docs/', () => {
    const { ids } = definedIds();
    const missing = citingFiles().flatMap((f) => undefinedCitations(f, readFileSync(f, 'utf8'), ids));
    // Named file:line, so the message says where to fix it (define the id in docs/, or correct the citation).
    expect(missing.map(format)).toEqual([]);
  });
});
