/**
 * Conversion targets and the same-origin test (transcript-v1.md, "Same origin"; provider-rules.md X3).
 */
import type { Origin, WireApi } from './schema';
import { lookupTable } from './lookup';

/** What a conversion is for: one request to one model over one wire API. */
export interface ConvertTarget {
  api: WireApi;
  /** Model id as Baton will request it (e.g. `gpt-5.5`, `claude-sonnet-4-5`). */
  model: string;
  /** Provider id; default the API's usual provider ({@link DEFAULT_PROVIDER}). Selects §5 rules for `openai-chat`. */
  provider?: string;
  /** Base URL when not the provider's default (a proxy, a local server); compared by origin. */
  endpoint?: string;
  /** Ask for extended thinking / reasoning (default false). */
  thinking?: boolean;
  /** Output limit in tokens; default from the model registry. */
  maxOutputTokens?: number;
  /**
   * What to do with reasoning that another origin produced (X3, A-K6, R-K6): `drop` (default,
   * reported) or `text` (sent as plain text, fenced and labelled with its origin).
   */
  foreignReasoning?: 'drop' | 'text';
  /**
   * Opaque provider state from an imported Baton file (docs/security.md; `imported-state.ts`): `drop`
   * (default, reported) or `replay` — only once the person confirmed it in the disclosure
   * preview. Approval-type items from a file are never replayed either way.
   */
  importedState?: 'drop' | 'replay';
  /**
   * Anthropic thinking-binding controls (A-B3): `drop_block` (default) lets the API drop a
   * replayed thinking block whose conversation check fails instead of answering 400; `error`
   * keeps the API's default. The person's policy decides (`Policy.prefixMismatchBehavior`).
   */
  prefixMismatchBehavior?: 'drop_block' | 'error';
}

/** A {@link ConvertTarget} with defaults applied and `endpoint` reduced to an origin (or undefined for the default host). */
export interface ResolvedTarget extends ConvertTarget {
  provider: string;
  endpoint?: string;
  thinking: boolean;
  foreignReasoning: 'drop' | 'text';
  importedState: 'drop' | 'replay';
}

/** The usual provider of each wire API. */
export const DEFAULT_PROVIDER: Readonly<Record<WireApi, string>> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'gemini-generate-content': 'google',
  'gemini-interactions': 'google',
};

/** Default API origins per provider; an endpoint equal to one of these is "the default" (no `endpoint`). */
export const DEFAULT_ORIGINS: Readonly<Record<string, string>> = lookupTable({
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
  google: 'https://generativelanguage.googleapis.com',
});

/**
 * Reduces a base URL to its origin (`https://host:port`); returns the input unchanged when it is
 * not a URL, and undefined for the provider's default origin.
 */
export function normalizeEndpoint(endpoint: string | undefined, provider: string): string | undefined {
  if (!endpoint) return undefined;
  let origin = endpoint;
  try {
    origin = new URL(endpoint).origin;
  } catch {
    // Not a URL (e.g. a custom endpoint id): compare as given.
  }
  return origin === DEFAULT_ORIGINS[provider] ? undefined : origin;
}

/** Applies defaults: provider from the API, endpoint as an origin, thinking off, foreign reasoning dropped. */
export function resolveTarget(target: ConvertTarget): ResolvedTarget {
  const provider = target.provider ?? DEFAULT_PROVIDER[target.api];
  const resolved: ResolvedTarget = {
    ...target,
    provider,
    thinking: target.thinking ?? false,
    foreignReasoning: target.foreignReasoning ?? 'drop',
    importedState: target.importedState ?? 'drop',
  };
  const endpoint = normalizeEndpoint(target.endpoint, provider);
  if (endpoint === undefined) delete resolved.endpoint;
  else resolved.endpoint = endpoint;
  return resolved;
}

/**
 * Same origin (transcript-v1.md): `provider`, `api` and `endpoint` equal, and the target's model
 * equals the turn's `model` or its `requestedModel`. Only then is opaque state replayed (X3).
 */
export function isSameOrigin(origin: Origin | undefined, target: ResolvedTarget): boolean {
  if (!origin || origin.api === 'web') return false;
  return (
    origin.provider === target.provider &&
    origin.api === target.api &&
    normalizeEndpoint(origin.endpoint, origin.provider) === target.endpoint &&
    (origin.model === target.model || origin.requestedModel === target.model)
  );
}

/**
 * `provider/model (api)`, for report details and labels, on one line: the model is what the
 * provider reported (or an import says), so line breaks, other control characters, backticks and
 * square brackets become spaces and each part is cut to 200 characters — a label can never end
 * early, open or close a fence, or fake another label (N5: flattened text is fenced and labelled
 * with where it came from; docs/disclosure.md, the summary's label).
 */
export function describeOrigin(origin: Origin | undefined): string {
  if (!origin) return 'unknown origin';
  const { provider, model, api } = origin;
  // Every foreign block of a conversion is reported with its turn's origin, and a conversation
  // rarely has more than a few: the last description is kept so that a run of turns from one
  // origin runs the three replacements once, not once per block.
  const last = lastDescribed;
  if (last !== undefined && last.provider === provider && last.model === model && last.api === api) return last.text;
  const text = `${oneLine(provider)}/${oneLine(model)} (${oneLine(api)})`;
  lastDescribed = { provider, model, api, text };
  return text;
}

/** The last origin {@link describeOrigin} described (its fields, not the object: each turn has its own). */
let lastDescribed: { provider: string; model: string; api: string; text: string } | undefined;

/** `s` without line breaks, control characters, backticks or square brackets (each run one space), trimmed, at most 200 characters. */
function oneLine(s: string): string {
  return String(s)
    .replace(/[\p{Cc}\p{Zl}\p{Zp}`[\]]+/gu, ' ')
    .trim()
    .slice(0, 200);
}
