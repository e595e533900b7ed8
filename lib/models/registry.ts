/**
 * The model registry: context windows, output limits, capabilities and prices of the common
 * models of each provider (data in `./data/*`, each file citing its sources), with aliases
 * and dated snapshots, and conservative defaults for unknown ids (`./defaults.ts`).
 *
 * Canonical ids: the id a provider's alias currently points to — the dated snapshot where the
 * provider has one (`gpt-5.5` → `gpt-5.5-2026-04-23` per DESIGN.md, `claude-sonnet-4-5` →
 * `claude-sonnet-4-5-20250929`), else the plain id (`claude-opus-4-6`, `gemini-2.5-pro`).
 * Other snapshots of the same model resolve to the same entry.
 *
 * All maps are built once, on the first lookup (not at module load: the service worker evaluates
 * this module on every wake); a lookup is a few map probes (memoised per id and provider).
 */
import { TranscriptError } from '../transcript/codec';
import { anthropicModels } from './data/anthropic-models';
import { deepseekModels, groqModels, mistralModels } from './data/compat-models';
import { apisForProvider } from './data/define';
import { googleModels } from './data/google-models';
import { openaiModels } from './data/openai-models';
import { unknownModel } from './defaults';
import { candidateIds } from './normalize';
import type { ModelInfo, ModelPrice } from './types';
import type { WireApi } from '../transcript/schema';
import { lookupTable } from '../transcript/lookup';

/** The registry's entries and maps, built on first use (docs/architecture.md#the-service-workers-start-up). */
interface Table {
  /** Every entry, in registry order. */
  all: readonly ModelInfo[];
  /** Canonical id → entry. */
  byId: Map<string, ModelInfo>;
  /** Canonical id or alias → canonical id. */
  resolve: Map<string, string>;
}

let built: Table | undefined;

/**
 * The entries and their maps. Built on the first lookup rather than at module load: every wake of
 * the service worker evaluates this module, and most wakes (a list, a capture) look no model up.
 */
function table(): Table {
  if (built) return built;
  const all = [
    ...anthropicModels(),
    ...openaiModels(),
    ...googleModels(),
    ...deepseekModels(),
    ...mistralModels(),
    ...groqModels(),
  ].map(deepFreeze);
  const byId = new Map<string, ModelInfo>();
  const resolve = new Map<string, string>();
  for (const info of all) {
    for (const name of [info.id, ...(info.aliases ?? [])]) {
      const taken = resolve.get(name);
      if (taken !== undefined) throw new Error(`model registry: "${name}" names both ${taken} and ${info.id}`);
      resolve.set(name, info.id);
    }
    byId.set(info.id, info);
  }
  return (built = { all, byId, resolve });
}

function deepFreeze(info: ModelInfo): ModelInfo {
  for (const v of Object.values(info)) if (v && typeof v === 'object') Object.freeze(v);
  return Object.freeze(info);
}

interface Resolution {
  canonical: string;
  /** Matched only after removing an OpenRouter-style `vendor/` prefix. */
  viaVendor: boolean;
}

function resolve(id: string): Resolution | undefined {
  for (const c of candidateIds(id)) {
    const canonical = table().resolve.get(c.id);
    if (canonical !== undefined) return { canonical, viaVendor: c.viaVendor };
  }
  return undefined;
}

const MEMO_LIMIT = 1_024;
const memo = new Map<string, ModelInfo>();

/**
 * Looks a model up by id: a canonical id, an alias, a dated snapshot (listed, or recognised by
 * its suffix: `-2025-08-07`, `-20250929`, `-001`, `-preview-05-20`), a Gemini `models/…` name,
 * a Vertex (`…@20250929`) or Bedrock (`us.anthropic.…-v1:0`) Claude id, or an OpenRouter-style
 * `vendor/model[:variant]` id (`anthropic/claude-sonnet-4.5`, `openai/gpt-5`). Case-sensitive.
 *
 * A known model comes back with `known: true` and its canonical `id`. When `provider` is given
 * and differs from the entry's (OpenRouter, a proxy), the result carries that provider and the
 * wire APIs it speaks (`openai-chat` for OpenAI-compatible hosts); capabilities and the
 * first-party price stay. A `vendor/model` id matched through its prefix with no `provider`
 * given is attributed to `openrouter`.
 *
 * Never throws: an unknown id gets conservative defaults with `known: false` (see
 * {@link unknownModel} for what the id's family adds), and keeps the id as given.
 * The returned object is frozen and shared; copy it before changing it.
 * @param id the model id as the user or provider spelt it.
 * @param provider the provider the request goes to (`openai`, `anthropic`, `google`,
 *   `deepseek`, `mistral`, `groq`, `openrouter`, …).
 */
export function lookupModel(id: string, provider?: string): ModelInfo {
  const key = provider === undefined ? id : `${provider}\u0000${id}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const found = resolve(id);
  let info: ModelInfo;
  if (!found) {
    info = deepFreeze(unknownModel(id, provider));
  } else {
    const entry = table().byId.get(found.canonical) as ModelInfo;
    const target = provider ?? (found.viaVendor ? 'openrouter' : entry.provider);
    info =
      target === entry.provider
        ? entry
        : deepFreeze({ ...entry, provider: target, apis: apisForProvider(target) ?? entry.apis });
  }
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, info);
  return info;
}

/**
 * The wire API a send to `model` at `provider` goes over: `requested` when the model is served by
 * it (the person's choice in the panel), else the model's default (`apis[0]`: for Gemini, the
 * registry's older models `gemini-generate-content`, new and unknown ones `gemini-interactions`).
 * Undefined when the registry knows no API of the provider (custom endpoints: the caller's own).
 * Never throws.
 */
export function apiForModel(model: string, provider: string, requested?: WireApi): WireApi | undefined {
  const apis = lookupModel(model, provider).apis;
  if (!apisForProvider(provider)) return undefined;
  return requested && apis.includes(requested) ? requested : apis[0];
}

/**
 * The canonical id for `id` (alias or snapshot → canonical entry id, with the same spellings
 * {@link lookupModel} accepts); unknown ids come back unchanged.
 */
export function resolveModelId(id: string): string {
  return resolve(id)?.canonical ?? id;
}

/**
 * The known canonical entries, in registry order (newest first within each provider), for a
 * model picker. Retired models (the provider no longer serves them: `status: 'retired'`, or
 * `endOfLife` on or before `today`) are left out unless `includeRetired` is set; deprecated ones
 * stay, marked by `status`.
 * @param provider only this provider's own entries (`listModels('openrouter')` is empty:
 *   OpenRouter serves other vendors' models, found through {@link lookupModel}).
 * @param options.today the date to judge `endOfLife` by (default: now).
 */
export function listModels(
  provider?: string,
  options: { includeRetired?: boolean; today?: Date; now?: Date } = {},
): ModelInfo[] {
  const today = options.today ?? options.now;
  return table().all.filter(
    (m) => (provider === undefined || m.provider === provider) && (options.includeRetired || !isRetired(m, today)),
  );
}

/**
 * True when the provider no longer serves the model on `today` (default: now): `status:
 * 'retired'`, or its `endOfLife` date (UTC) is `today` or earlier.
 */
export function isRetired(info: ModelInfo, today: Date = new Date()): boolean {
  if (info.status === 'retired') return true;
  return info.endOfLife !== undefined && info.endOfLife <= today.toISOString().slice(0, 10);
}

/**
 * Which registry entries a provider's default model is taken from: the balanced tier of each
 * built-in provider (not the largest, not the smallest). Registry order is newest first.
 */
const BALANCED: Readonly<Record<string, RegExp>> = lookupTable({
  anthropic: /^claude-sonnet-/,
  openai: /^gpt-\d+(\.\d+)?(-sol)?(-\d{4}-\d\d-\d\d)?$/,
  google: /^gemini-[\d.]+-flash$/,
});

/**
 * The one answer to "which model does Baton use for `provider` when the person chose none" (the
 * providers' `defaultModel` in settings, the model pickers' preselection, the context menus).
 *
 * Returns the canonical id of the newest current registry entry of the provider's balanced tier
 * ({@link BALANCED}: Sonnet, the plain or `-sol` GPT line, Gemini Flash), else of its newest
 * current entry. Current means the provider has announced no end for it (no `status`, so neither
 * deprecated nor retired) and its `endOfLife`, if recorded, is after `today` ({@link isRetired}):
 * a default never points at a model the provider no longer serves, or is about to stop serving.
 * Undefined for a provider the registry has no entries for (OpenRouter, custom endpoints: they
 * name their own model).
 * @param provider registry provider id (`openai`, `anthropic`, `google`, `deepseek`, `mistral`, …).
 * @param today the date to judge `endOfLife` by (default: now).
 */
export function defaultModelFor(provider: string, today: Date = new Date()): string | undefined {
  const current = listModels(provider, { today }).filter((m) => m.status === undefined);
  const tier = BALANCED[provider];
  return (tier ? current.find((m) => tier.test(m.id)) : undefined)?.id ?? current[0]?.id;
}

/**
 * True when the model's `endOfLife` date (UTC) has come: from that day on the provider refuses
 * requests, so it is never a default (see {@link defaultModelFor}). False when no date is recorded.
 */
export function isPastEndOfLife(info: Pick<ModelInfo, 'endOfLife'>, now: Date = new Date()): boolean {
  return info.endOfLife !== undefined && now.toISOString().slice(0, 10) >= info.endOfLife;
}

/** Token counts of one request, as the estimate reads them. */
export interface CostUsage {
  /** Input tokens billed at the full input rate (not read from or written to the cache). */
  inputTokens?: number;
  /** Output tokens, reasoning included. */
  outputTokens?: number;
  /** Input tokens read from the prompt cache. */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens?: number;
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

/**
 * Estimated cost of one request in US dollars, from the model's list price (standard tier, no
 * batch or priority discounts), or `undefined` when the price is not known.
 *
 * The four counts are disjoint: subtract cached tokens from OpenAI `input_tokens` and Gemini
 * `promptTokenCount` (they include them) before calling; Anthropic's `input_tokens` already
 * excludes cache reads and writes. Cache reads cost `cacheReadPerMTok` and cache writes
 * `cacheWritePerMTok`, each falling back to the input price when the provider lists none
 * (OpenAI's older models bill cache writes as plain input). When the prompt (input + cache
 * read + cache write) exceeds `longContextPrice.thresholdInputTokens`, the whole request is
 * priced at that tier.
 * @throws TranscriptError (path `usage.<field>`) when a count is negative or not finite.
 */
export function estimateCostUsd(info: ModelInfo, usage: CostUsage): number | undefined {
  for (const field of USAGE_FIELDS) {
    const v = usage[field];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) {
      throw new TranscriptError(`usage.${field}`, `must be a non-negative number of tokens, got ${String(v)}`);
    }
  }
  if (!info.price) return undefined;
  const input = usage.inputTokens ?? 0;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const tier = info.longContextPrice;
  const price: ModelPrice = tier && input + cacheRead + cacheWrite > tier.thresholdInputTokens ? tier : info.price;
  const micro =
    input * price.inputPerMTok +
    (usage.outputTokens ?? 0) * price.outputPerMTok +
    cacheRead * (price.cacheReadPerMTok ?? price.inputPerMTok) +
    cacheWrite * (price.cacheWritePerMTok ?? price.inputPerMTok);
  return micro / 1_000_000;
}
