/**
 * Contract validator for Chat Completions request bodies (`POST /v1/chat/completions`), written
 * from ../shared/docs/provider-rules.md §0, §2 and §5 only (imports nothing from `lib/`).
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
import { checkChat2026 } from './openai-2026';
import { checkProviderRules } from './openai-chat-providers';
import type { Violation } from './types';

/** Options of {@link validateOpenAIChatRequest}. */
export interface OpenAIChatValidateOptions {
  /** The backend behind the Chat Completions shape; adds its §5 rules (default `openai`). */
  provider?: 'openai' | 'mistral' | 'deepseek' | 'groq' | 'openrouter' | 'ollama' | (string & {});
  /** The body is a streaming request and must carry `stream: true` (default `true`). */
  stream?: boolean;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
/** C-T5: tool function names. */
const CHAT_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_TOOLS = 128;
/** C-I1: image formats, per-image and per-request limits. */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif']);
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const MAX_IMAGES = 500;
const MAX_IMAGE_TOTAL_BYTES = 50 * 1024 * 1024;
const USER_PARTS = new Set(['text', 'image_url', 'input_audio', 'file']);

/**
 * Validates a Chat Completions request body as the `openai` SDK sends it for streaming.
 * Returns every violation (empty when valid); never throws. Rules: C-R1, C-R2, C-R4, C-T1..C-T7,
 * C-I1, X1, X2, X4, X5, X6, on OpenAI the 2026 rules C-S1 and C-T9 (`openai-2026.ts`), and per
 * `opts.provider` M-1..M-3, D-1, D-3, D-G1, OR-1, O-3
 * (see `openai-chat-providers.ts`). C-T8 is [INF] and is not enforced.
 */
export function validateOpenAIChatRequest(body: unknown, opts: OpenAIChatValidateOptions = {}): Violation[] {
  const sink = new Sink();
  if (!isRecord(body)) {
    sink.add('C-SHAPE', [], 'request body must be a JSON object');
    return sink.list;
  }
  checkLoneSurrogates(body, sink); // X6
  if (!isNonEmptyString(body.model)) sink.add('C-SHAPE', ['model'], '`model` is required');
  if ((opts.stream ?? true) && body.stream !== true)
    sink.add('C-SHAPE', ['stream'], 'a streaming request carries `stream: true`');
  checkTools(body.tools, sink);
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    sink.add('C-SHAPE', ['messages'], '`messages` must be a non-empty array');
    return sink.list;
  }
  const messages = body.messages as unknown[];
  const images = { count: 0, bytes: 0 };
  messages.forEach((m, i) => checkMessage(m, i, sink, images));
  if (images.count > MAX_IMAGES) sink.add('C-I1', ['messages'], `more than ${MAX_IMAGES} images in one request`);
  if (images.bytes > MAX_IMAGE_TOTAL_BYTES)
    sink.add('C-I1', ['messages'], 'more than 50 MB of image bytes in one request');
  checkToolPairing(messages, sink);
  checkProviderRules(body, messages, opts.provider ?? 'openai', sink);
  if ((opts.provider ?? 'openai') === 'openai') checkChat2026(body, sink); // C-S1, C-T9
  return sink.list;
}

/** C-T5 names and tool count; X5 portable names. */
function checkTools(tools: unknown, sink: Sink): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) {
    sink.add('C-SHAPE', ['tools'], '`tools` must be an array');
    return;
  }
  if (tools.length > MAX_TOOLS) sink.add('C-T5', ['tools'], `array too long: at most ${MAX_TOOLS} tools`);
  tools.forEach((t, k) => {
    const at: Path = ['tools', k];
    if (!isRecord(t)) return sink.add('C-SHAPE', at, 'tool must be an object');
    if (t.type === 'custom') {
      if (!isRecord(t.custom) || !isNonEmptyString(t.custom.name))
        sink.add('C-SHAPE', [...at, 'custom', 'name'], 'custom tool needs a name');
      return;
    }
    if (t.type !== 'function' || !isRecord(t.function))
      return sink.add('C-SHAPE', at, 'tool must be {type: "function", function: {...}}');
    checkName(t.function.name, [...at, 'function', 'name'], sink);
    if (t.function.parameters !== undefined && !isRecord(t.function.parameters)) {
      sink.add('C-SHAPE', [...at, 'function', 'parameters'], '`parameters` must be a JSON Schema object');
    }
  });
}

function checkName(name: unknown, path: Path, sink: Sink): void {
  if (typeof name !== 'string' || !CHAT_TOOL_NAME.test(name))
    sink.add('C-T5', path, 'function name must match ^[a-zA-Z0-9_-]+$ with at most 64 characters');
  else checkPortableToolName(name, path, sink);
}

/** X4 on text content, C-R1 roles, C-R2 assistant content, C-T2/C-T6/C-T7 tool messages, C-I1. */
function checkMessage(m: unknown, i: number, sink: Sink, images: { count: number; bytes: number }): void {
  const at: Path = ['messages', i];
  if (!isRecord(m)) return sink.add('C-SHAPE', at, 'message must be an object');
  if (typeof m.role !== 'string' || !ROLES.has(m.role)) {
    return sink.add(
      'C-R1',
      [...at, 'role'],
      `role must be system, developer, user, assistant or tool, got ${JSON.stringify(m.role)}`,
    );
  }
  const role = m.role;
  const c = m.content;
  if (role === 'assistant') return checkAssistant(m, at, sink);
  if (role === 'function') return;
  if (role === 'tool') {
    if (!isNonEmptyString(m.tool_call_id))
      sink.add('C-T2', [...at, 'tool_call_id'], "messages with role 'tool' must have a 'tool_call_id'");
    if ('is_error' in m) sink.add('C-T7', [...at, 'is_error'], 'tool messages have no error flag; say it in the text');
  }
  if (typeof c === 'string') {
    if (isBlank(c)) sink.add('X4', [...at, 'content'], 'message content is empty or whitespace-only');
    return;
  }
  if (!Array.isArray(c) || c.length === 0)
    return sink.add(
      role === 'tool' ? 'C-T6' : 'C-SHAPE',
      [...at, 'content'],
      'content must be a string or a non-empty array of parts',
    );
  c.forEach((p, k) => {
    const pat: Path = [...at, 'content', k];
    if (!isRecord(p) || typeof p.type !== 'string')
      return sink.add('C-SHAPE', pat, 'content part must be an object with a `type`');
    if (p.type === 'text') return checkTextPart(p, pat, sink);
    // C-T6: tool content is text parts only; C-I1: images only in user messages.
    if (role === 'tool') return sink.add('C-T6', pat, `tool message content is text parts only, got ${p.type}`);
    if (role !== 'user')
      return sink.add(
        p.type === 'image_url' ? 'C-I1' : 'C-SHAPE',
        pat,
        `${role} content is text parts only, got ${p.type}`,
      );
    if (!USER_PARTS.has(p.type)) return sink.add('C-SHAPE', [...pat, 'type'], `unknown content part type ${p.type}`);
    if (p.type === 'image_url') checkImage(p, pat, sink, images);
  });
}

function checkTextPart(p: Record<string, unknown>, path: Path, sink: Sink): void {
  if (typeof p.text !== 'string') sink.add('C-SHAPE', [...path, 'text'], 'text part needs a string `text`');
  else if (isBlank(p.text)) sink.add('X4', [...path, 'text'], 'text part is empty or whitespace-only');
}

/** C-I1: http(s) URL or a base64 data URL of PNG/JPEG/WEBP/GIF, at most 20 MB. */
function checkImage(
  p: Record<string, unknown>,
  path: Path,
  sink: Sink,
  images: { count: number; bytes: number },
): void {
  images.count++;
  const url = isRecord(p.image_url) ? p.image_url.url : undefined;
  const at: Path = [...path, 'image_url', 'url'];
  if (typeof url !== 'string') return sink.add('C-I1', at, 'image_url part needs `image_url.url`');
  if (/^https?:\/\//i.test(url)) return;
  const d = parseDataUrl(url);
  if (!d) return sink.add('C-I1', at, 'image URL must be http(s) or a base64 data URL');
  if (!IMAGE_MIMES.has(d.mime)) sink.add('C-I1', at, `image type ${d.mime} is not PNG, JPEG, WEBP or GIF`);
  const bytes = base64Bytes(d.data);
  images.bytes += bytes;
  if (bytes > MAX_IMAGE_BYTES) sink.add('C-I1', at, 'image larger than 20 MB');
}

/** C-R2: content null/absent only with tool_calls; text and refusal parts only. C-T1, X2, X5 on calls. */
function checkAssistant(m: Record<string, unknown>, at: Path, sink: Sink): void {
  const calls = m.tool_calls;
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  if (calls !== undefined && calls !== null && !hasCalls)
    sink.add('C-SHAPE', [...at, 'tool_calls'], '`tool_calls` must be a non-empty array');
  const c = m.content;
  if (c === undefined || c === null) {
    if (!hasCalls && m.function_call === undefined)
      sink.add('C-R2', [...at, 'content'], 'assistant content is required unless tool_calls is specified');
  } else if (Array.isArray(c)) {
    if (c.length === 0 && !hasCalls) sink.add('X4', [...at, 'content'], 'assistant message has no content');
    c.forEach((p, k) => {
      const pat: Path = [...at, 'content', k];
      if (isRecord(p) && p.type === 'text') checkTextPart(p, pat, sink);
      else if (!(isRecord(p) && p.type === 'refusal' && typeof p.refusal === 'string'))
        sink.add('C-R2', pat, 'assistant content allows only text and refusal parts');
    });
  } else if (typeof c !== 'string') {
    sink.add('C-SHAPE', [...at, 'content'], 'content must be a string, an array of parts or null');
  }
  // A string content may be "": the OpenAI API accepts it (recorded cassettes), so X4 is not applied here.
  if (!hasCalls) return;
  const ids: string[] = [];
  (calls as unknown[]).forEach((tc, k) => {
    const cat: Path = [...at, 'tool_calls', k];
    if (!isRecord(tc)) return sink.add('C-SHAPE', cat, 'tool call must be an object');
    if (tc.type !== 'function' || !isRecord(tc.function))
      return sink.add('C-SHAPE', cat, 'tool call must be {type: "function", id, function: {name, arguments}}');
    if (!isNonEmptyString(tc.id)) sink.add('C-SHAPE', [...cat, 'id'], 'tool call needs an `id`');
    else if (tc.id.length > 40)
      sink.add('C-T1', [...cat, 'id'], `string too long: tool call id has ${tc.id.length} characters, maximum 40`);
    else checkPortableToolCallId(tc.id, [...cat, 'id'], sink);
    if (typeof tc.id === 'string') {
      if (ids.includes(tc.id)) sink.add('X1', [...cat, 'id'], `duplicate tool call id ${tc.id} in one message`);
      ids.push(tc.id);
    }
    checkName(tc.function.name, [...cat, 'function', 'name'], sink);
    if (typeof tc.function.arguments !== 'string')
      sink.add('C-SHAPE', [...cat, 'function', 'arguments'], '`arguments` must be a JSON string');
  });
}

/** C-T3, C-T4, X1: each tool_calls entry answered by one tool message in the run that follows. */
function checkToolPairing(messages: unknown[], sink: Sink): void {
  let open: OpenCalls | undefined;
  messages.forEach((m, i) => {
    if (!isRecord(m)) return;
    if (m.role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string') return; // C-T2 already reported
      if (!open || !open.calls.some((c) => c.id === id)) {
        sink.add(
          'C-T4',
          ['messages', i, 'tool_call_id'],
          "messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        );
      } else if (open.answered.has(id)) {
        sink.add('X1', ['messages', i, 'tool_call_id'], `tool call ${id} is answered more than once`);
      } else {
        open.answered.add(id);
      }
      return;
    }
    if (open) closeRun(open, sink);
    open = undefined;
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      const calls = m.tool_calls.flatMap((tc, k) =>
        isRecord(tc) && typeof tc.id === 'string' ? [{ id: tc.id, k }] : [],
      );
      open = { at: i, calls, answered: new Set() };
    }
  });
  if (open) closeRun(open, sink);
}

interface OpenCalls {
  at: number;
  calls: { id: string; k: number }[];
  answered: Set<string>;
}

function closeRun(open: OpenCalls, sink: Sink): void {
  for (const { id, k } of open.calls) {
    if (!open.answered.has(id)) {
      sink.add(
        'C-T3',
        ['messages', open.at, 'tool_calls', k, 'id'],
        `an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (${id})`,
      );
    }
  }
}
