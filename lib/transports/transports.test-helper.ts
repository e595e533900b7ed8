/** Shared set-up of the transport tests: connections to the fake providers, assemblers, converters. */
import { createAnthropicMessagesStreamAssembler } from '../providers/anthropic-messages/read-anthropic-messages';
import { createGeminiGenerateContentStreamAssembler } from '../providers/gemini-generate-content/read-gemini-generate-content';
import { createGeminiInteractionsStreamAssembler } from '../providers/gemini-interactions/read-gemini-interactions';
import { convertTranscript } from '../providers/index';
import { createOpenAIChatStreamAssembler } from '../providers/openai-chat/read-openai-chat';
import { createOpenAIResponsesStreamAssembler } from '../providers/openai-responses/read-openai-responses';
import type { StreamAssembler } from '../providers/types';
import type { Transcript, Turn, WireApi } from '../transcript/schema';
import type { FakeApi, FakeProviders } from '../../test/fake-providers';
import { streamRequest } from './stream';
import type { ProviderConnection, StreamRequestOptions } from './types';

export const APIS: readonly WireApi[] = [
  'anthropic-messages',
  'openai-responses',
  'openai-chat',
  'gemini-generate-content',
  'gemini-interactions',
];

/** The model each API is called with in these tests. */
export const MODELS: Record<WireApi, string> = {
  'anthropic-messages': 'claude-sonnet-4-6',
  'openai-responses': 'gpt-5.5',
  'openai-chat': 'gpt-4.1-mini',
  'gemini-generate-content': 'gemini-2.5-flash',
  'gemini-interactions': 'gemini-2.5-flash',
};

/** The provider id of the turn each API produces here (`custom-local` is a compat endpoint). */
export const PROVIDERS: Record<WireApi, string> = {
  'anthropic-messages': 'anthropic',
  'openai-responses': 'openai',
  'openai-chat': 'custom-local',
  'gemini-generate-content': 'google',
  'gemini-interactions': 'google',
};

/** A connection to `fake` for `api`; Chat goes to the fake's compat endpoint with its own key. */
export function connectionFor(fake: FakeProviders, api: WireApi, apiKey?: string): ProviderConnection {
  switch (api) {
    case 'anthropic-messages':
      return { providerId: 'anthropic', api, baseUrl: fake.url, apiKey: apiKey ?? fake.keys.anthropic };
    case 'openai-responses':
      return { providerId: 'openai', api, baseUrl: fake.openaiBaseUrl, apiKey: apiKey ?? fake.keys.openai };
    case 'openai-chat':
      return { providerId: 'custom-local', api, baseUrl: `${fake.url}/compat/v1`, apiKey: apiKey ?? fake.keys.compat };
    case 'gemini-generate-content':
    case 'gemini-interactions':
      return { providerId: 'google', api, baseUrl: fake.url, apiKey: apiKey ?? fake.keys.google };
  }
}

/** A fresh stream assembler for `api`. */
export function assemblerFor(api: WireApi): StreamAssembler {
  const ctx = { provider: PROVIDERS[api], requestedModel: MODELS[api] };
  switch (api) {
    case 'anthropic-messages':
      return createAnthropicMessagesStreamAssembler(ctx);
    case 'openai-responses':
      return createOpenAIResponsesStreamAssembler(ctx);
    case 'openai-chat':
      return createOpenAIChatStreamAssembler(ctx);
    case 'gemini-generate-content':
      return createGeminiGenerateContentStreamAssembler(ctx);
    case 'gemini-interactions':
      return createGeminiInteractionsStreamAssembler(ctx);
  }
}

/** The converter's body for `transcript` on `api` (Chat converted for a generic compat endpoint). */
export function bodyFor(
  transcript: Transcript,
  api: WireApi,
  model = MODELS[api],
  thinking = false,
): Record<string, unknown> {
  const provider = api === 'openai-chat' ? 'custom-local' : undefined;
  return convertTranscript(transcript, { api, model, thinking, ...(provider ? { provider } : {}) }).body;
}

/** The fake-provider endpoint name of each wire API. */
export const FAKE_API: Record<WireApi, FakeApi> = {
  'anthropic-messages': 'anthropic-messages',
  'openai-responses': 'openai-responses',
  'openai-chat': 'openai-chat',
  'gemini-generate-content': 'gemini-generate-content',
  'gemini-interactions': 'gemini-interactions',
};

/** Result of {@link runStream}: the events, the assembled turn, and the error if the call failed. */
export interface StreamRun {
  events: unknown[];
  turn: Turn;
  error?: unknown;
}

/** Streams `body` to `conn` through `streamRequest` into an assembler; never throws. */
export async function runStream(
  conn: ProviderConnection,
  body: unknown,
  opts: Partial<StreamRequestOptions> = {},
): Promise<StreamRun> {
  const events: unknown[] = [];
  const asm = assemblerFor(conn.api);
  let error: unknown;
  try {
    await streamRequest(conn, body, {
      model: MODELS[conn.api],
      signal: new AbortController().signal,
      ...opts,
      onEvent: (e) => {
        events.push(e);
        asm.push(e);
        opts.onEvent?.(e);
      },
    });
  } catch (e) {
    error = e;
  }
  return { events, turn: asm.finish(), ...(error !== undefined ? { error } : {}) };
}

/** Every 12-character substring of `key` (key material, security-requirements.md). */
export function keyFragments(key: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 12 <= key.length; i++) out.push(key.slice(i, i + 12));
  return out;
}
