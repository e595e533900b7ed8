/**
 * A complete Anthropic Messages response (`Message`) → one Baton assistant turn. The stream
 * assembler rebuilds the same `Message` shape and uses {@link buildAnthropicTurn} too, so a
 * streamed turn equals the turn read from the equivalent complete response.
 */
import type { JsonPath } from '../../transcript/codec';
import type { Block, Meta, Turn, TurnError, TurnStatus } from '../../transcript/schema';
import type { ReadContext } from '../types';
import {
  ANTHROPIC_API,
  fail,
  isObject,
  makeOrigin,
  mapAnthropicStopReason,
  readAnthropicUsage,
  readAssistantBlock,
  type JsonObject,
} from './read-anthropic-messages-content';
import { guardTurn } from '../guard-turn';

/** How the turn ended, and what the stream assembler knows beyond the message itself. */
export interface AnthropicTurnState {
  status: TurnStatus;
  error?: TurnError;
  /** Content positions of tool calls whose input JSON never completed → their raw JSON text. */
  partial?: ReadonlyMap<number, string>;
  /** Problems met while assembling (stream events that could not be applied). */
  warnings?: readonly string[];
  /**
   * Streams never throw on provider content: a block that cannot be read becomes a
   * `provider_item` and a warning. Responses throw a TranscriptError instead.
   */
  lenient?: boolean;
}

/**
 * Builds the assistant turn from an Anthropic `Message` object (`{id, model, content, stop_reason,
 * stop_sequence, stop_details?, usage, container?, context_management?}`): blocks in order,
 * `native = {api, payload: content}` (the content array exactly as received), `usage`,
 * `stopReason` with the raw value in `meta.rawStopReason`, `meta.responseId`, and the other
 * message-level facts in `meta` (`stopSequence`, `stopDetails`, `container`, `contextManagement`,
 * and `inputTransformations`: the beta's `input_transformations` list, A-B5).
 * @throws TranscriptError for unreadable content unless `state.lenient`.
 */
export function buildAnthropicTurn(
  message: JsonObject,
  ctx: ReadContext,
  state: AnthropicTurnState,
  path: JsonPath = [],
): Turn {
  const content = Array.isArray(message.content) ? message.content : [];
  const warnings = [...(state.warnings ?? [])];
  const blocks = content.map((c: unknown, i: number): Block => {
    let block: Block;
    try {
      block = readAssistantBlock(c, [...path, 'content', i], true);
    } catch (e) {
      if (!state.lenient) throw e;
      warnings.push(`content[${i}]: ${(e as Error).message}; kept as provider_item`);
      block = { type: 'provider_item', api: ANTHROPIC_API, item: c };
    }
    const raw = state.partial?.get(i);
    if (raw !== undefined) block.meta = { ...block.meta, partial: true, rawArguments: raw };
    return block;
  });

  const model = typeof message.model === 'string' ? message.model : undefined;
  const responseId = typeof message.id === 'string' && message.id ? message.id : undefined;
  const turn: Turn = {
    id: ctx.turnId ?? responseId ?? 'assistant',
    role: 'assistant',
    origin: makeOrigin(ctx, model),
    status: state.status,
    blocks,
    native: { api: ANTHROPIC_API, payload: content },
  };
  if (ctx.createdAt) turn.createdAt = ctx.createdAt;
  const meta: Meta = {};
  if (responseId) meta.responseId = responseId;
  if (typeof message.stop_reason === 'string') {
    turn.stopReason = mapAnthropicStopReason(message.stop_reason);
    meta.rawStopReason = message.stop_reason;
  }
  if (message.stop_sequence != null) meta.stopSequence = message.stop_sequence;
  if (message.stop_details != null) meta.stopDetails = message.stop_details;
  if (message.container != null) meta.container = message.container;
  if (message.context_management != null) meta.contextManagement = message.context_management;
  // A-B5: under the thinking-binding beta, what the API dropped from (or let through in) the request.
  if (Array.isArray(message.input_transformations)) meta.inputTransformations = message.input_transformations;
  if (warnings.length) meta.warnings = warnings;
  const usage = readAnthropicUsage(message.usage);
  if (usage) turn.usage = usage;
  if (state.error) turn.error = state.error;
  if (Object.keys(meta).length) turn.meta = meta;
  return turn;
}

/** Reads an Anthropic error object (`{type, message}`) into a turn error. */
export function readAnthropicError(err: unknown): TurnError {
  const e = isObject(err) ? err : {};
  const type = typeof e.type === 'string' && e.type ? e.type : 'error';
  const message = typeof e.message === 'string' ? e.message : typeof err === 'string' ? err : '';
  return { type, message };
}

/**
 * Reads a complete (non-streamed) Anthropic Messages response into one assistant turn.
 * `native.payload` is the response's `content` array verbatim (tool inputs as parsed JSON,
 * thinking signatures and citations untouched). An error body (`{type: "error", error}`) gives a
 * turn with `status: "error"` and no blocks.
 * Origin: `{provider: ctx.provider, api, model: response.model, requestedModel?, endpoint?}`.
 * @throws TranscriptError naming the JSON path when the response is not a Message object or a
 *   content block is malformed.
 */
export function readAnthropicMessagesResponse(response: unknown, ctx: ReadContext): Turn {
  if (!isObject(response)) return fail([], 'expected an Anthropic Messages response object');
  if (response.type === 'error') {
    const turn: Turn = {
      id: ctx.turnId ?? 'assistant',
      role: 'assistant',
      origin: makeOrigin(ctx, undefined),
      status: 'error',
      error: readAnthropicError(response.error),
      blocks: [],
    };
    if (ctx.createdAt) turn.createdAt = ctx.createdAt;
    return turn;
  }
  if (response.type !== undefined && response.type !== 'message')
    fail(['type'], `expected "message", got ${JSON.stringify(response.type)}`);
  if (response.role !== undefined && response.role !== 'assistant')
    fail(['role'], `expected "assistant", got ${JSON.stringify(response.role)}`);
  if (!Array.isArray(response.content)) fail(['content'], 'required array missing');
  return guardTurn(buildAnthropicTurn(response, ctx, { status: 'complete' }), ctx, 'anthropic-messages');
}
