/**
 * Contract validator for OpenAI Responses request bodies (`POST /v1/responses`), written from
 * ../shared/docs/provider-rules.md §0 and §3 only (imports nothing from `lib/`).
 */
import {
  base64Bytes,
  checkLoneSurrogates,
  checkPortableToolCallId,
  checkPortableToolName,
  isBlank,
  isNonEmptyString,
  isRecord,
  parseDataUrl,
  Sink,
  type Path,
} from './common';
import { checkResponses2026 } from './openai-2026';
import type { Violation } from './types';

/** Options of {@link validateOpenAIResponsesRequest}. */
export interface OpenAIResponsesValidateOptions {
  /** The body is a streaming request and must carry `stream: true` (default `true`). */
  stream?: boolean;
}

const MESSAGE_ROLES = new Set(['user', 'assistant', 'system', 'developer']);
/** R-T4: tool names as in Chat. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Input item types of the SDK's `ResponseInputItem` union not checked in depth here. */
const OTHER_ITEM_TYPES = new Set([
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'configuration_update',
  'compaction',
  'compaction_trigger',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'program',
  'program_output',
]);
const INPUT_PARTS = new Set(['input_text', 'input_image', 'input_file', 'input_audio']);
const ASSISTANT_PARTS = new Set(['output_text', 'refusal', 'input_text']);
/** R-I1 → C-I1 image formats and size. */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif']);
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

type Kind = 'message' | 'function_call' | 'function_call_output' | 'reasoning' | 'item_reference' | 'other' | 'invalid';

/**
 * Validates a Responses request body as the `openai` SDK sends it for streaming. Returns every
 * violation (empty when valid); never throws. Rules, R-T1..R-T4, R-K1, R-K2, R-K4,
 * R-I1, X1, X2, X4, X5, X6, the 2026 rules R-S1, R-P1 and R-X1 (`openai-2026.ts`) and body shape
 * (`R-SHAPE`). `store` defaults to true, as in the API.
 */
export function validateOpenAIResponsesRequest(body: unknown, opts: OpenAIResponsesValidateOptions = {}): Violation[] {
  const sink = new Sink();
  if (!isRecord(body)) {
    sink.add('R-SHAPE', [], 'request body must be a JSON object');
    return sink.list;
  }
  checkLoneSurrogates(body, sink); // X6
  if (!isNonEmptyString(body.model)) sink.add('R-SHAPE', ['model'], '`model` is required');
  if ((opts.stream ?? true) && body.stream !== true)
    sink.add('R-SHAPE', ['stream'], 'a streaming request carries `stream: true`');
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== 'string') {
    sink.add('R-SHAPE', ['instructions'], '`instructions` must be a string');
  }
  if (body.store !== undefined && body.store !== null && typeof body.store !== 'boolean')
    sink.add('R-SHAPE', ['store'], '`store` must be a boolean');
  checkTools(body.tools, sink);
  if (typeof body.input === 'string') {
    if (isBlank(body.input)) sink.add('X4', ['input'], 'input text is empty or whitespace-only');
    return sink.list;
  }
  if (!Array.isArray(body.input) || body.input.length === 0) {
    sink.add('R-SHAPE', ['input'], '`input` must be a string or a non-empty array of items');
    return sink.list;
  }
  const items = body.input as unknown[];
  const stored = body.store !== false;
  const kinds = items.map((it, i) => checkItem(it, i, stored, sink));
  // R-K1: a reasoning item must be followed by the item it produced.
  kinds.forEach((k, i) => {
    if (k === 'reasoning' && i === kinds.length - 1) {
      sink.add('R-K1', ['input', i], 'a reasoning item was provided without its required following item');
    }
  });
  checkCallPairing(items, kinds, sink);
  checkResponses2026(body, items, sink); // R-S1, R-P1, R-X1
  return sink.list;
}

function checkTools(tools: unknown, sink: Sink): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) return sink.add('R-SHAPE', ['tools'], '`tools` must be an array');
  tools.forEach((t, k) => {
    if (!isRecord(t) || typeof t.type !== 'string')
      return sink.add('R-SHAPE', ['tools', k], 'tool must be an object with a `type`');
    if (t.type === 'function') checkName(t.name, ['tools', k, 'name'], sink);
  });
}

/** R-T4 tool names, X5 portable names. */
function checkName(name: unknown, path: Path, sink: Sink): void {
  if (typeof name !== 'string' || !TOOL_NAME.test(name))
    sink.add('R-T4', path, 'function name must match ^[a-zA-Z0-9_-]{1,64}$');
  else checkPortableToolName(name, path, sink);
}

function kindOf(it: Record<string, unknown>): Kind {
  const t = it.type;
  if (t === undefined || t === null) return 'role' in it ? 'message' : 'id' in it ? 'item_reference' : 'invalid';
  if (
    t === 'message' ||
    t === 'function_call' ||
    t === 'function_call_output' ||
    t === 'reasoning' ||
    t === 'item_reference'
  )
    return t;
  return typeof t === 'string' && OTHER_ITEM_TYPES.has(t) ? 'other' : 'invalid';
}

function checkItem(it: unknown, i: number, stored: boolean, sink: Sink): Kind {
  const at: Path = ['input', i];
  if (!isRecord(it)) {
    sink.add('R-SHAPE', at, 'input item must be an object');
    return 'invalid';
  }
  const kind = kindOf(it);
  switch (kind) {
    case 'invalid':
      sink.add('R-1', [...at, 'type'], `unknown input item type ${JSON.stringify(it.type)}`);
      break;
    case 'message':
      checkMessage(it, at, sink);
      break;
    case 'function_call':
      // R-1 shape; R-T1 call_id ≤ 64; R-T2 item id starts with fc; X2, X5.
      checkCallId(it.call_id, [...at, 'call_id'], sink);
      checkName(it.name, [...at, 'name'], sink);
      if (typeof it.arguments !== 'string') sink.add('R-1', [...at, 'arguments'], '`arguments` must be a JSON string');
      if (it.id !== undefined && it.id !== null && (typeof it.id !== 'string' || !it.id.startsWith('fc'))) {
        sink.add('R-T2', [...at, 'id'], "Expected an ID that begins with 'fc'");
      }
      break;
    case 'function_call_output':
      checkCallId(it.call_id, [...at, 'call_id'], sink);
      checkOutput(it.output, [...at, 'output'], sink);
      break;
    case 'reasoning':
      checkReasoning(it, at, stored, sink);
      break;
    case 'item_reference':
      if (!isNonEmptyString(it.id)) sink.add('R-1', [...at, 'id'], 'item_reference needs an `id`');
      // R-K2: item references resolve only against stored items.
      if (!stored) sink.add('R-K2', at, 'item_reference is valid only with store: true');
      break;
  }
  return kind;
}

function checkCallId(id: unknown, path: Path, sink: Sink): void {
  if (!isNonEmptyString(id)) return sink.add('R-1', path, '`call_id` is required');
  if (id.length > 64) return sink.add('R-T1', path, `string too long: call_id has ${id.length} characters, maximum 64`);
  checkPortableToolCallId(id, path, sink);
}

/** R-1 message roles; content parts per role; X4; R-I1 images. */
function checkMessage(it: Record<string, unknown>, at: Path, sink: Sink): void {
  if (typeof it.role !== 'string' || !MESSAGE_ROLES.has(it.role)) {
    return sink.add(
      'R-1',
      [...at, 'role'],
      `message role must be user, assistant, system or developer, got ${JSON.stringify(it.role)}`,
    );
  }
  const c = it.content;
  if (typeof c === 'string') {
    if (isBlank(c)) sink.add('X4', [...at, 'content'], 'message content is empty or whitespace-only');
    return;
  }
  if (!Array.isArray(c) || c.length === 0)
    return sink.add('X4', [...at, 'content'], 'message content must be a string or a non-empty array of parts');
  const allowed = it.role === 'assistant' ? ASSISTANT_PARTS : INPUT_PARTS;
  c.forEach((p, k) => {
    const pat: Path = [...at, 'content', k];
    if (!isRecord(p) || typeof p.type !== 'string')
      return sink.add('R-SHAPE', pat, 'content part must be an object with a `type`');
    if (!allowed.has(p.type)) {
      return sink.add(
        p.type === 'input_image' ? 'R-I1' : 'R-SHAPE',
        [...pat, 'type'],
        `${it.role} message cannot hold ${p.type} parts`,
      );
    }
    checkPart(p, pat, sink);
  });
}

function checkPart(p: Record<string, unknown>, pat: Path, sink: Sink): void {
  if (p.type === 'input_text' || p.type === 'output_text') {
    if (typeof p.text !== 'string') sink.add('R-SHAPE', [...pat, 'text'], 'text part needs a string `text`');
    else if (isBlank(p.text)) sink.add('X4', [...pat, 'text'], 'text part is empty or whitespace-only');
  } else if (p.type === 'refusal') {
    if (typeof p.refusal !== 'string')
      sink.add('R-SHAPE', [...pat, 'refusal'], 'refusal part needs a string `refusal`');
  } else if (p.type === 'input_image') {
    checkImage(p, pat, sink);
  }
}

/** R-I1: `image_url` (URL or data URL of PNG/JPEG/WEBP/GIF, ≤ 20 MB) or `file_id`. */
function checkImage(p: Record<string, unknown>, pat: Path, sink: Sink): void {
  if (isNonEmptyString(p.file_id)) return;
  if (typeof p.image_url !== 'string') return sink.add('R-I1', pat, 'input_image needs `image_url` or `file_id`');
  if (/^https?:\/\//i.test(p.image_url)) return;
  const d = parseDataUrl(p.image_url);
  if (!d) return sink.add('R-I1', [...pat, 'image_url'], 'image_url must be http(s) or a base64 data URL');
  if (!IMAGE_MIMES.has(d.mime))
    sink.add('R-I1', [...pat, 'image_url'], `image type ${d.mime} is not PNG, JPEG, WEBP or GIF`);
  if (base64Bytes(d.data) > MAX_IMAGE_BYTES) sink.add('R-I1', [...pat, 'image_url'], 'image larger than 20 MB');
}

/** output is a string or a list of input_text / input_image / input_file. */
function checkOutput(out: unknown, path: Path, sink: Sink): void {
  if (typeof out === 'string') {
    if (isBlank(out)) sink.add('X4', path, 'function_call_output output is empty or whitespace-only');
    return;
  }
  if (!Array.isArray(out) || out.length === 0)
    return sink.add('R-2', path, 'output must be a string or a non-empty list of input items');
  out.forEach((p, k) => {
    if (!isRecord(p) || typeof p.type !== 'string' || !['input_text', 'input_image', 'input_file'].includes(p.type)) {
      return sink.add('R-2', [...path, k], 'output items are input_text, input_image or input_file');
    }
    checkPart(p, [...path, k], sink);
  });
}

/** R-1 summary list; R-K4 no raw `content`; R-K2 encrypted_content when store is false. */
function checkReasoning(it: Record<string, unknown>, at: Path, stored: boolean, sink: Sink): void {
  if (!Array.isArray(it.summary)) sink.add('R-1', [...at, 'summary'], 'reasoning item needs a `summary` array');
  else {
    it.summary.forEach((s, k) => {
      if (!isRecord(s) || s.type !== 'summary_text' || typeof s.text !== 'string') {
        sink.add('R-1', [...at, 'summary', k], 'summary entries are {type: "summary_text", text}');
      }
    });
  }
  if (it.content !== undefined && it.content !== null && !(Array.isArray(it.content) && it.content.length === 0)) {
    sink.add('R-K4', [...at, 'content'], 'array too long: a replayed reasoning item carries no `content`');
  }
  const enc = it.encrypted_content;
  if (enc !== undefined && enc !== null && typeof enc !== 'string')
    sink.add('R-1', [...at, 'encrypted_content'], '`encrypted_content` must be a string');
  if (!stored && !isNonEmptyString(enc)) {
    sink.add(
      'R-K2',
      [...at, 'encrypted_content'],
      'with store: false a reasoning item must carry its encrypted_content',
    );
  }
}

/** R-T3, X1: every function_call has exactly one later function_call_output, and vice versa. */
function checkCallPairing(items: unknown[], kinds: Kind[], sink: Sink): void {
  const calls = new Map<string, number>();
  const answered = new Set<string>();
  items.forEach((it, i) => {
    if (!isRecord(it) || typeof it.call_id !== 'string') return;
    if (kinds[i] === 'function_call') {
      if (calls.has(it.call_id))
        sink.add('X1', ['input', i, 'call_id'], `duplicate function_call call_id ${it.call_id}`);
      else calls.set(it.call_id, i);
    } else if (kinds[i] === 'function_call_output') {
      if (!calls.has(it.call_id))
        sink.add('X1', ['input', i, 'call_id'], `function_call_output ${it.call_id} has no earlier function_call`);
      else if (answered.has(it.call_id))
        sink.add('X1', ['input', i, 'call_id'], `function call ${it.call_id} is answered more than once`);
      else answered.add(it.call_id);
    }
  });
  for (const [id, i] of calls) {
    if (!answered.has(id)) sink.add('R-T3', ['input', i, 'call_id'], `No tool output found for function call ${id}`);
  }
}
