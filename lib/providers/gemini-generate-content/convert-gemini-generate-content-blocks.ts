/**
 * Prepared blocks → Gemini parts, one small helper per block type (DESIGN.md, "Style to follow"
 * 6). Used by `convert-to-gemini-generate-content.ts`; pure and synchronous.
 *
 * Every change beyond the shared pre-pass is recorded in the report with its rule id.
 */
import type { PreparedBlock } from '../../transcript/prepare';
import type { BlockRef, ReportBuilder } from '../../transcript/report';
import type {
  DocumentBlock,
  ImageBlock,
  ProviderItemBlock,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
} from '../../transcript/schema';
import { itemPartProblem } from './convert-gemini-generate-content-part-checks';
import type { GeminiPart } from './convert-to-gemini-generate-content-types';
import { isRecord as isObject, type JsonObject } from '../../transcript/json';
import { lookupTable } from '../../transcript/lookup';

/** The API id of this module (`origin.api`, `native.api`, `provider_item.api`). */
export const GEMINI_API = 'gemini-generate-content' as const;

/** What the block encoders need to know about the request. */
export interface GeminiEncodeContext {
  report: ReportBuilder;
  /** The endpoint is Vertex AI: no `functionCall.id` / `functionResponse.id` (G-T3, G-T9, V-G1). */
  vertex: boolean;
  /**
   * G-K11 (Gemini 3.5+): earlier turns' thoughts stay in context, so a same-origin turn that is
   * kept is sent whole, its unsigned thought parts included.
   */
  wholeTurns: boolean;
  /** Gemini 3: images may travel inside `functionResponse.parts` (G-I3, X7). */
  functionResponseParts: boolean;
  /**
   * Mapped call id → the call's (mapped) name and whether its id is Baton's own (`meta.generatedId`,
   * or absent from the native part). Filled while model contents are encoded, read by the function
   * responses that follow.
   */
  calls: Map<string, { name: string; generatedId: boolean }>;
}

/** Plain JSON object. */
export { isObject, type JsonObject };

const PART_KEYS: Readonly<Record<string, string>> = lookupTable({
  function_call: 'functionCall',
  function_response: 'functionResponse',
  inline_data: 'inlineData',
  file_data: 'fileData',
  thought_signature: 'thoughtSignature',
  executable_code: 'executableCode',
  code_execution_result: 'codeExecutionResult',
  video_metadata: 'videoMetadata',
});
const BLOB_KEYS: Readonly<Record<string, string>> = lookupTable({
  mime_type: 'mimeType',
  file_uri: 'fileUri',
  display_name: 'displayName',
});

/** The same object when no key needs renaming, else a copy with camelCase keys (order kept). */
function renameKeys(obj: JsonObject, names: Readonly<Record<string, string>>): JsonObject {
  if (!Object.keys(obj).some((k) => names[k] !== undefined)) return obj;
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [names[k] ?? k, v]));
}

/**
 * A part with the camelCase field names `@google/genai` uses (REST also accepts the protobuf
 * snake_case ones, e.g. `function_call`), its `inlineData` / `fileData` included; values untouched.
 */
export function camelPart(part: JsonObject): JsonObject {
  const out = renameKeys(part, PART_KEYS);
  const media = (['inlineData', 'fileData'] as const).filter(
    (k) => isObject(out[k]) && renameKeys(out[k] as JsonObject, BLOB_KEYS) !== out[k],
  );
  if (media.length === 0) return out;
  const copy = { ...out };
  for (const k of media) copy[k] = renameKeys(out[k] as JsonObject, BLOB_KEYS);
  return copy;
}

/**
 * Encodes one prepared block as one Gemini part, or undefined when the block has no Gemini form
 * (the drop is reported). Never merges or splits a block, so signed parts stay whole (G-K2).
 */
export function encodeBlock(
  pb: PreparedBlock,
  ctx: GeminiEncodeContext,
  role: 'user' | 'model',
): GeminiPart | undefined {
  const b = pb.block;
  switch (b.type) {
    case 'text':
      return textPart(b, pb, ctx);
    case 'thinking':
      return thoughtPart(b, pb, ctx);
    case 'redacted_thinking':
      ctx.report.add(pb.ref, 'dropped', 'redacted thinking has no Gemini form (G-K6)');
      return undefined;
    case 'tool_call':
      return functionCallPart(b, pb.ref, ctx);
    case 'tool_result':
      return functionResponsePart(b, pb, ctx);
    case 'image':
      return imagePart(b, pb, ctx);
    case 'document':
      return documentPart(b, pb.ref, ctx);
    case 'provider_item':
      return providerItemPart(b, pb, ctx, role);
    default: {
      const never: never = b;
      throw new Error(`unhandled block type ${(never as { type: string }).type}`);
    }
  }
}

/**
 * `{text, thoughtSignature?}`. A signature reaching here is same-origin (the pre-pass strips
 * foreign ones, X3/G-K5) and goes back on the same part, even on empty text (G-K1, G-E2). An
 * empty signature is no signature (G-K1: a non-empty base64 string): it is left out, and an empty
 * text that only carried it is dropped (X4); both reported.
 */
export function textPart(b: TextBlock, pb: PreparedBlock, ctx: GeminiEncodeContext): GeminiPart | undefined {
  if (b.signature === '') {
    if (b.text.trim() === '') {
      ctx.report.add(pb.ref, 'dropped', 'empty text whose thoughtSignature is empty too: nothing to replay (G-E2, X4)');
      return undefined;
    }
    ctx.report.add(pb.ref, 'converted', 'empty thoughtSignature left out: an empty signature is no signature (G-K1)');
    return { text: b.text };
  }
  return b.signature !== undefined ? { text: b.text, thoughtSignature: b.signature } : { text: b.text };
}

/**
 * Same-origin thinking. Choice (G-K6): a thought summary without a signature is not replayed; one
 * with a signature is replayed as the part it came as, `{text, thought: true, thoughtSignature}`,
 * so the signature stays on its own part and no signed part is merged or split (G-K1, G-K2). An
 * empty signature is no signature.
 */
export function thoughtPart(b: ThinkingBlock, pb: PreparedBlock, ctx: GeminiEncodeContext): GeminiPart | undefined {
  // G-K11: on Gemini 3.5+ a kept same-origin turn goes whole, its unsigned thought parts too.
  if (pb.sameOrigin && b.signature === undefined && ctx.wholeTurns && b.text.trim() !== '')
    return { text: b.text, thought: true };
  if (!pb.sameOrigin || b.signature === undefined) {
    ctx.report.add(pb.ref, 'dropped', 'thought summary without a signature is not replayed (G-K6)');
    return undefined;
  }
  if (b.signature === '') {
    ctx.report.add(
      pb.ref,
      'dropped',
      'thought summary with an empty signature is not replayed: an empty signature is no signature (G-K1, G-K6)',
    );
    return undefined;
  }
  return { text: b.text, thought: true, thoughtSignature: b.signature };
}

/**
 * `{functionCall: {id?, name, args}, thoughtSignature?}`: the signature is a sibling of
 * `functionCall`, never inside it (G-K1). The id (mapped by the pre-pass, X2: unique in the
 * request) always travels to the Gemini API: Gemini's own is echoed (G-T7), and a call from
 * another origin or one Gemini sent without an id gets Baton's, on the call and its response
 * alike (G-T8). Vertex stays id-less (G-T3, G-T9). `args` must be an object; anything else is
 * wrapped as `{value}` and reported.
 */
export function functionCallPart(b: ToolCallBlock, ref: BlockRef | undefined, ctx: GeminiEncodeContext): GeminiPart {
  const generatedId = b.meta?.generatedId === true;
  const idTravels = !ctx.vertex;
  if (ctx.vertex && !generatedId)
    ctx.report.add(ref, 'converted', 'call id omitted: Vertex rejects functionCall.id (G-T3, G-T9, V-G1)');
  if (!ctx.vertex && generatedId)
    ctx.report.add(ref, 'converted', `call id ${b.id} minted by Baton, sent on the call and its response (G-T8)`);
  ctx.calls.set(b.id, { name: b.name, generatedId });
  let args: JsonObject;
  if (isObject(b.input)) args = b.input;
  else {
    args = { value: b.input };
    ctx.report.add(
      ref,
      'converted',
      'non-object arguments wrapped as {"value": …}: functionCall.args is a JSON object',
    );
  }
  const functionCall = idTravels ? { id: b.id, name: b.name, args } : { name: b.name, args };
  // An empty signature is no signature (G-K1); on Gemini 3 the call may then get the dummy (G-K4).
  if (b.signature === '')
    ctx.report.add(ref, 'converted', 'empty thoughtSignature left out: an empty signature is no signature (G-K1)');
  return b.signature ? { functionCall, thoughtSignature: b.signature } : { functionCall };
}

/**
 * `{functionResponse: {id?, name, response, parts?}}`. `response` is an object (G-T1):
 * `{output: text}`, or `{error: text}` for a failed call (Gemini's only error marker). Text
 * blocks of an array result are joined with newlines. Images travel in `functionResponse.parts`
 * as inlineData when the model takes them (Gemini 3, G-I3); otherwise the pre-pass has already
 * moved them to a following user content (X7). The id is the call's, except on Vertex (G-T7–G-T9).
 */
export function functionResponsePart(b: ToolResultBlock, pb: PreparedBlock, ctx: GeminiEncodeContext): GeminiPart {
  const call = ctx.calls.get(b.callId);
  const name = pb.toolName ?? call?.name ?? b.callId;
  const generatedId = call?.generatedId ?? false;
  // G-T7, G-T8: the call's id (Gemini's, echoed, or Baton's) on its response; none on Vertex (G-T9).
  const idTravels = !ctx.vertex;
  if (ctx.vertex && !generatedId)
    ctx.report.add(pb.ref, 'converted', 'call id omitted: Vertex rejects functionResponse.id (G-T3, G-T9, V-G1)');
  if (typeof b.content === 'string') {
    // The usual result: one string, no parts (same output as the general case below).
    const response = b.isError ? { error: b.content } : { output: b.content };
    return { functionResponse: idTravels ? { id: b.callId, name, response } : { name, response } };
  }
  const texts: string[] = [];
  const parts: { inlineData: { mimeType: string; data: string } }[] = [];
  for (const c of b.content) {
    if (c.type === 'text') texts.push(c.text);
    else if (c.data !== undefined && ctx.functionResponseParts)
      parts.push({ inlineData: { mimeType: c.mediaType, data: c.data } });
    else {
      // Unreachable after the pre-pass (X7 moves images, URLs become placeholders); never lose it silently.
      texts.push(`[image omitted: ${c.mediaType} cannot travel in this function response]`);
      ctx.report.add(pb.ref, 'converted', 'image in tool result replaced by a placeholder (G-I3)');
    }
  }
  const text = texts.join('\n');
  const response = b.isError ? { error: text } : { output: text };
  return {
    functionResponse: {
      ...(idTravels ? { id: b.callId } : {}),
      name,
      response,
      ...(parts.length > 0 ? { parts } : {}),
    },
  };
}

/**
 * `{inlineData: {mimeType, data}}`, raw base64 without a `data:` prefix (G-I1). A same-origin
 * image part's signature, which the reader keeps in `meta.thoughtSignature` (image blocks have no
 * signature field), goes back on the part (G-K1); another origin's never does (G-K5).
 */
export function imagePart(b: ImageBlock, pb: PreparedBlock, ctx: GeminiEncodeContext): GeminiPart {
  if (b.data === undefined) return placeholder('image', b.mediaType, pb.ref, ctx);
  const inlineData = { mimeType: b.mediaType, data: b.data };
  const signature = pb.sameOrigin ? b.meta?.thoughtSignature : undefined;
  return typeof signature === 'string' && signature !== ''
    ? { inlineData, thoughtSignature: signature }
    : { inlineData };
}

/**
 * A PDF as `{inlineData: {mimeType: 'application/pdf', data}}`. Gemini's Blob has no title field
 * the API uses (`displayName` is for server-side tools only), so a title is reported as not carried.
 */
export function documentPart(b: DocumentBlock, ref: BlockRef | undefined, ctx: GeminiEncodeContext): GeminiPart {
  if (b.data === undefined) return placeholder('document', b.mediaType, ref, ctx);
  if (b.title !== undefined)
    ctx.report.add(
      ref,
      'converted',
      `sent as inlineData; the title "${b.title}" is not carried (Gemini inlineData has no title)`,
    );
  return { inlineData: { mimeType: b.mediaType, data: b.data } };
}

/**
 * A same-origin Gemini part stored as a provider item (e.g. `executableCode`, a document the model
 * returned) goes back as it was, when it is a part a content of `role` takes ({@link
 * itemPartProblem}: well formed, no function call or response — those pair only through tool_call /
 * tool_result blocks, G-T2 — and, in the user content of a tool turn, only text or media). Any
 * other item is sent as its `text` when it has one, else dropped; either way reported.
 */
export function providerItemPart(
  b: ProviderItemBlock,
  pb: PreparedBlock,
  ctx: GeminiEncodeContext,
  role: 'user' | 'model',
): GeminiPart | undefined {
  const part = pb.sameOrigin && b.api === GEMINI_API && isObject(b.item) ? camelPart(b.item) : undefined;
  const problem =
    part === undefined
      ? pb.sameOrigin && b.api === GEMINI_API
        ? 'not an object'
        : 'another origin'
      : itemPartProblem(part, role);
  if (part && problem === undefined) return part as GeminiPart;
  if (b.text !== undefined && b.text.trim() !== '') {
    ctx.report.add(
      pb.ref,
      'converted',
      `${b.api} item is not a Gemini part that can be replayed (${problem}): sent as its text`,
    );
    return { text: b.text };
  }
  ctx.report.add(pb.ref, 'dropped', `${b.api} item is not a Gemini part that can be replayed (${problem})`);
  return undefined;
}

/** Unreachable after the pre-pass (URLs become placeholders there); kept so nothing is lost silently. */
function placeholder(kind: string, mediaType: string, ref: BlockRef | undefined, ctx: GeminiEncodeContext): GeminiPart {
  ctx.report.add(ref, 'converted', `${kind} replaced by a placeholder: Gemini takes inline data only (G-I1)`);
  return { text: `[${kind} omitted: ${mediaType} by URL is not accepted]` };
}
