/**
 * Per-block checks of the Anthropic Messages contract (provider-rules.md §1), used by
 * `anthropic-messages.ts`. Each check names its rule id.
 */
import {
  checkPortableToolCallId,
  checkPortableToolName,
  isBase64,
  isBlank,
  isNonEmptyString,
  isRecord,
  type Path,
  type Sink,
} from './common';

/** A-T1: the tool_use id pattern. */
export const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;
/** A-T8: the tool-name pattern the API enforces today (docs: 64; API: 128). */
export const ANTHROPIC_TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
/** A-I1: base64 image media types. */
const IMAGE_MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
/** A-K5: sentinels that other providers accept as signatures; Claude rejects them. */
export const FOREIGN_SIGNATURE_SENTINELS = new Set([
  'skip_thought_signature_validator',
  'context_engineering_is_the_way_to_go',
]);

/** Server-tool result blocks that live in assistant messages next to their `server_tool_use`. */
const SERVER_TOOL_RESULTS = new Set([
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
]);
const USER_ONLY = new Set(['tool_result']);
const ASSISTANT_ONLY = new Set([
  'thinking',
  'redacted_thinking',
  'tool_use',
  'server_tool_use',
  'compaction',
  ...SERVER_TOOL_RESULTS,
]);
/** `ContentBlockParam` members of the SDK (A-R1 message content union). */
const KNOWN_BLOCKS = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'container_upload',
  ...USER_ONLY,
  ...ASSISTANT_ONLY,
]);
/** A-T7: what a tool_result's content array may hold. */
const TOOL_RESULT_CONTENT = new Set(['text', 'image', 'document', 'search_result', 'tool_reference', 'browser_state']);

/** Facts gathered while walking blocks, used by the request-level checks. */
export interface BlockStats {
  images: number;
  documents: number;
  /** `[path, document_index]` of every document-based citation (A-C1). */
  citationRefs: [Path, number][];
  /** `[path, id]` of every tool_use / server_tool_use id (A-T1 uniqueness). */
  toolUseIds: [Path, string][];
}

/** A-E1: a text block's text must be a non-empty, non-whitespace string. */
function checkText(block: Record<string, unknown>, path: Path, sink: Sink, stats: BlockStats): void {
  if (typeof block.text !== 'string') {
    sink.add('A-SHAPE', [...path, 'text'], 'text block needs a string `text`');
    return;
  }
  if (block.text.length === 0) sink.add('A-E1', [...path, 'text'], 'text content blocks must be non-empty');
  else if (isBlank(block.text))
    sink.add('A-E1', [...path, 'text'], 'text content blocks must contain non-whitespace text');
  if (block.citations !== undefined && block.citations !== null) {
    if (!Array.isArray(block.citations)) {
      sink.add('A-SHAPE', [...path, 'citations'], '`citations` must be an array');
      return;
    }
    block.citations.forEach((c, k) => {
      // A-C1: document-based locations point into the documents of this request.
      if (isRecord(c) && typeof c.document_index === 'number')
        stats.citationRefs.push([[...path, 'citations', k, 'document_index'], c.document_index]);
    });
  }
}

/** A-I1: image sources are base64 (jpeg/png/gif/webp, raw base64), url or file. */
function checkImage(block: Record<string, unknown>, path: Path, sink: Sink, stats: BlockStats): void {
  stats.images++;
  const src = block.source;
  const at = [...path, 'source'];
  if (!isRecord(src)) {
    sink.add('A-I1', at, 'image block needs a `source` object');
    return;
  }
  if (src.type === 'base64') {
    if (typeof src.media_type !== 'string' || !IMAGE_MEDIA_TYPES.has(src.media_type)) {
      sink.add('A-I1', [...at, 'media_type'], `media_type must be one of ${[...IMAGE_MEDIA_TYPES].join(', ')}`);
    }
    if (typeof src.data !== 'string' || src.data.length === 0)
      sink.add('A-I1', [...at, 'data'], 'base64 source needs non-empty `data`');
    else if (src.data.startsWith('data:') || !isBase64(src.data))
      sink.add('A-I1', [...at, 'data'], '`data` must be raw base64 (no data: URL prefix)');
  } else if (src.type === 'url') {
    if (!isNonEmptyString(src.url)) sink.add('A-I1', [...at, 'url'], 'url source needs a `url`');
  } else if (src.type === 'file') {
    if (!isNonEmptyString(src.file_id)) sink.add('A-I1', [...at, 'file_id'], 'file source needs a `file_id`');
  } else {
    sink.add('A-I1', [...at, 'type'], 'image source type must be base64, url or file');
  }
}

function checkDocument(block: Record<string, unknown>, path: Path, sink: Sink, stats: BlockStats): void {
  stats.documents++;
  if (!isRecord(block.source) || typeof block.source.type !== 'string')
    sink.add('A-SHAPE', [...path, 'source'], 'document block needs a `source` object with a `type`');
}

/** A-T7: tool_result has a string id, optional boolean is_error, content string or allowed blocks. */
function checkToolResult(block: Record<string, unknown>, path: Path, sink: Sink, stats: BlockStats): void {
  if (typeof block.tool_use_id !== 'string')
    sink.add('A-T4', [...path, 'tool_use_id'], 'tool_result needs a string `tool_use_id`');
  else if (!ANTHROPIC_TOOL_ID.test(block.tool_use_id))
    sink.add('A-T1', [...path, 'tool_use_id'], 'tool_use_id must match ^[a-zA-Z0-9_-]+$');
  else checkPortableToolCallId(block.tool_use_id, [...path, 'tool_use_id'], sink);
  if (block.is_error !== undefined && typeof block.is_error !== 'boolean')
    sink.add('A-T7', [...path, 'is_error'], '`is_error` must be a boolean');
  const c = block.content;
  if (c === undefined) return;
  if (typeof c === 'string') {
    // X4: a string result becomes a text block; an empty one is an empty text block.
    if (isBlank(c))
      sink.add(
        'X4',
        [...path, 'content'],
        'tool_result content is empty or whitespace-only; omit it or say so in words',
      );
    return;
  }
  if (!Array.isArray(c)) {
    sink.add('A-T7', [...path, 'content'], 'tool_result content must be a string or an array of blocks');
    return;
  }
  c.forEach((inner, k) => {
    const at = [...path, 'content', k];
    if (!isRecord(inner) || typeof inner.type !== 'string' || !TOOL_RESULT_CONTENT.has(inner.type)) {
      sink.add('A-T7', at, 'tool_result content blocks are text, image, document or search_result');
      return;
    }
    if (inner.type === 'text') checkText(inner, at, sink, stats);
    else if (inner.type === 'image') checkImage(inner, at, sink, stats);
    else if (inner.type === 'document') checkDocument(inner, at, sink, stats);
  });
}

/**
 * A-K1, A-E2, A-K5: a replayed thinking block keeps its text and its own Claude signature.
 * An empty `thinking` with a signature is legitimate (thinking `display: "omitted"` returns the
 * text redacted with a signature "for multi-turn continuity", SDK ThinkingConfig doc); A-E2's
 * remedy is to drop empty *unsigned* blocks, so only those are flagged as A-E2.
 */
function checkThinking(block: Record<string, unknown>, path: Path, sink: Sink): void {
  const signed = isNonEmptyString(block.signature);
  if (typeof block.thinking !== 'string')
    sink.add('A-SHAPE', [...path, 'thinking'], 'thinking block needs a string `thinking`');
  else if (block.thinking.length === 0 && !signed) {
    sink.add(
      'A-E2',
      [...path, 'thinking'],
      'each thinking block must contain thinking (drop empty unsigned thinking blocks)',
    );
    return;
  }
  if (!signed) sink.add('A-K1', [...path, 'signature'], 'thinking block needs the `signature` exactly as returned');
  else if (FOREIGN_SIGNATURE_SENTINELS.has(block.signature as string))
    sink.add('A-K5', [...path, 'signature'], 'a Gemini sentinel is not a Claude signature');
}

/** A-T1, A-T8, A-T9, X2, X5: a replayed client tool call. */
function checkToolUse(block: Record<string, unknown>, path: Path, sink: Sink, stats: BlockStats): void {
  const server = block.type === 'server_tool_use';
  if (typeof block.id !== 'string' || !ANTHROPIC_TOOL_ID.test(block.id)) {
    sink.add('A-T1', [...path, 'id'], 'tool_use id must match ^[a-zA-Z0-9_-]+$');
  } else {
    stats.toolUseIds.push([[...path, 'id'], block.id]);
    if (!server) checkPortableToolCallId(block.id, [...path, 'id'], sink);
  }
  if (typeof block.name !== 'string' || !ANTHROPIC_TOOL_NAME.test(block.name)) {
    sink.add('A-T8', [...path, 'name'], 'tool name must match ^[a-zA-Z0-9_-]{1,128}$');
  } else if (!server) {
    checkPortableToolName(block.name, [...path, 'name'], sink);
  }
  // A-T9: a call whose JSON was cut off is not an object and is not replayable.
  if (!isRecord(block.input))
    sink.add('A-T9', [...path, 'input'], 'tool_use input must be a JSON object (drop unfinished calls)');
}

/**
 * Checks one content block of `messages[i]` (role `role`). Role placement problems use A-R1
 * (tool results are user content; thinking and tool calls are assistant content).
 */
export function checkBlock(block: unknown, role: string, path: Path, sink: Sink, stats: BlockStats): void {
  if (!isRecord(block) || typeof block.type !== 'string') {
    sink.add('A-SHAPE', path, 'content block must be an object with a string `type`');
    return;
  }
  const t = block.type;
  if (!KNOWN_BLOCKS.has(t)) {
    sink.add('A-SHAPE', [...path, 'type'], `unknown content block type ${JSON.stringify(t)}`);
    return;
  }
  if (role === 'user' && ASSISTANT_ONLY.has(t)) sink.add('A-R1', path, `${t} blocks belong in assistant messages`);
  if (role === 'assistant' && USER_ONLY.has(t)) sink.add('A-R1', path, 'tool_result blocks belong in user messages');
  switch (t) {
    case 'text':
      return checkText(block, path, sink, stats);
    case 'image':
      return checkImage(block, path, sink, stats);
    case 'document':
      return checkDocument(block, path, sink, stats);
    case 'thinking':
      return checkThinking(block, path, sink);
    case 'redacted_thinking':
      // A-K1: redacted_thinking.data is opaque and replayed unchanged.
      if (!isNonEmptyString(block.data))
        sink.add('A-K1', [...path, 'data'], 'redacted_thinking needs its opaque `data`');
      return;
    case 'tool_use':
    case 'server_tool_use':
      return checkToolUse(block, path, sink, stats);
    case 'tool_result':
      return checkToolResult(block, path, sink, stats);
    default:
      if (SERVER_TOOL_RESULTS.has(t) && typeof block.tool_use_id !== 'string') {
        sink.add('A-SHAPE', [...path, 'tool_use_id'], `${t} needs a string \`tool_use_id\``);
      }
  }
}

/** True for the server-tool result block types (`web_search_tool_result`, …). */
export function isServerToolResult(type: unknown): boolean {
  return typeof type === 'string' && SERVER_TOOL_RESULTS.has(type);
}
