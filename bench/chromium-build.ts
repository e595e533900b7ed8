/**
 * The Baton test build the Chromium benchmarks load (`BATON_TEST_BUILD=1 npx wxt build`, into
 * `<BATON_OUT_DIR or .output>/chrome-mv3-test`): it exposes `globalThis.batonReady` and
 * `globalThis.batonStartup` in the service worker and `globalThis.batonBench` (the markdown
 * renderers) in the side panel. Rebuilt when missing or older than any source file, so a stale
 * build never yields stale figures.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The test build folder (absolute), as `test/e2e/paths.ts` computes it. */
export const TEST_BUILD_DIR = path.join(path.resolve(ROOT, process.env.BATON_OUT_DIR ?? '.output'), 'chrome-mv3-test');
/** Folders and files whose changes make the build stale. */
const SOURCES = ['entrypoints', 'components', 'lib', 'public', 'assets', 'wxt.config.ts', 'package.json'];

/**
 * Whether a build made at `builtMs` (epoch ms; undefined when there is none) is older than the
 * newest of `sourceMtimesMs` (epoch ms).
 */
export function isStale(builtMs: number | undefined, sourceMtimesMs: Iterable<number>): boolean {
  if (builtMs === undefined) return true;
  for (const m of sourceMtimesMs) if (m > builtMs) return true;
  return false;
}

/** Modification times (epoch ms) of every file under `paths` (relative to the project root), tests excluded. */
function* sourceMtimes(paths: readonly string[]): Generator<number> {
  for (const rel of paths) {
    const abs = path.join(ROOT, rel);
    if (!fs.existsSync(abs)) continue;
    const stat = fs.statSync(abs);
    if (stat.isFile()) {
      yield stat.mtimeMs;
      continue;
    }
    for (const entry of fs.readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || /\.test\.tsx?$/.test(entry.name)) continue;
      yield fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs;
    }
  }
}

/** The test build's folder, building it first when missing or stale. Never throws: a failure is a note. */
export function ensureTestBuild(
  progress: (line: string) => void,
): { ok: true; dir: string; built: boolean } | { ok: false; note: string } {
  const manifest = path.join(TEST_BUILD_DIR, 'manifest.json');
  const builtMs = fs.existsSync(manifest) ? fs.statSync(manifest).mtimeMs : undefined;
  if (!isStale(builtMs, sourceMtimes(SOURCES))) return { ok: true, dir: TEST_BUILD_DIR, built: false };
  progress(
    `  ${path.relative(ROOT, TEST_BUILD_DIR)} ${builtMs === undefined ? 'missing' : 'older than the sources'}: BATON_TEST_BUILD=1 npx wxt build`,
  );
  const r = spawnSync('npx', ['wxt', 'build'], {
    cwd: ROOT,
    env: { ...process.env, BATON_TEST_BUILD: '1' },
    encoding: 'utf8',
    stdio: 'pipe',
  });
  if (r.status !== 0)
    return {
      ok: false,
      note: `test build failed (exit ${r.status}): ${`${r.stderr}${r.stdout}`.trim().split('\n').slice(-3).join(' / ')}`,
    };
  if (!fs.existsSync(manifest)) return { ok: false, note: `test build left no ${manifest}` };
  return { ok: true, dir: TEST_BUILD_DIR, built: true };
}
