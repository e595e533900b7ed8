/**
 * What a model picker offers (docs/side-panel.md): a provider's own model list merged with the registry.
 * Pure; the background serves it through `listModels`. The model preselected when the person has
 * chosen none is `defaultModelFor` in `registry.ts`.
 */
import { listModels, lookupModel } from './registry';
import type { ModelInfo } from './types';
import type { WireApi } from '../transcript/schema';

/** One model as a picker shows it (the shape of `ModelOption` in lib/messaging/protocol.ts). */
export interface PickerModel {
  /** The id sent to the provider (as the provider lists it, or the registry's id). */
  id: string;
  /** Display name from the registry ("Claude Sonnet 4.6"). */
  name?: string;
  /** Context window in tokens. */
  contextWindow?: number;
  /** Accepts image input. */
  vision?: boolean;
  /** Can reason before answering (registry `thinking` is not `none`). */
  thinking?: boolean;
  /** List price in USD per 1M tokens. */
  price?: { input: number; output: number };
  /** The provider has announced the model's end (registry `status: 'deprecated'`). */
  deprecated?: boolean;
  /** false: known to Baton's registry but absent from the provider's own list. */
  listed: boolean;
  /** The wire APIs that serve it, the default first; only when more than one does (Gemini). */
  apis?: WireApi[];
}

/** The APIs the person may choose between for one model (a built-in OpenAI provider always speaks Responses). */
const CHOOSABLE_APIS: ReadonlySet<WireApi> = new Set(['gemini-generate-content', 'gemini-interactions']);

/** Whether a registry entry is a current model: not retired, not deprecated (past or nearing its end of life). */
function current(m: ModelInfo): boolean {
  return m.status === undefined;
}

function optionOf(id: string, info: ModelInfo, listed: boolean): PickerModel {
  const choice = info.apis.filter((a) => CHOOSABLE_APIS.has(a));
  const apis = choice.length > 1 ? { apis: choice } : {};
  if (!info.known) return { id, listed, ...apis };
  return {
    id,
    ...(info.name ? { name: info.name } : {}),
    contextWindow: info.contextWindow,
    vision: info.vision,
    thinking: info.thinking !== 'none',
    ...(info.price ? { price: { input: info.price.inputPerMTok, output: info.price.outputPerMTok } } : {}),
    ...(info.status === 'deprecated' ? { deprecated: true } : {}),
    listed,
    ...apis,
  };
}

/**
 * The picker's list for one provider: each id of the provider's own list with what the registry
 * knows of it (models the registry knows first, in registry order, newest first; then the
 * others in the provider's order), followed, for a provider the registry covers, by its current
 * registry models the provider did not list (`listed: false`: the key may not reach them).
 * Duplicates (an alias and its canonical id) keep the provider's spelling, once.
 * @param listed ids as the provider's models endpoint returned them.
 * @param provider registry provider id the endpoint speaks for (`originProvider`).
 * @param withRegistry add the registry's models the provider did not list (built-in providers).
 */
export function pickerModels(listed: readonly string[], provider: string, withRegistry: boolean): PickerModel[] {
  const order = new Map(listModels(provider, { includeRetired: true }).map((m, i) => [m.id, i]));
  const seen = new Set<string>();
  const known: { at: number; option: PickerModel }[] = [];
  const unknown: PickerModel[] = [];
  for (const id of listed) {
    if (seen.has(id)) continue;
    seen.add(id);
    const info = lookupModel(id, provider);
    const at = info.known ? order.get(info.id) : undefined;
    if (info.known) seen.add(info.id);
    if (at !== undefined) known.push({ at, option: optionOf(id, info, true) });
    else if (info.known) known.push({ at: Number.MAX_SAFE_INTEGER, option: optionOf(id, info, true) });
    else unknown.push(optionOf(id, info, true));
  }
  known.sort((a, b) => a.at - b.at);
  const out = [...known.map((k) => k.option), ...unknown];
  if (withRegistry)
    for (const m of listModels(provider).filter(current))
      if (!seen.has(m.id) && !(m.aliases ?? []).some((a) => seen.has(a)))
        out.push(optionOf(m.aliases?.[0] ?? m.id, m, false));
  return out;
}
