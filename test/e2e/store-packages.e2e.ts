/**
 * Store packages (docs/side-panel.md, item 6): `npm run zip` builds the Chrome and Firefox packages into a
 * scratch folder (`BATON_OUT_DIR`); each zip holds a manifest whose icons (16, 32, 48, 128 px) are
 * present at their stated sizes, the Chrome toolbar button has them too, the options page opens
 * in a tab, the name and description fit the stores' limits, and Mozilla's linter (`web-ext lint`,
 * the dev dependency) finds no error and only the known library warnings (see firefox.e2e.ts).
 * Plain Node, no browser.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './paths';

const WEB_EXT = path.join(ROOT, 'node_modules/.bin/web-ext');
const SIZES = ['16', '32', '48', '128'];

/** Width and height of a PNG, from its IHDR chunk. @throws when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): [number, number] {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((b, i) => bytes[i] === b)) throw new Error('not a PNG');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [v.getUint32(16), v.getUint32(20)];
}

interface Pkg {
  files: Record<string, Uint8Array>;
  manifest: Record<string, unknown> & { icons?: Record<string, string> };
}

describe('npm run zip: store packages', () => {
  let out: string;
  const pkgs: Record<'chrome' | 'firefox', Pkg> = {} as never;

  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-zip-'));
    const { BATON_TEST_BUILD: _drop, ...env } = process.env;
    const r = spawnSync('npm', ['run', 'zip'], {
      cwd: ROOT,
      env: { ...env, BATON_OUT_DIR: out },
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (r.status !== 0) throw new Error(`npm run zip failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    for (const browser of ['chrome', 'firefox'] as const) {
      const zip = fs.readdirSync(out).find((f) => f.endsWith(`-${browser}.zip`));
      if (!zip) throw new Error(`no ${browser} package in ${fs.readdirSync(out).join(', ')}`);
      const files = unzipSync(new Uint8Array(fs.readFileSync(path.join(out, zip))));
      pkgs[browser] = {
        files,
        manifest: JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Pkg['manifest'],
      };
    }
  }, 600_000);
  afterAll(() => {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it.each(['chrome', 'firefox'] as const)(
    '%s: the manifest icons are in the package at their sizes; name and description fit the stores',
    (browser) => {
      const { files, manifest } = pkgs[browser];
      expect(Object.keys(manifest.icons ?? {}).sort()).toEqual([...SIZES].sort());
      for (const size of SIZES) {
        const file = manifest.icons![size]!;
        expect(files[file], `${browser} ${file}`).toBeDefined();
        expect(pngSize(files[file]!)).toEqual([Number(size), Number(size)]);
      }
      expect((manifest.name as string).length).toBeLessThanOrEqual(45);
      expect((manifest.description as string).length).toBeLessThanOrEqual(132);
      expect(manifest.options_ui).toMatchObject({ open_in_tab: true });
    },
  );

  it('chrome: the toolbar button has the icon set', () => {
    const action = pkgs.chrome.manifest.action as { default_icon?: Record<string, string> };
    expect(action.default_icon).toEqual(pkgs.chrome.manifest.icons);
  });

  it('firefox: web-ext lint finds no error and only the known library warnings', () => {
    const dir = path.join(out, 'firefox-unzipped');
    for (const [name, bytes] of Object.entries(pkgs.firefox.files)) {
      if (name.endsWith('/')) continue;
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes);
    }
    const r = spawnSync(
      WEB_EXT,
      ['lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery', '--boring'],
      { cwd: ROOT, encoding: 'utf8', timeout: 280_000 },
    );
    if (r.error) throw r.error;
    const report = JSON.parse(r.stdout) as {
      errors: { code: string; message: string; file?: string }[];
      warnings: { code: string; message: string; file?: string }[];
    };
    expect(report.errors.map((e) => `${e.code} ${e.file ?? ''} ${e.message}`)).toEqual([]);
    const known = (w: { code: string; message: string; file?: string }) =>
      (w.code === 'UNSAFE_VAR_ASSIGNMENT' &&
        /^chunks\/[\w-]+\.js$/.test(w.file ?? '') &&
        /innerHTML/.test(w.message)) ||
      (w.code === 'DANGEROUS_EVAL' && w.file === 'background.js' && /Function constructor/.test(w.message)) ||
      // Readability (Add this page) works on a clone of the tab's document, never the page itself.
      (w.code === 'UNSAFE_VAR_ASSIGNMENT' && w.file === 'page-reader.js' && /innerHTML/.test(w.message)) ||
      // PDF.js (Add this page on a PDF): its never-reached eval probe and import() of its packaged worker.
      (/^(chunks\/pdf-reader-[\w-]+\.js|pdfjs\/pdf\.worker\.min\.mjs)$/.test(w.file ?? '') &&
        ((w.code === 'DANGEROUS_EVAL' && /Function constructor/.test(w.message)) ||
          (w.code === 'UNSAFE_VAR_ASSIGNMENT' && /Unsafe call to import/.test(w.message))));
    expect(report.warnings.filter((w) => !known(w)).map((w) => `${w.code} ${w.file ?? ''} ${w.message}`)).toEqual([]);
  }, 300_000);
});
