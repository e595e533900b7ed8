/**
 * A Gemini REST request body (what `convertToGeminiGenerateContent` produces) → the parameters
 * of `@google/genai` `models.generateContentStream`, so that the SDK writes the same body back
 * on the wire. The SDK takes `contents` as is and rebuilds the body from `config`:
 * `systemInstruction`, `tools`, `toolConfig`, `safetySettings`, `cachedContent` go to the top
 * level and the generation fields to `generationConfig` (googleapis/js-genai
 * `generateContentParametersToMldev`). Fields the SDK would drop or transform are refused, so
 * nothing is silently lost.
 */
import type { GenerateContentParameters } from '@google/genai';
import { TransportError } from './errors';
import { isRecord as isRec, type JsonObject as Rec } from '../transcript/json';

/** Top-level body fields the SDK writes back unchanged. */
const TOP_LEVEL = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
]);
/** `generationConfig` fields the SDK copies verbatim (`responseSchema`, `speechConfig`, `imageConfig` are transformed, so refused). */
const GENERATION_FIELDS = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'responseLogprobs',
  'logprobs',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseJsonSchema',
  'responseModalities',
  'mediaResolution',
  'thinkingConfig',
]);
/** Part fields the SDK keeps (`partToMldev`). */
const PART_FIELDS = new Set([
  'text',
  'thought',
  'thoughtSignature',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'videoMetadata',
  'mediaResolution',
  'partMetadata',
]);
const FUNCTION_CALL_FIELDS = new Set(['id', 'name', 'args']);
const CONTENT_FIELDS = new Set(['role', 'parts']);

function refuse(path: string): never {
  throw new TransportError('internal', `Gemini body field ${path} cannot be sent unchanged through @google/genai`, {
    retryable: false,
  });
}

function checkKeys(obj: Rec, allowed: Set<string>, path: string): void {
  for (const k of Object.keys(obj)) if (!allowed.has(k)) refuse(`${path}.${k}`);
}

/**
 * Maps a REST body onto SDK parameters (a deep copy: the SDK mutates tool declarations).
 * @param body the converter's Gemini body (no `model`: it goes in the URL).
 * @param model the model id.
 * @param abortSignal cancels the request.
 * @throws TransportError `internal` for a field the SDK would drop or rewrite (naming its path),
 *   or when `contents` is missing.
 */
export function geminiStreamParams(body: unknown, model: string, abortSignal: AbortSignal): GenerateContentParameters {
  if (!isRec(body)) refuse('(body)');
  checkKeys(body, TOP_LEVEL, 'body');
  const copy = structuredClone(body);
  const contents = copy.contents;
  if (!Array.isArray(contents) || contents.length === 0) refuse('body.contents (missing or empty)');
  contents.forEach((c: unknown, i) => {
    if (!isRec(c)) refuse(`contents[${i}]`);
    checkKeys(c, CONTENT_FIELDS, `contents[${i}]`);
    (Array.isArray(c.parts) ? c.parts : []).forEach((p: unknown, j) => {
      if (!isRec(p)) refuse(`contents[${i}].parts[${j}]`);
      checkKeys(p, PART_FIELDS, `contents[${i}].parts[${j}]`);
      if (isRec(p.functionCall))
        checkKeys(p.functionCall, FUNCTION_CALL_FIELDS, `contents[${i}].parts[${j}].functionCall`);
    });
  });
  const generation = copy.generationConfig ?? {};
  if (!isRec(generation)) refuse('body.generationConfig');
  checkKeys(generation, GENERATION_FIELDS, 'generationConfig');
  const config: Rec = { ...generation, abortSignal, automaticContinuation: false };
  for (const k of ['systemInstruction', 'tools', 'toolConfig', 'safetySettings', 'cachedContent'])
    if (copy[k] !== undefined) config[k] = copy[k];
  return { model, contents, config } as GenerateContentParameters;
}
