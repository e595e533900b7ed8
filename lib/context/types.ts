/**
 * Shapes of the context planner (docs/disclosure.md, "Context planner"): policies, the disclosure plan and
 * the reasons behind it. Pure types. Units: tokens for every count, US dollars for costs.
 */
import type { ConversionReport } from '../transcript/report';
import type { Role, Transcript, WireApi } from '../transcript/schema';

/**
 * What may be disclosed, global or per conversation (merge them with `mergePolicies`).
 * Every field is optional; absent means "no limit" / the default.
 */
export interface Policy {
  /** Most turns one request may carry (a positive integer). */
  maxTurns?: number;
  /** Most input tokens one request may carry (a positive integer, estimated). */
  maxTokens?: number;
  /** Reasoning another origin produced: dropped (default) or sent as labelled text (X3). */
  foreignReasoning?: 'drop' | 'text';
  /**
   * Anthropic thinking replayed after an edited or fitted history (A-B3): `drop_block` (default)
   * lets Claude drop the blocks it can no longer verify and say so; `error` sends them under the
   * API's default check, which refuses the request.
   */
  prefixMismatchBehavior?: 'drop_block' | 'error';
  /** Images sent (default) or left out of every request (reported as dropped). */
  images?: 'send' | 'omit';
  /** The only provider id this conversation may go to. */
  lockedProvider?: string;
  /** Provider ids this conversation must never go to. */
  neverProviders?: string[];
  /** Turn ids the person left out of this send. */
  excludeTurns?: string[];
  /** Blocks the person left out of this send (turn id and index in that turn's `blocks`). */
  excludeBlocks?: { turn: string; index: number }[];
}

/** How a target's input tokens are counted. */
export type TokenizerFamily =
  /** OpenAI gpt-4o, gpt-4.1, gpt-4.5, gpt-5+, o-series, gpt-oss: exact count with o200k_base. */
  | 'o200k'
  /** OpenAI gpt-4 / gpt-4-turbo / gpt-3.5: exact count with cl100k_base. */
  | 'cl100k'
  /** Claude: characters / 3.5, corrected by reported usage. */
  | 'anthropic'
  /** Gemini / Gemma: characters / 4, corrected by reported usage. */
  | 'gemini'
  /** Anything else (DeepSeek, Mistral, Llama, unknown): characters / 3.5, corrected by reported usage. */
  | 'generic';

/** The target a plan is for, with defaults applied (`endpoint` only when not the provider's default). */
export interface PlanTarget {
  api: WireApi;
  model: string;
  provider: string;
  endpoint?: string;
}

/** Why a turn is not in the request. */
export type DropReason =
  /** The person left it out (`excludeTurns`, every block in `excludeBlocks`, or the other half of an excluded tool pair). */
  | 'excluded'
  /** It held only images and the policy omits images. */
  | 'images-omitted'
  /** Its exchange was among the oldest and the request was over the token budget. */
  | 'over-budget'
  /** Its exchange was among the oldest and the request was over `maxTurns`. */
  | 'over-max-turns'
  /** The policy forbids the target provider: nothing is sent. */
  | 'provider-forbidden';

export interface DroppedTurn {
  turn: string;
  reason: DropReason;
  /** One readable sentence. */
  detail: string;
}

/** Why a target may not receive this conversation (typed, never thrown). */
export type ForbiddenReason =
  | { kind: 'locked'; provider: string; lockedProvider: string; message: string }
  | { kind: 'never'; provider: string; message: string };

/** Why a plan does not fit. */
export interface NotFitReason {
  /** Which limit is exceeded. */
  limit: 'tokens' | 'turns';
  /**
   * What alone exceeds it: the system prompt and tool definitions (`system`), the pinned turns
   * with their exchanges (`pinned`), or the newest exchange, which is always sent (`newest`).
   */
  cause: 'system' | 'pinned' | 'newest';
  /** Tokens (corrected estimate) or turns the request needs at least. */
  required: number;
  /** The limit: the input budget in tokens, or `maxTurns`. */
  allowed: number;
  message: string;
}

/** One input turn as planned. */
export interface PlannedTurn {
  id: string;
  role: Role;
  /** Uncorrected token estimate of the turn as it would be sent (after exclusions and image policy). */
  tokens: number;
  included: boolean;
  pinned: boolean;
}

/** Counts for the one-line summary above the composer. */
export interface PlanStats {
  turns: number;
  includedTurns: number;
  /** Thinking / redacted-thinking blocks of included turns that the conversion drops. */
  thinkingDropped: number;
  /** Images left out: by the policy `images: 'omit'`, or dropped / replaced by a placeholder in the conversion (the model takes no images, or not that type). */
  imagesOmitted: number;
  /** Blocks of included turns that are not sent, all kinds. */
  blocksDropped: number;
  /**
   * Earlier reasoning the target will not see, by why (A-B1, A-B4, A-B5, A-P1, X3): the number of
   * turns and the reasoning tokens those turns cost (reported usage), which the model may spend
   * again. Absent or empty when all sent reasoning is replayed.
   */
  reasoningUnused?: ReasoningUnused[];
  /**
   * C-T9: how a Chat Completions request to one of OpenAI's 2026 models was changed so that the API
   * does not refuse function tools together with a reasoning effort. Absent when nothing changed.
   */
  toolsWithReasoning?: ToolsWithReasoning;
}

/**
 * C-T9 on Chat Completions (GPT-5.4 and later, GPT-6.x; the registry's `chatTools`):
 * - `effort-none`: the model takes function tools there only without reasoning, so
 *   `reasoning_effort` was set to `none` and the tools kept;
 * - `tools-left-out`: the model takes tool calling only on Responses, so the tools were left out
 *   and reasoning kept;
 * - `stub-tools-left-out`: only stub definitions for the history's calls (X8) would have been sent;
 *   Chat needs none (C-T8), so they were left out and reasoning kept.
 */
export interface ToolsWithReasoning {
  outcome: 'effort-none' | 'tools-left-out' | 'stub-tools-left-out';
  /** The model, as the registry names it. */
  model: string;
}

/** Why earlier reasoning is not sent, in the preview's plain words (see `PlanStats.reasoningUnused`). */
export type ReasoningUnusedReason =
  /** Written by another model or provider (X3, A-B1). */
  | 'other-model'
  /** Minted in Claude Code or claude.ai: bound to another account (A-B4). */
  | 'other-account'
  /** The provider dropped it from an earlier request: the conversation changed before it (A-B5). */
  | 'dropped-earlier'
  /** A compaction summary replaces those turns (A-P1). */
  | 'summarised'
  /** The history before them changed since they were written: the provider will drop it (A-B2, A-B3). */
  | 'prefix-changed';

export interface ReasoningUnused {
  reason: ReasoningUnusedReason;
  /** Turns whose reasoning is not sent for this reason. */
  turns: number;
  /** Reasoning tokens of those turns as the provider counted them (0 when not reported). */
  reasoningTokens: number;
}

/**
 * What one request to one target would disclose (docs/disclosure.md): the turns and blocks, each block's
 * fate, the estimated input tokens and cost, the window and output reserve, whether it fits,
 * and what was dropped and why. `report`, `stats`, `transcript` and `body` come from the
 * conversion, which runs when one of them is first read (they are ordinary enumerable
 * properties: JSON and structured clone include them).
 */
export interface Plan {
  target: PlanTarget;
  /** false when the policy forbids the provider; then nothing is included and there is no body. */
  allowed: boolean;
  forbidden?: ForbiddenReason;
  tokenizer: TokenizerFamily;
  /** The model's context window (tokens, input + output), from the registry. */
  contextWindow: number;
  /** Output reserve: `target.maxOutputTokens`, else the registry default, clamped to the model's maximum (tokens). */
  maxOutputTokens: number;
  /** min(policy.maxTokens, contextWindow − maxOutputTokens), never below 0 (tokens). */
  inputBudget: number;
  /** Corrected estimate of the request's input tokens (what `fits` compares with `inputBudget`). */
  estimatedInputTokens: number;
  /** The same estimate before the learned correction; pass this to `recordUsage`. */
  uncorrectedInputTokens: number;
  /** The correction ratio applied (1 for exact tokenizers and before any usage was recorded). */
  correction: number;
  /**
   * Corrected estimate of the tokens the conversation's instructions (transcript `system`) take in
   * the request, as their own message; 0 without instructions or when the provider is forbidden.
   * Part of {@link estimatedInputTokens}: instructions are always sent, never left out to fit.
   */
  systemTokens: number;
  /** Input cost in US dollars at the registry's list price; undefined when the price is unknown. */
  estimatedCostUsd?: number;
  fits: boolean;
  notFit?: NotFitReason;
  /** Ids of the turns sent, in conversation order. */
  included: string[];
  /** Turns not sent, in conversation order. */
  dropped: DroppedTurn[];
  /** Every input turn, in order. */
  turns: PlannedTurn[];
  stats: PlanStats;
  /**
   * Every input block once, in input order: the converter's fates for sent blocks (indices of the
   * input transcript), `dropped` with the reason for everything left out.
   */
  report: ConversionReport;
  /** The transcript actually converted (included turns, excluded blocks and omitted images removed). Absent when not allowed. */
  transcript?: Transcript;
  /**
   * The exact request body the converter produced for {@link transcript} (no credentials). Absent
   * when not allowed. Shared with the cache's last conversion: read it, copy it, never change it.
   */
  body?: Record<string, unknown>;
  /**
   * The non-secret headers the request needs with {@link body} (`anthropic-beta` for a replayed
   * beta block or the thinking-binding controls, A-B3, A-P2); undefined when none. The transport
   * sends exactly these.
   */
  headers?: Record<string, string>;
}
