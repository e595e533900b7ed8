/**
 * The Firefox build (docs/side-panel.md, "Firefox"): `wxt build -b firefox` into the e2e build folder
 * (`BATON_OUT_DIR`, default `.output/`), then Mozilla's linter (`web-ext lint --output json`,
 * the dev dependency) on it: no errors, and only the four known warnings, all from libraries —
 * `innerHTML` assignments in Preact (`dangerouslySetInnerHTML`, which Baton never uses), DOMPurify
 * (its HTML parsing fallback) and the lazily loaded highlighting and math chunk (the libraries
 * there, whose output is sanitised again before it is shown), and `Function('')` in background.js, zod 4's probe for
 * whether eval is allowed (never called: the extension sets `z.config({ jitless: true })`), and
 * PDF.js's eval probe and `import(url)` of its packaged worker (see `KNOWN_WARNINGS`). The
 * manifest is MV2 with a `sidebar_action` (the side panel as a sidebar) and a gecko id.
 * Plain Node, no browser; `BATON_E2E_SKIP_BUILD=1` reuses an existing Firefox build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUT_DIR, ROOT } from './paths';

const FIREFOX_DIR = path.join(OUT_DIR, 'firefox-mv2');
const WEB_EXT = path.join(ROOT, 'node_modules/.bin/web-ext');

interface LintMessage {
  code: string;
  message: string;
  file?: string;
  line?: number;
}
interface LintReport {
  count: number;
  summary: { errors: number; warnings: number; notices: number };
  errors: LintMessage[];
  warnings: LintMessage[];
  notices: LintMessage[];
}

/** The lint warnings Baton's Firefox build is known to have, all inside bundled libraries (see the file comment). */
const KNOWN_WARNINGS: { code: string; file: RegExp; message: RegExp }[] = [
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/[\w-]+\.js$/, message: /innerHTML/ },
  { code: 'DANGEROUS_EVAL', file: /^background\.js$/, message: /Function constructor/ },
  // Readability (Add this page) resets its working copy's innerHTML; it runs on a clone of the tab's
  // document, never the page itself (docs/side-panel.md#add-this-page).
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^page-reader\.js$/, message: /innerHTML/ },
  // PDF.js (Add this page on a PDF, docs/side-panel.md#add-this-page), in its lazy chunk and its
  // packaged worker: `new Function('')`, its probe for whether eval is allowed, and the PostScript
  // function compiler behind it, never reached (Baton passes `isEvalSupported: false`, and the
  // extension's CSP forbids eval); `import(url)` of its own worker and modules, URLs Baton sets to
  // packaged files.
  {
    code: 'DANGEROUS_EVAL',
    file: /^(chunks\/pdf-reader-[\w-]+\.js|pdfjs\/pdf\.worker\.min\.mjs)$/,
    message: /Function constructor/,
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    file: /^(chunks\/pdf-reader-[\w-]+\.js|pdfjs\/pdf\.worker\.min\.mjs)$/,
    message: /Unsafe call to import/,
  },
];

const hasWebExt = fs.existsSync(WEB_EXT);
if (!hasWebExt) console.warn('skipping firefox.e2e.ts: node_modules/.bin/web-ext not found (npm ci)');

describe.skipIf(!hasWebExt)('the Firefox build', () => {
  let report: LintReport;
  let manifest: Record<string, unknown>;

  beforeAll(() => {
    if (process.env.BATON_E2E_SKIP_BUILD !== '1' || !fs.existsSync(path.join(FIREFOX_DIR, 'manifest.json'))) {
      const { BATON_TEST_BUILD: _drop, ...env } = process.env;
      const b = spawnSync('npx', ['wxt', 'build', '-b', 'firefox'], {
        cwd: ROOT,
        env: { ...env, BATON_OUT_DIR: OUT_DIR },
        encoding: 'utf8',
      });
      if (b.status !== 0) throw new Error(`firefox build failed (exit ${b.status}):\n${b.stdout}\n${b.stderr}`);
    }
    manifest = JSON.parse(fs.readFileSync(path.join(FIREFOX_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const r = spawnSync(
      WEB_EXT,
      ['lint', '--source-dir', FIREFOX_DIR, '--output', 'json', '--no-config-discovery', '--boring'],
      { cwd: ROOT, encoding: 'utf8', timeout: 280_000 },
    );
    if (r.error) throw r.error;
    report = JSON.parse(r.stdout) as LintReport;
  }, 300_000);

  it('web-ext lint: 0 errors', () => {
    expect(report.errors.map((e) => `${e.code} ${e.file ?? ''}:${e.line ?? ''} ${e.message}`)).toEqual([]);
    expect(report.summary.errors).toBe(0);
  });

  it("web-ext lint: only the known library warnings (innerHTML in Preact / DOMPurify, zod's and PDF.js's eval probes)", () => {
    const unknown = report.warnings.filter(
      (w) => !KNOWN_WARNINGS.some((k) => k.code === w.code && k.file.test(w.file ?? '') && k.message.test(w.message)),
    );
    expect(unknown.map((w) => `${w.code} ${w.file ?? ''}:${w.line ?? ''} ${w.message}`)).toEqual([]);
    expect(report.warnings.length).toBeLessThanOrEqual(12);
  });

  it('the manifest is MV2 with the side panel as a sidebar_action, a gecko id, and no Chrome-only keys', () => {
    expect(manifest.manifest_version).toBe(2);
    // No browser styles (MV2 turns them on by default): the page's own base.css sets its type scale.
    expect(manifest.sidebar_action).toEqual({
      default_panel: 'sidepanel.html',
      default_title: 'Baton',
      browser_style: false,
    });
    expect(manifest.options_ui).toMatchObject({ page: 'options.html', browser_style: false });
    expect(fs.existsSync(path.join(FIREFOX_DIR, 'sidepanel.html'))).toBe(true);
    expect((manifest.browser_specific_settings as { gecko?: { id?: string } }).gecko?.id).toMatch(/^[\w.-]+@[\w.-]+$/);
    for (const key of ['side_panel', 'externally_connectable', 'optional_host_permissions', 'host_permissions'])
      expect(manifest).not.toHaveProperty(key);
    expect(manifest.permissions).not.toContain('sidePanel');
  });
});
