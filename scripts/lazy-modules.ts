/**
 * A Vite plugin for the extension build: large libraries the service worker rarely needs (the
 * provider SDKs, PouchDB, fflate, gpt-tokenizer) run their module code on first use, not whenever the worker starts
 * (docs/architecture.md#the-service-workers-start-up).
 *
 * The worker cannot `import()`, so these libraries cannot be split into chunks loaded on demand.
 * Instead the plugin replaces each loader file below (`sdk-loaders.ts`, `pouch-loader.ts`, `fflate-loader.ts`, `tokenizer-loader.ts`) by a
 * module that exports the same functions, each holding its library bundled by esbuild into the
 * function's body (an IIFE that returns the library's exports). Evaluating the worker then only
 * defines the functions: V8 pre-parses their bodies and compiles them on the first call; the first
 * call runs the library's module code once and keeps the export. Node (CLI, tests, bench) runs the
 * loader files themselves, which import the libraries directly.
 *
 * In the Chromium build (a service worker) the SDKs and PouchDB go further: each is written to a script of its own
 * (`lazy/<name>.js`, the same esbuild bundle, assigning its exports to a global), so that Chromium's
 * code cache for `background.js` no longer holds them. Chromium refuses `importScripts()` of a new
 * script once the worker is installed, but serves again any script the worker imported while it was
 * evaluated for installation; so the worker imports every lazy script at install (`keepSdkScripts`, `keepPouchScript`,
 * called at the top level after the listeners are registered) and each loader, in later lives,
 * `importScripts()` its file on first use. The Firefox build (a background page, no `importScripts`)
 * keeps the bodies inline.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { parseAst } from 'vite';

/** The repository root: where the libraries are resolved from. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * One loader: its exported name, the module it loads (a package, or a file from the repository root
 * starting with `./`) and the export it returns; `script`, when set, the extension file (from the
 * extension's root) the library is written to in the scripts mode; `packages`, the packages that
 * must not be modules of the worker's bundle (default: `module` when it is a package).
 */
export interface LazyLoader {
  loader: string;
  module: string;
  exportName: string;
  script?: string;
  packages?: readonly string[];
}

/**
 * A loader file (path from the repository root) and the loaders it exports, same names, same values.
 * `keep`: the file's function that, in the scripts mode, imports the loaders' scripts during the
 * install evaluation (a no-op in the file itself and in the inline mode).
 */
export const LAZY_MODULES: readonly { file: string; keep?: string; loaders: readonly LazyLoader[] }[] = [
  {
    file: 'lib/transports/sdk-loaders.ts',
    keep: 'keepSdkScripts',
    loaders: [
      { loader: 'loadOpenAI', module: 'openai', exportName: 'default', script: 'lazy/openai.js' },
      {
        // Baton's slim client (the SDK's base client and the three resources Baton calls), not the
        // SDK's full client: less than half the script every wake reads.
        loader: 'loadAnthropic',
        module: './lib/transports/anthropic-client.ts',
        exportName: 'AnthropicClient',
        script: 'lazy/anthropic.js',
        packages: ['@anthropic-ai/sdk'],
      },
      { loader: 'loadGemini', module: '@google/genai', exportName: 'GoogleGenAI', script: 'lazy/genai.js' },
    ],
  },
  {
    // PouchDB and its plugins (~50 CommonJS modules, spark-md5's self-test): only sync uses them.
    file: 'lib/background/sync/pouch-loader.ts',
    keep: 'keepPouchScript',
    loaders: [
      {
        loader: 'loadPouch',
        module: './lib/background/sync/pouch-library.ts',
        exportName: 'pouchWithPlugins',
        script: 'lazy/pouchdb.js',
        packages: [
          'pouchdb-core',
          'pouchdb-adapter-http',
          'pouchdb-adapter-idb',
          'pouchdb-replication',
          'pouchdb-utils',
          'transform-pouch',
          'spark-md5',
        ],
      },
    ],
  },
  {
    // fflate (6 KB) stays inline in every build.
    file: 'lib/importers/fflate-loader.ts',
    loaders: [{ loader: 'loadUnzipSync', module: 'fflate', exportName: 'unzipSync' }],
  },
  {
    // gpt-tokenizer's GptEncoding (22 KB; its module code compiles Unicode-class regular
    // expressions): inline in every build, run on the first OpenAI count of a life.
    file: 'lib/context/tokenizer-loader.ts',
    loaders: [
      {
        loader: 'loadGptEncoding',
        module: 'gpt-tokenizer/GptEncoding',
        exportName: 'GptEncoding',
        packages: ['gpt-tokenizer'],
      },
    ],
  },
];

/**
 * `inline`: each library in its loader's body (any background context). `scripts`: loaders with a
 * `script` load it with `importScripts()` (a classic service worker: the Chromium MV3 build).
 */
export type LazyMode = 'inline' | 'scripts';

/**
 * The prefix of a generated module's id. A loader file is resolved to `\0baton-lazy:<file>`, a
 * virtual module by Rollup's convention, so no other plugin transforms it: its loader bodies are
 * bundled libraries (node_modules code), and the auto-import transform in particular, applied to a
 * minified library, took a local variable (`var a=5,X="document-store"`) for a free identifier and
 * imported a UI component (and Preact) into the worker.
 */
const VIRTUAL_PREFIX = '\0baton-lazy:';

/** A module id without its query and without the virtual prefix of a generated module. */
const fileOf = (id: string): string => id.split('?')[0]!.replace(VIRTUAL_PREFIX, '');

/** The global a lazy script assigns its exports to (`{ value }`). */
export const scriptGlobal = (lazy: LazyLoader): string => `__batonLazy_${lazy.loader}`;

/** A loader's body in `background.js` larger than this holds a library (an SDK is hundreds of KB). */
const MAX_SCRIPT_LOADER_BYTES = 2_000;

/** The name esbuild's IIFE assigns the library's exports to, local to the loader's body. */
const GLOBAL_NAME = '__batonLazy';

/**
 * One library as a browser IIFE (`var __batonLazy = (() => { … })();`), resolved from `resolveDir`
 * with the browser conditions (the same files Vite would bundle for the worker).
 */
async function bundleLibrary(
  lazy: LazyLoader,
  resolveDir: string,
  minify: boolean,
  globalName = GLOBAL_NAME,
): Promise<string> {
  const result = await build({
    stdin: { contents: `export { ${lazy.exportName} as value } from '${lazy.module}';`, resolveDir, loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'es2022',
    minify,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`lazy-modules: esbuild wrote nothing for ${lazy.module}`);
  return file.text;
}

/**
 * A lazy script of the scripts mode: the library as an IIFE assigning `{ value }` to its
 * {@link scriptGlobal} (a top-level `var` of a classic script: a property of the worker's global).
 */
export function lazyScript(resolveDir: string, lazy: LazyLoader, minify = true): Promise<string> {
  return bundleLibrary(lazy, resolveDir, minify, scriptGlobal(lazy));
}

/**
 * The module that stands in for a loader file. Inline mode: per loader, a memo and a function that,
 * on its first call, runs the bundled library inside its own body and keeps the export. Scripts mode,
 * for a loader with a `script`: the function returns the library's global, importing the script
 * first (synchronously) when this life of the worker has not; and `keep` imports every script while
 * the worker is evaluated for installation (`self.serviceWorker.state === 'parsed'`), which is what
 * lets Chromium import them again in later lives (where `self.serviceWorker` is missing, on every
 * start: the install is then among them).
 */
export async function lazyLoaderModule(
  resolveDir: string,
  loaders: readonly LazyLoader[],
  minify = true,
  mode: LazyMode = 'inline',
  keep?: string,
): Promise<string> {
  const scripted = (lazy: LazyLoader) => mode === 'scripts' && lazy.script !== undefined;
  const parts = await Promise.all(
    loaders.map(async (lazy) => {
      // The memo's key is the loader's name: a property name survives minification, so the built
      // worker still shows where each loader's body is (loaderBodies, bench/bundle.ts).
      if (scripted(lazy)) {
        const g = `globalThis.${scriptGlobal(lazy)}`;
        return [
          `export function ${lazy.loader}() {`,
          `  if (memo.${lazy.loader} === undefined) {`,
          `    if (${g} === undefined) importScripts(${JSON.stringify('/' + lazy.script)});`,
          `    memo.${lazy.loader} = ${g}.value;`,
          `  }`,
          `  return memo.${lazy.loader};`,
          `}`,
        ].join('\n');
      }
      const code = await bundleLibrary(lazy, resolveDir, minify);
      return [
        `export function ${lazy.loader}() {`,
        `  if (memo.${lazy.loader} === undefined) {`,
        code,
        `    memo.${lazy.loader} = ${GLOBAL_NAME}.value;`,
        `  }`,
        `  return memo.${lazy.loader};`,
        `}`,
      ].join('\n');
    }),
  );
  if (keep) {
    const scripts = loaders.filter(scripted).map((l) => JSON.stringify('/' + l.script));
    parts.push(
      scripts.length === 0
        ? `export function ${keep}() {}`
        : [
            `export function ${keep}() {`,
            // A browser without self.serviceWorker (older Chromium) cannot tell an install
            // evaluation from a later one: it imports every script on every start, slower but safe.
            `  const state = self.serviceWorker?.state;`,
            `  if (state !== undefined && state !== 'parsed') return;`,
            `  try {`,
            `    importScripts(${scripts.join(', ')});`,
            `  } catch (error) {`,
            `    console.error('Baton: a lazy script failed at install', error);`,
            `  }`,
            `}`,
          ].join('\n'),
    );
  }
  return `// Generated by scripts/lazy-modules.ts.\nconst memo = {};\n${parts.join('\n')}\n`;
}

/** The loader files' names without their extension (`pouch-loader`): what an import of one ends with. */
const LOADER_STEMS = new Set(LAZY_MODULES.map((m) => path.basename(m.file).replace(/\.ts$/, '')));

/** Every loader of {@link LAZY_MODULES}. */
export const ALL_LOADERS: readonly LazyLoader[] = LAZY_MODULES.flatMap((m) => m.loaders);

/**
 * The loaders found in a built script and the size of each one's function (its source length, in
 * UTF-16 code units: bytes, the worker's script being ASCII): the innermost function that assigns
 * the loader's memo (`….loadOpenAI = …`). A loader missing from the result was not generated into
 * this script.
 */
export function loaderBodies(code: string, loaders: readonly LazyLoader[] = ALL_LOADERS): Map<string, number> {
  const names = new Set(loaders.map((l) => l.loader));
  const found = new Map<string, number>();
  type Node = { type?: string; start: number; end: number; [key: string]: unknown };
  const isFunction = (t?: string) =>
    t === 'FunctionDeclaration' || t === 'FunctionExpression' || t === 'ArrowFunctionExpression';
  const visit = (node: unknown, fn: Node | undefined): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, fn);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as Node;
    const inner = isFunction(n.type) ? n : fn;
    if (n.type === 'AssignmentExpression' && fn) {
      const left = n.left as { type?: string; computed?: boolean; property?: { name?: string; value?: unknown } };
      const key =
        left.type === 'MemberExpression' ? (left.computed ? left.property?.value : left.property?.name) : undefined;
      if (typeof key === 'string' && names.has(key) && !found.has(key)) found.set(key, fn.end - fn.start);
    }
    for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value, inner);
  };
  visit(parseAst(code), undefined);
  return found;
}

/**
 * Why a built worker chunk shows a loader that was not transformed: a loader file the plugin did not
 * serve (moved, renamed, or imported under another path) or a lazy library bundled as a module of
 * the chunk, so that it runs when the worker starts. Empty when every loader is in place.
 */
export function untransformedLoaders(moduleIds: readonly string[], served: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const ids = moduleIds.map(fileOf);
  for (const m of LAZY_MODULES) {
    const file = path.join(ROOT, m.file);
    if (!ids.includes(file)) problems.push(`${m.file} is not in the worker's bundle (moved or renamed?)`);
    else if (!served.has(file)) problems.push(`${m.file} was bundled as written, not as generated loaders`);
  }
  for (const lazy of ALL_LOADERS) {
    const local = lazy.module.startsWith('./');
    if (local && ids.includes(path.join(ROOT, lazy.module)))
      problems.push(`${lazy.module.slice(2)} is a module of the worker's bundle, run at start-up`);
    for (const pkg of lazy.packages ?? (local ? [] : [lazy.module])) {
      const dir = `${path.sep}node_modules${path.sep}${pkg.split('/').join(path.sep)}${path.sep}`;
      const top = ids.find((id) => id.includes(dir));
      if (top)
        problems.push(`${pkg} is a module of the worker's bundle, run at start-up (${path.relative(ROOT, top)})`);
    }
  }
  return problems;
}

/**
 * Preact in the worker's bundle: UI code, which the worker never runs but whose module code would
 * run at every start (and which holds an `innerHTML` assignment that Firefox's linter rejects).
 * Empty when none of its modules is there.
 */
export function uiModulesInWorker(moduleIds: readonly string[]): string[] {
  const dir = `${path.sep}node_modules${path.sep}preact${path.sep}`;
  const top = moduleIds.map(fileOf).find((id) => id.includes(dir));
  return top ? [`preact is a module of the worker's bundle (${path.relative(ROOT, top)})`] : [];
}

/**
 * What the scripts mode adds to the build check of the worker's chunk: a scripted loader whose
 * function is larger than a loader that imports a script (the library is inline again), or is
 * missing from the chunk. Empty when the mode is in place. (The plugin also checks, once written,
 * that each script is in the output.) `loaders`: the loaders to look for (default: all).
 */
export function scriptModeProblems(code: string, loaders: readonly LazyLoader[] = ALL_LOADERS): string[] {
  const problems: string[] = [];
  const scripted = loaders.filter((l) => l.script !== undefined);
  const bodies = loaderBodies(code, scripted);
  for (const lazy of scripted) {
    const bytes = bodies.get(lazy.loader);
    if (bytes === undefined) problems.push(`${lazy.loader} is not in the worker's chunk`);
    else if (bytes > MAX_SCRIPT_LOADER_BYTES)
      problems.push(`${lazy.loader} holds ${bytes} bytes in the worker's chunk (its library, not an importScripts)`);
  }
  return problems;
}

/**
 * The Vite plugin: serves {@link lazyLoaderModule} in place of each file of {@link LAZY_MODULES},
 * in `mode`, writes the lazy scripts beside the worker in the scripts mode, and fails the build when
 * the worker's chunk (`background.js`) shows any loader not transformed ({@link untransformedLoaders},
 * {@link scriptModeProblems}), so a library cannot slide back into the worker's start-up unnoticed.
 */
export function lazyModules(options: { mode?: LazyMode; workerChunk?: string } = {}): Plugin {
  const { mode = 'inline', workerChunk = 'background.js' } = options;
  const byPath = new Map(LAZY_MODULES.map((m) => [path.join(ROOT, m.file), m]));
  const generated = new Map<string, Promise<string>>();
  const served = new Set<string>();
  const servedIds = new Set<string>();
  let workerBuild = false;
  return {
    name: 'baton-lazy-modules',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      // Only an import whose last segment names a loader file can resolve to one.
      if (!LOADER_STEMS.has(path.basename(source).replace(/\.[cm]?[jt]s$/, ''))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const file = resolved && !resolved.external ? resolved.id.split('?')[0]! : undefined;
      return file && byPath.has(file) ? VIRTUAL_PREFIX + file : null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL_PREFIX)) return null;
      const file = fileOf(id);
      const m = byPath.get(file);
      if (!m) return null;
      served.add(file);
      servedIds.add(id);
      let code = generated.get(file);
      if (!code) generated.set(file, (code = lazyLoaderModule(ROOT, m.loaders, true, mode, m.keep)));
      return code;
    },
    async generateBundle(_options, bundle) {
      const chunk = bundle[workerChunk];
      if (!chunk || chunk.type !== 'chunk') return;
      const problems = [...untransformedLoaders(chunk.moduleIds, served), ...uiModulesInWorker(chunk.moduleIds)];
      // A generated module imports nothing: an import there was added by another plugin.
      for (const id of servedIds) {
        const imported = this.getModuleInfo(id)?.importedIds ?? [];
        if (imported.length > 0)
          problems.push(
            `${path.relative(ROOT, fileOf(id))}'s generated loaders import ${imported.map((i) => path.relative(ROOT, fileOf(i))).join(', ')}`,
          );
      }
      if (mode === 'scripts') {
        for (const lazy of ALL_LOADERS) {
          if (lazy.script === undefined) continue;
          this.emitFile({ type: 'asset', fileName: lazy.script, source: await lazyScript(ROOT, lazy) });
        }
        problems.push(...scriptModeProblems(chunk.code));
        workerBuild = true;
      }
      if (problems.length > 0) this.error(`lazy-modules: ${workerChunk}: ${problems.join('; ')}`);
    },
    writeBundle(outputOptions) {
      // The scripts the worker imports must be in the extension beside it (non-empty files).
      if (!workerBuild || !outputOptions.dir) return;
      const dir = outputOptions.dir;
      const missing = ALL_LOADERS.filter(
        (l) => l.script !== undefined && !(fs.statSync(path.join(dir, l.script), { throwIfNoEntry: false })?.size ?? 0),
      ).map((l) => `${l.script} was not written`);
      if (missing.length > 0) this.error(`lazy-modules: ${workerChunk}: ${missing.join('; ')}`);
    },
  };
}
