/**
 * The OpenAI tokenizers' rank tables, kept out of the JavaScript (docs/architecture.md#the-service-workers-start-up).
 *
 * `gpt-tokenizer` ships each encoding's byte-pair ranks as a JavaScript module (o200k_base 2.4 MB,
 * cl100k_base 1.2 MB): imported statically, they are parsed, and their 200,000-entry maps built,
 * every time the service worker starts, although most wakes count nothing. Here an encoding is
 * built only when first needed, from ranks a {@link RanksSource} provides:
 * - in Node (CLI, tests, bench), synchronously from the package's own files (`require`, found at
 *   run time so no bundle includes them);
 * - in the extension, from the data files the build writes to `tokenizer/<encoding>.json`
 *   (`wxt.config.ts`), fetched on first use ({@link loadEncoding}; `lib/background` calls it
 *   before planning).
 * Until an encoding is available, {@link encodingFor} returns `undefined` and the planner counts
 * that model as an estimate (labelled so, docs/disclosure.md "Token estimates per target"), never
 * as exact.
 */
import { loadGptEncoding } from './tokenizer-loader';

/** The two encodings Baton counts with. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** `gpt-tokenizer`'s raw ranks: index = rank, value = the token's text, or its bytes when not valid UTF-8. */
export type RawRanks = (string | number[])[];

/** Where ranks come from: `sync` when they can be had at once (Node), `load` when they must be fetched. */
export interface RanksSource {
  sync?(encoding: EncodingName): RawRanks | undefined;
  load?(encoding: EncodingName): Promise<RawRanks>;
}

/** The part of `gpt-tokenizer`'s API Baton uses. */
export interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  encode(text: string, options?: { disallowedSpecial?: Set<string> }): number[];
}

const built = new Map<EncodingName, Encoding>();
const loading = new Map<EncodingName, Promise<Encoding | undefined>>();
let source: RanksSource = nodeSource();

/** Node's `require`, when this runs in Node (found at run time: browser bundles never see it). */
function nodeSource(): RanksSource {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.('node:module') as
    { createRequire(from: string): (id: string) => { default: RawRanks } } | undefined;
  if (!mod) return {};
  const require = mod.createRequire(import.meta.url);
  return { sync: (encoding) => require(`gpt-tokenizer/cjs/bpeRanks/${encoding}`).default };
}

/** Replaces where ranks come from (the extension's worker sets its fetch); encodings already built stay. */
export function setRanksSource(next: RanksSource): void {
  source = next;
}

function build(encoding: EncodingName, ranks: RawRanks): Encoding {
  if (!Array.isArray(ranks) || ranks.length < 50_000)
    throw new Error(`tokenizer: the ranks of ${encoding} are not a rank table (got ${typeof ranks})`);
  const api = loadGptEncoding().getEncodingApi(encoding, () => ranks) as unknown as Encoding;
  built.set(encoding, api);
  return api;
}

/** The encoding when it is built or can be built now (a synchronous source), else `undefined`. */
export function encodingFor(encoding: EncodingName): Encoding | undefined {
  const have = built.get(encoding);
  if (have) return have;
  const ranks = source.sync?.(encoding);
  return ranks ? build(encoding, ranks) : undefined;
}

/**
 * Makes `encoding` available to {@link encodingFor}: at once from a synchronous source, else from
 * the source's `load` (once; concurrent callers share it). Resolves `undefined` when it cannot be
 * had (no source, or the load failed: the failure is logged, and the next call tries again).
 */
export function loadEncoding(encoding: EncodingName): Promise<Encoding | undefined> {
  const now = encodingFor(encoding);
  if (now) return Promise.resolve(now);
  const pending = loading.get(encoding);
  if (pending) return pending;
  const load = source.load;
  if (!load) return Promise.resolve(undefined);
  const p = load(encoding)
    .then((ranks) => build(encoding, ranks))
    .catch((e: unknown) => {
      console.warn(`Baton: the ${encoding} tokenizer could not be loaded; counts are estimates.`, e);
      return undefined;
    })
    .finally(() => loading.delete(encoding));
  loading.set(encoding, p);
  return p;
}

/** Forgets every built encoding (tests). */
export function resetEncodings(): void {
  built.clear();
  loading.clear();
}
