/**
 * Contract validator for Gemini Interactions API request bodies (`POST /v1beta/interactions`),
 * written from ../shared/docs/provider-rules-2026-gemini.md §9 (GI-…) and the cross-provider rules
 * of ../shared/docs/provider-rules.md §0 only. Imports nothing from `lib/`.
 */
import { checkLoneSurrogates, checkPortableToolName, isBase64, isRecord, Sink, type Path } from './common';
import type { Violation } from './types';

/** Options of {@link validateGeminiInteractionsRequest}. */
export interface GeminiInteractionsValidateOptions {
  /** Require `stream: true` (GI-R8; default true). */
  stream?: boolean;
  /**
   * The request's `Api-Revision` header when known (`null`: sent without one). GI-R1: REST
   * clients send `2026-05-20`, the steps schema; undefined skips the check (a body alone).
   */
  apiRevision?: string | null;
}

/** GI-R1: the `Api-Revision` of the steps schema. */
export const INTERACTIONS_API_REVISION = '2026-05-20';

/** GI-R1: the top-level fields of a model interaction (`CreateModelInteraction`, SDK 3.3.0). */
const BODY_KEYS = new Set([
  'model',
  'input',
  'system_instruction',
  'tools',
  'generation_config',
  'store',
  'stream',
  'previous_interaction_id',
  'background',
  'cached_content',
  'continuation_token',
  'response_format',
  'response_mime_type',
  'response_modalities',
  'safety_settings',
  'service_tier',
  'labels',
]);
/** GI-R1: the generateContent spellings, which this API does not take. */
const GENERATE_CONTENT_KEYS = ['contents', 'systemInstruction', 'generationConfig', 'toolConfig', 'tool_config'];
const STEP_TYPES = new Set([
  'user_input',
  'model_output',
  'thought',
  'function_call',
  'function_result',
  'google_search_call',
  'google_search_result',
  'code_execution_call',
  'code_execution_result',
  'url_context_call',
  'url_context_result',
  'file_search_call',
  'file_search_result',
  'mcp_server_tool_call',
  'mcp_server_tool_result',
  // The rest of the SDK 3.3.0 `Step` union that §9 cites.
  'google_maps_call',
  'google_maps_result',
  'retrieval_call',
  'retrieval_result',
  'processing_call',
  'processing_result',
]);
const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'document', 'video']);
/** GI-R4. */
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/gif',
  'image/bmp',
  'image/tiff',
]);
/** GI-R7. */
const GENERATION_KEYS = new Set([
  'thinking_level',
  'thinking_summaries',
  'max_output_tokens',
  'stop_sequences',
  'tool_choice',
  'seed',
  'image_config',
  'speech_config',
]);
const THINKING_LEVELS = new Set(['minimal', 'low', 'medium', 'high', 'xhigh']);
const TOOL_CHOICES = new Set(['auto', 'any', 'none', 'validated']);

/** GI-T2: the server's answer to a `function_result` without `name`. */
export const GI_T2_API_MESSAGE = 'Invalid input received';
/** GI-P1: `store=false` disables `previous_interaction_id`. */
export const GI_P1_API_MESSAGE = 'store=false disables previous_interaction_id and background=true';

/**
 * Validates an Interactions request body. Returns every violation (empty when valid); never
 * throws. Rules: GI-R1..GI-R8, GI-P1, GI-P2 (the id's form), GI-T1..GI-T4, GI-K1, GI-K2, GI-K4,
 * X5 (portable tool names), X6 and body shape (`GI-SHAPE`). GI-K3 (same-origin signatures) cannot
 * be seen in one body and is checked by the converter's tests.
 */
export function validateGeminiInteractionsRequest(
  body: unknown,
  opts: GeminiInteractionsValidateOptions = {},
): Violation[] {
  const sink = new Sink();
  if (!isRecord(body)) {
    sink.add('GI-SHAPE', [], 'request body must be a JSON object');
    return sink.list;
  }
  checkLoneSurrogates(body, sink); // X6
  if (opts.apiRevision !== undefined && opts.apiRevision !== INTERACTIONS_API_REVISION)
    sink.add(
      'GI-R1',
      [],
      `the Api-Revision header must be ${INTERACTIONS_API_REVISION} (the steps schema), got ${String(opts.apiRevision)}`,
    );
  if (typeof body.model !== 'string' || body.model === '') sink.add('GI-SHAPE', ['model'], 'model is required');
  for (const key of GENERATE_CONTENT_KEYS)
    if (key in body) sink.add('GI-R1', [key], `${key} is a generateContent field; Interactions takes snake_case steps`);
  for (const key of Object.keys(body))
    if (!BODY_KEYS.has(key) && !GENERATE_CONTENT_KEYS.includes(key))
      sink.add('GI-R1', [key], `unknown field ${JSON.stringify(key)}`);
  if ('tool_choice' in body) sink.add('GI-R7', ['tool_choice'], 'tool_choice belongs inside generation_config');
  if (body.system_instruction !== undefined && typeof body.system_instruction !== 'string')
    sink.add('GI-R5', ['system_instruction'], 'system_instruction is a plain string, not a Content object');
  checkTools(body.tools, sink);
  checkGenerationConfig(body.generation_config, sink);
  if ((opts.stream ?? true) && body.stream !== true)
    sink.add('GI-R8', ['stream'], 'a streaming request has stream: true');
  if (body.store !== undefined && typeof body.store !== 'boolean')
    sink.add('GI-SHAPE', ['store'], 'store is a boolean');
  const chained = body.previous_interaction_id !== undefined;
  if (chained) {
    if (body.store === false)
      sink.add('GI-P1', ['previous_interaction_id'], 'never with store: false', GI_P1_API_MESSAGE);
    if (typeof body.previous_interaction_id !== 'string' || !/^v1_\S+$/.test(body.previous_interaction_id))
      sink.add('GI-P2', ['previous_interaction_id'], 'chaining needs the non-empty v1_… id of a stored interaction');
  }
  if (!Array.isArray(body.input)) {
    sink.add('GI-R2', ['input'], 'Baton sends input as an array of steps');
    return sink.list;
  }
  if (body.input.length === 0) sink.add('GI-R2', ['input'], 'input has no steps');
  checkSteps(body.input, chained, sink);
  return sink.list;
}

function checkTools(tools: unknown, sink: Sink): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) return sink.add('GI-R6', ['tools'], 'tools is an array');
  const names = new Set<string>();
  tools.forEach((t, i) => {
    const p = ['tools', i];
    if (!isRecord(t)) return sink.add('GI-R6', p, 'a tool is an object');
    if ('functionDeclarations' in t || 'function_declarations' in t)
      return sink.add('GI-R6', p, 'tools are flat: no functionDeclarations wrapper');
    if (t.type !== 'function') return; // built-in tools are not Baton's
    if (typeof t.name !== 'string' || t.name === '')
      return sink.add('GI-R6', [...p, 'name'], 'a function tool has a name');
    checkPortableToolName(t.name, [...p, 'name'], sink);
    if (names.has(t.name)) sink.add('GI-R6', [...p, 'name'], `tool ${t.name} is declared twice`);
    names.add(t.name);
    if (t.parameters !== undefined && !isRecord(t.parameters))
      sink.add('GI-R6', [...p, 'parameters'], 'parameters is a JSON Schema object');
  });
}

function checkGenerationConfig(cfg: unknown, sink: Sink): void {
  if (cfg === undefined) return;
  const p = ['generation_config'];
  if (!isRecord(cfg)) return sink.add('GI-R7', p, 'generation_config is an object');
  for (const key of Object.keys(cfg)) {
    if (key === 'temperature' || key === 'top_p')
      sink.add('GI-R7', [...p, key], `${key} is deprecated: do not send it`);
    else if (!GENERATION_KEYS.has(key)) sink.add('GI-R7', [...p, key], `unknown generation_config field ${key}`);
  }
  if (cfg.thinking_level !== undefined && !THINKING_LEVELS.has(cfg.thinking_level as string))
    sink.add('GI-R7', [...p, 'thinking_level'], `thinking_level is one of ${[...THINKING_LEVELS].join(', ')}`);
  if (cfg.thinking_summaries !== undefined && cfg.thinking_summaries !== 'auto' && cfg.thinking_summaries !== 'none')
    sink.add('GI-R7', [...p, 'thinking_summaries'], 'thinking_summaries is auto or none');
  if (
    cfg.max_output_tokens !== undefined &&
    !(Number.isSafeInteger(cfg.max_output_tokens) && (cfg.max_output_tokens as number) > 0)
  )
    sink.add('GI-R7', [...p, 'max_output_tokens'], 'max_output_tokens is a positive integer');
  const tc = cfg.tool_choice;
  if (tc !== undefined) {
    const ok =
      (typeof tc === 'string' && TOOL_CHOICES.has(tc)) ||
      (isRecord(tc) && isRecord(tc.allowed_tools) && Array.isArray(tc.allowed_tools.tools));
    if (!ok) sink.add('GI-R7', [...p, 'tool_choice'], 'tool_choice is auto, any, none, validated or {allowed_tools}');
  }
}

function checkContent(c: unknown, p: Path, sink: Sink, rule = 'GI-R4'): void {
  if (!isRecord(c) || typeof c.type !== 'string' || !CONTENT_TYPES.has(c.type))
    return sink.add(rule, p, 'content is text, image, audio, document or video');
  if (c.type === 'text') {
    if (typeof c.text !== 'string') return sink.add(rule, [...p, 'text'], 'text content needs text');
    if (c.text.trim() === '') sink.add('GI-R4', [...p, 'text'], 'never send empty text');
    return;
  }
  const hasData = typeof c.data === 'string';
  if (hasData === (typeof c.uri === 'string'))
    return sink.add(rule, p, `${c.type} content has exactly one of data and uri`);
  if (hasData) {
    const data = c.data as string;
    if (data.startsWith('data:') || !isBase64(data))
      sink.add('GI-R4', [...p, 'data'], 'data is base64 with no data: prefix');
    if (typeof c.mime_type !== 'string') sink.add('GI-R4', [...p, 'mime_type'], 'inline data needs mime_type');
  }
  if (c.type === 'image' && typeof c.mime_type === 'string' && !IMAGE_TYPES.has(c.mime_type))
    sink.add('GI-R4', [...p, 'mime_type'], `${c.mime_type} is not an accepted image type`);
}

function checkContentList(list: unknown, p: Path, sink: Sink): void {
  if (!Array.isArray(list) || list.length === 0) return sink.add('GI-R4', p, 'content is a non-empty array');
  list.forEach((c, j) => checkContent(c, [...p, j], sink));
}

interface Call {
  id: string;
  path: Path;
  answered: number;
}

function checkSteps(steps: unknown[], chained: boolean, sink: Sink): void {
  const ids = new Set<string>();
  let open: Call[] = [];
  const closeTurn = (at: Path) => {
    for (const c of open)
      if (c.answered === 0)
        sink.add(
          'GI-T1',
          c.path,
          `function_call ${c.id} has no function_result before ${at.length ? 'the next user_input' : 'the end'}`,
        );
    open = [];
  };
  steps.forEach((s, i) => {
    const p = ['input', i];
    if (!isRecord(s) || typeof s.type !== 'string') return sink.add('GI-SHAPE', p, 'a step is an object with a type');
    if ('role' in s) sink.add('GI-R3', [...p, 'role'], 'steps have no role: the step type says who spoke');
    if ('parts' in s) sink.add('GI-R1', [...p, 'parts'], 'steps have content, not parts');
    if (!STEP_TYPES.has(s.type))
      return sink.add('GI-R3', [...p, 'type'], `unknown step type ${JSON.stringify(s.type)}`);
    if (s.signature === '') sink.add('GI-K4', [...p, 'signature'], 'an empty signature carries nothing: never send ""');
    switch (s.type) {
      case 'user_input':
        closeTurn(p);
        return checkContentList(s.content, [...p, 'content'], sink);
      case 'model_output':
        return checkContentList(s.content, [...p, 'content'], sink);
      case 'thought':
        if (typeof s.signature !== 'string' || s.signature === '')
          sink.add('GI-K1', [...p, 'signature'], 'never send an unsigned thought step');
        if (s.summary !== undefined) {
          if (!Array.isArray(s.summary))
            sink.add('GI-K2', [...p, 'summary'], 'summary is an array of text or image content');
          else
            s.summary.forEach((c, j) => {
              if (!isRecord(c) || (c.type !== 'text' && c.type !== 'image'))
                sink.add('GI-K2', [...p, 'summary', j], 'summary holds text or image content');
              else checkContent(c, [...p, 'summary', j], sink, 'GI-K2');
            });
        }
        return;
      case 'function_call': {
        if (typeof s.id !== 'string' || s.id === '') sink.add('GI-T4', [...p, 'id'], 'function_call.id is required');
        else if (ids.has(s.id)) sink.add('GI-T4', [...p, 'id'], `function_call.id ${s.id} is not unique`);
        else ids.add(s.id);
        if (typeof s.name !== 'string' || s.name === '')
          sink.add('GI-SHAPE', [...p, 'name'], 'function_call.name is required');
        if (!isRecord(s.arguments))
          sink.add('GI-T4', [...p, 'arguments'], 'arguments is a JSON object, never a string');
        if (typeof s.id === 'string') {
          const call = { id: s.id, path: p, answered: 0 };
          open.push(call);
        }
        return;
      }
      case 'function_result': {
        if (typeof s.name !== 'string' || s.name === '')
          sink.add('GI-T2', [...p, 'name'], 'function_result.name is required in practice', GI_T2_API_MESSAGE);
        const r = s.result;
        if (!(typeof r === 'string' || isRecord(r) || Array.isArray(r)))
          sink.add('GI-T3', [...p, 'result'], 'result is a string, a content array or an object');
        else if (Array.isArray(r)) r.forEach((c, j) => checkContent(c, [...p, 'result', j], sink, 'GI-T3'));
        if (s.is_error !== undefined && typeof s.is_error !== 'boolean')
          sink.add('GI-T3', [...p, 'is_error'], 'is_error is a boolean');
        const call = open.find((c) => c.id === s.call_id);
        if (typeof s.call_id !== 'string' || s.call_id === '')
          sink.add('GI-T1', [...p, 'call_id'], 'function_result.call_id is required');
        else if (call) {
          call.answered++;
          if (call.answered > 1)
            sink.add('GI-T1', [...p, 'call_id'], `call ${s.call_id} has more than one function_result`);
        } else if (
          !(chained && i === 0) &&
          !(chained && steps.slice(0, i).every((x) => isRecord(x) && x.type === 'function_result'))
        )
          sink.add('GI-T1', [...p, 'call_id'], `function_result ${s.call_id} answers no earlier function_call`);
        return;
      }
      default:
        return; // built-in tool steps: origin-scoped, replayed as received (GI-R3)
    }
  });
  closeTurn([]);
}
