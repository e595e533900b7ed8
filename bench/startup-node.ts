/**
 * The worker's start-up in Node (bench/README.md, "Service-worker start-up"): a built `background.js`
 * compiled (`vm.Script`, no code cache) and its top level run in a fresh Node process with a stub
 * `chrome`, for several builds in interleaved rounds, so a before/after comparison shares the
 * machine's load. CPU ms of the compile and of the top-level run; medians and ranges per build.
 *
 *   node --import tsx bench/startup-node.ts <build dir> [<build dir> …] [--runs 7] [--modules 0] [--top 25]
 *
 * `--modules 1` (an unminified build, whose module comments `// lib/…`, `// node_modules/…` mark
 * where each module's top-level statements begin: `npx wxt build -c bench/startup-unminified.config.ts`):
 * a timing call is put before each module's statements and the wall ms of each module's top level is
 * printed (median over the runs), by package or folder and by module; `main()` (the entrypoint's
 * `registerBackground` and the rest) is the last, virtual module.
 *
 * The stub answers every extension API with a function returning a resolved promise; the database
 * is `fake-indexeddb`, loaded before the timed part (so its open, pure JavaScript here, weighs more
 * than a browser's). What it leaves out: Chromium's thread and isolate start, reading and decoding
 * the script, the code cache and the extension API bindings (see `startup-floor.ts`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAbArgs } from './ab';
import { median } from './harness';

/** One child's figures: CPU ms of the compile and of the run; with `--modules 1`, wall ms per module. */
interface ChildResult {
  compileMs: number;
  runMs: number;
  modules?: Record<string, number>;
}

/**
 * What each child runs (plain ESM, no loader): the stub, then the compile and the run of the script
 * (`argv`: file, "1" to time modules, the project root), timed with `process.cpuUsage`.
 */
const CHILD = String.raw`
import fs from 'node:fs';
import vm from 'node:vm';
import { createRequire } from 'node:module';
const [file, timeModules, root] = process.argv.slice(-3);
createRequire(root + '/package.json')('fake-indexeddb/auto');
const api = (name) => new Proxy(function () {}, {
  get(_t, key) {
    if (key === 'then' || typeof key === 'symbol') return undefined;
    if (name === 'runtime' && key === 'id') return 'abcdefghijklmnopabcdefghijklmnop';
    if (name === 'runtime' && key === 'getURL') return (p) => 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' + p;
    return api(String(key));
  },
  apply: () => Promise.resolve(undefined),
});
globalThis.chrome = api('chrome');
globalThis.self = globalThis;
// A wake, not an install: the worker imports no lazy script (scripts/lazy-modules.ts).
globalThis.serviceWorker = { state: 'activated' };
process.on('unhandledRejection', () => undefined);
// Node sets up performance.now() on its first call (milliseconds); the test build's marks call it.
performance.now();
let src = fs.readFileSync(file, 'utf8');
const times = {};
let current = '(compiled)';
let last = performance.now();
globalThis.__batonModule = (name) => {
  const now = performance.now();
  times[current] = (times[current] ?? 0) + now - last;
  current = name;
  last = performance.now();
};
if (timeModules === '1')
  src = src.replace(/^\t\/\/ (\S+)[ \t]*$/gm, (line, name) => '\t__batonModule(' + JSON.stringify(name) + ');\n' + line);
const usage = process.cpuUsage.bind(process);
const cpu = () => { const u = usage(); return (u.user + u.system) / 1000; };
// A worker has no process: libraries that look for Node (gpt-tokenizer's rank loader) must not find it.
const nodeProcess = globalThis.process;
const hide = (v) => Object.defineProperty(globalThis, 'process', { value: v, configurable: true, writable: true });
let t = cpu();
const script = new vm.Script(src, { filename: 'background.js' });
const compileMs = cpu() - t;
__batonModule('(top of the script)');
t = cpu();
hide(undefined);
script.runInThisContext();
hide(nodeProcess);
const runMs = cpu() - t;
__batonModule('(end)');
delete times['(compiled)'];
const modules = timeModules === '1' ? times : undefined;
process.stdout.write(JSON.stringify({ compileMs, runMs, modules }) + '\n');
process.exit(0);
`;

/** A module's display name: the package path without `node_modules/`, the build's virtual ids shortened. */
function moduleName(raw: string): string {
  return raw
    .replace(/^node_modules\//, '')
    .replace(/^\\0baton-lazy:.*?\/lib\//, 'lazy loader: lib/')
    .replace(/^\\0virtual:wxt-background-entrypoint.*/, 'main() (the entrypoint: registerBackground, the rest)');
}

/** The package of a module (`zod/v4/core/core.js` → `zod`), or the first two folders for ours. */
function packageOf(module: string): string {
  if (/^(lib|entrypoints|components)\//.test(module)) return module.split('/').slice(0, 2).join('/');
  if (!module.includes('/')) return module;
  const parts = module.split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

const { dirs, flags } = parseAbArgs('startup-node.ts', { runs: 7, modules: 0, top: 25 });
const root = path.resolve('.');
const scriptOf = (dir: string) => (fs.statSync(dir).isDirectory() ? path.join(dir, 'background.js') : dir);
const results = new Map<string, ChildResult[]>(dirs.map((d) => [d, []]));
for (let r = 0; r < flags.runs; r++) {
  for (const dir of dirs) {
    const file = scriptOf(dir);
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, file, String(flags.modules), root], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{'))
      throw new Error(
        `startup-node: ${file} failed (exit ${child.status}): ${child.stderr.trim().split('\n').slice(-5).join(' / ')}`,
      );
    results.get(dir)!.push(JSON.parse(line) as ChildResult);
  }
}

const fmt = (xs: number[]) => `${median(xs).toFixed(1)} [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]`;
const table = (rows: Map<string, number[]>) =>
  [...rows]
    .map(([k, xs]) => [k, median(xs)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, flags.top)
    .map(([k, v]) => `    ${v.toFixed(2).padStart(7)} ms  ${k}`)
    .join('\n');
console.log(
  `load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}; CPU ms, median [range] of ${flags.runs} runs`,
);
for (const dir of dirs) {
  const rs = results.get(dir)!;
  const name = `${path.basename(path.dirname(dir))}/${path.basename(dir)}`;
  console.log(
    `${name}: compile ${fmt(rs.map((x) => x.compileMs))} ms, top-level run ${fmt(rs.map((x) => x.runMs))} ms`,
  );
  if (!flags.modules) continue;
  // Per run, each module's and each package's wall ms (0 when a run did not reach it), then medians.
  const byModule = new Map<string, number[]>();
  const byPackage = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, i: number, ms: number) => {
    const xs = m.get(k) ?? Array<number>(rs.length).fill(0);
    xs[i] = (xs[i] ?? 0) + ms;
    m.set(k, xs);
  };
  rs.forEach((r, i) => {
    for (const [raw, ms] of Object.entries(r.modules ?? {})) {
      const m = moduleName(raw);
      add(byModule, m, i, ms);
      add(byPackage, packageOf(m), i, ms);
    }
  });
  console.log(`  by package or folder (wall ms):\n${table(byPackage)}`);
  console.log(`  by module (wall ms):\n${table(byModule)}`);
}
