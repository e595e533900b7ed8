/**
 * Provider contract validators (test oracles): judge a request body the way the real API would,
 * plus Baton's converter contract. Written from ../shared/docs/provider-rules.md only; nothing
 * here imports `lib/`.
 */
import { validateAnthropicMessagesRequest } from './anthropic-messages';
import { validateGeminiGenerateContentRequest } from './gemini-generate-content';
import { validateGeminiInteractionsRequest } from './gemini-interactions';
import { validateOpenAIChatRequest } from './openai-chat';
import { validateOpenAIResponsesRequest } from './openai-responses';
import type { Violation } from './types';

export type { Violation } from './types';
export {
  CONVERTER_CONTRACT_RULES,
  hasLoneSurrogate,
  PORTABLE_TOOL_CALL_ID,
  PORTABLE_TOOL_NAME,
  MISTRAL_TOOL_CALL_ID,
} from './common';
export { validateAnthropicMessagesRequest, type AnthropicValidateOptions } from './anthropic-messages';
export { validateOpenAIChatRequest, type OpenAIChatValidateOptions } from './openai-chat';
export { validateOpenAIResponsesRequest, type OpenAIResponsesValidateOptions } from './openai-responses';
export { validateGeminiGenerateContentRequest, isGemini3, type GeminiValidateOptions } from './gemini-generate-content';
export {
  validateGeminiInteractionsRequest,
  GI_P1_API_MESSAGE,
  GI_T2_API_MESSAGE,
  type GeminiInteractionsValidateOptions,
} from './gemini-interactions';

/** The wire APIs that have a validator. */
export type ContractApi =
  'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'gemini-generate-content' | 'gemini-interactions';

/** Union of the per-API options; each validator reads the fields it knows. */
export interface ValidateRequestOptions {
  /** Anthropic: thinking enabled when the body has no `thinking` field. */
  thinking?: boolean;
  /** Chat Completions: the backend (openai, mistral, deepseek, groq, openrouter, ollama). */
  provider?: string;
  /** Anthropic, Chat, Responses: require `stream: true` (default `true`). */
  stream?: boolean;
  /** Gemini: model id from the URL; falls back to a string `body.model`. */
  model?: string;
  /** Gemini: the request goes to Vertex AI. */
  vertex?: boolean;
  /** Anthropic: the request's `anthropic-beta` values, when known (A-B3, A-P2). */
  anthropicBetas?: readonly string[];
  /** Anthropic: the request's `anthropic-version` header (A-V1), when known. */
  anthropicVersion?: string;
  /** Gemini Interactions: the request's `Api-Revision` header (GI-R1); `null` when absent, undefined when unknown. */
  apiRevision?: string | null;
}

/**
 * Dispatches to the validator of `api`. Returns the violations (empty when valid).
 * Throws a TypeError for Gemini when no model is known (neither `opts.model` nor `body.model`),
 * since the signature rules depend on it.
 */
export function validateRequest(api: ContractApi, body: unknown, opts: ValidateRequestOptions = {}): Violation[] {
  switch (api) {
    case 'anthropic-messages':
      return validateAnthropicMessagesRequest(body, {
        thinking: opts.thinking,
        stream: opts.stream,
        betas: opts.anthropicBetas,
        version: opts.anthropicVersion,
      });
    case 'openai-chat':
      return validateOpenAIChatRequest(body, { provider: opts.provider, stream: opts.stream });
    case 'openai-responses':
      return validateOpenAIResponsesRequest(body, { stream: opts.stream });
    case 'gemini-generate-content': {
      const fromBody =
        typeof body === 'object' && body !== null && 'model' in body ? (body as { model: unknown }).model : undefined;
      const model = opts.model ?? (typeof fromBody === 'string' ? fromBody : undefined);
      if (model === undefined) throw new TypeError('validateRequest(gemini-generate-content): opts.model is required');
      return validateGeminiGenerateContentRequest(body, { model, vertex: opts.vertex });
    }
    case 'gemini-interactions':
      return validateGeminiInteractionsRequest(body, { stream: opts.stream, apiRevision: opts.apiRevision });
    default: {
      const never: never = api;
      throw new TypeError(`unknown api ${String(never)}`);
    }
  }
}
