/**
 * Same-origin replay of a model turn's own Gemini parts (transcript-v1.md `native`): the parts go
 * back verbatim, thought parts and `thoughtSignature`s included, exactly where they came (G-K1,
 * G-K2, G-E2). Only what this request needs changes: a `functionCall`'s `name` and `id` follow the
 * per-request maps (X5, X2) so they pair with the declarations and the function responses, and
 * ids are removed for Vertex, which rejects them (G-T3, V-G1). Parts stored with the protobuf
 * snake_case field names (`function_call`, `thought_signature`, which REST also accepts) are sent
 * with the camelCase names `@google/genai` uses, so the body has one spelling throughout.
 */
import type { IdMap, NameMap } from '../../transcript/ids';
import type { PreparedBlock, PreparedTurn } from '../../transcript/prepare';
import type { BlockRef } from '../../transcript/report';
import type { ToolCallBlock } from '../../transcript/schema';
import { camelPart, hasOneDataField, isObject, type GeminiEncodeContext, type JsonObject } from './convert-gemini-generate-content-blocks';
import type { GeminiPart } from './convert-to-gemini-generate-content-types';

/**
 * The result of a native replay attempt: the parts (with, in parallel, the tool_call block each
 * functionCall part stands for), or why the turn must be rebuilt from its blocks.
 */
export type NativeReplay = { parts: GeminiPart[]; refs: (BlockRef | undefined)[] } | { problem: string };

/**
 * Replays `turn.native.payload` (a Gemini `parts` array, or a Content `{parts}`). The k-th
 * `functionCall` part stands for the k-th `tool_call` block; their names (and ids, when the part
 * has one) must agree through the request's maps, else the turn is rebuilt from blocks. A part
 * without an id keeps none, and its function response carries none either (G-T3).
 * @returns the parts to send, or a problem when the payload does not match the turn's blocks.
 */
export function replayNativeParts(turn: PreparedTurn, ctx: GeminiEncodeContext, maps: { ids: IdMap; names: NameMap }): NativeReplay {
  const payload = turn.native?.payload;
  const raw = Array.isArray(payload) ? payload : isObject(payload) && Array.isArray(payload.parts) ? payload.parts : undefined;
  if (!raw || raw.length === 0) return { problem: 'the payload is not a non-empty Gemini parts array' };
  if (!raw.every((p) => isObject(p) && hasOneDataField(camelPart(p)))) return { problem: 'a part does not set exactly one data field (G-E1)' };
  const calls = turn.blocks.filter((pb): pb is PreparedBlock & { block: ToolCallBlock } => pb.block.type === 'tool_call');
  const parts: GeminiPart[] = [];
  const refs: (BlockRef | undefined)[] = [];
  let k = 0;
  for (const part of (raw as JsonObject[]).map(camelPart)) {
    if (!isObject(part.functionCall)) {
      parts.push(part as GeminiPart);
      refs.push(undefined);
      continue;
    }
    const pb = calls[k++];
    if (!pb) return { problem: 'it has more functionCall parts than tool calls' };
    const mapped = functionCallFromNative(part.functionCall, pb, ctx, maps);
    if ('problem' in mapped) return mapped;
    parts.push({ ...part, functionCall: mapped.functionCall } as GeminiPart);
    refs.push(pb.ref);
  }
  if (k !== calls.length) return { problem: 'it has fewer functionCall parts than tool calls' };
  return { parts, refs };
}

function functionCallFromNative(
  fc: JsonObject,
  pb: PreparedBlock & { block: ToolCallBlock },
  ctx: GeminiEncodeContext,
  { ids, names }: { ids: IdMap; names: NameMap },
): { functionCall: JsonObject } | { problem: string } {
  const call = pb.block;
  if (fc.name !== (names.toOriginal(call.name) ?? call.name)) return { problem: `functionCall ${String(fc.name)} does not match tool call ${call.name}` };
  const hasId = typeof fc.id === 'string';
  if (hasId && fc.id !== (ids.toOriginal(call.id) ?? call.id)) return { problem: `functionCall id ${String(fc.id)} does not match tool call ${call.id}` };
  ctx.calls.set(call.id, { name: call.name, generatedId: !hasId });
  const out: JsonObject = { ...fc, name: call.name };
  if (hasId && ctx.vertex) {
    delete out.id;
    ctx.report.add(pb.ref, 'converted', 'call id omitted: Vertex rejects functionCall.id (G-T3, V-G1)');
  } else if (hasId) out.id = call.id;
  return { functionCall: out };
}
