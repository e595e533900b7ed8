/**
 * Anthropic models. Sources (fetched as stored copies, late 2026):
 * - https://platform.claude.com/docs/en/models/overview and the per-model pages
 *   https://platform.claude.com/docs/en/models/<model>/overview (context, max output, price,
 *   thinking mode, cache prices for Opus 5, Opus 5.5, Sonnet 5, Sonnet 5.5, Haiku 5.5)
 * - https://platform.claude.com/docs/en/about-claude/pricing (cache read 0.1x, 5-minute cache
 *   write 1.25x of the input price, used where a model page gives no cache price)
 * - models.dev `providers/anthropic/models/*.toml` for the 4.x snapshot entries.
 * Thinking: `adaptive` for Opus 4.6+ / Sonnet 4.6+ / Haiku 5.5 (Sonnet 5 returns 400 for manual
 * `budget_tokens`), `budget` for the earlier extended-thinking models; "Adaptive (always on)"
 * models (Fable 5.x, Opus 5.5) reject disabling thinking.
 */
import { anthropic, type ModelSpec } from './define';
import type { ModelInfo, ModelPrice } from '../types';
import { lookupTable } from '../../transcript/lookup';

const M = 1_000_000;
const K = 1_000;

/** Price with the standard Anthropic cache multipliers (read 0.1x, 5-minute write 1.25x). */
function p(input: number, output: number): ModelPrice {
  return { inputPerMTok: input, outputPerMTok: output, cacheReadPerMTok: input / 10, cacheWritePerMTok: input * 1.25 };
}

/**
 * API version 2026-10-21 traits (provider-rules-2026-anthropic-openai.md): A-V4 prefill is gone on
 * Opus 5, the Claude 5.5 family and Fable/Mythos; A-M1 `role: "system"` messages from Opus 4.8 on
 * (Opus 5/5.5, Sonnet 5, Sonnet 5.5, Haiku 5.5, Fable/Mythos); A-V5 forced tool use returns 400 on
 * Sonnet 5.5 (whats-new-sonnet-5-5).
 */
const NO_PREFILL = new Set([
  'claude-opus-5',
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-fable-5',
  'claude-fable-5-1',
  'claude-fable-5-2',
]);
const SYSTEM_MESSAGES = new Set([
  'claude-opus-4-8',
  'claude-opus-5',
  'claude-opus-5-5',
  'claude-sonnet-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-fable-5',
  'claude-fable-5-1',
  'claude-fable-5-2',
]);
const NO_FORCED_TOOL_USE = new Set(['claude-sonnet-5-5']);

/**
 * Retirement dates (`endOfLife`): `@anthropic-ai/sdk` 1.14.0 `internal/data/deprecated-models.js`
 * (Sonnet 4.5 November 30th, 2026; Opus 4.5 January 22nd, 2027) and the model-deprecations page
 * as quoted by third parties (Sonnet 3.7 and Haiku 3.5 2026-02-19; Sonnet 4 and Opus 4
 * 2026-06-15; Opus 4.1 2026-08-05).
 */
const END_OF_LIFE: Readonly<Record<string, string>> = lookupTable({
  'claude-opus-4-5-20251101': '2027-01-22',
  'claude-opus-4-1-20250805': '2026-08-05',
  'claude-opus-4-20250514': '2026-06-15',
  'claude-sonnet-4-5-20250929': '2026-11-30',
  'claude-sonnet-4-20250514': '2026-06-15',
  'claude-3-7-sonnet-20250219': '2026-02-19',
  'claude-3-5-haiku-20241022': '2026-02-19',
});

/** An Anthropic entry with its 2026 traits and retirement date filled in. */
function claude(s: ModelSpec): ModelInfo {
  const eol = END_OF_LIFE[s.id];
  return anthropic({
    ...s,
    prefill: !NO_PREFILL.has(s.id),
    systemMessages: SYSTEM_MESSAGES.has(s.id),
    forcedToolUse: !NO_FORCED_TOOL_USE.has(s.id),
    ...(eol !== undefined ? { endOfLife: eol } : {}),
  });
}

const adaptive = (s: Omit<ModelSpec, 'thinking'>): ModelInfo => claude({ ...s, thinking: 'adaptive' });
const budget = (s: Omit<ModelSpec, 'thinking'>): ModelInfo => claude({ ...s, thinking: 'budget' });

/** Anthropic's entries; built on the registry's first lookup, not when the worker starts (docs/architecture.md#the-service-workers-start-up). */
export const anthropicModels = (): readonly ModelInfo[] => [
  // Fable line: thinking always on, effort via output_config.effort.
  adaptive({
    id: 'claude-fable-5-2',
    name: 'Claude Fable 5.2',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    thinkingAlwaysOn: true,
    // $8/$40 list (released 2026-11-09); cache prices from a reseller's copy of the price list.
    price: { inputPerMTok: 8, outputPerMTok: 40, cacheReadPerMTok: 0.2, cacheWritePerMTok: 10 },
  }),
  adaptive({
    id: 'claude-fable-5-1',
    name: 'Claude Fable 5.1',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    thinkingAlwaysOn: true,
    price: p(10, 50),
  }),
  adaptive({
    id: 'claude-fable-5',
    name: 'Claude Fable 5',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    thinkingAlwaysOn: true,
    price: p(10, 50),
  }),
  // Opus.
  adaptive({
    id: 'claude-opus-5-5',
    name: 'Claude Opus 5.5',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    thinkingAlwaysOn: true,
    price: { inputPerMTok: 4, outputPerMTok: 20, cacheReadPerMTok: 0.2, cacheWritePerMTok: 5 },
  }),
  adaptive({ id: 'claude-opus-5', name: 'Claude Opus 5', contextWindow: M, maxOutputTokens: 128 * K, price: p(5, 25) }),
  adaptive({
    id: 'claude-opus-4-8',
    name: 'Claude Opus 4.8',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: p(5, 25),
  }),
  adaptive({
    id: 'claude-opus-4-7',
    name: 'Claude Opus 4.7',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: p(5, 25),
  }),
  adaptive({
    id: 'claude-opus-4-6',
    name: 'Claude Opus 4.6',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: p(5, 25),
  }),
  budget({
    id: 'claude-opus-4-5-20251101',
    name: 'Claude Opus 4.5',
    aliases: ['claude-opus-4-5'],
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: p(5, 25),
  }),
  budget({
    id: 'claude-opus-4-1-20250805',
    name: 'Claude Opus 4.1',
    aliases: ['claude-opus-4-1'],
    contextWindow: 200 * K,
    maxOutputTokens: 32 * K,
    price: p(15, 75),
  }),
  budget({
    // `claude-opus-4`, `claude-sonnet-4`, `claude-3-7-sonnet` (undotted) are OpenRouter's spellings.
    id: 'claude-opus-4-20250514',
    name: 'Claude Opus 4',
    aliases: ['claude-opus-4-0', 'claude-opus-4', 'claude-4-opus-20250514'],
    contextWindow: 200 * K,
    maxOutputTokens: 32 * K,
    price: p(15, 75),
  }),
  // Sonnet.
  adaptive({
    id: 'claude-sonnet-5-5',
    name: 'Claude Sonnet 5.5',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.2, cacheWritePerMTok: 2.5 },
  }),
  adaptive({
    id: 'claude-sonnet-5',
    name: 'Claude Sonnet 5',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.2, cacheWritePerMTok: 2.5 },
  }),
  adaptive({
    id: 'claude-sonnet-4-6',
    name: 'Claude Sonnet 4.6',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: p(3, 15),
  }),
  budget({
    id: 'claude-sonnet-4-5-20250929',
    name: 'Claude Sonnet 4.5',
    aliases: ['claude-sonnet-4-5'],
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: p(3, 15),
  }),
  budget({
    id: 'claude-sonnet-4-20250514',
    name: 'Claude Sonnet 4',
    aliases: ['claude-sonnet-4-0', 'claude-sonnet-4', 'claude-4-sonnet-20250514'],
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: p(3, 15),
  }),
  budget({
    id: 'claude-3-7-sonnet-20250219',
    name: 'Claude Sonnet 3.7',
    aliases: ['claude-3-7-sonnet-latest', 'claude-3-7-sonnet'],
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: p(3, 15),
  }),
  // Haiku.
  adaptive({
    id: 'claude-haiku-5-5',
    name: 'Claude Haiku 5.5',
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: { inputPerMTok: 0.1, outputPerMTok: 0.5, cacheReadPerMTok: 0.01, cacheWritePerMTok: 0.125 },
    longContextPrice: {
      thresholdInputTokens: 100 * K,
      inputPerMTok: 0.5,
      outputPerMTok: 2.5,
      cacheReadPerMTok: 0.05,
      cacheWritePerMTok: 0.625,
    },
  }),
  budget({
    id: 'claude-haiku-4-5-20251001',
    name: 'Claude Haiku 4.5',
    aliases: ['claude-haiku-4-5'],
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: p(1, 5),
  }),
  claude({
    id: 'claude-3-5-haiku-20241022',
    name: 'Claude Haiku 3.5',
    aliases: ['claude-3-5-haiku-latest', 'claude-3-5-haiku'],
    contextWindow: 200 * K,
    maxOutputTokens: 8_192,
    price: p(0.8, 4),
  }),
];
