/**
 * Shape checks for Gemini parts replayed verbatim to their own origin (a model turn's `native`
 * parts, or a same-origin `provider_item`): what the API would reject is never sent
 * (provider-rules.md §4: G-E1, G-I1, G-K1, G-R2, G-R3, G-T2, G-T3, X4). Pure.
 */
import { isRecord as isObject, type JsonObject } from '../../transcript/json';

/** The `data` oneof of a Gemini `Part` (G-E1: exactly one must be set). */
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

/** True when a (camelCase) part sets exactly one data field (G-E1: "required oneof field 'data'"). */
export function hasOneDataField(part: JsonObject): boolean {
  return DATA_FIELDS.filter((k) => part[k] !== undefined).length === 1;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
/** The data fields of a Part besides text, media and function parts (G-E1's oneof). */
const CODE_FIELDS = ['executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'] as const;

/**
 * Why a (camelCase) part cannot be replayed in a `model` content, or undefined: it must set
 * exactly one data field (G-E1) of the right shape — string `text`; `inlineData` with a
 * `mimeType` and raw base64 `data` (G-I1); `fileData` with a `fileUri`; `functionCall` with a
 * `name` and object `args` when present (G-T3); code-execution parts as objects — and no
 * `functionResponse`, which belongs in a user content (G-R2). A `thoughtSignature` must be a
 * non-empty string (G-K1), `thought` a boolean.
 */
export function modelPartProblem(part: unknown): string | undefined {
  if (!isObject(part)) return 'not an object';
  if (!hasOneDataField(part)) return 'it does not set exactly one data field (G-E1)';
  if (part.thoughtSignature !== undefined && !nonEmpty(part.thoughtSignature))
    return 'thoughtSignature is not a non-empty string (G-K1)';
  if (part.thought !== undefined && typeof part.thought !== 'boolean') return 'thought is not a boolean';
  if (part.text !== undefined) return typeof part.text === 'string' ? undefined : 'text is not a string';
  if (part.inlineData !== undefined) {
    const d = part.inlineData;
    if (!isObject(d) || !nonEmpty(d.mimeType)) return 'inlineData without a mimeType (G-I1)';
    return nonEmpty(d.data) && !d.data.startsWith('data:') && BASE64.test(d.data)
      ? undefined
      : 'inlineData without raw base64 data (G-I1)';
  }
  if (part.fileData !== undefined)
    return isObject(part.fileData) && nonEmpty(part.fileData.fileUri) ? undefined : 'fileData without a fileUri';
  if (part.functionCall !== undefined) {
    const fc = part.functionCall;
    if (!isObject(fc) || !nonEmpty(fc.name)) return 'functionCall without a name (G-T3)';
    return fc.args === undefined || fc.args === null || isObject(fc.args)
      ? undefined
      : 'functionCall args is not a JSON object';
  }
  if (part.functionResponse !== undefined) return 'a functionResponse belongs in a user content (G-R2)';
  // executableCode, codeExecutionResult, toolCall, toolResponse: opaque objects.
  const other = CODE_FIELDS.find((k) => part[k] !== undefined)!;
  return isObject(part[other]) ? undefined : `${other} is not an object`;
}

/**
 * Why a same-origin provider item (a camelCase part) cannot be replayed in a content of `role`, or
 * undefined: a well-formed part ({@link modelPartProblem}) that is neither a function call nor a
 * function response (those pair only through tool_call / tool_result blocks, G-T2), not empty
 * unsigned text (X4), and — in a user content, where a tool turn's items go — only text or media
 * without thought fields (G-R3: user contents hold text and inline data).
 */
export function itemPartProblem(part: JsonObject, role: 'user' | 'model'): string | undefined {
  if (part.functionCall !== undefined || part.functionResponse !== undefined)
    return 'a function call or response pairs only through its tool_call or tool_result block (G-T2)';
  const problem = modelPartProblem(part);
  if (problem !== undefined) return problem;
  if (typeof part.text === 'string' && part.text.trim() === '' && part.thoughtSignature === undefined)
    return 'empty text (X4)';
  if (role === 'user') {
    if (part.text === undefined && part.inlineData === undefined && part.fileData === undefined)
      return 'only text and media go in a user content (G-R3)';
    if (part.thought !== undefined || part.thoughtSignature !== undefined)
      return 'thought fields go in a model content only (G-K1)';
  }
  return undefined;
}
