/**
 * Transcript → OpenAI Chat Completions streaming request body (`POST /v1/chat/completions`), for
 * OpenAI and the OpenAI-compatible backends of provider-rules.md §5 (Mistral, DeepSeek, Groq,
 * OpenRouter, Ollama, Gemini's OpenAI-compatible endpoint, and any other endpoint as `generic`).
 * Pure and synchronous: the shared pre-pass (`lib/transcript/prepare.ts`, X1–X8) repairs the
 * history, then each prepared turn is encoded here and in `convert-openai-chat-blocks.ts`.
 */
import { lookupModel } from '../../models/registry';
import type { ModelInfo } from '../../models/types';
import { TranscriptError } from '../../transcript/codec';
import {
  commitSnapshot,
  prepareTranscript,
  rangeEnd,
  rangeStart,
  STAGE,
  type PreparedTranscript,
  type StageRange,
} from '../../transcript/prepare';
import { convertResuming, type Incremental } from '../../transcript/prepare-cache';
import { ReportBuilder, withLazyReport } from '../../transcript/report';
import type { ToolDefinition, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertOptions, ConvertResult } from '../types';
import {
  ASSISTANT_AFTER_TOOL_TEXT,
  encodeAssistantTurn,
  encodeToolTurn,
  encodeUserTurn,
  type EncodeContext,
} from './convert-openai-chat-blocks';
import { replayNativeMessage } from './convert-openai-chat-native';
import { chatCapabilities, chatProfile, type ChatProfile } from './convert-openai-chat-profile';
import type {
  OpenAIChatBody,
  OpenAIChatMessage,
  OpenAIChatTool,
  OpenAIChatUserMessage,
  OpenAIChatUserPart,
} from './convert-openai-chat-types';

export type * from './convert-openai-chat-types';
export { ASSISTANT_AFTER_TOOL_TEXT, EMPTY_RESULT_TEXT } from './convert-openai-chat-blocks';
export { DUMMY_THOUGHT_SIGNATURE, dialectOf, isMistralFamily, type ChatDialect } from './convert-openai-chat-profile';

/** C-T5: at most 128 tools per request. */
export const MAX_TOOLS = 128;

/**
 * Converts a transcript into the body of one streaming Chat Completions request.
 *
 * - `target.provider` selects the §5 rules (`openai` default; `mistral`, `deepseek`, `groq`,
 *   `openrouter`, `ollama`, `google`/`gemini` for Gemini's OpenAI-compatible endpoint; any other id is
 *   a generic OpenAI-compatible endpoint). `target.api` is taken to be `openai-chat`.
 * - Output limit in tokens: `target.maxOutputTokens`, else the registry's `defaultOutputTokens`,
 *   as `max_completion_tokens` (OpenAI) or `max_tokens` (everyone else).
 * - Same-origin assistant turns replay their native message (X3); others are rebuilt from blocks.
 *
 * Never throws for a valid transcript: what the target can't take is converted or dropped and
 * reported.
 * @throws TranscriptError when `target.maxOutputTokens` is not a positive integer.
 */
export function convertToOpenAIChat(
  transcript: Transcript,
  target: ConvertTarget,
  options: ConvertOptions = {},
): ConvertResult<OpenAIChatBody> {
  const resolved = resolveTarget({ ...target, api: 'openai-chat' });
  const info = lookupModel(resolved.model, resolved.provider);
  const profile = chatProfile(resolved, info);
  // docs/architecture.md#incremental-conversion: splice onto the last conversion's prefix when it is provably the same.
  return convertResuming(options.cache, `openai-chat\u0001${JSON.stringify(resolved)}`, transcript, (inc) =>
    convertChat(transcript, resolved, info, profile, options, inc),
  );
}

/** {@link convertToOpenAIChat} after the target is resolved; undefined when a splice turns out not to be exact. */
function convertChat(
  transcript: Transcript,
  resolved: ResolvedTarget,
  info: ModelInfo,
  profile: ChatProfile,
  options: ConvertOptions,
  inc: Incremental | undefined,
): ConvertResult<OpenAIChatBody> | undefined {
  const resumed = inc?.snapshot;
  const report = new ReportBuilder(transcript, undefined, resumed?.report, resumed?.k);
  const prepared = prepareTranscript(transcript, resolved, chatCapabilities(profile, info), report, options.cache, inc);
  if (prepared.incremental && !prepared.incremental.ok) return undefined;
  const ctx: EncodeContext = { profile, report };

  const body: OpenAIChatBody = { model: resolved.model, messages: encodeMessages(prepared, ctx), stream: true };
  if (report.tainted) return undefined;
  if (profile.includeUsage) body.stream_options = { include_usage: true };
  body[profile.maxTokensField] = outputLimit(resolved, info, report);
  const reasoning = reasoningParams(resolved, info, profile, report);
  const tools = toolsWithEffort(
    encodeTools(prepared.tools, report),
    prepared.toolChoiceNone,
    reasoning,
    info,
    profile,
    report,
  );
  if (tools.length > 0) body.tools = tools;
  if (prepared.toolChoiceNone && tools.length > 0) body.tool_choice = 'none'; // X8
  Object.assign(body, reasoning);
  return withLazyReport({ api: 'openai-chat' as const, model: resolved.model, body }, report);
}

/**
 * C-T9: on OpenAI's GPT-5.4+ / GPT-6.x (registry `chatTools`), Chat Completions refuses function
 * tools together with a `reasoning_effort` other than `none` ("Function tools with
 * reasoning_effort are not supported for … in /v1/chat/completions"), and GPT-6 Astra, GPT-6.1
 * Sol and GPT-6.2 take no tool calling there at all. So a request never carries both: stub tools
 * (X8, not required on Chat: C-T8) are left out and reasoning kept; real tools set
 * `reasoning_effort` to `none` where the model takes it, else are left out with a warning that
 * the model needs `openai-responses` for tools. Every change is reported. May change
 * `reasoning.reasoning_effort`.
 * @returns the tools to send.
 */
function toolsWithEffort(
  tools: OpenAIChatTool[],
  stubsOnly: boolean,
  reasoning: Pick<OpenAIChatBody, 'reasoning_effort'>,
  info: ModelInfo,
  profile: ChatProfile,
  report: ReportBuilder,
): OpenAIChatTool[] {
  if (tools.length === 0 || profile.dialect !== 'openai' || info.chatTools === undefined) return tools;
  const effort = reasoning.reasoning_effort;
  if (info.chatTools === 'effort-none' && (effort === undefined || effort === 'none')) return tools;
  const model = info.id;
  if (stubsOnly) {
    report.warn(
      `stub tool definitions left out: ${model} takes no function tools with reasoning_effort ${effort ?? '(default)'} on Chat Completions, and Chat needs none for the history's calls (C-T9, C-T8)`,
    );
    return [];
  }
  if (info.chatTools === 'effort-none' && info.minReasoningEffort === 'none') {
    report.warn(
      `reasoning_effort set to none: ${model} takes function tools on Chat Completions only without reasoning (C-T9); use openai-responses to keep reasoning with tools`,
    );
    reasoning.reasoning_effort = 'none';
    return tools;
  }
  report.warn(
    `function tools left out: ${model} needs openai-responses for tool calling (C-T9); the model cannot call tools in this request`,
  );
  return [];
}

/**
 * System message, then one message per prepared user and assistant turn and one per tool result.
 * A left fold whose state is the message list: resumed from a snapshot's list (a copy), and that
 * list recorded for the next snapshot at its boundary (docs/architecture.md#incremental-conversion).
 */
function encodeMessages(prepared: PreparedTranscript, ctx: EncodeContext): OpenAIChatMessage[] {
  const inc = prepared.incremental;
  ctx.report.stage = STAGE.encode;
  const range: StageRange = rangeStart(ctx.report);
  let messages: OpenAIChatMessage[];
  if (inc?.resumed) messages = (inc.resumed.encoded as OpenAIChatMessage[]).slice();
  else {
    messages = [];
    // C-R1: the instructions open the messages, as `developer` for OpenAI's reasoning models, else `system`.
    if (prepared.system !== undefined) messages.push({ role: ctx.profile.systemRole, content: prepared.system });
  }
  const turns = prepared.turns;
  for (let i = inc?.resumed ? inc.from : 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (i === inc?.boundary) {
      rangeEnd(range, ctx.report);
      commitSnapshot(prepared, messages.slice(), [range]);
    }
    switch (turn.role) {
      case 'user': {
        const msg = encodeUserTurn(turn, ctx);
        if (msg) pushUser(messages, msg, ctx);
        break;
      }
      case 'assistant': {
        const msg = replayNativeMessage(turn, ctx) ?? encodeAssistantTurn(turn, ctx);
        if (msg) messages.push(msg);
        break;
      }
      case 'tool':
        encodeToolTurn(turn, ctx, messages);
        break;
      default: {
        const never: never = turn.role;
        throw new Error(`unhandled role ${String(never)}`);
      }
    }
  }
  return messages;
}

/**
 * Appends a user message. M-2: on Mistral a short assistant message separates it from a preceding
 * tool message. Two user messages in a row (an assistant message left empty in between) merge.
 */
function pushUser(messages: OpenAIChatMessage[], msg: OpenAIChatUserMessage, ctx: EncodeContext): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool' && ctx.profile.assistantAfterTool) {
    messages.push({ role: 'assistant', content: ASSISTANT_AFTER_TOOL_TEXT });
    ctx.report.synthesize(
      'text',
      `assistant message "${ASSISTANT_AFTER_TOOL_TEXT}" between a tool message and a user message (M-2)`,
    );
  }
  if (last?.role === 'user') {
    messages[messages.length - 1] = { role: 'user', content: mergeUserContent(last.content, msg.content) };
    return;
  }
  messages.push(msg);
}

function mergeUserContent(
  a: OpenAIChatUserMessage['content'],
  b: OpenAIChatUserMessage['content'],
): OpenAIChatUserMessage['content'] {
  if (typeof a === 'string' && typeof b === 'string') return `${a}\n\n${b}`;
  const parts = (c: OpenAIChatUserMessage['content']): OpenAIChatUserPart[] =>
    typeof c === 'string' ? [{ type: 'text', text: c }] : c;
  return [...parts(a), ...parts(b)];
}

/** Requested output limit in tokens, capped at the model's known maximum (with a warning). */
function outputLimit(target: ResolvedTarget, info: ModelInfo, report: ReportBuilder): number {
  const wanted = target.maxOutputTokens ?? info.defaultOutputTokens;
  if (!Number.isInteger(wanted) || wanted <= 0)
    throw new TranscriptError('maxOutputTokens', `must be a positive integer, got ${wanted}`);
  if (info.known && wanted > info.maxOutputTokens) {
    report.warn(
      `max output tokens ${wanted} exceeds the limit of ${target.model} (${info.maxOutputTokens}): sent ${info.maxOutputTokens}`,
    );
    return info.maxOutputTokens;
  }
  return wanted;
}

/**
 * Function tools (names already mapped, X5), each name once (the first definition wins, the rest
 * left out with a warning); at most {@link MAX_TOOLS} (C-T5), the rest dropped with a warning.
 */
function encodeTools(all: ToolDefinition[], report: ReportBuilder): OpenAIChatTool[] {
  const defs = uniqueTools(all, report);
  if (defs.length > MAX_TOOLS) report.warn(`${defs.length} tools: only the first ${MAX_TOOLS} are sent (C-T5)`);
  return defs.slice(0, MAX_TOOLS).map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      parameters: t.inputSchema,
    },
  }));
}

/** Dialects that take `reasoning_effort` (OpenAI; Groq, Ollama and Gemini's endpoint document it too). */
const EFFORT_DIALECTS = new Set(['openai', 'groq', 'ollama', 'google']);

/**
 * Thinking on or off: `reasoning_effort` where the model is effort-controlled, DeepSeek's
 * `thinking` switch (D-1), or a warning when the request can't be honoured.
 */
function reasoningParams(
  target: ResolvedTarget,
  info: ModelInfo,
  profile: ChatProfile,
  report: ReportBuilder,
): Pick<OpenAIChatBody, 'reasoning_effort' | 'thinking'> {
  // C-S1: Baton never sends temperature, top_p, top_logprobs or logprobs, so no sampling
  // parameter can meet a reasoning effort other than `none`.
  const { model } = target;
  if (profile.dialect === 'deepseek') {
    if (target.thinking && model !== 'deepseek-reasoner') return { thinking: { type: 'enabled' } };
    if (!target.thinking && model === 'deepseek-reasoner')
      report.warn('deepseek-reasoner always thinks: thinking stays on');
    return {};
  }
  const controlled =
    EFFORT_DIALECTS.has(profile.dialect) &&
    (info.thinking === 'effort' ||
      (profile.dialect === 'google' && (info.thinking === 'budget' || info.thinking === 'level')));
  if (!controlled) {
    if (target.thinking)
      report.warn(
        `thinking requested, but ${model} has no reasoning_effort control on ${profile.dialect} Chat Completions: sent without it`,
      );
    return {};
  }
  if (target.thinking) return { reasoning_effort: 'medium' };
  const lowest = profile.dialect === 'google' && info.canDisableThinking ? 'none' : info.minReasoningEffort;
  if (lowest !== undefined) return { reasoning_effort: lowest };
  report.warn(`${model} cannot switch reasoning off: it reasons at its default effort`);
  return {};
}
