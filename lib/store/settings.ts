/**
 * Provider configuration and preferences (`settings` store). Keys are not here (see lib/vault).
 */
import type { BuiltinProvider, SendTarget } from '../messaging/protocol';
import { tx, type BatonDb } from './db';

/** A custom OpenAI-compatible endpoint (OpenRouter, Ollama, LM Studio, any base URL). */
export interface EndpointConfig {
  id: string;
  name: string;
  baseUrl: string;
  flavor: 'generic' | 'openrouter' | 'ollama' | 'mistral' | 'deepseek' | 'groq';
  defaultModel?: string;
}

export interface ProviderSettings {
  /** Non-default base URLs of built-in providers (a proxy, or the fake providers in tests). */
  baseUrls: Partial<Record<BuiltinProvider, string>>;
  endpoints: EndpointConfig[];
  defaultTarget?: SendTarget;
  /** Providers whose key a provider answered 401 to (cleared when the key is saved again). */
  invalidKeys: string[];
  /** Instructions every new conversation starts with (docs/side-panel.md#instructions); absent: none. */
  defaultInstructions?: string;
}

const KEY = 'providers';
const EMPTY: ProviderSettings = { baseUrls: {}, endpoints: [], invalidKeys: [] };

export class SettingsStore {
  constructor(private readonly db: BatonDb) {}

  async get(): Promise<ProviderSettings> {
    const rec = await this.db.get('settings', KEY);
    return rec ? { ...EMPTY, ...(rec.value as ProviderSettings) } : structuredClone(EMPTY);
  }

  /** Read-modify-write in one transaction, so concurrent updates don't lose each other. */
  async update(change: (s: ProviderSettings) => ProviderSettings): Promise<ProviderSettings> {
    return tx(this.db, ['settings'], 'readwrite', async (t) => {
      const rec = await t.objectStore('settings').get(KEY);
      const next = change(rec ? { ...EMPTY, ...(rec.value as ProviderSettings) } : structuredClone(EMPTY));
      await t.objectStore('settings').put({ key: KEY, value: next });
      return next;
    });
  }
}
