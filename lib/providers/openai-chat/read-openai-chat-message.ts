/**
 * The part of the OpenAI Chat Completions readers that every path shares: an assistant message
 * (`choices[0].message`, a history message, or one rebuilt from stream deltas) → Baton blocks,
 * `usage` → token counts, `finish_reason` → stop reason, and the assembled assistant turn.
 * Sharing it is what makes a streamed turn equal to the turn read from the complete response.
 *
 * Wire shapes: openai-node `src/resources/chat/completions/completions.ts`
 * (ChatCompletionMessage, ChatCompletionMessageToolCall, CompletionUsage), plus the extras of
 * OpenAI-compatible endpoints (provider-rules.md §5): `reasoning_content` (DeepSeek, xAI),
 * `reasoning` / `reasoning_details` (Groq, OpenRouter), `extra_content.google.thought_signature`
 * (Gemini's compatible endpoint, G-K7).
 */
import type { JsonPath } from '../../transcript/codec';
import type { Block, Origin, StopReason, ToolCallBlock, Turn, TurnStatus, Usage } from '../../transcript/schema';
import type { ReadContext } from '../types';
import {
  expectArray,
  expectRecord,
  expectString,
  fail,
  isRecord,
  optionalString,
  parseArguments,
  tokenCount,
} from './read-openai-chat-util';
import { lookupTable } from '../../transcript/lookup';

/** The `api` of every turn and block these readers produce. */
export const CHAT_API = 'openai-chat' as const;

/** How {@link assistantBlocks} treats gaps that a stream or a lenient server can leave. */
export interface AssistantBlockOptions {
  /** The stream was cut before its terminal event: unparsable tool arguments are `partial`. */
  incomplete?: boolean;
  /** Give a tool call without an `id` a deterministic one (`call_<index>`, `meta.generatedId`) instead of throwing. */
  generateMissingIds?: boolean;
  /** Id for a legacy `function_call` (which has none); default `<name>_0`. */
  legacyCallId?: (name: string) => string;
}

/**
 * Blocks of one assistant message, in this order: reasoning (`reasoning_content`, then
 * `reasoning`) as `thinking` blocks tagged `meta.field` (their origin scopes them, D-3), content
 * text (with `annotations` as the text block's `citations`), refusal text (`meta.refusal`),
 * audio (`provider_item`), then tool calls (`tool_call`; custom or unknown tool types as
 * `provider_item`) and a legacy `function_call`.
 *
 * Tool arguments are parsed into `input`; the exact text stays in the message (`turn.native`).
 * Arguments that do not parse give `input: {}` with the text in `meta.rawArguments` and
 * `meta.partial: true` (stream cut) or `meta.invalidArguments: true` (complete but not JSON).
 * @throws TranscriptError naming the path under `path` for a malformed message.
 */
export function assistantBlocks(
  msg: Record<string, unknown>,
  path: JsonPath,
  opts: AssistantBlockOptions = {},
): Block[] {
  const blocks: Block[] = [];
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const text = optionalString(msg[field], [...path, field]);
    if (text) blocks.push({ type: 'thinking', text, meta: { field } });
  }

  let citations: unknown[] | undefined;
  if (msg.annotations !== undefined && msg.annotations !== null) {
    const list = expectArray(msg.annotations, [...path, 'annotations']);
    if (list.length > 0) citations = list;
  }
  const textBlock = (text: string): Block => {
    const block: Block = { type: 'text', text };
    if (citations) {
      block.citations = citations;
      citations = undefined; // message-level annotations go on the first text block only
    }
    return block;
  };

  const content = msg.content;
  if (typeof content === 'string') {
    if (content) blocks.push(textBlock(content));
  } else if (Array.isArray(content)) {
    content.forEach((raw, j) => {
      const p = [...path, 'content', j];
      const part = expectRecord(raw, p);
      const type = expectString(part.type, [...p, 'type']);
      if (type === 'text') {
        const text = expectString(part.text, [...p, 'text']);
        if (text) blocks.push(textBlock(text));
      } else if (type === 'refusal') {
        const text = expectString(part.refusal, [...p, 'refusal']);
        if (text) blocks.push({ type: 'text', text, meta: { refusal: true } });
      } else {
        blocks.push({ type: 'provider_item', api: CHAT_API, item: part });
      }
    });
  } else if (content !== undefined && content !== null) {
    fail([...path, 'content'], `expected string, array or null`);
  }

  const refusal = optionalString(msg.refusal, [...path, 'refusal']);
  if (refusal) blocks.push({ type: 'text', text: refusal, meta: { refusal: true } });

  if (msg.audio !== undefined && msg.audio !== null) {
    const audio = expectRecord(msg.audio, [...path, 'audio']);
    const block: Block = { type: 'provider_item', api: CHAT_API, item: audio };
    if (typeof audio.transcript === 'string' && audio.transcript) block.text = audio.transcript;
    blocks.push(block);
  }

  if (msg.tool_calls !== undefined && msg.tool_calls !== null) {
    expectArray(msg.tool_calls, [...path, 'tool_calls']).forEach((raw, j) => {
      blocks.push(toolCallBlock(raw, [...path, 'tool_calls', j], j, opts));
    });
  }

  if (msg.function_call !== undefined && msg.function_call !== null) {
    const p = [...path, 'function_call'];
    const fc = expectRecord(msg.function_call, p);
    const name = expectString(fc.name, [...p, 'name'], true);
    const raw = optionalString(fc.arguments, [...p, 'arguments']) ?? '';
    const id = opts.legacyCallId ? opts.legacyCallId(name) : `${name}_0`;
    blocks.push(
      applyArguments(
        { type: 'tool_call', id, name, input: {}, meta: { generatedId: true, legacyFunctionCall: true } },
        raw,
        opts,
      ),
    );
  }
  return blocks;
}

function toolCallBlock(raw: unknown, p: JsonPath, index: number, opts: AssistantBlockOptions): Block {
  const tc = expectRecord(raw, p);
  const type = tc.type === undefined ? 'function' : expectString(tc.type, [...p, 'type']);
  if (type !== 'function') {
    // Custom (free-form) tool calls and future types: no cross-provider meaning, kept verbatim.
    const block: Block = { type: 'provider_item', api: CHAT_API, item: tc };
    const custom = isRecord(tc.custom) ? tc.custom : undefined;
    if (custom && typeof custom.input === 'string') block.text = custom.input;
    return block;
  }
  const fn = expectRecord(tc.function, [...p, 'function']);
  const name = expectString(fn.name, [...p, 'function', 'name'], true);
  const rawArgs = optionalString(fn.arguments, [...p, 'function', 'arguments']) ?? '';
  let id = optionalString(tc.id, [...p, 'id']);
  const meta: Record<string, unknown> = {};
  if (!id) {
    if (!opts.generateMissingIds) fail([...p, 'id'], 'required field missing (expected non-empty string)');
    id = `call_${index}`;
    meta.generatedId = true;
  }
  const block: Block = { type: 'tool_call', id, name, input: {} };
  // G-K7: Gemini's OpenAI-compatible endpoint carries the thought signature here.
  const google = isRecord(tc.extra_content) && isRecord(tc.extra_content.google) ? tc.extra_content.google : undefined;
  if (google && typeof google.thought_signature === 'string') block.signature = google.thought_signature;
  if (Object.keys(meta).length) block.meta = meta;
  return applyArguments(block, rawArgs, opts);
}

/**
 * Sets a tool call's `input` from its arguments text (shared with the Responses readers). Text
 * that does not parse gives `input: {}` with `meta.rawArguments` and `meta.partial: true`
 * (`opts.incomplete`: the stream was cut) or `meta.invalidArguments: true`. Empty text is `{}`,
 * except in an incomplete stream, where it is partial.
 */
export function applyArguments(block: ToolCallBlock, raw: string, opts: { incomplete?: boolean }): ToolCallBlock {
  const parsed =
    opts.incomplete && raw.trim() === '' ? { ok: false as const, reason: 'no arguments yet' } : parseArguments(raw);
  if (parsed.ok) {
    block.input = parsed.value as ToolCallBlock['input'];
    return block;
  }
  block.input = {};
  block.meta = {
    ...block.meta,
    rawArguments: raw,
    ...(opts.incomplete ? { partial: true } : { invalidArguments: true }),
  };
  return block;
}

/**
 * Chat `usage` (CompletionUsage; DeepSeek and OpenRouter extras) → Baton usage, tokens as
 * reported: `prompt_tokens` → inputTokens (includes cached tokens, as OpenAI counts them),
 * `completion_tokens` → outputTokens, `prompt_tokens_details.cached_tokens` (else DeepSeek
 * `prompt_cache_hit_tokens`) → cacheReadTokens, `prompt_tokens_details.cache_write_tokens`
 * (OpenRouter) → cacheWriteTokens, `completion_tokens_details.reasoning_tokens` → reasoningTokens.
 * `undefined` when nothing usable was reported.
 */
export function chatUsage(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const prompt = isRecord(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const completion = isRecord(u.completion_tokens_details) ? u.completion_tokens_details : {};
  const usage: Usage = {};
  const set = (key: keyof Usage, v: unknown) => {
    const n = tokenCount(v);
    if (n !== undefined) usage[key] = n;
  };
  set('inputTokens', u.prompt_tokens);
  set('outputTokens', u.completion_tokens);
  set('cacheReadTokens', prompt.cached_tokens ?? u.prompt_cache_hit_tokens);
  set('cacheWriteTokens', prompt.cache_write_tokens);
  set('reasoningTokens', completion.reasoning_tokens);
  return Object.keys(usage).length ? usage : undefined;
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = lookupTable({
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'content_filter',
  // Values some OpenAI-compatible servers pass through from their native API.
  end_turn: 'end_turn',
  eos: 'end_turn',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_use',
  refusal: 'refusal',
});

/**
 * `finish_reason` → transcript stop reason (`stop`→end_turn, `length`→max_tokens,
 * `tool_calls`/`function_call`→tool_use, `content_filter`→content_filter, anything else→other).
 * A `stop` whose message carries a non-empty `refusal` is a `refusal`.
 */
export function chatStopReason(raw: string, msg: Record<string, unknown> | undefined): StopReason {
  const mapped = STOP_REASONS[raw] ?? 'other';
  if (mapped === 'end_turn' && msg && typeof msg.refusal === 'string' && msg.refusal) return 'refusal';
  return mapped;
}

/**
 * The turn's origin (transcript-v1.md "Origin"): `model` as the server reported it, else the
 * requested model, else `unknown` (only a stream that ended before saying can lack both).
 */
export function chatOrigin(ctx: ReadContext, reportedModel: string | undefined): Origin {
  const model = reportedModel || ctx.requestedModel || 'unknown';
  const origin: Origin = { provider: ctx.provider, api: CHAT_API, model };
  if (ctx.requestedModel && ctx.requestedModel !== model) origin.requestedModel = ctx.requestedModel;
  if (ctx.endpoint) origin.endpoint = ctx.endpoint;
  return origin;
}

/** Everything {@link buildChatTurn} needs; the response reader and the stream assembler fill it alike. */
export interface ChatTurnParts {
  ctx: ReadContext;
  model?: string;
  responseId?: string;
  status: TurnStatus;
  blocks: Block[];
  /** The assistant message for `turn.native` (absent when no message was received). */
  message?: Record<string, unknown>;
  finishReason?: string;
  usage?: unknown;
  error?: { type: string; message: string };
  /** OpenRouter's `native_finish_reason` and `provider` (the upstream that served the request). */
  nativeFinishReason?: string;
  upstreamProvider?: string;
  warnings?: string[];
}

/** Assembles the assistant turn; see `readOpenAIChatResponse` for the field mapping. */
export function buildChatTurn(p: ChatTurnParts): Turn {
  const turn: Turn = {
    id: p.ctx.turnId ?? p.responseId ?? 'assistant',
    role: 'assistant',
    origin: chatOrigin(p.ctx, p.model),
    status: p.status,
    blocks: p.blocks,
  };
  if (p.ctx.createdAt) turn.createdAt = p.ctx.createdAt;
  if (p.finishReason) turn.stopReason = chatStopReason(p.finishReason, p.message);
  const usage = chatUsage(p.usage);
  if (usage) turn.usage = usage;
  if (p.error) turn.error = p.error;
  if (p.message) turn.native = { api: CHAT_API, payload: p.message };
  const meta: Record<string, unknown> = {};
  if (p.responseId) meta.responseId = p.responseId;
  if (p.finishReason) meta.rawStopReason = p.finishReason;
  if (p.nativeFinishReason) meta.nativeFinishReason = p.nativeFinishReason;
  if (p.upstreamProvider) meta.upstreamProvider = p.upstreamProvider;
  if (p.warnings?.length) meta.warnings = p.warnings;
  if (Object.keys(meta).length) turn.meta = meta;
  return turn;
}

/** `{type, message}` of a provider error object (`{message, type?, code?}`), never the raw JSON as text. */
export function chatError(err: unknown, fallbackType = 'error'): { type: string; message: string } {
  if (!isRecord(err)) return { type: fallbackType, message: typeof err === 'string' ? err : '' };
  const type =
    (typeof err.type === 'string' && err.type) ||
    (typeof err.code === 'string' && err.code) ||
    (typeof err.code === 'number' ? String(err.code) : '') ||
    fallbackType;
  return { type, message: typeof err.message === 'string' ? err.message : '' };
}
