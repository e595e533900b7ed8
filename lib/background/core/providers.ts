/**
 * Resolves a send target to a provider connection: wire API, base URL, the key bound to that
 * origin (N2) and the converter target. Built-in OpenAI goes over the Responses API; custom
 * endpoints over Chat Completions with the §5 rules of their flavour.
 */
import type { BuiltinProvider, ProviderId, SendTarget } from '../../messaging/protocol';
import type { EndpointConfig, ProviderSettings, SettingsStore } from '../../store/settings';
import type { WireApi } from '../../transcript/schema';
import { DEFAULT_ORIGINS, type ConvertTarget } from '../../transcript/target';
import type { Vault } from '../../vault/vault';
import { BatonError } from '../../messaging/errors';
import { apiForModel } from '../../models/registry';

export const BUILTIN: Readonly<Record<BuiltinProvider, { name: string; api: WireApi; origin: string }>> = {
  openai: { name: 'OpenAI', api: 'openai-responses', origin: DEFAULT_ORIGINS.openai! },
  anthropic: { name: 'Anthropic', api: 'anthropic-messages', origin: DEFAULT_ORIGINS.anthropic! },
  google: { name: 'Google Gemini', api: 'gemini-generate-content', origin: DEFAULT_ORIGINS.google! },
};

export const isBuiltin = (id: string): id is BuiltinProvider => id in BUILTIN;

/** Everything the send pipeline needs to reach one provider. */
export interface ResolvedProvider {
  providerId: ProviderId;
  api: WireApi;
  /** The SDK base URL, or undefined for the SDK default. */
  baseUrl?: string;
  /** The origin requests go to (the default host, or the configured base URL's origin). */
  origin: string;
  /** `provider` for the converter and for turn origins (a §5 flavour, a built-in id, or the endpoint id). */
  originProvider: string;
  /** `endpoint` for the converter and turn origins: the origin when not the provider's default. */
  endpoint?: string;
}

/** The SDK base URL for a built-in provider with a custom host: OpenAI's SDK expects the `/v1` path. */
function sdkBaseUrl(id: BuiltinProvider, url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return id === 'openai' && !/\/v1$/.test(trimmed) ? `${trimmed}/v1` : trimmed;
}

/**
 * The connection for `providerId`. With a send `target`, a built-in provider whose model is served
 * by more than one API (Google: generateContent, Interactions) goes over the target's `api` when
 * it serves the model, else over the model's default (`apiForModel`); without one, over the
 * provider's usual API (model lists, key tests).
 * @throws BatonError('not_found') for an unknown custom endpoint.
 */
export function resolveProvider(
  providerId: ProviderId,
  settings: ProviderSettings,
  target?: Pick<SendTarget, 'model' | 'api'>,
): ResolvedProvider {
  if (isBuiltin(providerId)) {
    const usual = BUILTIN[providerId];
    const api = providerId === 'google' && target ? apiForModel(target.model, providerId, target.api) : undefined;
    const b = api ? { ...usual, api } : usual;
    const custom = settings.baseUrls[providerId];
    if (!custom) return { providerId, api: b.api, origin: b.origin, originProvider: providerId };
    const origin = new URL(custom).origin;
    return {
      providerId,
      api: b.api,
      baseUrl: sdkBaseUrl(providerId, custom),
      origin,
      originProvider: providerId,
      ...(origin !== b.origin ? { endpoint: origin } : {}),
    };
  }
  const ep = settings.endpoints.find((e) => e.id === providerId);
  if (!ep) throw new BatonError('not_found', `No endpoint "${providerId}" is configured.`);
  return endpointProvider(ep);
}

function endpointProvider(ep: EndpointConfig): ResolvedProvider {
  const origin = new URL(ep.baseUrl).origin;
  return {
    providerId: ep.id,
    api: 'openai-chat',
    baseUrl: ep.baseUrl.replace(/\/+$/, ''),
    origin,
    originProvider: ep.flavor === 'generic' ? ep.id : ep.flavor,
    endpoint: origin,
  };
}

/** Custom endpoints on this machine (Ollama, LM Studio) may be used without a key; built-in providers never. */
export function keyOptional(p: ResolvedProvider): boolean {
  return !isBuiltin(p.providerId) && /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(p.origin);
}

/**
 * The key to send to `p`, only if it is bound to `p.origin` (N2).
 * @throws BatonError `no_key` when there is none or it belongs to another origin.
 */
export async function keyFor(p: ResolvedProvider, vault: Vault): Promise<string> {
  const k = await vault.getKey(p.providerId);
  if (!k) {
    if (keyOptional(p)) return '';
    throw new BatonError('no_key', `No API key is saved for ${p.providerId}. Add one in the options page.`);
  }
  if (k.boundOrigin !== p.origin)
    throw new BatonError(
      'no_key',
      `The saved ${p.providerId} key was entered for ${k.boundOrigin}; enter it again to use it with ${p.origin}.`,
    );
  return k.secret;
}

/** The converter target for a send. */
export function convertTargetFor(p: ResolvedProvider, target: SendTarget): ConvertTarget {
  return {
    api: p.api,
    model: target.model,
    provider: p.originProvider,
    ...(p.endpoint ? { endpoint: p.endpoint } : {}),
    ...(target.thinking !== undefined ? { thinking: target.thinking } : {}),
  };
}

/**
 * Marks `providerId`'s key invalid (P1: the provider answered 401; shown in the options page until
 * the key is saved again or passes "Test key"), or valid again.
 */
export async function markKeyInvalid(
  settings: Pick<SettingsStore, 'update'>,
  providerId: string,
  invalid: boolean,
): Promise<void> {
  await settings.update((s) => ({
    ...s,
    invalidKeys: invalid ? [...new Set([...s.invalidKeys, providerId])] : s.invalidKeys.filter((x) => x !== providerId),
  }));
}
