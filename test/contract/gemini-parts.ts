/**
 * Part-level checks of the Gemini generateContent contract (provider-rules.md §4), used by
 * `gemini-generate-content.ts`. REST accepts both the proto JSON names (`functionCall`) and the
 * original field names (`function_call`); both are read (recorded requests use `function_call`).
 */
import { isBase64, isBlank, isNonEmptyString, isRecord, type Path, type Sink } from './common';

/** Reads `obj[camel]` or its snake_case twin; returns the key actually present. */
export function pick(obj: Record<string, unknown>, camel: string): [string, unknown] | undefined {
  if (obj[camel] !== undefined) return [camel, obj[camel]];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return obj[snake] !== undefined ? [snake, obj[snake]] : undefined;
}

/** The `data` oneof of `Part` (G-E1: exactly one must be set). */
const DATA_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
];
/** G-I1: image MIME types Gemini accepts inline. */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);

/** What one part contributes to the turn-level checks. */
export interface PartInfo {
  call?: { name: unknown; id: unknown };
  response?: { name: unknown; id: unknown };
  text?: string;
  signed: boolean;
}

/** Context of a part check. */
export interface PartContext {
  /** `user` or `model` (an unset role defaults to `user`), or `system` for systemInstruction. */
  role: string;
  gemini3: boolean;
  vertex: boolean;
}

/** Checks one `Part`: G-E1 one data field, G-K1 signature placement, G-T1/G-T3 function parts, G-I1/G-I3, X4. */
export function checkPart(part: unknown, path: Path, ctx: PartContext, sink: Sink): PartInfo {
  const info: PartInfo = { signed: false };
  if (!isRecord(part)) {
    sink.add('G-E1', path, 'part must be an object with one data field');
    return info;
  }
  const present = DATA_FIELDS.map((f) => pick(part, f)).filter((x): x is [string, unknown] => x !== undefined);
  if (present.length !== 1) {
    sink.add(
      'G-E1',
      path,
      present.length === 0
        ? "required oneof field 'data' must have one initialized field"
        : `a part holds exactly one data field, got ${present.map((p) => p[0]).join(', ')}`,
    );
    if (present.length === 0) return info;
  }
  const sig = pick(part, 'thoughtSignature');
  if (sig) {
    // G-K1: the signature is a base64 string on the Part.
    if (!isNonEmptyString(sig[1])) sink.add('G-K1', [...path, sig[0]], 'thoughtSignature must be a non-empty string');
    else info.signed = true;
  }
  const [key, value] = present[0]!;
  const at: Path = [...path, key];
  switch (key.replace(/_(.)/g, (_, c: string) => c.toUpperCase())) {
    case 'text':
      if (typeof value !== 'string') sink.add('G-SHAPE', at, '`text` must be a string');
      else {
        info.text = value;
        // X4: no blank text from the user or the system; model turns may replay Gemini's own
        // empty text parts (G-E2, and recorded requests carry unsigned `{"text": ""}` parts).
        if (ctx.role !== 'model' && isBlank(value) && !info.signed)
          sink.add('X4', at, 'text part is empty or whitespace-only');
      }
      break;
    case 'inlineData':
      checkInlineData(value, at, sink);
      break;
    case 'fileData':
      if (!isRecord(value) || !isNonEmptyString(pick(value, 'fileUri')?.[1]))
        sink.add('G-SHAPE', at, 'fileData needs a `fileUri`');
      break;
    case 'functionCall':
      info.call = checkFunctionCall(value, at, ctx, sink);
      break;
    case 'functionResponse':
      info.response = checkFunctionResponse(value, at, ctx, sink);
      break;
  }
  return info;
}

/** G-I1: raw base64 without a data: prefix; image MIME types from the allowed list. */
function checkInlineData(v: unknown, at: Path, sink: Sink): void {
  if (!isRecord(v)) return sink.add('G-SHAPE', at, 'inlineData must be an object');
  const mime = pick(v, 'mimeType');
  if (!mime || typeof mime[1] !== 'string') sink.add('G-I1', [...at, 'mimeType'], 'inlineData needs a `mimeType`');
  else if (mime[1].startsWith('image/') && !IMAGE_MIMES.has(mime[1]))
    sink.add('G-I1', [...at, mime[0]], `image MIME type ${mime[1]} is not accepted`);
  const data = v.data;
  if (typeof data !== 'string' || data.length === 0)
    sink.add('G-I1', [...at, 'data'], 'inlineData needs base64 `data`');
  else if (data.startsWith('data:'))
    sink.add('G-I1', [...at, 'data'], 'inlineData.data is raw base64 without the data: prefix');
  else if (!isBase64(data, true)) sink.add('G-I1', [...at, 'data'], 'inlineData.data must be base64');
}

/** G-T3 name (and no id on Vertex), G-K1 no signature inside functionCall. */
function checkFunctionCall(v: unknown, at: Path, ctx: PartContext, sink: Sink): PartInfo['call'] {
  if (!isRecord(v)) {
    sink.add('G-SHAPE', at, 'functionCall must be an object');
    return { name: undefined, id: undefined };
  }
  if (ctx.role !== 'model') sink.add('G-R5', at, 'functionCall parts belong in a model turn');
  if (!isNonEmptyString(v.name)) sink.add('G-T3', [...at, 'name'], 'functionCall needs a `name`');
  if (v.args !== undefined && v.args !== null && !isRecord(v.args))
    sink.add('G-SHAPE', [...at, 'args'], '`args` must be a JSON object');
  const inner = pick(v, 'thoughtSignature');
  if (inner)
    sink.add(
      'G-K1',
      [...at, inner[0]],
      'thoughtSignature is a sibling of functionCall on the Part, not a field inside it',
    );
  if (ctx.vertex && v.id !== undefined) sink.add('G-T3', [...at, 'id'], 'Vertex rejects functionCall.id; omit it');
  return { name: v.name, id: v.id };
}

/** G-R2 user turn, G-T1 object response, G-I3 parts only on Gemini 3, G-T3 name / Vertex id. */
function checkFunctionResponse(v: unknown, at: Path, ctx: PartContext, sink: Sink): PartInfo['response'] {
  if (!isRecord(v)) {
    sink.add('G-SHAPE', at, 'functionResponse must be an object');
    return { name: undefined, id: undefined };
  }
  if (ctx.role !== 'user') sink.add('G-R2', at, 'function responses go in a user-role turn');
  if (!isNonEmptyString(v.name)) sink.add('G-T3', [...at, 'name'], 'functionResponse needs a `name`');
  if (!isRecord(v.response))
    sink.add('G-T1', [...at, 'response'], 'functionResponse.response must be a JSON object (protobuf Struct)');
  if (v.parts !== undefined && !ctx.gemini3)
    sink.add('G-I3', [...at, 'parts'], '`function_response.parts` is not supported for this model');
  if (ctx.vertex && v.id !== undefined) sink.add('G-T3', [...at, 'id'], 'Vertex rejects functionResponse.id; omit it');
  return { name: v.name, id: v.id };
}
