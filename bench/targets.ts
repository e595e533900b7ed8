/**
 * The four conversion targets of the benchmark: one model per wire API, the same for Baton and
 * for the peers, each known to Baton's registry and to pi-ai's. The anthropic target equals the
 * generated Anthropic origin's requested model, so those turns replay their signatures.
 */
import type { WireApi } from '../lib/transcript/schema';
import type { ConvertTarget } from '../lib/transcript/target';

export const BENCH_APIS: readonly WireApi[] = ['anthropic-messages', 'openai-responses', 'openai-chat', 'gemini-generate-content'];

/** Output limit every candidate asks for (tokens), so no one pays for a registry lookup the others skip. */
const MAX_OUTPUT_TOKENS = 8192;

export const TARGETS: Readonly<Record<WireApi, ConvertTarget & { maxOutputTokens: number }>> = {
  'anthropic-messages': { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: MAX_OUTPUT_TOKENS },
  'openai-responses': { api: 'openai-responses', model: 'gpt-5.1', maxOutputTokens: MAX_OUTPUT_TOKENS },
  'openai-chat': { api: 'openai-chat', model: 'gpt-4.1', maxOutputTokens: MAX_OUTPUT_TOKENS },
  'gemini-generate-content': { api: 'gemini-generate-content', model: 'gemini-2.5-pro', maxOutputTokens: MAX_OUTPUT_TOKENS },
};

/** Short labels for the table. */
export const API_LABEL: Readonly<Record<WireApi, string>> = {
  'anthropic-messages': 'anthropic',
  'openai-responses': 'responses',
  'openai-chat': 'chat',
  'gemini-generate-content': 'gemini',
};
