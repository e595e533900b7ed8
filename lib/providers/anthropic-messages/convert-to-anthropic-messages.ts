/**
 * Baton transcript → the body of a streaming Anthropic Messages request (`POST /v1/messages`),
 * with its conversion report (DESIGN.md, "One module per wire API"; transcript-v1.md, "The
 * `baton convert` contract"; provider-rules.md §0 and §1). Pure and synchronous.
 *
 * Steps: resolve the target and look the model up → run the shared pre-pass with Anthropic's
 * capabilities → encode each prepared turn (same-origin `native` content verbatim, everything else
 * block by block) → apply the message-level thinking rules → body and report.
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { lookupModel } from '../../models/registry';
import type { ModelInfo } from '../../models/types';
import { TranscriptError } from '../../transcript/codec';
import { PORTABLE_ID_POLICY } from '../../transcript/ids';
import { prepareTranscript, type PrepareCapabilities, type PreparedTurn } from '../../transcript/prepare';
import { withLazyReport, type ReportBuilder } from '../../transcript/report';
import type { ToolDefinition, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertResult } from '../types';
import { dropUnansweredServerTools, moveServerToolResults } from './convert-anthropic-messages-server-tools';
import { encodeBlock, type EncodeContext } from './convert-anthropic-messages-blocks';
import { dropDanglingCitations, replayNative } from './convert-anthropic-messages-native';
import {
  compactMessages,
  enforceThinkingFirst,
  stripFinalThinking,
  thinkingConfig,
  toolLoopStartsWithThinking,
  trimFinalAssistant,
} from './convert-anthropic-messages-thinking';
import type {
  AnthropicMessagesBody,
  DraftBlock,
  DraftMessage,
} from './convert-anthropic-messages-types';
import { ANTHROPIC_API } from './read-anthropic-messages-content';

export type { AnthropicContentBlock, AnthropicMessage, AnthropicMessagesBody } from './convert-anthropic-messages-types';

/** A-I1: the base64 image media types the API takes. */
export const ANTHROPIC_IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/**
 * A-I3: on Amazon Bedrock and Google Cloud (Vertex AI) only base64 sources work. Recognised from
 * the provider id or the endpoint's host.
 */
function base64Only(target: ResolvedTarget): boolean {
  return /bedrock|vertex/i.test(target.provider) || /bedrock|aiplatform\.googleapis|vertex/i.test(target.endpoint ?? '');
}

/**
 * What an Anthropic model takes, for the pre-pass: tool-call ids in the portable set of X2
 * (`^[a-zA-Z0-9_-]{1,40}$`, inside A-T1's pattern and 64-character advice), images inside tool results (X7,
 * A-T7), the four image types of A-I1 by base64 or URL (URL not on Bedrock/Vertex, A-I3), no
 * images in assistant turns (A-I2), PDF documents when the registry says so, and plain-text
 * documents (SDK `PlainTextSource`).
 */
export function anthropicCapabilities(info: ModelInfo, target: ResolvedTarget): PrepareCapabilities {
  const urls = !base64Only(target);
  return {
    idPolicy: PORTABLE_ID_POLICY,
    toolResultImages: true,
    vision: info.vision,
    imageMediaTypes: ANTHROPIC_IMAGE_MEDIA_TYPES,
    imageUrls: urls,
    assistantImages: false,
    documentMediaTypes: info.pdf ? ['application/pdf', 'text/plain'] : ['text/plain'],
    documentUrls: urls,
  };
}

/**
 * Converts a transcript into a streaming Anthropic Messages request body
 * `{model, max_tokens, stream: true, system?, messages, tools?, tool_choice?, thinking?}` and the
 * report of what happened to every input block.
 *
 * - `max_tokens`: `target.maxOutputTokens`, else the registry's `defaultOutputTokens` (tokens);
 *   clamped, with a warning, to the registry's `maxOutputTokens` for a known model.
 * - `target.thinking`: `{type: 'adaptive'}` or `{type: 'enabled', budget_tokens}` per the registry
 *   (budget: half of `max_tokens`, ≥ 1024, < `max_tokens`); switched off with a warning when the
 *   model has no control, `max_tokens` is too small, or a tool loop in progress cannot meet A-K2.
 * - Same-origin turns replay their `native` content verbatim (fate `replayed-native`), or are rebuilt
 *   keeping signatures, redacted thinking, citations and provider items in place (A-K1, A-C1).
 * - Tool results go first in the next user message (A-T2), a following user turn after them;
 *   stub tools come with `tool_choice: {type: 'none'}` (X8, A-T6).
 *
 * A valid transcript always converts.
 * @throws TranscriptError when `target.api` is not `anthropic-messages` or
 *   `target.maxOutputTokens` is not a positive integer.
 */
export function convertToAnthropicMessages(transcript: Transcript, target: ConvertTarget): ConvertResult<AnthropicMessagesBody> {
  if (target.api !== ANTHROPIC_API) throw new TranscriptError('target.api', `expected "${ANTHROPIC_API}", got ${JSON.stringify(target.api)}`);
  const resolved = resolveTarget(target);
  const info = lookupModel(resolved.model, resolved.provider);
  const prepared = prepareTranscript(transcript, resolved, anthropicCapabilities(info, resolved));
  const { report } = prepared;
  const maxTokens = resolveMaxTokens(resolved, info, report);

  const drafts: DraftMessage[] = new Array<DraftMessage>(prepared.turns.length);
  for (let i = 0; i < prepared.turns.length; i++) drafts[i] = encodeTurn(prepared.turns[i]!, report);
  let messages = compactMessages(drafts);
  // Each step returns its input when it changes nothing; compacting again is needed only after a change.
  const moved = moveServerToolResults(messages, report); // A-R1, A-T2
  if (moved !== messages) messages = compactMessages(moved);
  const answered = dropUnansweredServerTools(messages, report);
  if (answered !== messages) messages = compactMessages(answered);
  messages = enforceThinkingFirst(messages, report); // A-K3
  let thinking = resolved.thinking ? thinkingConfig(info, maxTokens, report) : undefined;
  if (thinking && !toolLoopStartsWithThinking(messages)) {
    // A-K2: the final assistant message of a tool loop in progress must start with replayable thinking.
    report.warn('thinking off for this request: a tool loop is in progress and its last assistant message does not start with a thinking block from this model (A-K2)');
    thinking = undefined;
  }
  // `thinkingAlwaysOn` is an optional registry field (read loosely so this compiles before it lands).
  if (!resolved.thinking && (info as { thinkingAlwaysOn?: boolean }).thinkingAlwaysOn === true)
    report.warn(`${info.id} always thinks: thinking cannot be switched off for it`);
  const beforeTail = messages;
  if (!thinking) messages = stripFinalThinking(messages, report); // A-K4
  messages = trimFinalAssistant(messages, report); // A-R4
  if (messages !== beforeTail) messages = compactMessages(messages);
  messages = dropDanglingCitations(messages, report); // A-C1

  const body: AnthropicMessagesBody = {
    model: resolved.model,
    max_tokens: maxTokens,
    stream: true,
    ...(prepared.system !== undefined ? { system: prepared.system } : {}),
    messages: messages.map((m) => ({ role: m.role, content: m.blocks.map((d) => d.block) })),
  };
  const tools = uniqueTools(prepared.tools, report); // each name once
  if (tools.length > 0) body.tools = tools.map((t) => encodeTool(t, report));
  if (prepared.toolChoiceNone) body.tool_choice = { type: 'none' }; // X8, A-T6
  if (thinking) body.thinking = thinking;
  return withLazyReport({ api: ANTHROPIC_API, model: resolved.model, body }, report);
}

/** `max_tokens` in tokens: the caller's limit, else the registry default; never above a known model's maximum. */
function resolveMaxTokens(target: ResolvedTarget, info: ModelInfo, report: ReportBuilder): number {
  const asked = target.maxOutputTokens;
  if (asked !== undefined && !(Number.isSafeInteger(asked) && asked > 0))
    throw new TranscriptError('target.maxOutputTokens', `expected a positive integer (tokens), got ${String(asked)}`);
  const tokens = asked ?? info.defaultOutputTokens;
  if (info.known && tokens > info.maxOutputTokens) {
    report.warn(`max_tokens lowered from ${tokens} to ${info.maxOutputTokens}, the most ${info.id} accepts`);
    return info.maxOutputTokens;
  }
  return tokens;
}

/** One prepared turn → one draft message: `assistant` stays, `user` and `tool` are `user` (A-R1, A-T2). */
function encodeTurn(turn: PreparedTurn, report: ReportBuilder): DraftMessage {
  const role = turn.role === 'assistant' ? 'assistant' : 'user';
  const native = turn.native ? replayNative(turn, report) : undefined;
  if (native) return { role, blocks: native };
  const blocks: DraftBlock[] = [];
  const ctx: EncodeContext = { report, role };
  for (const pb of turn.blocks) for (const block of encodeBlock(pb, ctx)) blocks.push(pb.ref ? { block, ref: pb.ref } : { block });
  return { role, blocks };
}

/**
 * A tool definition → `{name, description?, input_schema}` (SDK `Tool`). The API requires
 * `input_schema.type` to be `"object"`: a schema without a type gets it, any other schema is
 * replaced by an empty object schema; both are warned about.
 */
export function encodeTool(def: ToolDefinition, report: ReportBuilder): Tool {
  const schema = def.inputSchema;
  let input_schema: Tool.InputSchema;
  if (schema.type === 'object') input_schema = schema as Tool.InputSchema;
  else if (schema.type === undefined) {
    input_schema = { type: 'object', ...schema };
    report.warn(`tool ${def.name}: input_schema has no type; sent with type "object"`);
  } else {
    input_schema = { type: 'object', properties: {} };
    report.warn(`tool ${def.name}: input_schema type ${JSON.stringify(schema.type)} is not "object"; sent as an empty object schema`);
  }
  return { name: def.name, ...(def.description !== undefined ? { description: def.description } : {}), input_schema };
}
