/**
 * What the side panel remembers about models across its openings (docs/side-panel.md), in the page's
 * `localStorage` (an extension page's own origin; no key or conversation text is stored here):
 * the model last chosen per provider, and each provider's model list with the time it was fetched.
 * Every read tolerates a missing, full or corrupt store (it then remembers nothing).
 */
import type { ModelOption } from '../messaging/protocol';

/** `localStorage` key of the last model per provider: JSON `{[providerId]: modelId}`. */
export const LAST_MODEL_KEY = 'baton.lastModel';
/** `localStorage` key prefix of a provider's cached model list: JSON `{at, models}` (`at`: ms since the epoch). */
export const MODEL_LIST_KEY = 'baton.models.';
/** A cached list older than this (ms) is fetched again when the panel needs it. */
export const MODEL_LIST_TTL_MS = 24 * 60 * 60 * 1000;

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function storage(): StorageLike | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function readJson(key: string): unknown {
  try {
    const raw = storage()?.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or unavailable: the panel still works, it just forgets.
  }
}

/** The model last chosen per provider (`{}` when nothing is remembered). */
export function loadLastModels(): Record<string, string> {
  const v = readJson(LAST_MODEL_KEY);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(
    Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== ''),
  );
}

/** Remembers `model` as the last one chosen for `providerId` (an empty id is not remembered). */
export function saveLastModel(providerId: string, model: string): void {
  if (!providerId || !model.trim()) return;
  writeJson(LAST_MODEL_KEY, { ...loadLastModels(), [providerId]: model.trim() });
}

/** A provider's cached model list and when it was fetched (ms since the epoch), or undefined. */
export function loadModelList(providerId: string): { at: number; models: ModelOption[] } | undefined {
  const v = readJson(MODEL_LIST_KEY + providerId) as { at?: unknown; models?: unknown } | undefined;
  if (!v || typeof v.at !== 'number' || !Array.isArray(v.models)) return undefined;
  const models = v.models.filter(
    (m): m is ModelOption => typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string',
  );
  return { at: v.at, models };
}

/** Caches a provider's model list, fetched at `at` (ms since the epoch). */
export function saveModelList(providerId: string, at: number, models: readonly ModelOption[]): void {
  writeJson(MODEL_LIST_KEY + providerId, { at, models });
}
