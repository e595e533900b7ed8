/**
 * What every OpenAI Responses reader shares: output items → Baton blocks, `usage` → token counts,
 * the response's `status` / `incomplete_details` / `error` → turn status and stop reason, and
 * the assembled assistant turn. Sharing it makes a streamed turn equal to the turn read from the
 * complete response.
 *
 * Wire shapes: openai-node `src/resources/responses/responses.ts` (ResponseOutputItem,
 * ResponseReasoningItem, ResponseFunctionToolCall, ResponseOutputMessage, ResponseUsage);
 * provider-rules.md §3 (R-1, R-K3).
 */
import type { JsonPath } from '../../transcript/codec';
import type { Block, Origin, StopReason, Turn, TurnStatus, Usage } from '../../transcript/schema';
import type { ReadContext } from '../types';
import { applyArguments } from '../openai-chat/read-openai-chat-message';
import {
  expectArray,
  expectRecord,
  expectString,
  isRecord,
  optionalString,
  tokenCount,
} from '../openai-chat/read-openai-chat-util';

/** The `api` of every turn and block these readers produce. */
export const RESPONSES_API = 'openai-responses' as const;

/** Output item types that ask the client to run something: the response stopped for tool use. */
const CLIENT_CALLS = new Set([
  'function_call',
  'custom_tool_call',
  'computer_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
]);

/** Options for {@link outputItemBlocks}. */
export interface ItemBlockOptions {
  /** The item never completed (stream cut): arguments are partial and reasoning has no signature (R-K3). */
  incomplete?: boolean;
}

/**
 * Blocks of one output item:
 * - `message` → one `text` block per non-empty `output_text` part (`annotations` as origin-scoped
 *   `citations`), `refusal` parts as text with `meta.refusal`; `meta.itemId` and `meta.phase`
 *   (e.g. `commentary`, `final_answer`) from the item. Several message items stay separate blocks.
 * - `reasoning` → `thinking`: summary texts joined with a blank line (raw `reasoning_text` content
 *   when there is no summary), `encrypted_content` as `signature`, the item id in `meta.itemId`.
 *   An incomplete item gets no signature and `meta.partial` (R-K3).
 * - `function_call` → `tool_call` (`id` = `call_id`, parsed `input`, item id in `meta.itemId`).
 * - anything else (custom tool calls, image generation, web search, MCP, compaction, …) →
 *   `provider_item` verbatim, with `text` = the custom call's `input`, the image's
 *   `revised_prompt`, or a one-line rendering of a web search action.
 * @throws TranscriptError naming the path under `path` for a malformed message, reasoning or
 *   function-call item.
 */
export function outputItemBlocks(item: Record<string, unknown>, path: JsonPath, opts: ItemBlockOptions = {}): Block[] {
  const type = expectString(item.type, [...path, 'type']);
  const itemId = optionalString(item.id, [...path, 'id']);
  switch (type) {
    case 'message':
      return messageBlocks(item, path, itemId);
    case 'reasoning': {
      const texts = (key: 'summary' | 'content') =>
        item[key] === undefined || item[key] === null
          ? []
          : expectArray(item[key], [...path, key]).map((raw, j) => {
              const part = expectRecord(raw, [...path, key, j]);
              return typeof part.text === 'string' ? part.text : '';
            });
      const summary = texts('summary').filter((t) => t !== '');
      const text = (summary.length ? summary : texts('content').filter((t) => t !== '')).join('\n\n');
      const block: Block = { type: 'thinking', text };
      const encrypted = optionalString(item.encrypted_content, [...path, 'encrypted_content']);
      if (encrypted && !opts.incomplete) block.signature = encrypted;
      const meta: Record<string, unknown> = {};
      if (itemId) meta.itemId = itemId;
      if (opts.incomplete) meta.partial = true;
      if (Object.keys(meta).length) block.meta = meta;
      return [block];
    }
    case 'function_call': {
      const callId = expectString(item.call_id, [...path, 'call_id'], true);
      const name = expectString(item.name, [...path, 'name'], true);
      const raw = optionalString(item.arguments, [...path, 'arguments']) ?? '';
      const block = applyArguments(
        { type: 'tool_call', id: callId, name, input: {}, ...(itemId ? { meta: { itemId } } : {}) },
        raw,
        opts,
      );
      return [block];
    }
    default: {
      const block: Block = { type: 'provider_item', api: RESPONSES_API, item };
      const text = itemText(type, item);
      if (text) block.text = text;
      return [block];
    }
  }
}

/** A readable rendering of a provider item for display and other providers, where one is obvious. */
function itemText(type: string, item: Record<string, unknown>): string | undefined {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  if (type === 'custom_tool_call') return str(item.input);
  if (type === 'image_generation_call') return str(item.revised_prompt);
  if (type === 'web_search_call' && isRecord(item.action)) {
    const a = item.action;
    if (a.type === 'search' && str(a.query)) return `Web search: ${str(a.query)}`;
    if (a.type === 'open_page' && str(a.url)) return `Opened page: ${str(a.url)}`;
    if (a.type === 'find_in_page' && str(a.pattern))
      return `Searched for "${str(a.pattern)}" in ${str(a.url) ?? 'the page'}`;
  }
  return undefined;
}

function messageBlocks(item: Record<string, unknown>, path: JsonPath, itemId: string | undefined): Block[] {
  const base: Record<string, unknown> = {};
  if (itemId) base.itemId = itemId;
  if (typeof item.phase === 'string') base.phase = item.phase;
  const withMeta = (block: Block, extra: Record<string, unknown> = {}): Block => {
    const meta = { ...base, ...extra };
    if (Object.keys(meta).length) block.meta = meta;
    return block;
  };
  if (typeof item.content === 'string') return item.content ? [withMeta({ type: 'text', text: item.content })] : [];
  const blocks: Block[] = [];
  expectArray(item.content, [...path, 'content']).forEach((raw, j) => {
    const p = [...path, 'content', j];
    const part = expectRecord(raw, p);
    const type = expectString(part.type, [...p, 'type']);
    if (type === 'output_text' || type === 'input_text') {
      const text = expectString(part.text, [...p, 'text']);
      if (!text) return;
      const block: Block = { type: 'text', text };
      if (part.annotations !== undefined && part.annotations !== null) {
        const annotations = expectArray(part.annotations, [...p, 'annotations']);
        if (annotations.length) block.citations = annotations;
      }
      blocks.push(withMeta(block));
    } else if (type === 'refusal') {
      const text = expectString(part.refusal, [...p, 'refusal']);
      if (text) blocks.push(withMeta({ type: 'text', text }, { refusal: true }));
    } else {
      blocks.push({ type: 'provider_item', api: RESPONSES_API, item: part });
    }
  });
  return blocks;
}

/**
 * Responses `usage` → Baton usage, tokens as reported: `input_tokens` (includes cached) →
 * inputTokens, `output_tokens` (includes reasoning) → outputTokens,
 * `input_tokens_details.cached_tokens` → cacheReadTokens,
 * `output_tokens_details.reasoning_tokens` → reasoningTokens.
 */
export function responsesUsage(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const input = isRecord(u.input_tokens_details) ? u.input_tokens_details : {};
  const output = isRecord(u.output_tokens_details) ? u.output_tokens_details : {};
  const usage: Usage = {};
  const set = (key: keyof Usage, v: unknown) => {
    const n = tokenCount(v);
    if (n !== undefined) usage[key] = n;
  };
  set('inputTokens', u.input_tokens);
  set('outputTokens', u.output_tokens);
  set('cacheReadTokens', input.cached_tokens);
  set('reasoningTokens', output.reasoning_tokens);
  return Object.keys(usage).length ? usage : undefined;
}

/** Turn status, stop reason and error of a finished response. */
export interface ResponseOutcome {
  status: TurnStatus;
  stopReason?: StopReason;
  /** The provider's own value: `incomplete_details.reason` when incomplete, else the response `status`. */
  raw?: string;
  error?: { type: string; message: string };
}

/**
 * A response's `status` → outcome: `completed` → complete with `tool_use` when the output asks
 * for a client tool call, `refusal` when a message part is a refusal, else `end_turn`;
 * `incomplete` → complete with `incomplete_details.reason` mapped (`max_output_tokens` →
 * `max_tokens`, `content_filter` → `content_filter`, else `other`); `failed` → error with
 * `error: {type: error.code, message}`; `cancelled` → `stopped`; `in_progress` / `queued` →
 * `interrupted`. A response without `status` (some compatible servers) counts as completed.
 */
export function responseOutcome(resp: Record<string, unknown>, items: readonly unknown[]): ResponseOutcome {
  const status = typeof resp.status === 'string' ? resp.status : 'completed';
  switch (status) {
    case 'completed': {
      const types = items.map((i) => (isRecord(i) ? i.type : undefined));
      const refused = items.some(
        (i) =>
          isRecord(i) &&
          i.type === 'message' &&
          Array.isArray(i.content) &&
          i.content.some((p) => isRecord(p) && p.type === 'refusal'),
      );
      const stopReason: StopReason = types.some((t) => typeof t === 'string' && CLIENT_CALLS.has(t))
        ? 'tool_use'
        : refused
          ? 'refusal'
          : 'end_turn';
      return { status: 'complete', stopReason, raw: status };
    }
    case 'incomplete': {
      const reason =
        isRecord(resp.incomplete_details) && typeof resp.incomplete_details.reason === 'string'
          ? resp.incomplete_details.reason
          : 'incomplete';
      const stopReason: StopReason =
        reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'content_filter' : 'other';
      return { status: 'complete', stopReason, raw: reason };
    }
    case 'failed':
      return { status: 'error', raw: status, error: responsesError(resp.error, 'failed') };
    case 'cancelled':
      return { status: 'stopped', raw: status };
    default:
      return { status: 'interrupted', raw: status };
  }
}

/** `{type, message}` of a Responses error object (`{code, message}`) or `error` event; never the raw JSON as text. */
export function responsesError(err: unknown, fallbackType = 'error'): { type: string; message: string } {
  if (!isRecord(err)) return { type: fallbackType, message: '' };
  const type =
    (typeof err.code === 'string' && err.code) ||
    (typeof err.type === 'string' && err.type !== 'error' && err.type) ||
    fallbackType;
  return { type, message: typeof err.message === 'string' ? err.message : '' };
}

/** The turn's origin: `model` as reported, else the requested model, else `unknown`. */
export function responsesOrigin(ctx: ReadContext, reportedModel: string | undefined): Origin {
  const model = reportedModel || ctx.requestedModel || 'unknown';
  const origin: Origin = { provider: ctx.provider, api: RESPONSES_API, model };
  if (ctx.requestedModel && ctx.requestedModel !== model) origin.requestedModel = ctx.requestedModel;
  if (ctx.endpoint) origin.endpoint = ctx.endpoint;
  return origin;
}

/** Everything {@link buildResponsesTurn} needs. */
export interface ResponsesTurnParts {
  ctx: ReadContext;
  model?: string;
  responseId?: string;
  outcome: ResponseOutcome;
  blocks: Block[];
  /** The output items for `turn.native` (absent when none were received). */
  items?: unknown[];
  usage?: unknown;
  warnings?: string[];
}

/** Assembles the assistant turn; see `readOpenAIResponsesResponse` for the field mapping. */
export function buildResponsesTurn(p: ResponsesTurnParts): Turn {
  const turn: Turn = {
    id: p.ctx.turnId ?? p.responseId ?? 'assistant',
    role: 'assistant',
    origin: responsesOrigin(p.ctx, p.model),
    status: p.outcome.status,
    blocks: p.blocks,
  };
  if (p.ctx.createdAt) turn.createdAt = p.ctx.createdAt;
  if (p.outcome.stopReason) turn.stopReason = p.outcome.stopReason;
  const usage = responsesUsage(p.usage);
  if (usage) turn.usage = usage;
  if (p.outcome.error) turn.error = p.outcome.error;
  if (p.items) turn.native = { api: RESPONSES_API, payload: p.items };
  const meta: Record<string, unknown> = {};
  if (p.responseId) meta.responseId = p.responseId;
  if (p.outcome.raw) meta.rawStopReason = p.outcome.raw;
  if (p.warnings?.length) meta.warnings = p.warnings;
  if (Object.keys(meta).length) turn.meta = meta;
  return turn;
}

/** Blocks of every item of an output array, with paths `output[i]…`. */
export function outputBlocks(items: readonly unknown[], root: JsonPath, incomplete?: (i: number) => boolean): Block[] {
  return items.flatMap((raw, i) =>
    outputItemBlocks(expectRecord(raw, [...root, i]), [...root, i], { incomplete: incomplete?.(i) ?? false }),
  );
}
