/**
 * Builders for registry entries: each provider file lists only what differs from its
 * provider's defaults, and these fill in the rest, so every entry is a complete
 * {@link ModelInfo} with `known: true`.
 */
import type { WireApi } from '../../transcript/schema';
import type { LongContextPrice, ModelInfo, ModelPrice, ThinkingControl } from '../types';

/** What a data file writes for one model. Omitted fields take the provider defaults below. */
export interface ModelSpec {
  /** Canonical id: the id the provider's alias currently points to (a dated snapshot where one exists). */
  id: string;
  name: string;
  aliases?: readonly string[];
  /** Tokens. */
  contextWindow: number;
  /** Tokens. */
  maxOutputTokens: number;
  vision?: boolean;
  pdf?: boolean;
  tools?: boolean;
  thinking?: ThinkingControl;
  reasoning?: boolean;
  minReasoningEffort?: ModelInfo['minReasoningEffort'];
  thinkingAlwaysOn?: boolean;
  thoughtSignatures?: ModelInfo['thoughtSignatures'];
  functionResponseParts?: boolean;
  canDisableThinking?: boolean;
  price?: ModelPrice;
  longContextPrice?: LongContextPrice;
  status?: ModelInfo['status'];
  endOfLife?: string;
  apis?: readonly WireApi[];
  // OpenAI 2026 (C-T9, C-S1/R-S1, R-K9).
  chatTools?: ModelInfo['chatTools'];
  samplingNeedsEffortNone?: boolean;
  instructionsAfterInput?: boolean;
  // Gemini 2026 (G-G1).
  thinkingLevels?: ModelInfo['thinkingLevels'];
  // Anthropic 2026 (A-V4, A-M1, A-V5).
  prefill?: boolean;
  systemMessages?: boolean;
  forcedToolUse?: boolean;
}

/** Output budget Baton asks for without reasoning, in tokens. */
export const DEFAULT_OUTPUT_PLAIN = 16_384;
/**
 * Output budget Baton asks for when the model thinks, in tokens. Reasoning tokens count against
 * the same limit; OpenAI advises reserving at least 25,000 tokens for reasoning plus output
 * (https://platform.openai.com/docs/guides/reasoning, "Allocating space for reasoning").
 */
export const DEFAULT_OUTPUT_THINKING = 32_768;

/**
 * The default output budget: `min(maxOutputTokens, 32,768)` for models that think,
 * `min(maxOutputTokens, 16,384)` for the others. Large enough for a long answer, small enough
 * not to reserve most of a 200K window for output.
 */
export function defaultOutputFor(maxOutputTokens: number, thinking: ThinkingControl): number {
  return Math.min(maxOutputTokens, thinking === 'none' ? DEFAULT_OUTPUT_PLAIN : DEFAULT_OUTPUT_THINKING);
}

/**
 * The wire APIs a provider's own endpoint speaks, Baton's choice first; OpenAI-compatible hosts
 * speak Chat Completions. Google: a model the registry does not list (a new one) goes over the
 * Interactions API first — Google launches new models there and calls `generateContent` legacy
 * (provider-rules-2026-gemini.md §9) — with `generateContent` still offered.
 */
export function apisForProvider(provider: string): readonly WireApi[] | undefined {
  switch (provider) {
    case 'openai':
      return ['openai-responses', 'openai-chat'];
    case 'anthropic':
      return ['anthropic-messages'];
    case 'google':
      return ['gemini-interactions', 'gemini-generate-content'];
    case 'deepseek':
    case 'mistral':
    case 'groq':
    case 'openrouter':
    case 'xai':
    case 'together':
    case 'fireworks':
    case 'ollama':
      return ['openai-chat'];
    default:
      return undefined;
  }
}

type Defaults = Omit<ModelInfo, 'id' | 'contextWindow' | 'maxOutputTokens' | 'defaultOutputTokens' | 'known'>;

const BASE: Omit<Defaults, 'provider' | 'apis'> = {
  vision: false,
  pdf: false,
  tools: true,
  thinking: 'none',
  reasoning: false,
  thoughtSignatures: 'none',
  functionResponseParts: false,
  canDisableThinking: false,
};

function build(provider: string, defaults: Partial<Defaults>, spec: ModelSpec): ModelInfo {
  const merged = { ...BASE, apis: apisForProvider(provider) ?? ['openai-chat'], ...defaults };
  const info: ModelInfo = {
    ...merged,
    ...(stripUndefined(spec) as ModelSpec),
    provider,
    known: true,
    defaultOutputTokens: 0,
  };
  info.defaultOutputTokens = defaultOutputFor(info.maxOutputTokens, info.thinking);
  return info;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Anthropic defaults: Messages API, images and PDFs (https://platform.claude.com/docs/en/build-with-claude/pdf-support). */
export function anthropic(spec: ModelSpec): ModelInfo {
  return build('anthropic', { vision: true, pdf: true }, spec);
}

/** OpenAI defaults: Responses and Chat Completions. */
export function openai(spec: ModelSpec): ModelInfo {
  return build('openai', {}, spec);
}

/** Google defaults: generateContent, multimodal input including PDF. */
export function google(spec: ModelSpec): ModelInfo {
  return build('google', { vision: true, pdf: true }, spec);
}

/** OpenAI-compatible hosts (DeepSeek, Mistral, Groq): Chat Completions only. */
export function compat(provider: string, spec: ModelSpec): ModelInfo {
  return build(provider, {}, spec);
}

/**
 * OpenAI's long-context rule for GPT-5.4 and later: above 272K input tokens the whole request
 * costs 2x input (and cache) and 1.5x output (https://developers.openai.com/api/docs/models/gpt-5.5).
 */
export function openaiLongContext(p: ModelPrice): LongContextPrice {
  const tier: LongContextPrice = {
    thresholdInputTokens: 272_000,
    inputPerMTok: p.inputPerMTok * 2,
    outputPerMTok: p.outputPerMTok * 1.5,
  };
  if (p.cacheReadPerMTok !== undefined) tier.cacheReadPerMTok = p.cacheReadPerMTok * 2;
  if (p.cacheWritePerMTok !== undefined) tier.cacheWritePerMTok = p.cacheWritePerMTok * 2;
  return tier;
}
