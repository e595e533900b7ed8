/**
 * Gemini `generateContent` parts → Baton blocks, shared by the history, response and stream
 * readers (`read-gemini-generate-content*.ts`). Pure and synchronous.
 *
 * Shapes: `@google/genai` 3.3 `Part`, `Content`, `GenerateContentResponse`, `FinishReason`. The
 * REST API also accepts the protobuf snake_case spellings (`function_call`, `inline_data`,
 * `thought_signature`, …), so {@link partView} reads both.
 */
import type { JsonPath } from '../../transcript/codec';
import type {
  Block,
  DocumentBlock,
  ImageBlock,
  Origin,
  StopReason,
  ToolResultBlock,
  ToolResultContentBlock,
  Usage,
} from '../../transcript/schema';
import type { ReadContext } from '../types';

/** The API id used in `origin.api`, `native.api` and `provider_item.api`. */
export const GEMINI_API = 'gemini-generate-content' as const;

export { describe, fail, isObject, str, type JsonObject } from '../json-read';
import { describe, fail, isObject, str, type JsonObject } from '../json-read';
import { lookupTable } from '../../transcript/lookup';

const SNAKE: Record<string, string> = lookupTable({
  function_call: 'functionCall',
  function_response: 'functionResponse',
  inline_data: 'inlineData',
  file_data: 'fileData',
  thought_signature: 'thoughtSignature',
  executable_code: 'executableCode',
  code_execution_result: 'codeExecutionResult',
  video_metadata: 'videoMetadata',
  mime_type: 'mimeType',
  file_uri: 'fileUri',
  display_name: 'displayName',
  will_continue: 'willContinue',
  partial_args: 'partialArgs',
});

/** A camelCase view of a part (or of its `inlineData` / `fileData`): REST accepts both spellings. */
export function partView(part: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(part)) out[SNAKE[k] ?? k] = v;
  return out;
}

/**
 * Normalises a Gemini `finishReason` to the transcript enum. `STOP` with function calls is
 * `tool_use`; safety, recitation, blocklist, prohibited-content and SPII stops are
 * `content_filter` (security-requirements.md P4); the raw value is kept by the caller in
 * `meta.rawStopReason`.
 */
export function mapGeminiFinishReason(raw: string, hasToolCalls: boolean): StopReason {
  switch (raw) {
    case 'STOP':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'MAX_TOKENS':
      return 'max_tokens';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    default:
      return 'other';
  }
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;

/**
 * Gemini `usageMetadata` → Baton usage (tokens, as reported): `promptTokenCount` (includes cached
 * tokens), `candidatesTokenCount` (excludes thoughts), `cachedContentTokenCount`,
 * `thoughtsTokenCount`. Undefined when nothing was reported.
 */
export function readGeminiUsage(usage: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const out: Usage = {};
  const set = (key: keyof Usage, v: unknown) => {
    const n = count(v);
    if (n !== undefined) out[key] = n;
  };
  set('inputTokens', usage.promptTokenCount);
  set('outputTokens', usage.candidatesTokenCount);
  set('cacheReadTokens', usage.cachedContentTokenCount);
  set('reasoningTokens', usage.thoughtsTokenCount);
  return Object.keys(out).length ? out : undefined;
}

/** Builds `origin` from the read context and the reported `modelVersion` (transcript-v1.md, Origin). */
export function makeOrigin(ctx: ReadContext, model: string | undefined): Origin {
  const reported = model || ctx.requestedModel || 'unknown';
  const origin: Origin = { provider: ctx.provider, api: GEMINI_API, model: reported };
  if (ctx.requestedModel && ctx.requestedModel !== reported) origin.requestedModel = ctx.requestedModel;
  if (ctx.endpoint) origin.endpoint = ctx.endpoint;
  return origin;
}

/** `inlineData` / `fileData` → an image block (image/* types) or a document block. */
export function readMedia(v: JsonObject, path: JsonPath): ImageBlock | DocumentBlock {
  if (v.inlineData !== undefined) {
    if (!isObject(v.inlineData)) return fail([...path, 'inlineData'], `expected object, got ${describe(v.inlineData)}`);
    const d = partView(v.inlineData);
    const mediaType = str(d, 'mimeType', [...path, 'inlineData']);
    const data = str(d, 'data', [...path, 'inlineData']);
    const block: ImageBlock | DocumentBlock = mediaType.startsWith('image/')
      ? { type: 'image', mediaType, data }
      : { type: 'document', mediaType, data };
    if (block.type === 'document' && typeof d.displayName === 'string') block.title = d.displayName;
    return block;
  }
  if (!isObject(v.fileData)) return fail([...path, 'fileData'], `expected object, got ${describe(v.fileData)}`);
  const f = partView(v.fileData);
  const url = str(f, 'fileUri', [...path, 'fileData']);
  const mediaType = typeof f.mimeType === 'string' && f.mimeType ? f.mimeType : 'application/octet-stream';
  const block: ImageBlock | DocumentBlock = mediaType.startsWith('image/')
    ? { type: 'image', mediaType, url }
    : { type: 'document', mediaType, url };
  if (block.type === 'document' && typeof f.displayName === 'string') block.title = f.displayName;
  return block;
}

/** Readable rendering of `executableCode` / `codeExecutionResult` parts (code execution tool). */
function renderCodePart(v: JsonObject): string | undefined {
  const code = isObject(v.executableCode) ? v.executableCode : undefined;
  if (code && typeof code.code === 'string') return code.code;
  const result = isObject(v.codeExecutionResult) ? v.codeExecutionResult : undefined;
  if (result && typeof result.output === 'string') return result.output;
  return undefined;
}

/** Id of a function call: its own `id`, else `<name>_<index>` marked `meta.generatedId`. */
export interface CallId {
  id: string;
  generated: boolean;
}

/**
 * One model part → one Baton block: `thought: true` text → thinking, text → text, functionCall →
 * tool_call (`callId` decides the id), inlineData / fileData → image or document, code execution
 * parts → `provider_item`. A `thoughtSignature` stays on the block made from its own part
 * (G-K1), including an empty text part (G-E2).
 * With `unknownAsItem` (responses, streams) any other part is kept as a `provider_item`;
 * without it (histories) it is an error.
 * @throws TranscriptError for a malformed part.
 */
export function readModelPart(
  part: unknown,
  path: JsonPath,
  callId: (name: string) => CallId,
  unknownAsItem = false,
): Block {
  if (!isObject(part)) return fail(path, `expected object, got ${describe(part)}`);
  const v = partView(part);
  const signature = v.thoughtSignature;
  if (signature !== undefined && typeof signature !== 'string')
    fail([...path, 'thoughtSignature'], `expected string, got ${describe(signature)}`);
  let block: Block;
  if (v.text !== undefined) {
    const text = str(v, 'text', path);
    block = v.thought === true ? { type: 'thinking', text } : { type: 'text', text };
    if (signature !== undefined) block.signature = signature;
  } else if (v.functionCall !== undefined) {
    if (!isObject(v.functionCall))
      return fail([...path, 'functionCall'], `expected object, got ${describe(v.functionCall)}`);
    const name = str(v.functionCall, 'name', [...path, 'functionCall']);
    if (!name) fail([...path, 'functionCall', 'name'], 'must not be empty');
    const own = v.functionCall.id;
    const id: CallId = typeof own === 'string' && own ? { id: own, generated: false } : callId(name);
    block = { type: 'tool_call', id: id.id, name, input: v.functionCall.args ?? {} };
    if (signature !== undefined) block.signature = signature;
    if (id.generated) block.meta = { generatedId: true };
  } else if (v.inlineData !== undefined || v.fileData !== undefined) {
    block = readMedia(v, path);
    // Image output parts can carry a signature too; image blocks have no signature field.
    if (signature !== undefined) block.meta = { ...block.meta, thoughtSignature: signature };
    if (block.type === 'document') block = { type: 'provider_item', api: GEMINI_API, item: part };
  } else if (v.executableCode !== undefined || v.codeExecutionResult !== undefined || unknownAsItem) {
    block = { type: 'provider_item', api: GEMINI_API, item: part };
    const text = renderCodePart(v);
    if (text !== undefined) block.text = text;
  } else {
    return fail(path, `part with keys ${JSON.stringify(Object.keys(part))} cannot be kept in a model turn`);
  }
  return block;
}

/**
 * A `functionResponse` part → a `tool_result` block (G-T1 shapes): `{output: string}` → that
 * string, `{error: …}` → `isError` with the error as text, anything else → its JSON text. Images
 * in `functionResponse.parts` (Gemini 3, G-I3) follow the text as image blocks. The function name
 * is kept in `meta.name`.
 */
export function readFunctionResponse(fr: JsonObject, path: JsonPath, callId: string): ToolResultBlock {
  const name = str(fr, 'name', path);
  const response = fr.response;
  if (response !== undefined && !isObject(response))
    fail([...path, 'response'], `expected object, got ${describe(response)}`);
  const r = response ?? {};
  const keys = Object.keys(r);
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  let text: string;
  let isError = false;
  if (keys.length === 1 && keys[0] === 'output') text = asText(r.output);
  else if (keys.length === 1 && keys[0] === 'error') {
    text = asText(r.error);
    isError = true;
  } else text = JSON.stringify(r);
  let content: string | ToolResultContentBlock[] = text;
  const parts = fr.parts;
  if (parts !== undefined) {
    if (!Array.isArray(parts)) fail([...path, 'parts'], `expected array, got ${describe(parts)}`);
    const media = parts.map((p: unknown, i: number): ToolResultContentBlock => {
      if (!isObject(p)) return fail([...path, 'parts', i], `expected object, got ${describe(p)}`);
      const block = readMedia(partView(p), [...path, 'parts', i]);
      if (block.type !== 'image')
        return fail(
          [...path, 'parts', i],
          `functionResponse part of type ${block.mediaType} cannot be kept (images only)`,
        );
      return block;
    });
    if (media.length) content = [{ type: 'text', text }, ...media];
  }
  const block: ToolResultBlock = { type: 'tool_result', callId, content, meta: { name } };
  if (isError) block.isError = true;
  return block;
}
