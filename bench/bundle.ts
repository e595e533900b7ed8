/**
 * Bundle sizes (bench/README.md, "Bundle and start-up"): gzip sizes of the built Chrome MV3 extension's
 * background script, and of the side panel and options pages, each counted as its HTML plus
 * every file the page loads (scripts, module preloads, stylesheets) and every JS chunk those
 * import statically (the first load; chunks loaded with `import()` later are not counted), each
 * shared chunk counted in each page that loads it; and how much of the background script sits inside
 * the lazy loaders' bodies (scripts/lazy-modules.ts). Reads `<BATON_OUT_DIR or .output>/chrome-mv3`
 * (so a checkout's own build folder can be measured) and runs `npx wxt build` into it first when it is missing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loaderBodies } from '../scripts/lazy-modules';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT_DIR = path.join(path.resolve(ROOT, process.env.BATON_OUT_DIR ?? '.output'), 'chrome-mv3');

/** One bundle: its files and sizes in bytes. */
export interface BundleSize {
  name: 'background' | 'side panel' | 'options';
  files: string[];
  rawBytes: number;
  /** Sum of each file gzipped on its own (level 9), in bytes. */
  gzipBytes: number;
  /**
   * The worker only: raw bytes of `background.js` inside each lazy loader's function (compiled and
   * run on first use, not at start-up: scripts/lazy-modules.ts), by loader name.
   */
  loaderBytes?: Record<string, number>;
  /**
   * The worker only: the lazy scripts beside it (`lazy/*.js`, the Chromium build's SDKs, imported
   * at install and on first use: scripts/lazy-modules.ts), by file, raw and gzip bytes.
   */
  lazyScripts?: Record<string, { raw: number; gzip: number }>;
}

export type BundleResult = { ok: true; built: boolean; bundles: BundleSize[] } | { ok: false; note: string };

function gzipOf(file: string): { raw: number; gzip: number } {
  const bytes = fs.readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** Files an HTML page loads directly (src/href pointing into the extension). */
function htmlRefs(html: string): string[] {
  const refs: string[] = [];
  for (const m of html.matchAll(/\b(?:src|href)="([^"]+)"/g)) {
    const ref = m[1]!;
    if (/^(?:[a-z]+:)?\/\//i.test(ref) || ref.startsWith('data:')) continue;
    refs.push(ref.replace(/^\//, ''));
  }
  return refs;
}

/**
 * Relative static JS imports of a module, resolved against its own folder. Dynamic `import()`s are
 * not followed: they load on demand (highlighting and math, docs/side-panel.md), not with the page.
 */
function jsImports(file: string, code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g))
    out.push(path.join(path.dirname(file), m[1]!));
  return out;
}

function pageFiles(html: string): string[] {
  const seen = new Set<string>([html]);
  const queue = htmlRefs(fs.readFileSync(path.join(OUTPUT_DIR, html), 'utf8'));
  while (queue.length > 0) {
    const file = path.normalize(queue.shift()!);
    if (seen.has(file) || !fs.existsSync(path.join(OUTPUT_DIR, file))) continue;
    seen.add(file);
    if (file.endsWith('.js')) queue.push(...jsImports(file, fs.readFileSync(path.join(OUTPUT_DIR, file), 'utf8')));
  }
  return [...seen];
}

function sizeOf(name: BundleSize['name'], files: string[]): BundleSize {
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const f of files) {
    const s = gzipOf(path.join(OUTPUT_DIR, f));
    rawBytes += s.raw;
    gzipBytes += s.gzip;
  }
  return { name, files, rawBytes, gzipBytes };
}

/** Measures the three bundles, building the extension first if needed (never throws: failures become a note). */
export function benchBundles(progress: (line: string) => void = () => {}): BundleResult {
  let built = false;
  if (!fs.existsSync(path.join(OUTPUT_DIR, 'background.js'))) {
    progress(`  ${path.relative(ROOT, OUTPUT_DIR)} missing: running npx wxt build`);
    try {
      execFileSync('npx', ['wxt', 'build'], { cwd: ROOT, stdio: 'pipe' });
      built = true;
    } catch (e) {
      return { ok: false, note: `npx wxt build failed: ${(e as Error).message.split('\n')[0]}` };
    }
  }
  const missing = ['background.js', 'sidepanel.html', 'options.html'].filter(
    (f) => !fs.existsSync(path.join(OUTPUT_DIR, f)),
  );
  if (missing.length > 0)
    return { ok: false, note: `not in ${path.relative(ROOT, OUTPUT_DIR)}: ${missing.join(', ')}` };
  const background = sizeOf('background', ['background.js']);
  const code = fs.readFileSync(path.join(OUTPUT_DIR, 'background.js'), 'utf8');
  background.loaderBytes = Object.fromEntries(loaderBodies(code));
  const lazyDir = path.join(OUTPUT_DIR, 'lazy');
  if (fs.existsSync(lazyDir))
    background.lazyScripts = Object.fromEntries(
      fs
        .readdirSync(lazyDir)
        .filter((f) => f.endsWith('.js'))
        .sort()
        .map((f) => [`lazy/${f}`, gzipOf(path.join(lazyDir, f))]),
    );
  const bundles = [
    background,
    sizeOf('side panel', pageFiles('sidepanel.html')),
    sizeOf('options', pageFiles('options.html')),
  ];
  for (const b of bundles) progress(`  ${b.name}: ${(b.gzipBytes / 1024).toFixed(1)} KB gzip (${b.files.join(', ')})`);
  const lazy = Object.entries(background.loaderBytes).map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KB`);
  progress(`  background.js in lazy loader bodies: ${lazy.join(', ') || 'none'}`);
  const scripts = Object.entries(background.lazyScripts ?? {}).map(
    ([f, s]) => `${f} ${(s.gzip / 1024).toFixed(1)} KB gzip (raw ${(s.raw / 1024).toFixed(1)} KB)`,
  );
  progress(`  lazy scripts beside background.js: ${scripts.join(', ') || 'none'}`);
  return { ok: true, built, bundles };
}
