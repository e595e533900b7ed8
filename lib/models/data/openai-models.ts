/**
 * OpenAI models. Sources (stored copies, late 2026):
 * - https://developers.openai.com/api/docs/models and the per-model pages
 *   https://developers.openai.com/api/docs/models/<id> (window, max output, prices, cache
 *   writes, `reasoning.effort` values, long-context rule: prompts over 272K input tokens cost
 *   2x input and 1.5x output for the whole request)
 * - https://developers.openai.com/api/docs/guides/reasoning (effort; `none` from gpt-5.1,
 *   `minimal` on gpt-5; o-series lowest is `low`)
 * - models.dev `providers/openai/models/*.toml` (gpt-5.4, gpt-5.5, gpt-5.6-*, gpt-6-astra).
 * GPT-6.2 Astra/Sol reject `reasoning.effort: none`; GPT-6 Astra starts at `low`.
 * DESIGN.md: `gpt-5.5` is an alias of `gpt-5.5-2026-04-23`.
 *
 * End of life: no OpenAI entry has an `endOfLife` date. Neither the 2026 rule fragments
 * (provider-rules-2026-anthropic-openai.md) nor provider-rules.md give shutdown dates for OpenAI
 * models, and the installed `openai` SDK 7.59.0 ships no deprecated-models table (unlike
 * `@anthropic-ai/sdk`), so none is recorded; the models OpenAI has announced an end for carry
 * `status: 'deprecated'` or `'retired'` only, which already keeps them from being a default.
 */
import { openai, openaiLongContext, type ModelSpec } from './define';
import type { ModelInfo, ModelPrice } from '../types';
import { lookupTable } from '../../transcript/lookup';

const K = 1_000;
/** 1,050,000-token window (922K input + 128K output) of GPT-5.4 and later. */
const W = 1_050_000;

function p(input: number, output: number, cacheRead?: number, cacheWrite?: number): ModelPrice {
  const price: ModelPrice = { inputPerMTok: input, outputPerMTok: output };
  if (cacheRead !== undefined) price.cacheReadPerMTok = cacheRead;
  if (cacheWrite !== undefined) price.cacheWritePerMTok = cacheWrite;
  return price;
}

/** A gpt-5/6 reasoning model with vision, PDF input and effort control. */
function gpt(s: Omit<ModelSpec, 'thinking' | 'reasoning' | 'vision' | 'pdf'>, longContext = false): ModelInfo {
  const spec: ModelSpec = { ...s, thinking: 'effort', reasoning: true, vision: true, pdf: true };
  if (longContext && s.price) spec.longContextPrice = openaiLongContext(s.price);
  if (s.minReasoningEffort !== 'none') spec.thinkingAlwaysOn = true;
  return openai(spec);
}

/** A non-reasoning chat model with vision. */
function chat(s: Omit<ModelSpec, 'vision' | 'pdf'>): ModelInfo {
  return openai({ ...s, vision: true, pdf: true });
}

/**
 * The 2026 request rules of each model (provider-rules-2026-anthropic-openai.md; OpenAI
 * deployment-checklist and latest-model guides): C-T9 function tools on Chat Completions only with
 * effort `none` (GPT-5.4+, GPT-5.6, GPT-6 Sol/Luna, GPT-6.1 Terra) or only on Responses (GPT-6
 * Astra, GPT-6.1 Sol, GPT-6.2); C-S1/R-S1 sampling parameters only at effort `none` (GPT-5.4 and
 * later); R-K9 `instructions` appended after `input` (GPT-6.2 and later).
 */
const RULES_2026: Readonly<
  Record<string, Pick<ModelSpec, 'chatTools' | 'samplingNeedsEffortNone' | 'instructionsAfterInput'>>
> = lookupTable({
  'gpt-6.2-astra': { chatTools: 'responses', samplingNeedsEffortNone: true, instructionsAfterInput: true },
  'gpt-6.2-sol': { chatTools: 'responses', samplingNeedsEffortNone: true, instructionsAfterInput: true },
  'gpt-6.1-sol': { chatTools: 'responses', samplingNeedsEffortNone: true },
  'gpt-6.1-terra': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-6-astra': { chatTools: 'responses', samplingNeedsEffortNone: true },
  'gpt-6-sol': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-6-luna': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.6-sol': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.6-terra': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.6-luna': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.5-2026-04-23': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.4-2026-03-05': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.4-mini-2026-03-17': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
  'gpt-5.4-nano-2026-03-17': { chatTools: 'effort-none', samplingNeedsEffortNone: true },
});

const entries = (): readonly ModelInfo[] => [
  // GPT-6.x (Sep-Nov 2026).
  gpt(
    {
      id: 'gpt-6.2-astra',
      name: 'GPT-6.2 Astra',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'low',
      price: p(8, 40),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-6.2-sol',
      name: 'GPT-6.2 Sol',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'low',
      price: p(2, 10, 0.1, 2.5),
    },
    true,
  ),
  // C-S1: GPT-6.1 Sol does not accept `reasoning_effort: none`.
  gpt(
    {
      id: 'gpt-6.1-sol',
      name: 'GPT-6.1 Sol',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'low',
      price: p(2, 10),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-6.1-terra',
      name: 'GPT-6.1 Terra',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(1, 5, 0.05, 1.25),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-6-astra',
      name: 'GPT-6 Astra',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'low',
      price: p(10, 50, 1, 12.5),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-6-sol',
      name: 'GPT-6 Sol',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(2, 10, 0.2, 2.5),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-6-luna',
      name: 'GPT-6 Luna',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(0.1, 0.5, 0.01, 0.125),
    },
    true,
  ),
  // GPT-5.6 (2026-07-09); `gpt-5.6` routes to Sol. Prices from the models page (Sol promotional).
  gpt(
    {
      id: 'gpt-5.6-sol',
      name: 'GPT-5.6 Sol',
      aliases: ['gpt-5.6'],
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(4, 20, 0.4),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-5.6-terra',
      name: 'GPT-5.6 Terra',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(2, 12),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-5.6-luna',
      name: 'GPT-5.6 Luna',
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(0.2, 1.2),
    },
    true,
  ),
  // GPT-5.x.
  gpt(
    {
      id: 'gpt-5.5-2026-04-23',
      name: 'GPT-5.5',
      aliases: ['gpt-5.5'],
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(5, 30, 0.5),
    },
    true,
  ),
  gpt(
    {
      id: 'gpt-5.4-2026-03-05',
      name: 'GPT-5.4',
      aliases: ['gpt-5.4'],
      contextWindow: W,
      maxOutputTokens: 128 * K,
      minReasoningEffort: 'none',
      price: p(2.5, 15, 0.25),
    },
    true,
  ),
  gpt({
    id: 'gpt-5.4-mini-2026-03-17',
    name: 'GPT-5.4 mini',
    aliases: ['gpt-5.4-mini'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'none',
    price: p(0.75, 4.5, 0.075),
  }),
  gpt({
    id: 'gpt-5.4-nano-2026-03-17',
    name: 'GPT-5.4 nano',
    aliases: ['gpt-5.4-nano'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'none',
    price: p(0.2, 1.25, 0.02),
  }),
  gpt({
    id: 'gpt-5.2-2025-12-11',
    name: 'GPT-5.2',
    aliases: ['gpt-5.2'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'none',
    price: p(1.75, 14, 0.175),
  }),
  gpt({
    id: 'gpt-5.1-2025-11-13',
    name: 'GPT-5.1',
    aliases: ['gpt-5.1'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'none',
    price: p(1.25, 10, 0.125),
  }),
  gpt({
    id: 'gpt-5-2025-08-07',
    name: 'GPT-5',
    aliases: ['gpt-5'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'minimal',
    price: p(1.25, 10, 0.125),
  }),
  gpt({
    id: 'gpt-5-mini-2025-08-07',
    name: 'GPT-5 mini',
    aliases: ['gpt-5-mini'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'minimal',
    price: p(0.25, 2, 0.025),
  }),
  gpt({
    id: 'gpt-5-nano-2025-08-07',
    name: 'GPT-5 nano',
    aliases: ['gpt-5-nano'],
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    minReasoningEffort: 'minimal',
    price: p(0.05, 0.4, 0.005),
    status: 'deprecated',
  }),
  // o-series: `developer` role, lowest effort `low`.
  openai({
    id: 'o3-2025-04-16',
    name: 'o3',
    aliases: ['o3'],
    contextWindow: 200 * K,
    maxOutputTokens: 100 * K,
    vision: true,
    pdf: true,
    thinking: 'effort',
    reasoning: true,
    minReasoningEffort: 'low',
    thinkingAlwaysOn: true,
    price: p(2, 8, 0.5),
  }),
  openai({
    id: 'o4-mini-2025-04-16',
    name: 'o4-mini',
    aliases: ['o4-mini'],
    contextWindow: 200 * K,
    maxOutputTokens: 100 * K,
    vision: true,
    pdf: true,
    thinking: 'effort',
    reasoning: true,
    minReasoningEffort: 'low',
    thinkingAlwaysOn: true,
    price: p(1.1, 4.4, 0.275),
  }),
  openai({
    id: 'o3-mini-2025-01-31',
    name: 'o3-mini',
    aliases: ['o3-mini'],
    contextWindow: 200 * K,
    maxOutputTokens: 100 * K,
    thinking: 'effort',
    reasoning: true,
    minReasoningEffort: 'low',
    thinkingAlwaysOn: true,
    price: p(1.1, 4.4, 0.55),
  }),
  // Non-reasoning chat models (deprecated in the late-2026 catalogue).
  chat({
    id: 'gpt-4.1-2025-04-14',
    name: 'GPT-4.1',
    aliases: ['gpt-4.1'],
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    price: p(2, 8, 0.5),
    status: 'deprecated',
  }),
  chat({
    id: 'gpt-4.1-mini-2025-04-14',
    name: 'GPT-4.1 mini',
    aliases: ['gpt-4.1-mini'],
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    price: p(0.4, 1.6, 0.1),
    status: 'deprecated',
  }),
  chat({
    id: 'gpt-4.1-nano-2025-04-14',
    name: 'GPT-4.1 nano',
    aliases: ['gpt-4.1-nano'],
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    price: p(0.1, 0.4, 0.025),
    status: 'retired',
  }),
  chat({
    // gpt-4o-2024-05-13 was priced $5/$15; it resolves here for capabilities.
    id: 'gpt-4o-2024-08-06',
    name: 'GPT-4o',
    aliases: ['gpt-4o', 'gpt-4o-2024-11-20', 'gpt-4o-2024-05-13'],
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    price: p(2.5, 10, 1.25),
    status: 'deprecated',
  }),
  chat({
    id: 'gpt-4o-mini-2024-07-18',
    name: 'GPT-4o mini',
    aliases: ['gpt-4o-mini'],
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    price: p(0.15, 0.6, 0.075),
    status: 'deprecated',
  }),
];

/** OpenAI's entries, with their 2026 request rules; built on the registry's first lookup, not when the worker starts (docs/architecture.md#the-service-workers-start-up). */
export const openaiModels = (): readonly ModelInfo[] =>
  entries().map((m) => (RULES_2026[m.id] ? { ...m, ...RULES_2026[m.id] } : m));
