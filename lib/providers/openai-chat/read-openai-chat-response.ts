/**
 * A complete (non-streamed) OpenAI Chat Completions response → one assistant turn.
 */
import { assertNoPrototypeKeys } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import type { ReadContext } from '../types';
import { CHAT_API, assistantBlocks, buildChatTurn, chatError } from './read-openai-chat-message';
import { describeValue, expectArray, expectRecord, fail, isRecord } from './read-openai-chat-util';
import { guardTurn } from '../guard-turn';

/**
 * Reads a `chat.completion` object (openai-node `ChatCompletion`; also DeepSeek, Groq,
 * OpenRouter and other OpenAI-compatible servers) into one assistant turn:
 * - `blocks` from `choices[0].message` (see `assistantBlocks`: reasoning → thinking, content →
 *   text with `annotations` as citations, refusal → text with `meta.refusal`, tool calls →
 *   tool_call with parsed `input`);
 * - `native = {api: 'openai-chat', payload: choices[0].message}` verbatim, so argument text keeps
 *   its exact form (large integers, key order);
 * - `usage` (tokens), `stopReason` normalised from `finish_reason` with the raw value in
 *   `meta.rawStopReason`, `meta.responseId` = `id`; OpenRouter's `native_finish_reason` and
 *   `provider` in `meta.nativeFinishReason` / `meta.upstreamProvider`;
 * - `origin = {provider: ctx.provider, api: 'openai-chat', model: <reported model>,
 *   requestedModel?, endpoint?}`; turn id `ctx.turnId ?? id`.
 * A body that is an error (`{error: {...}}` without choices, or `finish_reason: "error"`) gives
 * `status: 'error'` with `error: {type, message}`. Only `choices[0]` is read; other choices are
 * named in `meta.warnings`.
 * @throws TranscriptError naming the JSON path when the body is not a chat completion
 *   (e.g. `choices[0].message.tool_calls[1].function.name`), or when no model is known.
 */
export function readOpenAIChatResponse(response: unknown, ctx: ReadContext): Turn {
  const r = expectRecord(response, []);
  assertNoPrototypeKeys(r);
  const model = typeof r.model === 'string' && r.model ? r.model : undefined;
  if (!model && !ctx.requestedModel) fail(['model'], 'required field missing (no model reported or requested)');
  const responseId = typeof r.id === 'string' && r.id ? r.id : undefined;
  const upstreamProvider = typeof r.provider === 'string' && r.provider ? r.provider : undefined;

  if (isRecord(r.error) && (r.choices === undefined || (Array.isArray(r.choices) && r.choices.length === 0))) {
    return guardTurn(
      buildChatTurn({
        ctx,
        model,
        responseId,
        upstreamProvider,
        status: 'error',
        blocks: [],
        error: chatError(r.error),
        usage: r.usage,
      }),
      ctx,
      CHAT_API,
    );
  }

  const choices = expectArray(r.choices, ['choices']);
  if (choices.length === 0) fail(['choices'], 'expected at least one choice');
  const choice = expectRecord(choices[0], ['choices', 0]);
  const message = expectRecord(choice.message, ['choices', 0, 'message']);
  if (message.role !== undefined && message.role !== 'assistant')
    fail(['choices', 0, 'message', 'role'], `expected "assistant", got ${describeValue(message.role)}`);
  const blocks = assistantBlocks(message, ['choices', 0, 'message'], { generateMissingIds: true });

  let finishReason: string | undefined;
  if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
    if (typeof choice.finish_reason !== 'string')
      fail(['choices', 0, 'finish_reason'], `expected string or null, got ${describeValue(choice.finish_reason)}`);
    finishReason = choice.finish_reason;
  }
  const nativeFinishReason = typeof choice.native_finish_reason === 'string' ? choice.native_finish_reason : undefined;
  const failed = finishReason === 'error' || isRecord(r.error);
  const warnings =
    choices.length > 1 ? [`choices[1..${choices.length - 1}] not read: only choices[0] becomes the turn`] : undefined;

  return guardTurn(
    buildChatTurn({
      ctx,
      model,
      responseId,
      status: failed ? 'error' : 'complete',
      blocks,
      message,
      finishReason,
      usage: r.usage,
      ...(failed ? { error: chatError(r.error) } : {}),
      nativeFinishReason,
      upstreamProvider,
      warnings,
    }),
    ctx,
    CHAT_API,
  );
}
