/**
 * One entry point per operation over the five wire APIs, dispatching on the API id
 * (DESIGN.md, "One module per wire API").
 */
import type { Transcript, Turn, WireApi } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { convertToAnthropicMessages } from './anthropic-messages/convert-to-anthropic-messages';
import {
  createAnthropicMessagesStreamAssembler,
  readAnthropicMessagesHistory,
  readAnthropicMessagesResponse,
  readAnthropicMessagesStreamEvents,
} from './anthropic-messages/read-anthropic-messages';
import { convertToGeminiGenerateContent } from './gemini-generate-content/convert-to-gemini-generate-content';
import {
  createGeminiGenerateContentStreamAssembler,
  readGeminiGenerateContentHistory,
  readGeminiGenerateContentResponse,
  readGeminiGenerateContentStreamEvents,
} from './gemini-generate-content/read-gemini-generate-content';
import { convertToGeminiInteractions } from './gemini-interactions/convert-to-gemini-interactions';
import {
  createGeminiInteractionsStreamAssembler,
  readGeminiInteractionsHistory,
  readGeminiInteractionsResponse,
  readGeminiInteractionsStreamEvents,
} from './gemini-interactions/read-gemini-interactions';
import { convertToOpenAIChat } from './openai-chat/convert-to-openai-chat';
import {
  createOpenAIChatStreamAssembler,
  readOpenAIChatHistory,
  readOpenAIChatResponse,
  readOpenAIChatStreamEvents,
} from './openai-chat/read-openai-chat';
import { convertToOpenAIResponses } from './openai-responses/convert-to-openai-responses';
import {
  createOpenAIResponsesStreamAssembler,
  readOpenAIResponsesHistory,
  readOpenAIResponsesResponse,
  readOpenAIResponsesStreamEvents,
} from './openai-responses/read-openai-responses';
import type { ConvertOptions, ConvertResult, HistoryReadOptions, ReadContext, StreamAssembler } from './types';

/** The operations one wire API module provides. */
export interface WireApiModule {
  /**
   * Transcript → exact streaming request body + report. Never throws for a valid transcript.
   * `options.cache` (docs/architecture.md#incremental-conversion) must not change the result:
   * pass it to `prepareTranscript`.
   */
  convert(transcript: Transcript, target: ConvertTarget, options?: ConvertOptions): ConvertResult;
  /** Native request body (`{system?, messages}` …) → transcript. @throws TranscriptError for invalid input. */
  readHistory(body: unknown, opts?: HistoryReadOptions): Transcript;
  /** Complete response → one assistant turn. */
  readResponse(response: unknown, ctx: ReadContext): Turn;
  /** A new stream assembler for one response. */
  createStreamAssembler(ctx: ReadContext): StreamAssembler;
  /** A recorded stream (possibly several responses) → one turn per response. */
  readStreamEvents(events: unknown[], ctx: ReadContext): Turn[];
}

export const WIRE_API_MODULES: Readonly<Record<WireApi, WireApiModule>> = {
  'anthropic-messages': {
    convert: (t, target, options) =>
      convertToAnthropicMessages(t, { ...target, api: 'anthropic-messages' }, options) as unknown as ConvertResult,
    readHistory: readAnthropicMessagesHistory,
    readResponse: readAnthropicMessagesResponse,
    createStreamAssembler: createAnthropicMessagesStreamAssembler,
    readStreamEvents: readAnthropicMessagesStreamEvents,
  },
  'openai-chat': {
    convert: (t, target, options) =>
      convertToOpenAIChat(t, { ...target, api: 'openai-chat' }, options) as unknown as ConvertResult,
    readHistory: readOpenAIChatHistory,
    readResponse: readOpenAIChatResponse,
    createStreamAssembler: createOpenAIChatStreamAssembler,
    readStreamEvents: readOpenAIChatStreamEvents,
  },
  'openai-responses': {
    convert: (t, target, options) =>
      convertToOpenAIResponses(t, { ...target, api: 'openai-responses' }, options) as unknown as ConvertResult,
    readHistory: readOpenAIResponsesHistory,
    readResponse: readOpenAIResponsesResponse,
    createStreamAssembler: createOpenAIResponsesStreamAssembler,
    readStreamEvents: readOpenAIResponsesStreamEvents,
  },
  'gemini-generate-content': {
    convert: (t, target, options) =>
      convertToGeminiGenerateContent(
        t,
        { ...target, api: 'gemini-generate-content' },
        options,
      ) as unknown as ConvertResult,
    readHistory: readGeminiGenerateContentHistory,
    readResponse: readGeminiGenerateContentResponse,
    createStreamAssembler: createGeminiGenerateContentStreamAssembler,
    readStreamEvents: readGeminiGenerateContentStreamEvents,
  },
  'gemini-interactions': {
    convert: (t, target, options) =>
      convertToGeminiInteractions(t, { ...target, api: 'gemini-interactions' }, options) as unknown as ConvertResult,
    readHistory: readGeminiInteractionsHistory,
    readResponse: readGeminiInteractionsResponse,
    createStreamAssembler: createGeminiInteractionsStreamAssembler,
    readStreamEvents: readGeminiInteractionsStreamEvents,
  },
};

/**
 * Converts a transcript for `target.api` (see {@link WireApiModule.convert}); with
 * `options.cache`, turns converted before in the same context are not prepared again (same result).
 */
export function convertTranscript(
  transcript: Transcript,
  target: ConvertTarget,
  options?: ConvertOptions,
): ConvertResult {
  return WIRE_API_MODULES[target.api].convert(transcript, target, options);
}

export { createConversionCache, type ConversionCache } from '../transcript/prepare-cache';
