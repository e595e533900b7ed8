/**
 * D5, static: no IndexedDB transaction spans a `fetch` or any other non-IDB await. Every
 * `tx(db, stores, mode, work)` callback in the source is parsed with the TypeScript compiler, and
 * each `await` inside it must wait on an IDB request of that transaction: a call chain rooted at
 * the transaction parameter, or at a variable taken from it (a store, an index, a cursor).
 * Anything else (`fetch`, `crypto.subtle`, a method of another object, a timer) would let the
 * transaction auto-commit midway and fail with `TransactionInactiveError`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The identifier a call / property / element chain starts from (`t` in `t.objectStore('x').index('y').get(k)`). */
function rootOf(e: ts.Expression): string | undefined {
  let x: ts.Expression = e;
  for (;;) {
    if (ts.isParenthesizedExpression(x) || ts.isNonNullExpression(x) || ts.isAsExpression(x) || ts.isAwaitExpression(x))
      x = x.expression;
    else if (ts.isCallExpression(x) || ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x))
      x = x.expression;
    else return ts.isIdentifier(x) ? x.text : undefined;
  }
}

type Work = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration;

/**
 * The transaction helpers of lib/store/turn-tree.ts (the tree of turns), lib/store/search-index.ts
 * (the search index's records) and lib/store/list-pages.ts (the list pages, given the transaction):
 * async functions whose first parameter is a store, or the transaction, of the caller's. A call of one with a store of this transaction waits on that transaction; each of
 * them is itself checked below.
 */
const TREE_FILE = path.join(ROOT, 'lib/store/turn-tree.ts');
const SEARCH_FILE = path.join(ROOT, 'lib/store/search-index.ts');
const PATHS_FILE = path.join(ROOT, 'lib/store/path-index.ts');
const LIST_FILE = path.join(ROOT, 'lib/store/list-pages.ts');
/** Its top-level async functions are transaction helpers too (`replaceTurnIn`); the class's methods are not. */
const CONVERSATIONS_FILE = path.join(ROOT, 'lib/store/conversations.ts');
const parse = (f: string) => ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
function treeHelpers(file = parse(TREE_FILE)): ts.FunctionDeclaration[] {
  return file.statements.filter(
    (n): n is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(n) && !!n.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword),
  );
}
const HELPERS = new Set(
  [
    ...treeHelpers(),
    ...treeHelpers(parse(SEARCH_FILE)),
    ...treeHelpers(parse(PATHS_FILE)),
    ...treeHelpers(parse(LIST_FILE)),
    ...treeHelpers(parse(CONVERSATIONS_FILE)),
  ].map((f) => f.name!.text),
);

/** Every `await` in `work` that does not wait on its transaction, as `file:line text`. */
function foreignAwaits(work: Work, file: ts.SourceFile): string[] {
  const param = work.parameters[0]?.name;
  const roots = new Set<string>(param && ts.isIdentifier(param) ? [param.text] : []);
  const bad: string[] = [];
  const isIdb = (e: ts.Expression): boolean => {
    if (ts.isParenthesizedExpression(e)) return isIdb(e.expression);
    const r = rootOf(e);
    if (r !== undefined && roots.has(r)) return true;
    // A tree helper given a store of this transaction.
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && HELPERS.has(e.expression.text)) {
      const arg = e.arguments[0];
      return !!arg && isIdb(arg);
    }
    // `c ? request : undefined` (either branch may be nothing).
    if (ts.isConditionalExpression(e))
      return [e.whenTrue, e.whenFalse].every((b) => (ts.isIdentifier(b) && b.text === 'undefined') || isIdb(b));
    // `together([() => request, …])` (lib/store/together.ts): every function issues requests of this transaction.
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'together') {
      const arg = e.arguments[0];
      return (
        !!arg &&
        ts.isArrayLiteralExpression(arg) &&
        arg.elements.every((x) => ts.isArrowFunction(x) && ts.isExpression(x.body) && isIdb(x.body))
      );
    }
    // `Promise.all([...])` of requests of this transaction, or `Promise.all(xs.map((x) => request))`.
    if (ts.isCallExpression(e) && e.expression.getText(file) === 'Promise.all') {
      const arg = e.arguments[0];
      if (arg && ts.isArrayLiteralExpression(arg)) return arg.elements.every((x) => ts.isExpression(x) && isIdb(x));
      const fn =
        arg && ts.isCallExpression(arg) && /\.map$/.test(arg.expression.getText(file)) ? arg.arguments[0] : undefined;
      return !!fn && ts.isArrowFunction(fn) && ts.isExpression(fn.body) && isIdb(fn.body);
    }
    return false;
  };
  const visit = (n: ts.Node): void => {
    // Variables taken from the transaction (stores, indexes, cursors) are IDB roots too.
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && isIdb(n.initializer))
      roots.add(n.name.text);
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(n.left) &&
      isIdb(n.right)
    )
      roots.add(n.left.text);
    if (ts.isAwaitExpression(n) && !isIdb(n.expression)) {
      const { line } = file.getLineAndCharacterOfPosition(n.getStart(file));
      bad.push(`${path.relative(ROOT, file.fileName)}:${line + 1} ${n.getText(file).slice(0, 80)}`);
    }
    if (ts.isForOfStatement(n) && n.awaitModifier)
      bad.push(`${path.relative(ROOT, file.fileName)}: for await in a transaction`);
    ts.forEachChild(n, visit);
  };
  if (work.body) visit(work.body);
  return bad;
}

/** Every `tx(…, work)` callback in `files`. */
function txCallbacks(files: string[]): { file: ts.SourceFile; work: ts.ArrowFunction | ts.FunctionExpression }[] {
  const out: { file: ts.SourceFile; work: ts.ArrowFunction | ts.FunctionExpression }[] = [];
  for (const f of files) {
    const file = ts.createSourceFile(
      f,
      fs.readFileSync(f, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'tx') {
        const work = n.arguments[3];
        if (work && (ts.isArrowFunction(work) || ts.isFunctionExpression(work))) out.push({ file, work });
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return out;
}

const LIB = sourceFiles(path.join(ROOT, 'lib'));

describe('D5 no awaits across transactions', () => {
  it('D5 every tx() callback in lib/ awaits only requests of its own transaction (no fetch, no crypto, no other promise)', () => {
    const callbacks = txCallbacks(LIB);
    // The check has something to check: the stores and the vault write through tx().
    expect(callbacks.length).toBeGreaterThanOrEqual(15);
    const files = new Set(callbacks.map((c) => path.relative(ROOT, c.file.fileName)));
    for (const f of ['lib/store/conversations.ts', 'lib/store/settings.ts', 'lib/vault/vault.ts'])
      expect(files.has(f), f).toBe(true);
    expect(callbacks.flatMap((c) => foreignAwaits(c.work, c.file))).toEqual([]);
  });

  it('D5 the tree, search-index, path-index, list-page and turn-replacing helpers await only requests of the store they are given', () => {
    const file = parse(TREE_FILE);
    const helpers = treeHelpers(file);
    expect(helpers.map((f) => f.name!.text)).toContain('readActivePath');
    expect(helpers.flatMap((f) => foreignAwaits(f, file))).toEqual([]);
    const search = parse(SEARCH_FILE);
    const indexers = treeHelpers(search);
    expect(indexers.map((f) => f.name!.text)).toContain('indexTurns');
    expect(indexers.flatMap((f) => foreignAwaits(f, search))).toEqual([]);
    const paths = parse(PATHS_FILE);
    const pathHelpers = treeHelpers(paths);
    expect(pathHelpers.map((f) => f.name!.text)).toContain('appendPathEntry');
    expect(pathHelpers.flatMap((f) => foreignAwaits(f, paths))).toEqual([]);
    const list = parse(LIST_FILE);
    const writers = treeHelpers(list);
    expect(writers.map((f) => f.name!.text)).toContain('putConversation');
    expect(writers.flatMap((f) => foreignAwaits(f, list))).toEqual([]);
    const conversations = parse(CONVERSATIONS_FILE);
    const replacers = treeHelpers(conversations);
    expect(replacers.map((f) => f.name!.text)).toContain('replaceTurnIn');
    expect(replacers.flatMap((f) => foreignAwaits(f, conversations))).toEqual([]);
  });

  it('D5 the only direct db.transaction() call is inside tx() (lib/store/db.ts)', () => {
    const direct = LIB.filter((f) => /\.transaction\(/.test(fs.readFileSync(f, 'utf8'))).map((f) =>
      path.relative(ROOT, f),
    );
    expect(direct).toEqual(['lib/store/db.ts']);
  });

  it('D5 the checker itself flags fetch, crypto and foreign awaits, and accepts stores, indexes, cursors, and Promise.all and together of requests', () => {
    const src = `
      tx(db, ['a'], 'readwrite', async (t) => {
        const s = t.objectStore('a');
        await s.put(1);
        await Promise.all([s.get(1), t.objectStore('a').index('i').get(2)]);
        await Promise.all([1, 2].map((k) => s.get(k)));
        await Promise.all([1, 2].map((k) => fetch(k)));
        let c = await s.openCursor();
        while (c) c = await c.continue();
        await fetch('https://x.test');
        await crypto.subtle.digest('SHA-256', new Uint8Array());
        await other.save();
        await Promise.all([s.get(1), fetch('y')]);
        await together([() => s.put(1), () => (k ? s.get(k) : undefined), () => indexTurns(s, [])]);
        await together([() => s.put(1), () => fetch('z')]);
        await together([() => s.put(1), () => (k ? fetch('w') : undefined)]);
      });`;
    const file = ts.createSourceFile('lib/fixture.ts', src, ts.ScriptTarget.Latest, true);
    let work: ts.ArrowFunction | undefined;
    const find = (n: ts.Node): void => {
      if (ts.isArrowFunction(n) && !work) work = n;
      ts.forEachChild(n, find);
    };
    find(file);
    expect(foreignAwaits(work!, file).map((l) => l.replace(/^.*?:\d+ /, ''))).toEqual([
      'await Promise.all([1, 2].map((k) => fetch(k)))',
      "await fetch('https://x.test')",
      "await crypto.subtle.digest('SHA-256', new Uint8Array())",
      'await other.save()',
      "await Promise.all([s.get(1), fetch('y')])",
      "await together([() => s.put(1), () => fetch('z')])",
      "await together([() => s.put(1), () => (k ? fetch('w') : undefined)])",
    ]);
  });
});
