/**
 * SDK clients for one {@link ProviderConnection}: retries off (Baton's own policy is
 * `withRetries`, P1), `dangerouslyAllowBrowser` (requests go from the service worker only),
 * logging off (S4), the given fetch (redirects refused, N3), and each key only in its
 * provider's header (N2): `Authorization: Bearer` for OpenAI and compatible endpoints,
 * `x-api-key` for Anthropic, `x-goog-api-key` for Gemini — never a query parameter, never an
 * environment variable or a credentials file. The SDK classes come from `./sdk-loaders`, so the
 * extension's worker evaluates an SDK only when it first builds a client for it.
 */
import type { GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import type { AnthropicClient } from './anthropic-client';
import type { FetchLike } from './fetch';
import { loadAnthropic, loadGemini, loadOpenAI } from './sdk-loaders';
import type { ProviderConnection } from './types';

/** Default base URLs of the built-in providers (what `baseUrl: undefined` means). */
export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
} as const;

/** The Gemini API version Baton calls (thought signatures, `thinkingConfig`, `parametersJsonSchema`). */
export const GEMINI_API_VERSION = 'v1beta';

/** SDK timeout in ms; Baton's own first-byte and idle timers (P5) act long before it. */
const SDK_TIMEOUT_MS = 30 * 60_000;

/**
 * An OpenAI client (Responses, or Chat Completions for compatible endpoints). An empty key
 * (a local server that needs none) sends no `Authorization` header at all.
 */
export function createOpenAIClient(conn: ProviderConnection, fetch: FetchLike): OpenAI {
  const noKey = conn.apiKey === '';
  const OpenAIClient = loadOpenAI();
  return new OpenAIClient({
    apiKey: noKey ? 'no-key' : conn.apiKey,
    baseURL: conn.baseUrl ?? DEFAULT_BASE_URLS.openai,
    // Explicit nulls: never read OPENAI_ORG_ID / OPENAI_PROJECT_ID / admin keys from an environment.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    dangerouslyAllowBrowser: true,
    logLevel: 'off',
    fetch,
    ...(noKey ? { defaultHeaders: { Authorization: null } } : {}),
  });
}

/**
 * An Anthropic client. SDK 1.x sends `apiKey` as `Authorization: Bearer`; N2 binds the key to
 * `x-api-key` (https://docs.anthropic.com/en/api/overview#authentication), so the Bearer header
 * is removed and the key set there instead. Passing `apiKey` also keeps the SDK from looking
 * for credentials anywhere else (environment, profile files).
 */
export function createAnthropicClient(conn: ProviderConnection, fetch: FetchLike): AnthropicClient {
  const Client = loadAnthropic();
  return new Client({
    apiKey: conn.apiKey,
    baseURL: conn.baseUrl ?? DEFAULT_BASE_URLS.anthropic,
    defaultHeaders: { Authorization: null, 'x-api-key': conn.apiKey },
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    dangerouslyAllowBrowser: true,
    logLevel: 'off',
    fetch,
  });
}

/** A Gemini client (`x-goog-api-key` header, {@link GEMINI_API_VERSION}, no SDK retries). */
export function createGeminiClient(conn: ProviderConnection, fetch: FetchLike): GoogleGenAI {
  const GeminiClient = loadGemini();
  return new GeminiClient({
    apiKey: conn.apiKey,
    apiVersion: GEMINI_API_VERSION,
    httpOptions: { baseUrl: conn.baseUrl ?? DEFAULT_BASE_URLS.google, apiVersion: GEMINI_API_VERSION, fetch },
  });
}
