/**
 * The Chat Completions request body Baton sends (`POST /v1/chat/completions`, streaming), as the
 * `openai` SDK would put it on the wire, plus the fields OpenAI-compatible backends add
 * (provider-rules.md §5). Own interfaces rather than the SDK's param types, because the SDK has
 * no type for `reasoning_content` (DeepSeek), `reasoning` (Groq), `reasoning_details`
 * (OpenRouter) or `extra_content` (Gemini's OpenAI-compatible endpoint).
 */
import type { ReasoningEffort } from 'openai/resources/shared';

/** A text content part. */
export interface OpenAIChatTextPart {
  type: 'text';
  text: string;
}

/** A refusal content part (assistant messages only, C-R2). */
export interface OpenAIChatRefusalPart {
  type: 'refusal';
  refusal: string;
}

/** An image by URL or `data:<type>;base64,…` URL (C-I1; user messages only). */
export interface OpenAIChatImagePart {
  type: 'image_url';
  image_url: { url: string };
}

/** A PDF given inline: `file_data` is a `data:application/pdf;base64,…` URL (OpenAI only). */
export interface OpenAIChatFilePart {
  type: 'file';
  file: { filename: string; file_data: string };
}

export type OpenAIChatUserPart = OpenAIChatTextPart | OpenAIChatImagePart | OpenAIChatFilePart;

/** `extra_content` of Gemini's OpenAI-compatible endpoint (G-K7). */
export interface OpenAIChatGoogleExtra {
  google?: { thought_signature?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** One function call of an assistant message; `arguments` is a JSON string. */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Gemini OpenAI-compatible endpoint only (G-K7). */
  extra_content?: OpenAIChatGoogleExtra;
}

/** System text: `developer` for OpenAI reasoning models, `system` elsewhere (C-R1). */
export interface OpenAIChatSystemMessage {
  role: 'system' | 'developer';
  content: string;
}

export interface OpenAIChatUserMessage {
  role: 'user';
  content: string | OpenAIChatUserPart[];
}

/**
 * An assistant message. `content` is null when only `tool_calls` are present (C-R2). The reasoning
 * fields are provider extras, each sent only to the provider that accepts it (C-R4, §5).
 */
export interface OpenAIChatAssistantMessage {
  role: 'assistant';
  content: string | Array<OpenAIChatTextPart | OpenAIChatRefusalPart> | null;
  refusal?: string;
  name?: string;
  tool_calls?: OpenAIChatToolCall[];
  /** DeepSeek thinking mode (D-1, D-2, D-3). */
  reasoning_content?: string;
  /** Groq (D-G2). */
  reasoning?: string;
  /** OpenRouter, replayed unchanged from the native message (OR-2). */
  reasoning_details?: unknown[];
  /** Gemini OpenAI-compatible endpoint, replayed from the native message. */
  extra_content?: OpenAIChatGoogleExtra;
}

/** A tool result (C-T2): text only (C-T6); `name` for Mistral (M-5). */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
  name?: string;
}

export type OpenAIChatMessage =
  OpenAIChatSystemMessage | OpenAIChatUserMessage | OpenAIChatAssistantMessage | OpenAIChatToolMessage;

/** A function tool definition (C-T5: name `^[a-zA-Z0-9_-]{1,64}$`, at most 128 tools). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/**
 * The streaming request body. Exactly one of `max_completion_tokens` (OpenAI) and `max_tokens`
 * (every other provider) is set, in tokens.
 */
export interface OpenAIChatBody {
  model: string;
  messages: OpenAIChatMessage[];
  stream: true;
  stream_options?: { include_usage: true };
  max_completion_tokens?: number;
  max_tokens?: number;
  tools?: OpenAIChatTool[];
  /** `none` when the history uses tools that this request cannot run (X8). */
  tool_choice?: 'none';
  reasoning_effort?: Exclude<ReasoningEffort, null>;
  /** DeepSeek: thinking mode on a model that is not `deepseek-reasoner` (D-1). */
  thinking?: { type: 'enabled' };
}
