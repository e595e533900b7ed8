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
import {
  prepareTranscript,
  type PrepareCapabilities,
  type PreparedBlock,
  type PreparedTranscript,
  type PreparedTurn,
} from '../../transcript/prepare';
import { ReportBuilder, withLazyReport } from '../../transcript/report';
import type { Meta, ToolDefinition, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertOptions, ConvertResult } from '../types';
import type { ConversionCache } from '../../transcript/prepare-cache';
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
import {
  assistantDocuments,
  blockedThinking,
  cacheControlOrder,
  compactionBeta,
  compactionStart,
  noPrefill,
  opensWithCompaction,
  placeSystemMessages,
  refKey,
  replaysThinking,
  SAMPLING_PARAMETERS,
  THINKING_BINDING_BETA,
  toolChoiceFor,
  userCitations,
  type BlockedBlocks,
} from './convert-anthropic-messages-2026';
import type {
  AnthropicMessagesBody,
  AnthropicThinkingConfig,
  DraftBlock,
  DraftMessage,
} from './convert-anthropic-messages-types';
import { ANTHROPIC_API, isObject } from './read-anthropic-messages-content';

export type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicMessagesBody,
} from './convert-anthropic-messages-types';

/** A-I1: the base64 image media types the API takes. */
export const ANTHROPIC_IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/**
 * A-I3: on Amazon Bedrock and Google Cloud (Vertex AI) only base64 sources work. Recognised from
 * the provider id or the endpoint's host.
 */
function base64Only(target: ResolvedTarget): boolean {
  return (
    /bedrock|vertex/i.test(target.provider) || /bedrock|aiplatform\.googleapis|vertex/i.test(target.endpoint ?? '')
  );
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
export function convertToAnthropicMessages(
  transcript: Transcript,
  target: ConvertTarget,
  options: ConvertOptions = {},
): ConvertResult<AnthropicMessagesBody> {
  if (target.api !== ANTHROPIC_API)
    throw new TranscriptError('target.api', `expected "${ANTHROPIC_API}", got ${JSON.stringify(target.api)}`);
  const resolved = resolveTarget(target);
  const info = lookupModel(resolved.model, resolved.provider);
  const report = new ReportBuilder(transcript);
  for (const key of SAMPLING_PARAMETERS)
    if ((target as unknown as Record<string, unknown>)[key] !== undefined)
      report.warn(`${key} left out: the API refuses sampling parameters under version 2026-10-21 (A-V1)`);
  // A-P1: a same-origin compaction block opens the conversation; the turns it summarises go.
  const start = compactionStart(transcript, resolved, report);
  // A-B4, A-B5: thinking bound to another account, or already dropped by the API, is not sent again.
  const blocked = blockedThinking(
    start.transcript,
    resolved,
    (t, b) => buildMessages(t, resolved, info, b, new ReportBuilder(t), options.cache).messages,
    start.skipped,
  );
  const built = buildMessages(start.transcript, resolved, info, blocked, report, options.cache);
  const { prepared, maxTokens, systemText } = built;
  let { messages } = built;

  let thinking: AnthropicThinkingConfig | undefined = resolved.thinking
    ? thinkingConfig(info, maxTokens, report)
    : undefined;
  if (thinking && !toolLoopStartsWithThinking(messages)) {
    // A-K2: the final assistant message of a tool loop in progress must start with replayable thinking.
    report.warn(
      'thinking off for this request: a tool loop is in progress and its last assistant message does not start with a thinking block from this model (A-K2)',
    );
    thinking = undefined;
  }
  // `thinkingAlwaysOn` is an optional registry field (read loosely so this compiles before it lands).
  if (!resolved.thinking && (info as { thinkingAlwaysOn?: boolean }).thinkingAlwaysOn === true)
    report.warn(`${info.id} always thinks: thinking cannot be switched off for it`);
  const beforeTail = messages;
  if (!thinking) messages = stripFinalThinking(messages, report); // A-K4
  messages = trimFinalAssistant(messages, report); // A-R4
  messages = noPrefill(messages, info, report); // A-V4
  if (messages !== beforeTail) messages = compactMessages(messages);
  messages = dropDanglingCitations(messages, report); // A-C1
  messages = assistantDocuments(messages, report); // A-V2
  messages = userCitations(messages, report); // A-V3

  const betas = new Set<string>();
  // A-B3: with the person's leave (default), replayed thinking that fails the conversation check is
  // dropped by the API (and reported in input_transformations) instead of refusing the request.
  if (thinking && resolved.prefixMismatchBehavior !== 'error' && replaysThinking(messages)) {
    thinking = { ...thinking, block_binding: { prefix_mismatch_behavior: 'drop_block' } };
    betas.add(THINKING_BINDING_BETA);
  }
  // A-P2: a replayed compaction block needs the beta of the feature that produced it.
  for (const turn of prepared.turns)
    for (const pb of turn.blocks)
      if (
        pb.sameOrigin &&
        pb.block.type === 'provider_item' &&
        isObject(pb.block.item) &&
        pb.block.item.type === 'compaction' &&
        !(pb.ref && blocked.has(refKey(pb.ref)))
      )
        betas.add(compactionBeta(pb.block));

  const body: AnthropicMessagesBody = {
    model: resolved.model,
    max_tokens: maxTokens,
    stream: true,
    // A-R1: the conversation's instructions go in the top-level `system` field, never in `messages`.
    ...(prepared.system !== undefined ? { system: prepared.system } : {}),
    messages: placeSystemMessages(messages, info, systemText, report), // A-M1
  };
  const tools = uniqueTools(prepared.tools, report); // each name once
  if (tools.length > 0) body.tools = tools.map((t) => encodeTool(t, report));
  if (prepared.toolChoiceNone) body.tool_choice = toolChoiceFor({ type: 'none' }, info, report); // X8, A-T6, A-V5
  if (thinking) body.thinking = thinking;
  cacheControlOrder(body, report); // A-S2
  const result: Omit<ConvertResult<AnthropicMessagesBody>, 'report'> = {
    api: ANTHROPIC_API,
    model: resolved.model,
    body,
  };
  // A-B3, A-P2: the non-secret headers this request needs; a beta feature means the beta endpoint.
  if (betas.size > 0) result.headers = { 'anthropic-beta': [...betas].sort().join(',') };
  return withLazyReport(result, report);
}

/** What {@link buildMessages} gives: the message list before the tail rules, and what the body needs. */
interface Built {
  prepared: PreparedTranscript;
  maxTokens: number;
  messages: DraftMessage[];
  /** A-M1: the system text of a draft block that stands for a system message read from a history. */
  systemText: (d: DraftBlock) => string | undefined;
}

/**
 * The message list of a request, up to the rules that depend on thinking and on the end of the
 * history: the shared pre-pass with Anthropic's capabilities, each prepared turn encoded (same-origin
 * `native` content verbatim unless a block of it is in `blocked`), the server-tool and A-K3 rules.
 * Deterministic (X9): the same transcript and target give the same messages, block for block.
 */
function buildMessages(
  transcript: Transcript,
  resolved: ResolvedTarget,
  info: ModelInfo,
  blocked: BlockedBlocks,
  report: ReportBuilder,
  cache: ConversionCache | undefined,
): Built {
  const caps: PrepareCapabilities = {
    ...anthropicCapabilities(info, resolved),
    // A-P1: no synthetic user turn in front of a compaction block.
    opensHistory: (turn) =>
      turn.role === 'assistant' &&
      opensWithCompaction(
        turn.blocks,
        blocked,
        turn.blocks.map((b) => b.ref),
      ),
  };
  const prepared = prepareTranscript(transcript, resolved, caps, report, cache);
  const maxTokens = resolveMaxTokens(resolved, info, report);
  const systemBlocks = new Set<DraftBlock>();
  const drafts: DraftMessage[] = new Array<DraftMessage>(prepared.turns.length);
  for (let i = 0; i < prepared.turns.length; i++)
    drafts[i] = encodeTurn(prepared.turns[i]!, report, blocked, systemBlocks);
  let messages = compactMessages(drafts);
  // Each step returns its input when it changes nothing; compacting again is needed only after a change.
  const moved = moveServerToolResults(messages, report); // A-R1, A-T2
  if (moved !== messages) messages = compactMessages(moved);
  const answered = dropUnansweredServerTools(messages, report); // A-S1
  if (answered !== messages) messages = compactMessages(answered);
  messages = enforceThinkingFirst(messages, report); // A-K3
  const systemText = (d: DraftBlock): string | undefined => {
    if (!systemBlocks.has(d)) return undefined;
    return (d.source as { meta?: Meta } | undefined)?.meta?.systemMessage as string | undefined;
  };
  return { prepared, maxTokens, messages, systemText };
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

/**
 * One prepared turn → one draft message: `assistant` stays, `user` and `tool` are `user` (A-R1,
 * A-T2). Blocks in `blocked` are left out, reported (A-B4, A-B5, A-P1), and the turn is then
 * rebuilt from its blocks instead of replaying its `native` content. Draft blocks that stand for a
 * system message read from a history (`meta.systemMessage`, A-M1) are added to `systemBlocks`.
 */
function encodeTurn(
  turn: PreparedTurn,
  report: ReportBuilder,
  blocked: BlockedBlocks,
  systemBlocks: Set<DraftBlock>,
): DraftMessage {
  const role = turn.role === 'assistant' ? 'assistant' : 'user';
  const skip = (pb: PreparedBlock): boolean => pb.ref !== undefined && blocked.has(refKey(pb.ref));
  const anySkipped = blocked.size > 0 && turn.blocks.some(skip);
  const native = turn.native && !anySkipped ? replayNative(turn, report) : undefined;
  if (native) return { role, blocks: native };
  const blocks: DraftBlock[] = [];
  const ctx: EncodeContext = { report, role };
  for (const pb of turn.blocks) {
    if (anySkipped && skip(pb)) {
      report.add(pb.ref, 'dropped', blocked.get(refKey(pb.ref!))!);
      continue;
    }
    const system = role === 'user' && pb.block.type === 'text' && typeof pb.block.meta?.systemMessage === 'string';
    for (const block of encodeBlock(pb, ctx)) {
      const d: DraftBlock = pb.ref ? { block, ref: pb.ref } : { block };
      if (system) {
        d.source = pb.block;
        systemBlocks.add(d);
      }
      blocks.push(d);
    }
  }
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
    report.warn(
      `tool ${def.name}: input_schema type ${JSON.stringify(schema.type)} is not "object"; sent as an empty object schema`,
    );
  }
  return { name: def.name, ...(def.description !== undefined ? { description: def.description } : {}), input_schema };
}
