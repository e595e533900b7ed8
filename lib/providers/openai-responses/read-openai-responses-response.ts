/**
 * A complete (non-streamed) OpenAI Responses API response → one assistant turn.
 */
import { assertNoPrototypeKeys } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import type { ReadContext } from '../types';
import { expectArray, expectRecord, fail, isRecord } from '../openai-chat/read-openai-chat-util';
import { buildResponsesTurn, outputBlocks, responseOutcome } from './read-openai-responses-items';
import { guardTurn } from '../guard-turn';

/**
 * Reads a `response` object (openai-node `Response`) into one assistant turn:
 * - `blocks` from `output`, in order (see `outputItemBlocks`: reasoning → thinking with
 *   `encrypted_content` as signature and the item id in `meta.itemId`; message text → text with
 *   annotations as citations; function calls → tool_call with parsed `input`; every other item →
 *   provider_item);
 * - `native = {api: 'openai-responses', payload: output}` verbatim (argument text exact);
 * - `usage` (tokens); status and `stopReason` from `status` / `incomplete_details.reason` with the
 *   raw value in `meta.rawStopReason` (see `responseOutcome`); a `failed` response is
 *   `status: 'error'` with `error: {type: error.code, message}`; `meta.responseId` = `id`;
 * - `origin = {provider: ctx.provider, api: 'openai-responses', model: <reported model>,
 *   requestedModel?, endpoint?}`; turn id `ctx.turnId ?? id`.
 * A body that is only an error (`{error: {...}}` without `output`) gives an error turn.
 * @throws TranscriptError naming the JSON path when the body is not a response
 *   (e.g. `output[1].call_id`), or when no model is reported or requested.
 */
export function readOpenAIResponsesResponse(response: unknown, ctx: ReadContext): Turn {
  const r = expectRecord(response, []);
  assertNoPrototypeKeys(r);
  const model = typeof r.model === 'string' && r.model ? r.model : undefined;
  if (!model && !ctx.requestedModel) fail(['model'], 'required field missing (no model reported or requested)');
  const responseId = typeof r.id === 'string' && r.id ? r.id : undefined;
  if (r.output === undefined && isRecord(r.error)) {
    return guardTurn(
      buildResponsesTurn({
        ctx,
        model,
        responseId,
        outcome: responseOutcome({ ...r, status: 'failed' }, []),
        blocks: [],
      }),
      ctx,
      'openai-responses',
    );
  }
  const items = expectArray(r.output, ['output']);
  const blocks = outputBlocks(items, ['output']);
  return guardTurn(
    buildResponsesTurn({ ctx, model, responseId, outcome: responseOutcome(r, items), blocks, items, usage: r.usage }),
    ctx,
    'openai-responses',
  );
}
