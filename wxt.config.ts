import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { asciiOnly } from './scripts/ascii-only';
import { lazyModules } from './scripts/lazy-modules';

/**
 * Provider API origins the production build may reach (security-requirements.md N1).
 * Anything else (OpenRouter, Ollama, a proxy) is an optional host permission granted at runtime.
 */
const PROVIDER_ORIGINS = [
  'https://api.openai.com/*',
  'https://api.anthropic.com/*',
  'https://generativelanguage.googleapis.com/*',
];

/** The only pages the capture content script runs on (security-requirements.md N1, M2). */
const CHAT_SITES = ['https://chatgpt.com/*', 'https://claude.ai/*', 'https://gemini.google.com/*'];

/** Endpoints a person may add (OpenRouter, a proxy, Ollama or LM Studio on this machine). */
const OPTIONAL_ORIGINS = ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'];

/**
 * The icon set (docs/side-panel.md): PNGs rendered from public/icon/baton.svg by scripts/icons.ts, a filled
 * tile readable on light and dark toolbars. Paths are relative to the package root.
 */
const ICONS = { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 128: 'icon/128.png' };

/** Test builds (BATON_TEST_BUILD=1) may also reach the fake providers on loopback. */
const TEST_BUILD = process.env.BATON_TEST_BUILD === '1';

/**
 * Where builds go: `.output/` unless `BATON_OUT_DIR` names another folder (so several checkouts or
 * developers can build and run the e2e suite side by side without overwriting each other's build).
 */
const OUT_DIR = process.env.BATON_OUT_DIR ?? '.output';

/**
 * The OpenAI tokenizers' rank tables as data files (`tokenizer/<encoding>.json`), fetched by the worker on
 * first use (lib/context/tokenizer-ranks.ts) instead of being parsed as JavaScript at every start-up
 * (docs/architecture.md#the-service-workers-start-up). Written from the installed gpt-tokenizer, so they
 * always match the library that reads them.
 */
function tokenizerDataFiles(): { relativeDest: string; contents: string }[] {
  const require = createRequire(import.meta.url);
  return (['o200k_base', 'cl100k_base'] as const).map((encoding) => ({
    relativeDest: `tokenizer/${encoding}.json`,
    contents: JSON.stringify(require(`gpt-tokenizer/cjs/bpeRanks/${encoding}`).default),
  }));
}

/**
 * PDF.js's worker and packed character maps (Add this page on a PDF, docs/side-panel.md#add-this-page)
 * as packaged files under `pdfjs/`, copied unchanged from the installed `pdfjs-dist`: the side panel
 * starts the worker from the extension itself (no remote script, the CSP's `script-src 'self'`).
 */
function pdfjsFiles(): { absoluteSrc: string; relativeDest: string }[] {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const cmaps = fs.readdirSync(path.join(root, 'cmaps')); // the .bcmap files and their LICENSE
  return [
    { absoluteSrc: path.join(root, 'build/pdf.worker.min.mjs'), relativeDest: 'pdfjs/pdf.worker.min.mjs' },
    { absoluteSrc: path.join(root, 'LICENSE'), relativeDest: 'pdfjs/LICENSE' },
    ...cmaps.map((f) => ({ absoluteSrc: path.join(root, 'cmaps', f), relativeDest: `pdfjs/cmaps/${f}` })),
  ];
}

export default defineConfig({
  outDir: OUT_DIR,
  hooks: {
    'build:publicAssets': (_wxt, files) => {
      files.push(...tokenizerDataFiles(), ...pdfjsFiles());
    },
  },
  // Test builds go to their own folder so they never overwrite a production build.
  ...(TEST_BUILD ? { outDirTemplate: '{{browser}}-mv{{manifestVersion}}-test' } : {}),
  vite: (env) => ({
    // The provider SDKs and fflate run on first use, not at every worker start (scripts/lazy-modules.ts):
    // in the MV3 service worker the SDKs are scripts of their own, imported at install and on first use;
    // Firefox's background page (no importScripts) keeps them in the loaders' bodies.
    // The worker's script is ASCII, so Chromium decodes it as one-byte text at each start (scripts/ascii-only.ts).
    plugins: [
      preact(),
      lazyModules({ mode: env.browser !== 'firefox' && env.manifestVersion === 3 ? 'scripts' : 'inline' }),
      asciiOnly(),
    ],
    define: { __BATON_TEST_BUILD__: JSON.stringify(TEST_BUILD) },
  }),
  manifest: ({ browser }) => ({
    name: 'Baton',
    description: 'Continue a conversation with another LLM, with your own keys.',
    icons: ICONS,
    permissions: [
      'storage',
      'unlimitedStorage',
      ...(browser === 'chrome' ? ['sidePanel'] : []),
      'contextMenus',
      // L4: a retry wait longer than 30 s is also held by a persisted alarm (lib/background/send/retry-alarm.ts).
      'alarms',
      // "Add this page" (docs/security.md#reading-the-page-you-are-on): the tab the person invokes Baton on,
      // read once with scripting.executeScript; no host permission is added for it.
      'activeTab',
      'scripting',
    ],
    // The toolbar button opens the side panel (Chrome); Firefox opens the sidebar from View → Sidebar.
    ...(browser === 'chrome' ? { action: { default_title: 'Open Baton', default_icon: ICONS } } : {}),
    host_permissions: [...PROVIDER_ORIGINS, ...(TEST_BUILD ? ['http://127.0.0.1/*'] : [])],
    // The chat sites' capture script (entrypoints/capture.ts, an unlisted script: WXT's content-script
    // wrapper would add window postMessage and DOM CustomEvent bridges, M5): exactly three sites, top frame only (N1).
    content_scripts: [{ matches: [...CHAT_SITES], js: ['capture.js'], all_frames: false, run_at: 'document_idle' }],
    // Custom endpoints: granted at runtime from the click that saves them (N1). Firefox's MV2
    // build takes them as optional_permissions.
    ...(browser === 'firefox'
      ? {
          optional_permissions: [...OPTIONAL_ORIGINS],
          browser_specific_settings: {
            gecko: { id: 'baton@baton-extension.org', data_collection_permissions: { required: ['none'] } },
          },
        }
      : { optional_host_permissions: [...OPTIONAL_ORIGINS], externally_connectable: { ids: [] } }),
    incognito: 'not_allowed',
    content_security_policy: {
      extension_pages:
        "script-src 'self'; object-src 'none'; img-src 'self' data: blob:; frame-src 'none'; base-uri 'none'; form-action 'none'",
    },
  }),
});
