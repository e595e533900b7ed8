/**
 * Shapes of the model registry (DESIGN.md, "Model registry"). Units: tokens for windows and
 * limits, US dollars per million tokens for prices.
 */
import type { WireApi } from '../transcript/schema';

/** How a model is asked to think, if at all. */
export type ThinkingControl =
  /** No reasoning control. */
  | 'none'
  /** Anthropic `thinking: {type: 'enabled', budget_tokens}`; Gemini 2.5 `thinkingBudget`. */
  | 'budget'
  /** Anthropic `thinking: {type: 'adaptive'}` (newest Claude models). */
  | 'adaptive'
  /** OpenAI `reasoning.effort` (o-series, gpt-5 family). */
  | 'effort'
  /** Gemini 3 `thinkingLevel`. */
  | 'level';

export interface ModelPrice {
  /** USD per 1M input tokens. */
  inputPerMTok: number;
  /** USD per 1M output tokens. */
  outputPerMTok: number;
  /** USD per 1M cached input tokens read. */
  cacheReadPerMTok?: number;
  /** USD per 1M input tokens written to the cache. */
  cacheWritePerMTok?: number;
}

export interface ModelInfo {
  /** Canonical id (an alias resolves to it; a dated snapshot resolves to its family entry). */
  id: string;
  /** Provider id: `openai`, `anthropic`, `google`, `deepseek`, `mistral`, … */
  provider: string;
  /**
   * The wire APIs that serve it, Baton's default first ({@link apiForModel} in `registry.ts`):
   * Gemini models list both `gemini-generate-content` and `gemini-interactions`.
   */
  apis: readonly WireApi[];
  /** false when the id was not found and conservative defaults were used. */
  known: boolean;
  /** Context window in tokens (input + output). */
  contextWindow: number;
  /** Largest `max_tokens` the API accepts, in tokens. */
  maxOutputTokens: number;
  /** What Baton asks for when the caller gives no limit, in tokens (≤ maxOutputTokens). */
  defaultOutputTokens: number;
  /** Accepts image input. */
  vision: boolean;
  /** Accepts PDF documents. */
  pdf: boolean;
  /** Supports function / tool calling. */
  tools: boolean;
  /** How reasoning is controlled. */
  thinking: ThinkingControl;
  /** OpenAI reasoning model: `developer` role, `reasoning.encrypted_content` available. */
  reasoning: boolean;
  /** Lowest `reasoning.effort` the model takes, used for `--thinking off` ('none' | 'minimal' | 'low'). */
  minReasoningEffort?: 'none' | 'minimal' | 'low';
  /** Gemini: `enforced` when function calls need a `thoughtSignature` (Gemini 3, G-K1). */
  thoughtSignatures: 'none' | 'optional' | 'enforced';
  /** Gemini 3: images may travel inside `functionResponse.parts` (G-I3). */
  functionResponseParts: boolean;
  /** Gemini 2.5: thinking can be switched off with `thinkingBudget: 0`. */
  canDisableThinking: boolean;
  /** Prices, when known. */
  price?: ModelPrice;

  // ---- Optional additions (registry v1). Absent means "not recorded", never "false" unless noted.

  /** Display name for a model picker, e.g. `Claude Sonnet 4.5`. */
  name?: string;
  /**
   * Other ids that resolve to this entry: provider aliases (`gpt-5.5`, `claude-sonnet-4-5`,
   * `claude-3-7-sonnet-latest`) and other dated snapshots of the same model.
   */
  aliases?: readonly string[];
  /**
   * true when no request parameter switches the model's reasoning off: Claude Opus 5.5 and
   * Fable 5.x ("Adaptive (always on)"), o-series and gpt-5 (lowest effort still reasons),
   * Gemini 2.5 Pro and Gemini 3 (lowest level is `minimal`/`low`). Absent means thinking is
   * optional or absent (see `thinking`).
   */
  thinkingAlwaysOn?: boolean;
  /**
   * Price for requests whose prompt (input + cache read + cache write tokens) exceeds
   * `thresholdInputTokens`: the whole request is billed at these rates (OpenAI > 272K,
   * Gemini Pro > 200K, Claude Haiku 5.5 > 100K).
   */
  longContextPrice?: LongContextPrice;
  /** Lifecycle, when the provider has announced one: `deprecated` still answers, `retired` does not. */
  status?: 'deprecated' | 'retired';
  /**
   * Shutdown date (ISO `YYYY-MM-DD`, UTC) from which the provider no longer serves the model: on
   * and after it the model counts as retired ({@link isPastEndOfLife}), so it is never a default
   * or a fallback.
   */
  endOfLife?: string;

  // ---- OpenAI, 2026 rules (provider-rules-2026-anthropic-openai.md §2a, §3a).

  /**
   * C-T9: function tools on Chat Completions. Absent: with any `reasoning_effort`.
   * `effort-none`: only with `reasoning_effort: "none"` (GPT-5.4+, GPT-5.6, GPT-6 Sol/Luna: "Function
   * tools with reasoning_effort are not supported for … in /v1/chat/completions").
   * `responses`: no tool calling on Chat Completions at all (GPT-6 Astra, GPT-6.1 Sol, GPT-6.2).
   */
  chatTools?: 'effort-none' | 'responses';
  /**
   * C-S1, R-S1: `temperature`, `top_p`, `top_logprobs` and `logprobs` only when the reasoning
   * effort is `none` (GPT-5.4 and later, GPT-6.x).
   */
  samplingNeedsEffortNone?: boolean;
  /**
   * R-K9: the model appends top-level `instructions` after `input` (GPT-6.2 and later), so stable
   * system text goes as a leading `developer` message.
   */
  instructionsAfterInput?: boolean;

  // ---- Gemini, 2026 rules (provider-rules-2026-gemini.md §4b).

  /**
   * G-G1: the `thinkingConfig.thinkingLevel` values the model accepts, lowest first (Gemini 3.5 and
   * later: levels, never `thinkingBudget`, and no `temperature`/`topP`/`topK`). Pro models reject
   * `minimal`.
   */
  thinkingLevels?: readonly GeminiThinkingLevel[];

  // ---- Anthropic, API version 2026-10-21 (provider-rules-2026-anthropic-openai.md §1a, §1c).
  // Set on every Anthropic entry; absent (unknown Claude ids, other providers) reads as false.

  /** A-V4: the model accepts a prefill (`messages` ending on a partial `assistant` message). */
  prefill?: boolean;
  /** A-M1: the model accepts `role: "system"` messages inside `messages` (Opus 4.8 and later). */
  systemMessages?: boolean;
  /** A-V5: the model accepts forced tool use (`tool_choice` `any` / `tool`); Sonnet 5.5 does not. */
  forcedToolUse?: boolean;
}

/** G-G1: Gemini thinking levels, in the SDK's spelling. */
export type GeminiThinkingLevel = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';

/** A price tier that applies when the prompt is longer than a threshold. */
export interface LongContextPrice extends ModelPrice {
  /** Prompts longer than this many tokens use this tier. */
  thresholdInputTokens: number;
}
