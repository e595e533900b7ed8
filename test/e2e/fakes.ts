/**
 * The fake providers as the e2e suite uses them: one server per provider, so each provider has
 * its own origin (`127.0.0.1:<port>`) and N2 (a key goes only to its own origin) can be checked
 * per origin; plus helpers that judge the recorded requests and scan text for key material.
 */
import { expect } from 'vitest';
import { CONVERTER_CONTRACT_RULES } from '../contract';
import {
  startFakeProviders,
  type FakeApi,
  type FakeKeys,
  type FakeProviders,
  type RecordedRequest,
} from '../fake-providers';

/** The keys of the whole suite: distinctive, so any 5- or 12-character piece of one is recognisable. */
export const E2E_KEYS: FakeKeys = {
  openai: 'sk-Qm4vT8zL2xN7pR5wK9cJ3hB6',
  anthropic: 'sk-ant-Wd2Yf6Gk8Ls4Pq9Tz3Xv7Nb',
  google: 'AIzaHr5Jm9Ct3Vx7Bn2Kq6Ws8LpEe',
  compat: 'sk-cmp-Zy4Ux8Fe2Ra6Mo9Ti5Gh1Dc',
};

export type BuiltinId = 'openai' | 'anthropic' | 'google';

/** Display names in the options page and the provider picker. */
export const PROVIDER_NAMES: Record<BuiltinId, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
};

/** One fake server per provider (and one for a custom endpoint). */
export interface FakeSet {
  openai: FakeProviders;
  anthropic: FakeProviders;
  google: FakeProviders;
  custom: FakeProviders;
  /** The base URL each built-in provider is pointed at. */
  baseUrls: Record<BuiltinId, string>;
  /** The custom endpoint's base URL (an OpenAI-compatible `…/compat/v1`). */
  customBaseUrl: string;
  all(): FakeProviders[];
  reset(): void;
  close(): Promise<void>;
}

/** Starts four fake servers that judge every body (CONVERTER_CONTRACT_RULES recorded but not rejected). */
export async function startFakes(): Promise<FakeSet> {
  const start = () => startFakeProviders({ ignoreRules: [...CONVERTER_CONTRACT_RULES], keys: E2E_KEYS });
  const [openai, anthropic, google, custom] = await Promise.all([start(), start(), start(), start()]);
  const all = () => [openai, anthropic, google, custom];
  return {
    openai,
    anthropic,
    google,
    custom,
    baseUrls: { openai: openai.openaiBaseUrl, anthropic: anthropic.url, google: google.url },
    customBaseUrl: `${custom.url}/compat/v1`,
    all,
    reset: () => all().forEach((f) => f.reset()),
    close: async () => void (await Promise.all(all().map((f) => f.close()))),
  };
}

/** The recorded POSTs (the sends, not the model lists), optionally of one API. */
export function posts(fake: FakeProviders, api?: FakeApi): RecordedRequest[] {
  return fake.requests.filter((r) => r.method === 'POST' && (api === undefined || r.api === api));
}

/** A request passed its provider's contract validator (apart from Baton's own converter rules). */
export function expectValid(r: RecordedRequest): void {
  expect(
    r.violations.filter((v) => !CONVERTER_CONTRACT_RULES.has(v.rule)),
    `${r.api} ${r.path}`,
  ).toEqual([]);
  expect(r.keyViolations, `${r.api} ${r.path}`).toEqual([]);
}

/** Every `n`-character substring of `key` ("key material" for n = 12, security-requirements.md). */
export function keyPieces(key: string, n = 12): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= key.length; i++) out.push(key.slice(i, i + n));
  return out;
}

/** The pieces of any key (default: the suite's keys) found in `text`, as `provider: piece`. */
export function findKeyMaterial(text: string, n = 12, keys: Partial<FakeKeys> = E2E_KEYS): string[] {
  const found: string[] = [];
  for (const [owner, key] of Object.entries(keys))
    for (const p of keyPieces(key, n)) if (text.includes(p)) found.push(`${owner}: ${p}`);
  return found;
}

/**
 * N2 per origin: every request to a built-in provider's server carries only that provider's
 * key, in its own header (never `?key=`), and the custom endpoint's server sees only the
 * custom key (or none). Returns the number of requests checked.
 */
export function expectKeysOnlyToTheirOrigins(fakes: FakeSet): number {
  const owners: [FakeProviders, keyof FakeKeys][] = [
    [fakes.openai, 'openai'],
    [fakes.anthropic, 'anthropic'],
    [fakes.google, 'google'],
    [fakes.custom, 'compat'],
  ];
  let checked = 0;
  for (const [fake, owner] of owners) {
    for (const r of fake.requests) {
      checked++;
      expect(r.keyViolations, `${owner} server ${r.method} ${r.path}`).toEqual([]);
      expect(Object.keys(r.query), `${owner} server ${r.path}`).not.toContain('key');
      const { [owner]: _own, ...others } = E2E_KEYS;
      const seen = JSON.stringify({ headers: r.headers, query: r.query, path: r.path, body: r.body });
      expect(findKeyMaterial(seen, 12, others), `${owner} server ${r.method} ${r.path}`).toEqual([]);
    }
  }
  return checked;
}
