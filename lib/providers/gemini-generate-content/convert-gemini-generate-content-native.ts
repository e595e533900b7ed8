/**
 * Same-origin replay of a model turn's own Gemini parts (transcript-v1.md `native`): the parts go
 * back verbatim, thought parts and `thoughtSignature`s included, exactly where they came (G-K1,
 * G-K2, G-E2). Only what this request needs changes: a `functionCall`'s `name` and `id` follow the
 * per-request maps (X5, X2) so they pair with the declarations and the function responses (G-T7),
 * a call without an id gets Baton's (G-T8), and ids are removed for Vertex, which rejects them
 * (G-T3, G-T9, V-G1). Signatures go back byte for byte, never cut or re-encoded (G-K9). Parts stored with the protobuf
 * snake_case field names (`function_call`, `thought_signature`, which REST also accepts) are sent
 * with the camelCase names `@google/genai` uses, so the body has one spelling throughout. A payload
 * that is malformed, all empty, or not the turn's blocks part for part is not replayed: the turn is
 * rebuilt from its blocks, with a warning.
 */
import type { IdMap, NameMap } from '../../transcript/ids';
import type { PreparedBlock, PreparedTurn } from '../../transcript/prepare';
import type { BlockRef } from '../../transcript/report';
import type { Block, ToolCallBlock } from '../../transcript/schema';
import {
  camelPart,
  isObject,
  type GeminiEncodeContext,
  type JsonObject,
} from './convert-gemini-generate-content-blocks';
import { modelPartProblem } from './convert-gemini-generate-content-part-checks';
import type { GeminiPart } from './convert-to-gemini-generate-content-types';

/**
 * The result of a native replay attempt: the parts (with, in parallel, the tool_call block each
 * functionCall part stands for), or why the turn must be rebuilt from its blocks.
 */
export type NativeReplay = { parts: GeminiPart[]; refs: (BlockRef | undefined)[] } | { problem: string };

/**
 * Replays `turn.native.payload` (a Gemini `parts` array, or a Content `{parts}`). The payload must
 * be well formed ({@link modelPartProblem} for every part), must not be all empty text (X4, G-E1),
 * and must stand for the turn's blocks one to one, in order (the readers keep one block per part),
 * so that every block the report calls `replayed-native` is in the body. The k-th `functionCall`
 * part is the k-th `tool_call` block; their names (and ids, when the part has one) must agree
 * through the request's maps. A part without an id gets Baton's (G-T8), also on its function
 * response; on Vertex no part keeps an id (G-T3, G-T9).
 * @returns the parts to send, or a problem: the caller then rebuilds the turn from its blocks.
 */
export function replayNativeParts(
  turn: PreparedTurn,
  ctx: GeminiEncodeContext,
  maps: { ids: IdMap; names: NameMap },
): NativeReplay {
  const payload = turn.native?.payload;
  const source = turn.sources.length === 1 ? turn.sources[0] : undefined;
  const raw = Array.isArray(payload)
    ? payload
    : isObject(payload) && Array.isArray(payload.parts)
      ? payload.parts
      : undefined;
  if (!raw || raw.length === 0 || !source) return { problem: 'the payload is not a non-empty Gemini parts array' };
  const camel = raw.map((p) => (isObject(p) ? camelPart(p) : p));
  for (let i = 0; i < camel.length; i++) {
    const problem = modelPartProblem(camel[i]);
    if (problem) return { problem: `part ${i}: ${problem}` };
  }
  const parts0 = camel as JsonObject[];
  if (parts0.every((p) => typeof p.text === 'string' && p.text.trim() === '' && p.thoughtSignature === undefined))
    return { problem: 'it holds only empty text (X4, G-E1)' };
  const calls = turn.blocks.filter(
    (pb): pb is PreparedBlock & { block: ToolCallBlock } => pb.block.type === 'tool_call',
  );
  const callParts = parts0.filter((p) => p.functionCall !== undefined).length;
  if (callParts !== calls.length)
    return { problem: `it has ${callParts > calls.length ? 'more' : 'fewer'} functionCall parts than tool calls` };
  if (parts0.length !== source.blocks.length)
    return { problem: `it has ${parts0.length} parts for ${source.blocks.length} blocks` };
  const mismatch = source.blocks.findIndex((b, i) => !standsFor(b, parts0[i]!));
  if (mismatch >= 0)
    return { problem: `part ${mismatch} does not match block ${mismatch} (${source.blocks[mismatch]!.type})` };

  const parts: GeminiPart[] = [];
  const refs: (BlockRef | undefined)[] = [];
  let k = 0;
  for (const [i, part] of parts0.entries()) {
    if (!isObject(part.functionCall)) {
      parts.push(part as GeminiPart);
      refs.push({ turn: source.id, index: i });
      continue;
    }
    const pb = calls[k++]!;
    const mapped = functionCallFromNative(part.functionCall, pb, ctx, maps);
    if ('problem' in mapped) return mapped;
    parts.push({ ...part, functionCall: mapped.functionCall } as GeminiPart);
    refs.push(pb.ref);
  }
  return { parts, refs };
}

/** True when the (camelCase, well-formed) part is the one input block `block` was read from. */
function standsFor(block: Block, part: JsonObject): boolean {
  switch (block.type) {
    case 'text':
      return part.text === block.text && part.thought !== true && part.thoughtSignature === block.signature;
    case 'thinking':
      return part.text === block.text && part.thought === true && part.thoughtSignature === block.signature;
    case 'tool_call':
      return part.functionCall !== undefined;
    case 'image':
    case 'document':
      return part.inlineData !== undefined || part.fileData !== undefined;
    case 'provider_item':
      return part.text === undefined && part.functionCall === undefined;
    default:
      return false;
  }
}

function functionCallFromNative(
  fc: JsonObject,
  pb: PreparedBlock & { block: ToolCallBlock },
  ctx: GeminiEncodeContext,
  { ids, names }: { ids: IdMap; names: NameMap },
): { functionCall: JsonObject } | { problem: string } {
  const call = pb.block;
  if (fc.name !== (names.toOriginal(call.name) ?? call.name))
    return { problem: `functionCall ${String(fc.name)} does not match tool call ${call.name}` };
  const hasId = typeof fc.id === 'string';
  if (hasId && fc.id !== (ids.toOriginal(call.id) ?? call.id))
    return { problem: `functionCall id ${String(fc.id)} does not match tool call ${call.id}` };
  ctx.calls.set(call.id, { name: call.name, generatedId: !hasId });
  const out: JsonObject = { ...fc, name: call.name };
  if (hasId && ctx.vertex) {
    delete out.id;
    ctx.report.add(pb.ref, 'converted', 'call id omitted: Vertex rejects functionCall.id (G-T3, G-T9, V-G1)');
  } else if (hasId)
    out.id = call.id; // G-T7: echoed
  else if (!ctx.vertex) {
    // G-T8: Gemini sent no id; Baton's goes on the call and its response alike. Key order as the
    // reader sees it (`id` first), so the bytes do not depend on where the id came from (X9).
    const { name, ...rest } = out;
    ctx.report.add(pb.ref, 'converted', `call id ${call.id} minted by Baton, sent on the call and its response (G-T8)`);
    return { functionCall: { id: call.id, name, ...rest } };
  }
  return { functionCall: out };
}
