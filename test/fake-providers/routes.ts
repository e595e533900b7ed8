/**
 * Which fake endpoint a request is for, and whose key it must carry in which header (N2).
 *
 * - `POST /v1/chat/completions`, `POST /v1/responses`, `GET /v1/models` (OpenAI; Bearer key)
 * - `POST /<flavour>/v1/chat/completions`, `GET /<flavour>/v1/models` — a custom
 *   OpenAI-compatible endpoint (`compat` key); the flavour (`openrouter`, `ollama`, `mistral`,
 *   `deepseek`, `groq`, `generic`, `compat`) selects the §5 rules of the Chat validator.
 * - `POST /v1/messages`, `GET /v1/models` with `x-api-key` or `anthropic-version` (Anthropic)
 * - `POST /v1/messages/count_tokens` (Anthropic) and `POST /{v1,v1beta}/models/<model>:countTokens`
 *   (Gemini): the token-count endpoints (`count-tokens.ts`)
 * - `POST /{v1,v1beta}/models/<model>:streamGenerateContent?alt=sse` and `:generateContent`,
 *   `GET /{v1,v1beta}/models` (Gemini; `x-goog-api-key`)
 * - `POST /v1beta/interactions` (Gemini Interactions; `x-goog-api-key`; streaming when the body
 *   says `stream: true`)
 */
import type { FakeApi, KeyOwner } from './types';

/** The flavour prefixes accepted for custom Chat endpoints. */
export const CHAT_FLAVOURS: readonly string[] = [
  'compat',
  'generic',
  'openrouter',
  'ollama',
  'mistral',
  'deepseek',
  'groq',
];

/** A matched endpoint. */
export interface Route {
  api: FakeApi;
  /** Whose key is expected. */
  owner: KeyOwner;
  /** The only header that may carry that key. */
  keyHeader: 'authorization' | 'x-api-key' | 'x-goog-api-key';
  /** Gemini: model id from the URL. */
  model?: string;
  /** Gemini: `:streamGenerateContent`. */
  geminiStream?: boolean;
  /** Chat on a flavour path. */
  flavour?: string;
}

const GEMINI_CALL = /^\/(v1|v1beta)\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;
const GEMINI_COUNT = /^\/(v1|v1beta)\/models\/([^/:]+):countTokens$/;
const GEMINI_LIST = /^\/(v1|v1beta)\/models\/?$/;
const FLAVOURED = /^\/([a-z]+)\/v1\/(chat\/completions|models)\/?$/;

/** Matches a request; undefined for anything the fake does not serve. */
export function matchRoute(method: string, pathname: string, headers: Record<string, string>): Route | undefined {
  if (method === 'POST' && (pathname === '/v1beta/interactions' || pathname === '/v1beta/interactions/'))
    return { api: 'gemini-interactions', owner: 'google', keyHeader: 'x-goog-api-key' };
  const gem = GEMINI_CALL.exec(pathname);
  if (gem && method === 'POST') {
    return {
      api: 'gemini-generate-content',
      owner: 'google',
      keyHeader: 'x-goog-api-key',
      model: decodeURIComponent(gem[2]!),
      geminiStream: gem[3] === 'streamGenerateContent',
    };
  }
  const count = GEMINI_COUNT.exec(pathname);
  if (count && method === 'POST')
    return {
      api: 'gemini-count-tokens',
      owner: 'google',
      keyHeader: 'x-goog-api-key',
      model: decodeURIComponent(count[2]!),
    };
  if (method === 'GET' && GEMINI_LIST.test(pathname) && !(pathname.startsWith('/v1/') || pathname === '/v1')) {
    return { api: 'gemini-models', owner: 'google', keyHeader: 'x-goog-api-key' };
  }
  if (method === 'GET' && (pathname === '/v1/models' || pathname === '/v1/models/')) {
    // Anthropic and OpenAI share the path; the Anthropic SDK always sends these headers.
    if (headers['x-api-key'] !== undefined || headers['anthropic-version'] !== undefined)
      return { api: 'anthropic-models', owner: 'anthropic', keyHeader: 'x-api-key' };
    if (headers['x-goog-api-key'] !== undefined)
      return { api: 'gemini-models', owner: 'google', keyHeader: 'x-goog-api-key' };
    return { api: 'openai-models', owner: 'openai', keyHeader: 'authorization' };
  }
  if (method === 'POST' && pathname === '/v1/chat/completions')
    return { api: 'openai-chat', owner: 'openai', keyHeader: 'authorization' };
  if (method === 'POST' && pathname === '/v1/responses')
    return { api: 'openai-responses', owner: 'openai', keyHeader: 'authorization' };
  if (method === 'POST' && pathname === '/v1/messages/count_tokens')
    return { api: 'anthropic-count-tokens', owner: 'anthropic', keyHeader: 'x-api-key' };
  if (method === 'POST' && pathname === '/v1/messages')
    return { api: 'anthropic-messages', owner: 'anthropic', keyHeader: 'x-api-key' };
  const fl = FLAVOURED.exec(pathname);
  if (fl && CHAT_FLAVOURS.includes(fl[1]!)) {
    if (fl[2] === 'models' && method === 'GET')
      return { api: 'openai-models', owner: 'compat', keyHeader: 'authorization', flavour: fl[1]! };
    if (fl[2] === 'chat/completions' && method === 'POST')
      return { api: 'openai-chat', owner: 'compat', keyHeader: 'authorization', flavour: fl[1]! };
  }
  return undefined;
}

/** The credential a request carries in its route's header (Bearer prefix removed). */
export function presentedKey(route: Route, headers: Record<string, string>): string | undefined {
  const value = headers[route.keyHeader];
  if (value === undefined) return undefined;
  return route.keyHeader === 'authorization' ? value.replace(/^Bearer\s+/i, '') : value;
}
