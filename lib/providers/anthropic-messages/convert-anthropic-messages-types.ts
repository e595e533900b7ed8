/**
 * Request-side shapes of the Anthropic Messages converter (`convert-to-anthropic-messages.ts`).
 * Built from the SDK's param types (`@anthropic-ai/sdk` 1.14, `resources/messages/messages.ts`),
 * plus a loose member for same-origin blocks replayed verbatim.
 */
import type { ContentBlockParam, ThinkingConfigParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type { BlockRef } from '../../transcript/report';
import type { Block } from '../../transcript/schema';

/**
 * A same-origin block replayed exactly as the API returned it (server tools and their results, MCP
 * blocks, compaction, or any block of a `native` payload): only `type` is known to be a string.
 */
export interface AnthropicVerbatimBlock {
  type: string;
  [key: string]: unknown;
}

/** One content block of a request message. */
export type AnthropicContentBlock = ContentBlockParam | AnthropicVerbatimBlock;

/** One message of `messages` (A-R1: only `user` and `assistant`; the content is always an array). */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

/** A-M1: a mid-conversation system message (SDK `SystemMessageParam`), for models that take it. */
export interface AnthropicSystemMessage {
  role: 'system';
  content: string;
}

/**
 * `thinking` with the thinking-binding controls (A-B3, beta `thinking-binding-controls-2026-08-01`,
 * SDK `BetaThinkingBlockBinding`).
 */
export type AnthropicThinkingConfig = ThinkingConfigParam & {
  block_binding?: { prefix_mismatch_behavior: 'drop_block' | 'error' };
};

/**
 * The JSON body of a streaming `POST /v1/messages` request as the official SDK sends it, without
 * credentials (transcript-v1.md, "The `baton convert` contract"). Key order is the emit order.
 */
export interface AnthropicMessagesBody {
  model: string;
  /** Output limit in tokens (thinking tokens included). */
  max_tokens: number;
  stream: true;
  /** The system prompt (A-R1: top-level, never a message). */
  system?: string;
  messages: (AnthropicMessage | AnthropicSystemMessage)[];
  tools?: Tool[];
  /** `{type: 'none'}` when the tools are stubs the model must not call (X8, A-T6). */
  tool_choice?: ToolChoice;
  thinking?: AnthropicThinkingConfig;
}

/** A content block on its way into a message, with the input block it stands for (for the report). */
export interface DraftBlock {
  block: AnthropicContentBlock;
  /** The input block (absent for synthesised blocks). */
  ref?: BlockRef;
  /** The prepared Baton block it was encoded from, kept only where a later pass needs it (A-M1). */
  source?: Block;
}

/** A message being assembled; becomes an {@link AnthropicMessage}. */
export interface DraftMessage {
  role: 'user' | 'assistant';
  blocks: DraftBlock[];
}
