/**
 * The options page's model: keys, base URLs, custom endpoints, the default target and "delete
 * all data", over a {@link Connector}. Host permissions come from an injected {@link PermissionsLike}
 * and are requested FIRST, synchronously inside the click, before any await (N1: Chrome and
 * Firefox only prompt from a user gesture); a URL is checked (N4) before anything is asked.
 */
import type { Connector } from '../messaging/client';
import type { ProtocolError, ProviderStatus, SendTarget, Settings } from '../messaging/protocol';
import { describeError } from './error-text';
import { checkEndpointUrl, DEFAULT_API_ORIGINS } from '../messaging/endpoint-url';
import { Store } from './store';
import { toProtocolError } from './targets';
import { withoutRuleIds } from './rule-ids';

/** The part of `browser.permissions` the page uses. */
export interface PermissionsLike {
  request(p: { origins: string[] }): Promise<boolean>;
}

/** A line of feedback shown next to the control it concerns. Plain text only. */
export interface Note {
  kind: 'ok' | 'error' | 'info';
  text: string;
  /**
   * A state rather than an event (a key test's outcome): it stays until the next note for the same
   * control replaces it. Other success notes clear themselves (docs/side-panel.md, "The options page").
   */
  persist?: boolean;
}

export type EndpointFlavor = 'generic' | 'openrouter' | 'ollama' | 'mistral' | 'deepseek' | 'groq';
export const ENDPOINT_FLAVORS: readonly EndpointFlavor[] = [
  'generic',
  'openrouter',
  'ollama',
  'mistral',
  'deepseek',
  'groq',
];

export interface EndpointDraft {
  name: string;
  baseUrl: string;
  flavor: EndpointFlavor;
  defaultModel: string;
}

export interface OptionsState {
  settings?: Settings;
  loading: boolean;
  loadError?: ProtocolError;
  /** Feedback per section: a provider id, or `endpoint`, `default`, `delete`. */
  notes: Record<string, Note | undefined>;
  confirmingDelete: boolean;
}

const isBuiltinId = (id: string) => id in DEFAULT_API_ORIGINS;

function errorNote(e: unknown): Note {
  const t = describeError(toProtocolError(e));
  return { kind: 'error', text: t.detail ? `${t.sentence} (${t.detail})` : t.sentence };
}

export class OptionsModel extends Store<OptionsState> {
  constructor(
    private readonly connector: Connector,
    private readonly permissions: PermissionsLike,
  ) {
    super({ loading: true, notes: {}, confirmingDelete: false });
  }

  async load(): Promise<void> {
    try {
      const settings = await this.connector.request('getSettings', {});
      this.set({ settings, loading: false, loadError: undefined });
    } catch (e) {
      this.set({ loading: false, loadError: toProtocolError(e) });
    }
  }

  private note(key: string, note: Note | undefined): void {
    this.set((s) => ({ notes: { ...s.notes, [key]: note } }));
  }

  private replaceProvider(status: ProviderStatus): void {
    this.set((s) => {
      if (!s.settings) return {};
      const exists = s.settings.providers.some((p) => p.id === status.id);
      const providers = exists
        ? s.settings.providers.map((p) => (p.id === status.id ? status : p))
        : [...s.settings.providers, status];
      return { settings: { ...s.settings, providers } };
    });
  }

  /** Saves a key; the reply carries only its masked form (S5). Resolves true when saved. */
  async saveKey(providerId: string, key: string): Promise<boolean> {
    const trimmed = key.trim();
    if (!trimmed) {
      this.note(providerId, { kind: 'error', text: 'Paste a key first.' });
      return false;
    }
    try {
      const status = await this.connector.request('setKey', { providerId, key: trimmed });
      this.replaceProvider(status);
      this.note(providerId, { kind: 'ok', text: `Key saved (${status.maskedKey ?? 'hidden'}).` });
      return true;
    } catch (e) {
      this.note(providerId, errorNote(e));
      return false;
    }
  }

  async testKey(providerId: string): Promise<void> {
    this.note(providerId, { kind: 'info', text: 'Testing the key…' });
    try {
      const r = await this.connector.request('testKey', { providerId });
      this.note(providerId, { kind: r.ok ? 'ok' : 'error', text: withoutRuleIds(r.message), persist: true });
    } catch (e) {
      this.note(providerId, errorNote(e));
    }
  }

  async deleteKey(providerId: string): Promise<void> {
    try {
      await this.connector.request('deleteKey', { providerId });
      await this.load();
      this.note(providerId, { kind: 'ok', text: 'Key deleted.' });
    } catch (e) {
      this.note(providerId, errorNote(e));
    }
  }

  /**
   * Saves a built-in provider's base URL (empty = back to the default). For a non-default origin
   * the host permission is requested first, synchronously in the click (N1); when refused,
   * nothing is saved and nothing will be sent there.
   */
  async saveBaseUrl(providerId: string, raw: string): Promise<void> {
    if (!raw.trim()) return this.resetBaseUrl(providerId);
    const check = checkEndpointUrl(raw);
    if (!check.ok) return this.note(providerId, { kind: 'error', text: check.message });
    if (check.origin !== DEFAULT_API_ORIGINS[providerId]) {
      // Visible at once (docs/side-panel.md): the browser's permission prompt may take a while, or not show at all.
      this.note(providerId, { kind: 'info', text: `Asking your browser for permission to reach ${check.origin}…` });
      // N1: the first await of this click; nothing may come before it.
      const granted = await this.permissions.request({ origins: [`${check.origin}/*`] }).catch(() => false);
      if (!granted)
        return this.note(providerId, {
          kind: 'error',
          text: `Permission to reach ${check.origin} was not granted, so the base URL was not saved and nothing will be sent there.`,
        });
    }
    try {
      const status = await this.connector.request('setBaseUrl', {
        providerId: providerId as 'openai',
        baseUrl: check.url,
      });
      this.replaceProvider(status);
      this.note(providerId, {
        kind: 'ok',
        text:
          `Base URL saved: ${check.url}` +
          (status.keyUnbound ? '. Enter the key again to use it with this address.' : '.'),
      });
    } catch (e) {
      this.note(providerId, errorNote(e));
    }
  }

  async resetBaseUrl(providerId: string): Promise<void> {
    try {
      const status = await this.connector.request('setBaseUrl', { providerId: providerId as 'openai', baseUrl: null });
      this.replaceProvider(status);
      this.note(providerId, { kind: 'ok', text: 'Back to the default address.' });
    } catch (e) {
      this.note(providerId, errorNote(e));
    }
  }

  /**
   * Adds a custom OpenAI-compatible endpoint: the URL is checked first (N4: https, or http only
   * on this machine), then its host permission is requested in the click (N1), then it is saved.
   * Resolves true when added.
   */
  async addEndpoint(d: EndpointDraft): Promise<boolean> {
    const check = checkEndpointUrl(d.baseUrl);
    if (!check.ok) {
      this.note('endpoint', { kind: 'error', text: check.message });
      return false;
    }
    const name = d.name.trim();
    if (!name) {
      this.note('endpoint', { kind: 'error', text: 'Give the endpoint a name.' });
      return false;
    }
    const granted = await this.permissions.request({ origins: [`${check.origin}/*`] }).catch(() => false);
    if (!granted) {
      this.note('endpoint', {
        kind: 'error',
        text: `Permission to reach ${check.origin} was not granted, so the endpoint was not added and nothing will be sent there.`,
      });
      return false;
    }
    try {
      const model = d.defaultModel.trim();
      const status = await this.connector.request('saveEndpoint', {
        name,
        baseUrl: check.url,
        flavor: d.flavor,
        ...(model ? { defaultModel: model } : {}),
      });
      this.replaceProvider(status);
      this.note('endpoint', { kind: 'ok', text: `Endpoint "${status.name}" added.` });
      return true;
    } catch (e) {
      this.note('endpoint', errorNote(e));
      return false;
    }
  }

  async deleteEndpoint(id: string): Promise<void> {
    try {
      await this.connector.request('deleteEndpoint', { id });
      await this.load();
      this.note('endpoint', { kind: 'ok', text: 'Endpoint deleted.' });
    } catch (e) {
      this.note(id, errorNote(e));
    }
  }

  async saveDefault(providerId: string, model: string): Promise<void> {
    const m = model.trim();
    if (!providerId || !m)
      return this.note('default', { kind: 'error', text: 'Choose a provider and type a model id.' });
    const target: SendTarget = { providerId, model: m };
    try {
      await this.connector.request('setDefaultTarget', { target });
      this.set((s) => (s.settings ? { settings: { ...s.settings, defaultTarget: target } } : {}));
      this.note('default', { kind: 'ok', text: 'Default saved.' });
    } catch (e) {
      this.note('default', errorNote(e));
    }
  }

  askDeleteAll(): void {
    this.set({ confirmingDelete: true });
  }

  cancelDeleteAll(): void {
    this.set({ confirmingDelete: false });
  }

  /** Deletes every conversation, key and setting; only after {@link askDeleteAll}. */
  async deleteAll(): Promise<void> {
    if (!this.state.confirmingDelete) return;
    try {
      await this.connector.request('deleteAllData', { confirm: true });
      this.set({ confirmingDelete: false, notes: {} });
      await this.load();
      this.note('delete', { kind: 'ok', text: 'All data deleted.' });
    } catch (e) {
      this.set({ confirmingDelete: false });
      this.note('delete', errorNote(e));
    }
  }

  /** Whether `id` is a built-in provider (which has a base URL field). */
  static isBuiltin(id: string): boolean {
    return isBuiltinId(id);
  }
}
