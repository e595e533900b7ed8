/**
 * The options page's requests: provider statuses and the default target, keys (save, delete,
 * test), base URLs and custom endpoints (N1, N4), the models of a provider, and deleting all data.
 * `createHandlers` spreads them in; payloads arrive parsed and sender-checked by the router.
 */
import type { ProviderStatus } from '../../messaging/protocol';
import { checkEndpointUrl } from '../../messaging/endpoint-url';
import { BatonError } from '../../messaging/errors';
import { assertHostGranted } from '../core/guards';
import { pickerModels } from '../../models/picker';
import { defaultModelFor, lookupModel } from '../../models/registry';
import type { ProviderSettings } from '../../store/settings';
import type { Vault } from '../../vault/vault';
import type { BackgroundDeps } from '../core/deps';
import { BUILTIN, isBuiltin, markKeyInvalid, resolveProvider, type ResolvedProvider } from '../core/providers';
import type { Handlers } from '../core/router';

type SettingsHandlers = Pick<
  Handlers,
  | 'getSettings'
  | 'setDefaultTarget'
  | 'setKey'
  | 'deleteKey'
  | 'testKey'
  | 'setBaseUrl'
  | 'saveEndpoint'
  | 'deleteEndpoint'
  | 'listModels'
  | 'deleteAllData'
  | 'getModelInfo'
>;

export type SettingsHandlerDeps = Pick<
  BackgroundDeps,
  'settings' | 'vault' | 'transport' | 'hasHostPermission' | 'now' | 'newId'
> & {
  /** Deletes every database record (keys included). */
  wipe(): Promise<void>;
};

/**
 * Custom endpoint URLs must be https unless local, without credentials (N4; the rule is
 * `checkEndpointUrl`, shared with the options page). @throws BatonError bad_request
 */
export function endpointUrl(url: string): URL {
  const check = checkEndpointUrl(url);
  if (!check.ok) throw new BatonError('bad_request', check.message);
  return new URL(check.url);
}

async function statusOf(
  p: ResolvedProvider,
  name: string,
  settings: ProviderSettings,
  vault: Vault,
  extra: Partial<ProviderStatus> = {},
): Promise<ProviderStatus> {
  // describe, not getKey: the status lists keys (without masks) while Baton is locked (S3).
  const k = await vault.describe(p.providerId);
  return {
    id: p.providerId,
    name,
    api: p.api,
    ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
    hasKey: k !== undefined,
    ...(k?.masked ? { maskedKey: k.masked } : {}),
    ...(k && k.boundOrigin !== p.origin ? { keyUnbound: true } : {}),
    ...(settings.invalidKeys.includes(p.providerId) ? { keyInvalid: true } : {}),
    ...extra,
  };
}

/** The options page's handlers. */
export function settingsHandlers(d: SettingsHandlerDeps): SettingsHandlers {
  const providerStatuses = async (): Promise<ProviderStatus[]> => {
    const s = await d.settings.get();
    const out: ProviderStatus[] = [];
    for (const id of Object.keys(BUILTIN) as (keyof typeof BUILTIN)[]) {
      // A built-in provider's default is the registry's default model (defaultModelFor), so a picker never starts empty.
      const recommended = defaultModelFor(id);
      out.push(
        await statusOf(
          resolveProvider(id, s),
          BUILTIN[id].name,
          s,
          d.vault,
          recommended ? { defaultModel: recommended } : {},
        ),
      );
    }
    for (const ep of s.endpoints)
      out.push(
        await statusOf(resolveProvider(ep.id, s), ep.name, s, d.vault, {
          flavor: ep.flavor,
          ...(ep.defaultModel ? { defaultModel: ep.defaultModel } : {}),
        }),
      );
    return out;
  };
  const statusFor = async (id: string): Promise<ProviderStatus> => {
    const found = (await providerStatuses()).find((p) => p.id === id);
    if (!found) throw new BatonError('not_found', `No provider "${id}".`);
    return found;
  };

  return {
    getSettings: async () => {
      const s = await d.settings.get();
      return { providers: await providerStatuses(), ...(s.defaultTarget ? { defaultTarget: s.defaultTarget } : {}) };
    },
    setDefaultTarget: async ({ target }) => {
      await d.settings.update((s) => ({ ...s, defaultTarget: target }));
      return null;
    },
    setKey: async ({ providerId, key }) => {
      const p = resolveProvider(providerId, await d.settings.get());
      // The key is bound to the origin the provider points at now (N2).
      await d.vault.setKey(providerId, key.trim(), p.origin, d.now());
      await markKeyInvalid(d.settings, providerId, false);
      return statusFor(providerId);
    },
    deleteKey: async ({ providerId }) => {
      await d.vault.deleteKey(providerId);
      return null;
    },
    testKey: async ({ providerId }) => {
      const s = await d.settings.get();
      const p = resolveProvider(providerId, s);
      const k = await d.vault.getKey(providerId);
      if (!k || k.boundOrigin !== p.origin) return { ok: false, message: 'No key saved for this endpoint.' };
      try {
        const models = await d.transport.listModels({
          providerId,
          api: p.api,
          apiKey: k.secret,
          ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
        });
        await markKeyInvalid(d.settings, providerId, false);
        return { ok: true, message: `The key works (${models.length} models available).` };
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'invalid_key') await markKeyInvalid(d.settings, providerId, true);
        return {
          ok: false,
          message:
            code === 'invalid_key'
              ? 'The provider rejected this key.'
              : 'Could not reach the provider to test the key.',
        };
      }
    },
    setBaseUrl: async ({ providerId, baseUrl }) => {
      if (baseUrl !== null) {
        const u = endpointUrl(baseUrl);
        // Saved only after its host permission was granted from the click that saves it (N1).
        if (u.origin !== BUILTIN[providerId].origin) await assertHostGranted(u.origin, (o) => d.hasHostPermission(o));
      }
      await d.settings.update((s) => {
        const baseUrls = { ...s.baseUrls };
        if (baseUrl === null) delete baseUrls[providerId];
        else baseUrls[providerId] = baseUrl;
        return { ...s, baseUrls };
      });
      return statusFor(providerId);
    },
    saveEndpoint: async (input) => {
      const u = endpointUrl(input.baseUrl);
      await assertHostGranted(u.origin, (o) => d.hasHostPermission(o));
      const id =
        input.id ??
        `custom-${d
          .newId()
          .replace(/[^a-z0-9]/gi, '')
          .toLowerCase()
          .slice(0, 12)}`;
      if (isBuiltin(id)) throw new BatonError('bad_request', 'Built-in providers are configured with setBaseUrl.');
      await d.settings.update((s) => ({
        ...s,
        endpoints: [
          ...s.endpoints.filter((e) => e.id !== id),
          {
            id,
            name: input.name,
            baseUrl: input.baseUrl,
            flavor: input.flavor,
            ...(input.defaultModel ? { defaultModel: input.defaultModel } : {}),
          },
        ],
      }));
      return statusFor(id);
    },
    deleteEndpoint: async ({ id }) => {
      await d.settings.update((s) => ({ ...s, endpoints: s.endpoints.filter((e) => e.id !== id) }));
      await d.vault.deleteKey(id);
      return null;
    },
    listModels: async ({ providerId }) => {
      const s = await d.settings.get();
      const p = resolveProvider(providerId, s);
      const k = await d.vault.getKey(providerId);
      if (!k || k.boundOrigin !== p.origin) throw new BatonError('no_key', 'Add a key for this provider first.');
      const models = await d.transport.listModels({
        providerId,
        api: p.api,
        apiKey: k.secret,
        ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
      });
      // The provider's list with the registry's names, windows, prices and badges, then the
      // registry's current models it did not list (built-in providers only).
      return pickerModels(
        models.map((m) => m.id),
        p.originProvider,
        isBuiltin(providerId),
      );
    },
    deleteAllData: async () => {
      await d.wipe();
      return null;
    },
    getModelInfo: async ({ providerId, model }) => {
      const p = resolveProvider(providerId, await d.settings.get());
      const info = lookupModel(model, p.originProvider);
      return { vision: info.vision, pdf: info.pdf, contextWindow: info.contextWindow, known: info.known };
    },
  };
}
