/**
 * The protocol implemented as one object of handlers (DESIGN.md, "Style to follow" 2). Payloads
 * arrive parsed and sender-checked by the router.
 */
import type { ProviderStatus, Responses, SendTarget } from '../messaging/protocol';
import { lookupModel } from '../models/registry';
import { CHROME_PROMPT_API, CHROME_PROMPT_MODEL, CHROME_PROMPT_PROVIDER, convertToChromePrompt } from '../providers/chrome-prompt/convert-to-chrome-prompt';
import type { Turn } from '../transcript/schema';
import type { ConversationStore } from '../store/conversations';
import type { ProviderSettings, SettingsStore } from '../store/settings';
import type { Vault } from '../vault/vault';
import { BatonError } from './errors';
import { countHandlers } from './handlers-count';
import { disclosureHandlers } from './handlers-disclosure';
import { summaryHandlers } from './handlers-summary';
import { createVaultHandlers } from './handlers-vault';
import { createTransferHandlers, endpointNames, type TransferDeps } from './handlers-transfer';
import { captureHandlers } from './handlers-capture';
import { getConversationWindow } from './handlers-window';
import type { CaptureService } from './capture';
import { BUILTIN, isBuiltin, keyFor, resolveProvider, type ResolvedProvider } from './providers';
import { confirmationOf, planResend, turnAttachments } from './resend';
import type { Handlers } from './router';
import type { SendEngine } from './send';
import type { Transport } from './transport';

export interface HandlerDeps {
  store: ConversationStore;
  settings: SettingsStore;
  vault: Vault;
  engine: SendEngine;
  transport: Transport;
  hasHostPermission(origin: string): Promise<boolean>;
  now(): string;
  newId(): string;
  /** Deletes every database record (keys included). */
  wipe(): Promise<void>;
  /** Tells open pages about changes made outside a send (imported conversations). */
  broadcast?: TransferDeps['broadcast'];
  /** Capture from chat pages (issue 7); without it the capture requests refuse. */
  capture?: CaptureService;
}

/** Custom endpoint URLs must be https unless local (N4). @throws BatonError bad_request */
export function checkEndpointUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BatonError('bad_request', `Not a URL: ${url.slice(0, 200)}`);
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && local))
    throw new BatonError('bad_request', 'Endpoints must use https:// (http:// only for localhost, 127.0.0.1 or [::1]).');
  if (u.username || u.password) throw new BatonError('bad_request', 'Put credentials in the key field, not in the URL.');
  return u;
}

async function statusOf(p: ResolvedProvider, name: string, settings: ProviderSettings, vault: Vault, extra: Partial<ProviderStatus> = {}): Promise<ProviderStatus> {
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

export function createHandlers(d: HandlerDeps): Handlers {
  const providerStatuses = async (): Promise<ProviderStatus[]> => {
    const s = await d.settings.get();
    const out: ProviderStatus[] = [];
    for (const id of Object.keys(BUILTIN) as (keyof typeof BUILTIN)[]) out.push(await statusOf(resolveProvider(id, s), BUILTIN[id].name, s, d.vault));
    for (const ep of s.endpoints)
      out.push(await statusOf(resolveProvider(ep.id, s), ep.name, s, d.vault, { flavor: ep.flavor, ...(ep.defaultModel ? { defaultModel: ep.defaultModel } : {}) }));
    return out;
  };
  const statusFor = async (id: string): Promise<ProviderStatus> => {
    const found = (await providerStatuses()).find((p) => p.id === id);
    if (!found) throw new BatonError('not_found', `No provider "${id}".`);
    return found;
  };

  /**
   * The checks a send makes before it starts (the engine's own `connect`), run before turns are
   * removed, so a regenerate or edit that cannot be sent removes nothing.
   * @throws BatonError `busy`, `endpoint_not_permitted`, `no_key`
   */
  const checkSendable = async (conversationId: string, target: SendTarget): Promise<void> => {
    if (d.engine.isBusy(conversationId)) throw new BatonError('busy', 'An answer is still streaming in this conversation.');
    const p = resolveProvider(target.providerId, await d.settings.get());
    if (p.baseUrl && !(await d.hasHostPermission(p.origin))) throw new BatonError('endpoint_not_permitted', `Baton has no permission to reach ${p.origin}. Grant it in the options page.`);
    await keyFor(p, d.vault);
  };
  const turnsOf = async (conversationId: string) => {
    if (!(await d.store.getRecord(conversationId))) throw new BatonError('not_found', 'This conversation no longer exists.');
    return (await d.store.get(conversationId)).turns;
  };

  return {
    // Issue 14: Markdown names a custom endpoint by its name.
    ...createTransferHandlers({ ...d, originNames: async () => endpointNames((await d.settings.get()).endpoints) }),
    ...captureHandlers(d.capture),
    ...createVaultHandlers(d),
    ...summaryHandlers(d),
    listConversations: () => d.store.list(),
    getConversation: (p) => getConversationWindow(d.store, p, d.engine.isBusy(p.id)),
    createConversation: async ({ title, target }) =>
      d.store.create({ id: d.newId(), now: d.now(), ...(title ? { title } : {}), ...(target ? { lastTarget: target } : {}) }),
    renameConversation: ({ id, title }) => d.store.update(id, { title }),
    deleteConversation: async ({ id }) => {
      d.engine.stop(id);
      await d.engine.settled(id);
      await d.store.delete(id);
      return null;
    },
    // Issue 6: a first disclosure to a provider needs `confirmedDisclosure: true` (with `confirmedFor`: for that provider only); exclusions leave turns or blocks out.
    sendMessage: (p) =>
      d.engine.send({
        conversationId: p.conversationId,
        text: p.text,
        target: p.target,
        ...(p.attachments ? { attachments: p.attachments } : {}),
        confirmed: confirmationOf(p),
        exclusions: { excludeTurns: p.excludeTurns, excludeBlocks: p.excludeBlocks },
      }),
    retryTurn: async (p) => {
      await d.engine.retry({ conversationId: p.conversationId, target: p.target, confirmed: confirmationOf(p) });
      return null;
    },
    stopGeneration: async ({ conversationId }) => {
      d.engine.stop(conversationId);
      return null;
    },
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
      await d.settings.update((s) => ({ ...s, invalidKeys: s.invalidKeys.filter((x) => x !== providerId) }));
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
        const models = await d.transport.listModels({ providerId, api: p.api, apiKey: k.secret, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}) });
        await d.settings.update((x) => ({ ...x, invalidKeys: x.invalidKeys.filter((i) => i !== providerId) }));
        return { ok: true, message: `The key works (${models.length} models available).` };
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'invalid_key') await d.settings.update((x) => ({ ...x, invalidKeys: [...new Set([...x.invalidKeys, providerId])] }));
        return { ok: false, message: code === 'invalid_key' ? 'The provider rejected this key.' : 'Could not reach the provider to test the key.' };
      }
    },
    setBaseUrl: async ({ providerId, baseUrl }) => {
      if (baseUrl !== null) {
        const u = checkEndpointUrl(baseUrl);
        // Saved only after its host permission was granted from the click that saves it (N1).
        if (u.origin !== BUILTIN[providerId].origin && !(await d.hasHostPermission(u.origin)))
          throw new BatonError('endpoint_not_permitted', `Permission to reach ${u.origin} was not granted.`);
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
      const u = checkEndpointUrl(input.baseUrl);
      if (!(await d.hasHostPermission(u.origin))) throw new BatonError('endpoint_not_permitted', `Permission to reach ${u.origin} was not granted.`);
      const id = input.id ?? `custom-${d.newId().replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 12)}`;
      if (isBuiltin(id)) throw new BatonError('bad_request', 'Built-in providers are configured with setBaseUrl.');
      await d.settings.update((s) => ({
        ...s,
        endpoints: [
          ...s.endpoints.filter((e) => e.id !== id),
          { id, name: input.name, baseUrl: input.baseUrl, flavor: input.flavor, ...(input.defaultModel ? { defaultModel: input.defaultModel } : {}) },
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
      const models = await d.transport.listModels({ providerId, api: p.api, apiKey: k.secret, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}) });
      return models.map((m) => {
        const info = lookupModel(m.id, p.originProvider);
        return { id: m.id, ...(info.known ? { contextWindow: info.contextWindow, vision: info.vision } : {}) };
      });
    },
    deleteAllData: async () => {
      await d.wipe();
      return null;
    },
    // Issue 6: like sendMessage, a first disclosure needs `confirmedDisclosure: true`; the engine
    // removes the replaced turns only once the send is accepted.
    regenerateTurn: async (p) => {
      const { conversationId, target } = p;
      const turns = await turnsOf(conversationId);
      planResend(turns, { kind: 'regenerate' });
      await checkSendable(conversationId, target);
      // The engine removes the last answer and answers the last user turn without adding one.
      await d.engine.retry({ conversationId, target, kind: 'regenerate', confirmed: confirmationOf(p) });
      return null;
    },
    editAndResend: async (p) => {
      const { conversationId, turnId, text, target } = p;
      const turns = await turnsOf(conversationId);
      planResend(turns, { kind: 'edit', turnId });
      const attachments = turnAttachments(turns.find((t) => t.id === turnId)!);
      if (!text.trim() && attachments.length === 0) throw new BatonError('bad_request', 'Nothing to send.');
      await checkSendable(conversationId, target);
      return d.engine.send({ conversationId, text, target, ...(attachments.length ? { attachments } : {}), confirmed: confirmationOf(p), replaceFrom: turnId });
    },
    pinConversation: async ({ id, pinned }) => {
      if (!(await d.store.getRecord(id))) throw new BatonError('not_found', 'This conversation no longer exists.');
      return d.store.update(id, { pinned });
    },
    startOnDevice: async ({ conversationId, text }) => {
      if (d.engine.isBusy(conversationId)) throw new BatonError('busy', 'An answer is still streaming in this conversation.');
      const record = await d.store.getRecord(conversationId);
      if (!record) throw new BatonError('not_found', 'This conversation no longer exists.');
      if (!text.trim()) throw new BatonError('bad_request', 'Nothing to send.');
      const now = d.now();
      const userTurn: Turn = { id: d.newId(), role: 'user', createdAt: now, blocks: [{ type: 'text', text }] };
      const title = record.turnCount === 0 ? text.replace(/\s+/g, ' ').trim().slice(0, 60) : undefined;
      await d.store.appendTurn(conversationId, userTurn, now, title ? { title } : {});
      const { body, report } = convertToChromePrompt(await d.store.toTranscript(conversationId));
      const answerTurn: Turn = {
        id: d.newId(),
        role: 'assistant',
        origin: { provider: CHROME_PROMPT_PROVIDER, api: CHROME_PROMPT_API, model: CHROME_PROMPT_MODEL },
        createdAt: now,
        status: 'streaming',
        blocks: [],
      };
      const meta = await d.store.appendTurn(conversationId, answerTurn, now);
      return { userTurn, answerTurn, meta, body, warnings: report.warnings };
    },
    saveOnDeviceAnswer: async ({ conversationId, turnId, text, status, error }) => {
      const turns = await turnsOf(conversationId);
      const t = turns.find((x) => x.id === turnId);
      // Only an on-device answer can be written this way: never a provider's turn or a user's.
      if (!t || t.role !== 'assistant' || t.origin?.api !== CHROME_PROMPT_API) throw new BatonError('not_found', 'No on-device answer with this id.');
      const turn: Turn = {
        ...t,
        status,
        blocks: text ? [{ type: 'text', text }] : [],
        ...(status === 'error' ? { error: { type: 'provider_error', message: (error ?? 'The on-device model failed.').slice(0, 500) } } : {}),
      };
      return d.store.putTurn(conversationId, turn, d.now());
    },
    getModelInfo: async ({ providerId, model }) => {
      const p = resolveProvider(providerId, await d.settings.get());
      const info = lookupModel(model, p.originProvider);
      return { vision: info.vision, pdf: info.pdf, contextWindow: info.contextWindow, known: info.known };
    },
    ...disclosureHandlers({ store: d.store, engine: d.engine }),
    ...countHandlers(d),
  } satisfies Handlers as Handlers & Record<keyof Responses, unknown>;
}
