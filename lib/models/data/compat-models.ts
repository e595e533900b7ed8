/**
 * Models on OpenAI-compatible hosts (Chat Completions only).
 *
 * DeepSeek — https://api-docs.deepseek.com/quick_start/pricing and the V4 release notes
 * (2026-04-24): `deepseek-v4-flash` / `deepseek-v4-pro`, 1M window, 384K output, thinking on by
 * default, switched by `thinking.type` with `reasoning_effort` high|max. `deepseek-chat` and
 * `deepseek-reasoner` were aliases of V4 Flash non-thinking / thinking and were retired on
 * 2026-07-24 15:59 UTC; they stay here so transcripts that name them resolve (D-1..D-3 apply).
 *
 * Mistral — https://docs.mistral.ai/getting-started/models/ and
 * https://docs.mistral.ai/inference/pricing (via models.dev `providers/mistral/models/*.toml`).
 * Mistral publishes no output cap apart from the window (prompt + `max_tokens` must fit), so
 * `maxOutputTokens` is recorded as half the window.
 *
 * Groq — https://console.groq.com/docs/models and https://groq.com/pricing (gpt-oss-120b via
 * models.dev `providers/groq/models/openai/gpt-oss-120b.toml`).
 */
import { compat } from './define';
import type { ModelInfo } from '../types';

const K = 1_000;

/** DeepSeek's entries; built on the registry's first lookup, not when the worker starts (docs/architecture.md#the-service-workers-start-up). */
export const deepseekModels = (): readonly ModelInfo[] => [
  compat('deepseek', {
    id: 'deepseek-v4-pro',
    name: 'DeepSeek V4 Pro',
    contextWindow: 1_000_000,
    maxOutputTokens: 384 * K,
    thinking: 'effort',
    price: { inputPerMTok: 1.74, outputPerMTok: 3.48, cacheReadPerMTok: 0.145 },
  }),
  compat('deepseek', {
    id: 'deepseek-v4-flash',
    name: 'DeepSeek V4 Flash',
    contextWindow: 1_000_000,
    maxOutputTokens: 384 * K,
    thinking: 'effort',
    price: { inputPerMTok: 0.14, outputPerMTok: 0.28, cacheReadPerMTok: 0.028 },
  }),
  compat('deepseek', {
    id: 'deepseek-chat',
    name: 'DeepSeek Chat (V4 Flash, non-thinking)',
    contextWindow: 1_000_000,
    maxOutputTokens: 384 * K,
    price: { inputPerMTok: 0.14, outputPerMTok: 0.28, cacheReadPerMTok: 0.028 },
    status: 'retired',
  }),
  compat('deepseek', {
    id: 'deepseek-reasoner',
    name: 'DeepSeek Reasoner (V4 Flash, thinking)',
    contextWindow: 1_000_000,
    maxOutputTokens: 384 * K,
    thinking: 'effort',
    thinkingAlwaysOn: true,
    price: { inputPerMTok: 0.14, outputPerMTok: 0.28, cacheReadPerMTok: 0.028 },
    status: 'retired',
  }),
];

/** Mistral's entries; built on the registry's first lookup, not when the worker starts (docs/architecture.md#the-service-workers-start-up). */
export const mistralModels = (): readonly ModelInfo[] => [
  compat('mistral', {
    id: 'mistral-large-2512',
    name: 'Mistral Large 3',
    aliases: ['mistral-large-latest'],
    vision: true,
    contextWindow: 262_144,
    maxOutputTokens: 131_072,
    price: { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  }),
  compat('mistral', {
    // Medium 3.5 (2026-04): `reasoning_effort` none|high.
    id: 'mistral-medium-2604',
    name: 'Mistral Medium 3.5',
    aliases: ['mistral-medium-latest', 'mistral-medium', 'mistral-medium-3.5'],
    vision: true,
    thinking: 'effort',
    contextWindow: 131_072,
    maxOutputTokens: 65_536,
    price: { inputPerMTok: 1.5, outputPerMTok: 7.5 },
  }),
  compat('mistral', {
    // Small 3.2; announced retirement 2026-07-31.
    id: 'mistral-small-2506',
    name: 'Mistral Small 3.2',
    aliases: ['mistral-small-latest', 'mistral-small'],
    vision: true,
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    price: { inputPerMTok: 0.1, outputPerMTok: 0.3 },
    status: 'deprecated',
  }),
  compat('mistral', {
    id: 'codestral-2508',
    name: 'Codestral 25.08',
    aliases: ['codestral-latest', 'codestral'],
    contextWindow: 128 * K,
    maxOutputTokens: 64 * K,
    price: { inputPerMTok: 0.3, outputPerMTok: 0.9, cacheReadPerMTok: 0.03 },
  }),
];

/** Groq's entries; built on the registry's first lookup, not when the worker starts (docs/architecture.md#the-service-workers-start-up). */
export const groqModels = (): readonly ModelInfo[] => [
  compat('groq', {
    id: 'llama-3.3-70b-versatile',
    name: 'Llama 3.3 70B Versatile (Groq)',
    contextWindow: 131_072,
    maxOutputTokens: 32_768,
    price: { inputPerMTok: 0.59, outputPerMTok: 0.79 },
  }),
  compat('groq', {
    // Groq's id keeps the `openai/` vendor prefix; `reasoning_effort` low|medium|high.
    id: 'openai/gpt-oss-120b',
    name: 'GPT-OSS 120B (Groq)',
    contextWindow: 131_072,
    maxOutputTokens: 65_536,
    thinking: 'effort',
    minReasoningEffort: 'low',
    thinkingAlwaysOn: true,
    price: { inputPerMTok: 0.15, outputPerMTok: 0.6, cacheReadPerMTok: 0.075 },
  }),
];
