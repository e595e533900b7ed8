/**
 * Per-provider rules of the Chat Completions shape (provider-rules.md §2 and §5): which backend a
 * request goes to decides the id policy, the output-limit field, the reasoning field and the
 * role-order repairs. One profile per request, derived from the resolved target and the model
 * registry.
 */
import { MISTRAL_ID_POLICY, OPENAI_CHAT_ID_POLICY, type IdPolicy } from '../../transcript/ids';
import type { PrepareCapabilities } from '../../transcript/prepare';
import type { ResolvedTarget } from '../../transcript/target';
import type { ModelInfo } from '../../models/types';

/** The backends with rules of their own; `generic` is any other OpenAI-compatible endpoint. */
export type ChatDialect = 'openai' | 'mistral' | 'deepseek' | 'groq' | 'openrouter' | 'ollama' | 'google' | 'generic';

/** How same-origin reasoning travels on an assistant message, if at all. */
export type ReasoningField = 'reasoning_content' | 'reasoning' | 'none';

export interface ChatProfile {
  dialect: ChatDialect;
  /** Tool-call ids (C-T1; M-1 for Mistral and Mistral-family models, OR-1, O-3). */
  idPolicy: IdPolicy;
  /** `max_completion_tokens` for OpenAI, `max_tokens` for every other provider. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** Ask for a final usage chunk (`stream_options.include_usage`). Not for Mistral. */
  includeUsage: boolean;
  /** System text role (C-R1: `developer` for OpenAI reasoning models). */
  systemRole: 'system' | 'developer';
  /** Images may be remote URLs (Ollama and Gemini's endpoint take `data:` URLs only). */
  imageUrls: boolean;
  /** PDFs travel as `file` parts (OpenAI models with PDF input). */
  pdf: boolean;
  /** M-2: an assistant message must separate a tool message from a following user message. */
  assistantAfterTool: boolean;
  /** M-5: tool messages carry the function `name`. */
  toolResultName: boolean;
  /** D-1, D-G2: where same-origin thinking goes when an assistant message is rebuilt. */
  reasoningField: ReasoningField;
  /** D-1..D-3: DeepSeek thinking mode; every assistant message with tool_calls carries `reasoning_content`. */
  deepseekThinking: boolean;
  /** Message-level fields of a same-origin native message that this provider accepts back. */
  nativeExtras: readonly string[];
  /** G-K7: tool calls carry `extra_content.google.thought_signature`. */
  toolCallSignatures: boolean;
  /** G-K4: Gemini 3 needs a signature on the first call of each step; foreign calls get a dummy. */
  dummySignatures: boolean;
}

/** G-K4: the dummy signature the Gemini API documents for calls it did not produce. */
export const DUMMY_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** C-I1: PNG, JPEG, WEBP and non-animated GIF. */
export const CHAT_IMAGE_MEDIA_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

const MISTRAL_FAMILY = /(^|[^a-z])(mistral|mixtral|ministral|magistral|codestral|devstral|pixtral|voxtral)/i;

/** O-3 and M-1: a Mistral-family model id (`mistral-small`, `hf.co/mistralai/…`, `devstral:24b`, …). */
export function isMistralFamily(model: string): boolean {
  return MISTRAL_FAMILY.test(model);
}

/** The origin of OpenAI's API: an endpoint there speaks the `openai` dialect whatever its provider id. */
export const OPENAI_API_ORIGIN = 'https://api.openai.com';

/** The dialect for a provider id; anything unknown is a `generic` OpenAI-compatible endpoint. */
export function dialectOf(provider: string): ChatDialect {
  switch (provider) {
    case 'openai':
    case 'mistral':
    case 'deepseek':
    case 'groq':
    case 'openrouter':
    case 'ollama':
    case 'google':
      return provider;
    case 'gemini':
      return 'google';
    default:
      return 'generic';
  }
}

/** D-1: DeepSeek thinking mode: `deepseek-reasoner`, or any DeepSeek model asked to think. */
export function isDeepseekThinking(target: ResolvedTarget): boolean {
  return target.model === 'deepseek-reasoner' || target.thinking;
}

/**
 * The rules for one request.
 * @param target the resolved target (`provider` selects the §5 dialect).
 * @param info the registry entry of `target.model`.
 */
export function chatProfile(target: ResolvedTarget, info: ModelInfo): ChatProfile {
  // A custom endpoint whose base URL is OpenAI's own API is OpenAI: its rules (C-T9, C-R1, …)
  // apply, or it would refuse what the generic dialect allows.
  const dialect = target.endpoint === OPENAI_API_ORIGIN ? 'openai' : dialectOf(target.provider);
  const mistralIds =
    dialect === 'mistral' ||
    (dialect === 'openrouter' && target.model.startsWith('mistralai/')) || // OR-1
    ((dialect === 'ollama' || dialect === 'generic') && isMistralFamily(target.model)); // O-3
  const deepseekThinking = dialect === 'deepseek' && isDeepseekThinking(target);
  return {
    dialect,
    idPolicy: mistralIds ? MISTRAL_ID_POLICY : OPENAI_CHAT_ID_POLICY,
    maxTokensField: dialect === 'openai' ? 'max_completion_tokens' : 'max_tokens',
    includeUsage: ['openai', 'deepseek', 'groq', 'openrouter', 'ollama'].includes(dialect),
    systemRole: dialect === 'openai' && info.reasoning ? 'developer' : 'system',
    imageUrls: dialect !== 'ollama' && dialect !== 'google',
    pdf: dialect === 'openai' && info.pdf,
    assistantAfterTool: dialect === 'mistral',
    toolResultName: dialect === 'mistral',
    reasoningField: deepseekThinking ? 'reasoning_content' : dialect === 'groq' ? 'reasoning' : 'none',
    deepseekThinking,
    nativeExtras: NATIVE_EXTRAS[dialect](deepseekThinking),
    toolCallSignatures: dialect === 'google',
    dummySignatures: dialect === 'google' && info.thoughtSignatures === 'enforced',
  };
}

const NATIVE_EXTRAS: Record<ChatDialect, (deepseekThinking: boolean) => readonly string[]> = {
  openai: () => [], // C-R4: no reasoning field for OpenAI models
  mistral: () => [], // M-4
  deepseek: (thinking) => (thinking ? ['reasoning_content'] : []), // D-1, D-2
  groq: () => ['reasoning'], // D-G1, D-G2
  openrouter: () => ['reasoning_details'], // OR-2
  ollama: () => [],
  google: () => ['extra_content'], // G-K7
  generic: () => [],
};

/** What the pre-pass must know about this target (X2, X7, C-I1, C-R2). */
export function chatCapabilities(profile: ChatProfile, info: ModelInfo): PrepareCapabilities {
  return {
    idPolicy: profile.idPolicy,
    toolResultImages: false, // X7, C-T6
    vision: info.vision,
    imageMediaTypes: CHAT_IMAGE_MEDIA_TYPES,
    imageUrls: profile.imageUrls,
    assistantImages: false, // C-R2
    documentMediaTypes: profile.pdf ? ['application/pdf'] : [],
    documentUrls: false, // `file` parts take inline data or uploaded file ids only
  };
}
