/**
 * The extension build's lazy loaders (scripts/lazy-modules.ts): a generated module runs a library's
 * module code on the first call of its loader, once, and not when the module itself is evaluated;
 * the SDK classes it returns are the real clients, sending through the fetch they are given;
 * fflate's loader unzips; and gpt-tokenizer's loader encodes as the package does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { createRequire } from 'node:module';
import { transform } from 'esbuild';
import vm from 'node:vm';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import Memory from 'pouchdb-adapter-memory';
import {
  LAZY_MODULES,
  lazyLoaderModule,
  lazyScript,
  loaderBodies,
  scriptGlobal,
  scriptModeProblems,
  untransformedLoaders,
  uiModulesInWorker,
} from '../../scripts/lazy-modules';

const root = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-modules-'));

/** The loaders of one loader file of {@link LAZY_MODULES}. */
const loadersOf = (file: string) => LAZY_MODULES.find((m) => m.file === file)!.loaders;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes a generated module to a file and imports it (a fresh module each time: a new name). */
async function importGenerated(name: string, code: string): Promise<Record<string, () => unknown>> {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, () => unknown>;
}

/** A fetch that records each request and answers with an empty model list. */
function recordingFetch() {
  const requests: { url: string; headers: Headers }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    requests.push({ url: req.url, headers: req.headers });
    const body = req.url.includes('googleapis') ? { models: [] } : { data: [], has_more: false, object: 'list' };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, requests };
}

describe('lazy loaders', () => {
  it("runs a module's code on the first call of its loader, once, and not on import", async () => {
    const probeDir = fs.mkdtempSync(path.join(dir, 'probe-'));
    fs.writeFileSync(
      path.join(probeDir, 'probe.mjs'),
      'globalThis.lazyProbeRuns = (globalThis.lazyProbeRuns ?? 0) + 1;\nexport default class Probe {}\n',
    );
    const code = await lazyLoaderModule(probeDir, [
      { loader: 'loadProbe', module: './probe.mjs', exportName: 'default' },
    ]);
    const g = globalThis as { lazyProbeRuns?: number };
    delete g.lazyProbeRuns;
    const mod = await importGenerated('probe', code);
    expect(g.lazyProbeRuns).toBeUndefined();
    const first = mod.loadProbe!();
    expect(g.lazyProbeRuns).toBe(1);
    expect(typeof first).toBe('function');
    expect(mod.loadProbe!()).toBe(first);
    expect(g.lazyProbeRuns).toBe(1);
  });

  it("returns the SDKs' clients, which send through the given fetch with the key in its header", async () => {
    const loaders = loadersOf('lib/transports/sdk-loaders.ts');
    const mod = await importGenerated('sdks', await lazyLoaderModule(root, loaders, true, 'inline', 'keepSdkScripts'));
    expect(Object.keys(mod).sort()).toEqual([...loaders.map((s) => s.loader), 'keepSdkScripts'].sort());
    // Inline mode: keeping scripts does nothing (there are none), whatever the worker's state.
    expect(() => mod.keepSdkScripts!()).not.toThrow();

    const openai = recordingFetch();
    const OpenAI = mod.loadOpenAI!() as new (o: object) => { models: { list(): Promise<unknown> } };
    await new OpenAI({ apiKey: 'k-openai', baseURL: 'https://openai.test/v1', fetch: openai.fetch }).models.list();
    expect(openai.requests.map((r) => r.url)).toEqual(['https://openai.test/v1/models']);
    expect(openai.requests[0]!.headers.get('authorization')).toBe('Bearer k-openai');

    const anthropic = recordingFetch();
    const Anthropic = mod.loadAnthropic!() as new (o: object) => { models: { list(): Promise<unknown> } };
    await new Anthropic({
      apiKey: 'k-anthropic',
      baseURL: 'https://anthropic.test',
      dangerouslyAllowBrowser: true,
      fetch: anthropic.fetch,
    }).models.list();
    expect(anthropic.requests[0]!.url).toMatch(/^https:\/\/anthropic\.test\/v1\/models/);

    const gemini = recordingFetch();
    const Gemini = mod.loadGemini!() as new (o: object) => { models: { list(): Promise<unknown> } };
    await new Gemini({
      apiKey: 'k-gemini',
      httpOptions: { baseUrl: 'https://generativelanguage.googleapis.com', fetch: gemini.fetch },
    }).models.list();
    expect(gemini.requests[0]!.url).toMatch(/^https:\/\/generativelanguage\.googleapis\.com\/.*models/);
    expect(gemini.requests[0]!.headers.get('x-goog-api-key')).toBe('k-gemini');
  }, 60_000); // bundles the three SDKs with esbuild

  it("fflate's loader returns an unzipSync that reads an archive", async () => {
    const mod = await importGenerated(
      'fflate',
      await lazyLoaderModule(root, loadersOf('lib/importers/fflate-loader.ts')),
    );
    const unzip = mod.loadUnzipSync!() as (b: Uint8Array) => Record<string, Uint8Array>;
    const files = unzip(zipSync({ 'a.txt': new TextEncoder().encode('hello') }));
    expect(new TextDecoder().decode(files['a.txt'])).toBe('hello');
  });

  it("gpt-tokenizer's loader returns a GptEncoding that encodes as the package does", async () => {
    const mod = await importGenerated(
      'tokenizer',
      await lazyLoaderModule(root, loadersOf('lib/context/tokenizer-loader.ts')),
    );
    type Api = { encode(text: string): number[] };
    const GptEncoding = mod.loadGptEncoding!() as { getEncodingApi(name: string, ranks: () => unknown): Api };
    const ranks = createRequire(import.meta.url)('gpt-tokenizer/cjs/bpeRanks/cl100k_base').default as unknown;
    const text = "Don't split\u00e9 words, 12345 numbers \u2014 or \u4f60\u597d.";
    expect(GptEncoding.getEncodingApi('cl100k_base', () => ranks).encode(text)).toEqual(encodeCl100k(text));
  });
});

/**
 * A classic service worker's global for a scripts-mode module: a fresh V8 context whose
 * `importScripts` runs the named scripts in it (as Chromium runs them in the worker's global) and
 * records each import, and whose `self.serviceWorker.state` is `state` (no `self.serviceWorker` when undefined). The generated module runs in
 * it with its `export`s turned into globals.
 */
function workerContext(
  scripts: Map<string, string>,
  state: string | undefined,
  module: string,
  platform: Record<string, unknown> = {},
) {
  const imported: string[] = [];
  const ctx = vm.createContext({ console, ...platform });
  Object.assign(ctx, {
    self: ctx,
    ...(state === undefined ? {} : { serviceWorker: { state } }),
    importScripts: (...urls: string[]) => {
      for (const url of urls) {
        const code = scripts.get(url);
        if (code === undefined) throw new Error(`importScripts: no ${url}`);
        imported.push(url);
        vm.runInContext(code, ctx);
      }
    },
  });
  vm.runInContext(module.replace(/^export /gm, ''), ctx);
  return { ctx: ctx as Record<string, unknown>, imported };
}

describe('lazy loaders, scripts mode (the Chromium worker)', () => {
  const probes = [
    { loader: 'loadProbeA', module: './a.mjs', exportName: 'default', script: 'lazy/a.js' },
    { loader: 'loadProbeB', module: './b.mjs', exportName: 'default', script: 'lazy/b.js' },
  ];
  async function probeSetup() {
    const probeDir = fs.mkdtempSync(path.join(dir, 'scripts-'));
    for (const name of ['a', 'b'])
      fs.writeFileSync(
        path.join(probeDir, `${name}.mjs`),
        `globalThis.runs = (globalThis.runs ?? 0) + 1;\nexport default { probe: '${name}' };\n`,
      );
    const scripts = new Map<string, string>();
    for (const p of probes) scripts.set(`/${p.script}`, await lazyScript(probeDir, p));
    const module = await lazyLoaderModule(probeDir, probes, true, 'scripts', 'keep');
    return { scripts, module };
  }

  it('holds no library in the module: the loaders import their scripts', async () => {
    const { scripts, module } = await probeSetup();
    expect(module).not.toContain('globalThis.runs');
    for (const [url, code] of scripts) {
      expect(code).toContain('globalThis.runs');
      expect(module).toContain(`importScripts(${JSON.stringify(url)})`);
    }
    expect(scriptGlobal(probes[0]!)).toBe('__batonLazy_loadProbeA');
  });

  it('at install, keep imports every script once and the loaders then import nothing', async () => {
    const { scripts, module } = await probeSetup();
    const { ctx, imported } = workerContext(scripts, 'parsed', module);
    expect(imported).toEqual([]); // evaluating the module imports nothing: keep is called after the listeners
    (ctx.keep as () => void)();
    expect(imported).toEqual(['/lazy/a.js', '/lazy/b.js']);
    expect(ctx.runs).toBe(2);
    expect((ctx.loadProbeA as () => { probe: string })().probe).toBe('a');
    expect((ctx.loadProbeB as () => { probe: string })().probe).toBe('b');
    expect(imported).toHaveLength(2);
    expect(ctx.runs).toBe(2);
  });

  it('in a later life, keep imports nothing and each loader imports its own script on first use, once', async () => {
    const { scripts, module } = await probeSetup();
    const { ctx, imported } = workerContext(scripts, 'activated', module);
    (ctx.keep as () => void)();
    expect(imported).toEqual([]);
    const first = (ctx.loadProbeB as () => unknown)();
    expect(imported).toEqual(['/lazy/b.js']);
    expect((ctx.loadProbeB as () => unknown)()).toBe(first);
    expect(imported).toEqual(['/lazy/b.js']);
    expect(ctx.runs).toBe(1);
  });

  it('without self.serviceWorker (an older browser), keep imports every script on every start', async () => {
    const { scripts, module } = await probeSetup();
    for (let life = 0; life < 2; life++) {
      const { ctx, imported } = workerContext(scripts, undefined, module);
      (ctx.keep as () => void)();
      expect(imported).toEqual(['/lazy/a.js', '/lazy/b.js']);
      expect((ctx.loadProbeA as () => { probe: string })().probe).toBe('a');
      expect(imported).toHaveLength(2);
    }
  });

  it('an install import that fails leaves the worker running (logged), and the loader reports it on use', async () => {
    const { module } = await probeSetup();
    const errors: unknown[] = [];
    const { ctx } = workerContext(new Map(), 'parsed', module);
    ctx.console = { error: (...a: unknown[]) => errors.push(a) };
    expect(() => (ctx.keep as () => void)()).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(() => (ctx.loadProbeA as () => unknown)()).toThrow(/no \/lazy\/a\.js/);
  });

  it("the SDKs' scripts give the real clients, which send through the given fetch", async () => {
    const loaders = loadersOf('lib/transports/sdk-loaders.ts');
    const scripts = new Map<string, string>();
    for (const l of loaders) scripts.set(`/${l.script}`, await lazyScript(root, l));
    const module = await lazyLoaderModule(root, loaders, true, 'scripts', 'keepSdkScripts');
    // The SDKs need the platform's fetch, Request, Headers…: run the scripts in this realm.
    const g = globalThis as Record<string, unknown>;
    const imported: string[] = [];
    g.importScripts = (...urls: string[]) => {
      for (const url of urls) {
        imported.push(url);
        vm.runInThisContext(scripts.get(url)!);
      }
    };
    try {
      const mod = await importGenerated('sdk-scripts', module);
      const OpenAI = mod.loadOpenAI!() as new (o: object) => { models: { list(): Promise<unknown> } };
      expect(imported).toEqual(['/lazy/openai.js']);
      const openai = recordingFetch();
      await new OpenAI({ apiKey: 'k-openai', baseURL: 'https://openai.test/v1', fetch: openai.fetch }).models.list();
      expect(openai.requests.map((r) => r.url)).toEqual(['https://openai.test/v1/models']);
      const Gemini = mod.loadGemini!() as new (o: object) => { models: { list(): Promise<unknown> } };
      const gemini = recordingFetch();
      await new Gemini({
        apiKey: 'k-gemini',
        httpOptions: { baseUrl: 'https://generativelanguage.googleapis.com', fetch: gemini.fetch },
      }).models.list();
      expect(gemini.requests[0]!.headers.get('x-goog-api-key')).toBe('k-gemini');
      expect(imported).toEqual(['/lazy/openai.js', '/lazy/genai.js']);
    } finally {
      delete g.importScripts;
      // A classic script's top-level `var` is not deletable.
      for (const l of loaders) g[scriptGlobal(l)] = undefined;
    }
  }, 60_000);
});

describe('the build check', () => {
  const loaderFiles = LAZY_MODULES.map((m) => path.join(root, m.file));

  it('passes when every loader file was served as generated loaders and no lazy library is a module', () => {
    const ids = [path.join(root, 'entrypoints/background.ts'), ...loaderFiles];
    expect(untransformedLoaders(ids, new Set(loaderFiles))).toEqual([]);
  });

  it('fails when a loader file is missing, was bundled as written, or a library is bundled directly', () => {
    const [sdk, pouch, fflate, tokenizer] = loaderFiles as [string, string, string, string];
    const openai = path.join(root, 'node_modules/openai/client.mjs');
    const problems = untransformedLoaders([sdk, pouch, tokenizer, openai], new Set([sdk, pouch, tokenizer]));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/fflate-loader\.ts is not in the worker's bundle/);
    expect(problems[1]).toMatch(/^openai is a module of the worker's bundle/);
    expect(untransformedLoaders([sdk, pouch, fflate, tokenizer], new Set([sdk, pouch, tokenizer]))).toEqual([
      'lib/importers/fflate-loader.ts was bundled as written, not as generated loaders',
    ]);
    // gpt-tokenizer's module code (its regular expressions) would run at every start.
    const regexes = path.join(root, 'node_modules/gpt-tokenizer/esm/encodingParams/constants.js');
    expect(untransformedLoaders([...loaderFiles, regexes], new Set(loaderFiles))).toEqual([
      "gpt-tokenizer is a module of the worker's bundle, run at start-up (node_modules/gpt-tokenizer/esm/encodingParams/constants.js)",
    ]);
  });

  it('reads a generated module under its virtual id as its loader file', () => {
    const ids = [path.join(root, 'entrypoints/background.ts'), ...loaderFiles.map((f) => `\0baton-lazy:${f}`)];
    expect(untransformedLoaders(ids, new Set(loaderFiles))).toEqual([]);
  });

  it('fails when Preact is a module of the worker, and only then', () => {
    const ids = [path.join(root, 'entrypoints/background.ts'), ...loaderFiles];
    expect(uiModulesInWorker(ids)).toEqual([]);
    expect(uiModulesInWorker([...ids, path.join(root, 'node_modules/preact/dist/preact.mjs')])).toEqual([
      "preact is a module of the worker's bundle (node_modules/preact/dist/preact.mjs)",
    ]);
  });

  it('finds each loader body in a minified bundle and measures it', async () => {
    const code = await lazyLoaderModule(root, loadersOf('lib/importers/fflate-loader.ts'));
    const iife = await transform(`(() => {\n${code.replace(/^export /gm, '')}\nglobalThis.f = loadUnzipSync;\n})();`, {
      minify: true,
    });
    const bodies = loaderBodies(iife.code);
    expect([...bodies.keys()]).toEqual(['loadUnzipSync']);
    // The body holds fflate's unzip (several KB) and is most of the script.
    expect(bodies.get('loadUnzipSync')).toBeGreaterThan(3_000);
    expect(bodies.get('loadUnzipSync')).toBeGreaterThan(iife.code.length * 0.9);
    expect(loaderBodies('function f(){ memo.other = 1 }').size).toBe(0);
  });

  it('in the scripts mode, fails when an SDK loader holds its library again or is missing', async () => {
    const loaders = loadersOf('lib/transports/sdk-loaders.ts');
    const minified = async (code: string) =>
      (
        await transform(
          `(() => {\n${code.replace(/^export /gm, '')}\nglobalThis.f = [${loaders.map((l) => l.loader)}];\n})();`,
          { minify: true },
        )
      ).code;
    const good = await minified(await lazyLoaderModule(root, loaders, true, 'scripts', 'keepSdkScripts'));
    expect(scriptModeProblems(good, loaders)).toEqual([]);
    // A loader whose body holds a library (here a stand-in of a few KB) and one that is gone.
    const library = `(() => { const t = ${JSON.stringify('x'.repeat(5_000))}; return { value: t }; })()`;
    const bad = await minified(
      `const memo = {};\nexport function loadOpenAI() { return memo.loadOpenAI ??= ${library}.value; }\n` +
        `export function loadAnthropic() { return memo.loadAnthropic ??= 1; }\nexport function loadGemini() {}`,
    );
    const problems = scriptModeProblems(bad, loaders);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^loadOpenAI holds \d+ bytes/);
    expect(problems[1]).toBe("loadGemini is not in the worker's chunk");
  });
});

describe("PouchDB's loader", () => {
  const loaders = loadersOf('lib/background/sync/pouch-loader.ts');
  const [pouch] = loaders;

  /** The worker's platform objects PouchDB uses (the IndexedDB adapter registers only where IndexedDB is). */
  const platform = {
    fetch,
    Headers,
    Request,
    Response,
    AbortController,
    Blob,
    TextEncoder,
    TextDecoder,
    URL,
    atob,
    btoa,
    crypto,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    indexedDB,
    IDBKeyRange,
  };

  type Doc = { _id: string; [k: string]: unknown };
  type Db = {
    put(d: Doc): Promise<unknown>;
    get(id: string): Promise<Doc>;
    transform(t: { incoming?(d: Doc): Doc; outgoing?(d: Doc): Doc }): void;
    destroy(): Promise<unknown>;
  };
  type Pouch = {
    new (name: string, opts?: { adapter: string }): Db;
    adapters: Record<string, unknown>;
    plugin(p: unknown): Pouch;
    replicate(a: Db, b: Db): Promise<{ ok: boolean; docs_written: number }>;
  };

  /**
   * What sync needs of the loaded constructor: the IndexedDB and HTTP adapters registered, and
   * databases that store, transform what they write and read, and replicate (over the memory
   * adapter, as the sync tests' mirrors: Node has no IndexedDB).
   */
  async function expectWorkingPouch(Loaded: Pouch) {
    expect(Object.keys(Loaded.adapters).sort()).toEqual(['http', 'https', 'idb']);
    const P = Loaded.plugin(Memory);
    const id = Math.random().toString(36).slice(2, 8);
    const a = new P(`lazy-pouch-a-${id}`, { adapter: 'memory' });
    const b = new P(`lazy-pouch-b-${id}`, { adapter: 'memory' });
    a.transform({
      incoming: (d) => ({ ...d, text: `sealed:${String(d.text)}` }),
      outgoing: (d) => ({ ...d, text: String(d.text).replace(/^sealed:/, '') }),
    });
    await a.put({ _id: 'c1', text: 'hello' });
    expect((await a.get('c1')).text).toBe('hello');
    const result = await P.replicate(a, b);
    expect([result.ok, result.docs_written]).toEqual([true, 1]);
    // Replication reads through a's transform; a's stored document is the sealed one.
    expect((await b.get('c1')).text).toBe('hello');
    expect((await new P(`lazy-pouch-a-${id}`, { adapter: 'memory' }).get('c1')).text).toBe('sealed:hello');
    await a.destroy();
    await b.destroy();
  }

  it('the build check fails when PouchDB, a package of it or its module is bundled into the worker', () => {
    const files = LAZY_MODULES.map((m) => path.join(root, m.file));
    const served = new Set(files);
    const core = path.join(root, 'node_modules/pouchdb-core/lib/index.es.js');
    const md5 = path.join(root, 'node_modules/spark-md5/spark-md5.js');
    const library = path.join(root, 'lib/background/sync/pouch-library.ts');
    expect(untransformedLoaders([...files, core, md5, library], served)).toEqual([
      "lib/background/sync/pouch-library.ts is a module of the worker's bundle, run at start-up",
      "pouchdb-core is a module of the worker's bundle, run at start-up (node_modules/pouchdb-core/lib/index.es.js)",
      "spark-md5 is a module of the worker's bundle, run at start-up (node_modules/spark-md5/spark-md5.js)",
    ]);
    expect(untransformedLoaders(files, new Set(files.filter((f) => !f.endsWith('pouch-loader.ts'))))).toEqual([
      'lib/background/sync/pouch-loader.ts was bundled as written, not as generated loaders',
    ]);
  });

  it('scripts mode: evaluating the module and keep in a later life import nothing; the first call imports the script once', async () => {
    const script = await lazyScript(root, pouch!);
    const module = await lazyLoaderModule(root, loaders, true, 'scripts', 'keepPouchScript');
    // The module is a loader of a few hundred bytes; the script holds PouchDB.
    expect(module.length).toBeLessThan(2_000);
    expect(script.length).toBeGreaterThan(50_000);
    const { ctx, imported } = workerContext(new Map([['/lazy/pouchdb.js', script]]), 'activated', module, platform);
    (ctx.keepPouchScript as () => void)();
    expect(imported).toEqual([]);
    expect(ctx[scriptGlobal(pouch!)]).toBeUndefined();
    const first = (ctx.loadPouch as () => Pouch)();
    expect(imported).toEqual(['/lazy/pouchdb.js']);
    expect((ctx.loadPouch as () => Pouch)()).toBe(first);
    expect(imported).toEqual(['/lazy/pouchdb.js']);
    await expectWorkingPouch(first);
  }, 60_000);

  it('scripts mode: at install, keep imports the script and the loader then imports nothing more', async () => {
    const script = await lazyScript(root, pouch!);
    const module = await lazyLoaderModule(root, loaders, true, 'scripts', 'keepPouchScript');
    const { ctx, imported } = workerContext(new Map([['/lazy/pouchdb.js', script]]), 'parsed', module, platform);
    expect(imported).toEqual([]);
    (ctx.keepPouchScript as () => void)();
    expect(imported).toEqual(['/lazy/pouchdb.js']);
    await expectWorkingPouch((ctx.loadPouch as () => Pouch)());
    expect(imported).toEqual(['/lazy/pouchdb.js']);
  }, 60_000);

  it('inline mode (Firefox): the loader holds PouchDB in its body and returns one constructor', async () => {
    const code = await lazyLoaderModule(root, loaders, true, 'inline', 'keepPouchScript');
    expect(loaderBodies(code).get('loadPouch')).toBeGreaterThan(50_000);
    const { ctx, imported } = workerContext(new Map(), undefined, code, platform);
    (ctx.keepPouchScript as () => void)();
    expect(imported).toEqual([]);
    const first = (ctx.loadPouch as () => Pouch)();
    expect((ctx.loadPouch as () => Pouch)()).toBe(first);
    await expectWorkingPouch(first);
  }, 60_000);
});
