/**
 * Scenario 7 (plain Node, no browser): the PRODUCTION manifest `.output/chrome-mv3/manifest.json`
 * has exactly the three provider origins, the optional host permissions for custom endpoints,
 * `externally_connectable` with empty ids, the CSP of R4 and no loopback origin outside the
 * optional permissions (R4, N1, M4); the test build differs only by `http://127.0.0.1/*`. Both
 * builds come from the global setup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROD_BUILD_DIR, TEST_BUILD_DIR } from './paths';

interface Manifest {
  permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  optional_permissions?: string[];
  externally_connectable?: Record<string, unknown>;
  content_security_policy?: { extension_pages?: string; sandbox?: string };
  content_scripts?: { matches: string[]; all_frames?: boolean }[];
  web_accessible_resources?: unknown[];
  incognito?: string;
  [k: string]: unknown;
}

const read = (dir: string): Manifest =>
  JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

/** Every `.js` file of a build, concatenated. */
function bundleText(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}

/** A CSP as `directive → sorted sources`. */
function parseCsp(csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of csp
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, ...sources] = part.split(/\s+/);
    out[name!] = sources.sort();
  }
  return out;
}

const PROVIDER_ORIGINS = [
  'https://api.openai.com/*',
  'https://api.anthropic.com/*',
  'https://generativelanguage.googleapis.com/*',
];
const CHAT_SITES = ['https://chatgpt.com/*', 'https://claude.ai/*', 'https://gemini.google.com/*'];
const LOOPBACK = /localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0/;

const has =
  fs.existsSync(path.join(PROD_BUILD_DIR, 'manifest.json')) &&
  fs.existsSync(path.join(TEST_BUILD_DIR, 'manifest.json'));
if (!has)
  console.warn(
    'skipping manifest.e2e.ts: .output/chrome-mv3 or chrome-mv3-test is missing (run without BATON_E2E_SKIP_BUILD=1)',
  );

describe.skipIf(!has)('the production manifest', () => {
  const prod = has ? read(PROD_BUILD_DIR) : ({} as Manifest);
  const test = has ? read(TEST_BUILD_DIR) : ({} as Manifest);

  it('N1 host_permissions are exactly the three provider API origins', () => {
    expect([...(prod.host_permissions ?? [])].sort()).toEqual([...PROVIDER_ORIGINS].sort());
  });

  it('N1 custom endpoints are optional host permissions, requested at runtime; no broad or file patterns, no request interception', () => {
    const optional = prod.optional_host_permissions ?? [];
    expect(optional).toContain('https://*/*');
    expect(optional).toEqual(expect.arrayContaining(['http://localhost/*', 'http://127.0.0.1/*']));
    for (const p of optional)
      expect(p, 'https anywhere, http only on this machine (N4)').toMatch(
        /^https:\/\/|^http:\/\/(localhost|127\.0\.0\.1|\[::1\])\//,
      );
    const all = [
      ...(prod.permissions ?? []),
      ...(prod.host_permissions ?? []),
      ...optional,
      ...(prod.optional_permissions ?? []),
    ];
    for (const bad of [
      '<all_urls>',
      'http://*/*',
      '*://*/*',
      'file://*/*',
      'webRequest',
      'webRequestBlocking',
      'declarativeNetRequest',
    ])
      expect(all).not.toContain(bad);
    expect(prod.permissions).toEqual(expect.arrayContaining(['storage', 'unlimitedStorage']));
  });

  it('N1 Add this page asks for activeTab and scripting, never for tabs or a host permission of its own', () => {
    // docs/security.md#reading-the-page-you-are-on: the page is read under the activeTab grant only.
    expect(prod.permissions).toEqual(expect.arrayContaining(['activeTab', 'scripting']));
    expect(prod.permissions).not.toContain('tabs');
    expect([...(prod.host_permissions ?? [])].sort()).toEqual([...PROVIDER_ORIGINS].sort());
    expect(prod.content_scripts?.flatMap((c) => c.matches).sort()).toEqual([...CHAT_SITES].sort());
  });

  it('N1 content scripts, if any, match exactly the three chat sites in the top frame only', () => {
    for (const cs of prod.content_scripts ?? []) {
      expect([...cs.matches].sort()).toEqual([...CHAT_SITES].sort());
      expect(cs.all_frames ?? false).toBe(false);
    }
  });

  it('M4 externally_connectable has empty ids and no matches; the bundle registers no external message or connect listener', () => {
    expect(prod.externally_connectable).toEqual({ ids: [] });
    const js = bundleText(PROD_BUILD_DIR);
    expect(js).not.toMatch(/onMessageExternal|onConnectExternal/);
  });

  it('R4 the extension pages CSP is exactly the required one', () => {
    const csp = parseCsp(prod.content_security_policy?.extension_pages ?? '');
    const scriptSrc = csp['script-src'] ?? [];
    expect(scriptSrc.filter((s) => s !== "'wasm-unsafe-eval'")).toEqual(["'self'"]);
    const { 'script-src': _s, ...rest } = csp;
    expect(rest).toEqual({
      'object-src': ["'none'"],
      'img-src': ["'self'", 'blob:', 'data:'],
      'frame-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
    });
  });

  it('R4 no loopback or dev-server origin anywhere but the optional host permissions (CSP, host permissions, web resources, content scripts)', () => {
    const { optional_host_permissions: _o, ...rest } = prod;
    expect(JSON.stringify(rest)).not.toMatch(LOOPBACK);
    expect(JSON.stringify(prod.content_security_policy)).not.toMatch(/ws:|wss:|http:/);
  });

  it('S1 the bundle never opens storage.session to content scripts; the test hook is not shipped', () => {
    const js = bundleText(PROD_BUILD_DIR);
    // eslint-disable-next-line no-restricted-syntax -- the test looks for the forbidden literal in the bundle
    expect(js).not.toContain('TRUSTED_AND_UNTRUSTED_CONTEXTS');
    expect(js).not.toContain('batonReady');
    expect(bundleText(TEST_BUILD_DIR)).toContain('batonReady');
  });

  it('N6 the extension opts out of incognito', () => {
    expect(prod.incognito).toBe('not_allowed');
  });

  it('the test build adds only http://127.0.0.1/* to host_permissions', () => {
    const { host_permissions: testHosts, ...testRest } = test;
    const { host_permissions: prodHosts, ...prodRest } = prod;
    expect(testRest).toEqual(prodRest);
    expect(testHosts).toEqual([...(prodHosts ?? []), 'http://127.0.0.1/*']);
  });
});
