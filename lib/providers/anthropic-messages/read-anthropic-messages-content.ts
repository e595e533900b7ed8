/**
 * Anthropic Messages content blocks → Baton blocks, shared by the history, response and stream
 * readers (`read-anthropic-messages*.ts`). Pure and synchronous.
 *
 * Source of the shapes: `@anthropic-ai/sdk` 1.14 `resources/messages/messages.ts` (ContentBlock,
 * ContentBlockParam) and the beta namespace (compaction, MCP blocks).
 */
import type { JsonPath } from '../../transcript/codec';
import type {
  Block,
  DocumentBlock,
  ImageBlock,
  Meta,
  Origin,
  StopReason,
  ToolResultContentBlock,
  Usage,
} from '../../transcript/schema';
import type { ReadContext } from '../types';

/** The API id used in `origin.api`, `native.api` and `provider_item.api`. */
export const ANTHROPIC_API = 'anthropic-messages' as const;

/** A-P2: the beta of the `compaction` request parameter, which returns signed compaction blocks. */
export const COMPACT_BETA = 'compact-2026-09-04';
/** A-P2: the beta of `context_management.edits` `compact_20260112` (compaction blocks without a signature). */
export const COMPACT_EDITS_BETA = 'compact-2026-01-12';

/**
 * A-P2: the beta a compaction block needs when it is sent back, by the feature that produced it:
 * a signed block (`signature` or `encrypted_content`) comes from the `compaction` parameter.
 */
export function compactionBetaOf(item: JsonObject): string {
  return item.signature != null || item.encrypted_content != null ? COMPACT_BETA : COMPACT_EDITS_BETA;
}

export { describe, fail, isObject, str, type JsonObject } from '../json-read';
import { describe, fail, isObject, str, type JsonObject } from '../json-read';
import { lookupTable } from '../../transcript/lookup';

/**
 * Normalises an Anthropic `stop_reason` to the transcript enum (transcript-v1.md, Turn). Raw
 * values are kept by the caller in `meta.rawStopReason`. `model_context_window_exceeded` is a
 * length limit (→ `max_tokens`); the beta `compaction` stop (pause_after_compaction) asks the
 * client to continue, like `pause_turn`.
 */
export function mapAnthropicStopReason(raw: string): StopReason {
  switch (raw) {
    case 'end_turn':
    case 'max_tokens':
    case 'stop_sequence':
    case 'tool_use':
    case 'pause_turn':
    case 'refusal':
      return raw;
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'compaction':
      return 'pause_turn';
    default:
      return 'other';
  }
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;

/**
 * Anthropic `usage` → Baton usage (tokens, as reported): `input_tokens` (uncached input),
 * `output_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`,
 * `output_tokens_details.thinking_tokens`. Undefined when nothing was reported.
 */
export function readAnthropicUsage(usage: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const out: Usage = {};
  const set = (key: keyof Usage, v: unknown) => {
    const n = count(v);
    if (n !== undefined) out[key] = n;
  };
  set('inputTokens', usage.input_tokens);
  set('outputTokens', usage.output_tokens);
  set('cacheReadTokens', usage.cache_read_input_tokens);
  set('cacheWriteTokens', usage.cache_creation_input_tokens);
  if (isObject(usage.output_tokens_details)) set('reasoningTokens', usage.output_tokens_details.thinking_tokens);
  return Object.keys(out).length ? out : undefined;
}

/** Builds `origin` from the read context and the reported model (transcript-v1.md, Origin). */
export function makeOrigin(ctx: ReadContext, model: string | undefined): Origin {
  const reported = model || ctx.requestedModel || 'unknown';
  const origin: Origin = { provider: ctx.provider, api: ANTHROPIC_API, model: reported };
  if (ctx.requestedModel && ctx.requestedModel !== reported) origin.requestedModel = ctx.requestedModel;
  if (ctx.endpoint) origin.endpoint = ctx.endpoint;
  return origin;
}

/** Adds `meta.cacheControl` when the native block carried `cache_control` (a request hint, kept). */
function withCacheControl<B extends Block>(block: B, native: JsonObject): B {
  if (native.cache_control != null) block.meta = { ...block.meta, cacheControl: native.cache_control };
  return block;
}

const IMAGE_EXT: Record<string, string> = lookupTable({
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
});

/** Anthropic `image` block (base64 or url source, A-I1) → Baton image. File sources cannot be kept. */
export function readImage(b: JsonObject, path: JsonPath): ImageBlock {
  const source = b.source;
  if (!isObject(source)) fail([...path, 'source'], 'required object missing');
  const kind = source.type;
  if (kind === 'base64') {
    return withCacheControl(
      {
        type: 'image',
        mediaType: str(source, 'media_type', [...path, 'source']),
        data: str(source, 'data', [...path, 'source']),
      },
      b,
    );
  }
  if (kind === 'url') {
    const url = str(source, 'url', [...path, 'source']);
    const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
    const mediaType = (ext && IMAGE_EXT[ext]) || undefined;
    const block: ImageBlock = { type: 'image', mediaType: mediaType ?? 'image/*', url };
    if (!mediaType) block.meta = { mediaTypeGuessed: true };
    return withCacheControl(block, b);
  }
  return fail(
    [...path, 'source', 'type'],
    `image source type ${describe(kind)} cannot be kept (expected "base64" or "url")`,
  );
}

/** UTF-8 text → base64 without relying on Node's Buffer. */
function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Anthropic `document` block (base64 PDF, URL PDF or plain text source) → Baton document. */
export function readDocument(b: JsonObject, path: JsonPath): DocumentBlock {
  const source = b.source;
  if (!isObject(source)) fail([...path, 'source'], 'required object missing');
  const sp = [...path, 'source'];
  let doc: DocumentBlock;
  if (source.type === 'base64')
    doc = { type: 'document', mediaType: str(source, 'media_type', sp), data: str(source, 'data', sp) };
  else if (source.type === 'url') doc = { type: 'document', mediaType: 'application/pdf', url: str(source, 'url', sp) };
  else if (source.type === 'text')
    doc = {
      type: 'document',
      mediaType: typeof source.media_type === 'string' ? source.media_type : 'text/plain',
      data: utf8ToBase64(str(source, 'data', sp)),
      meta: { sourceType: 'text' },
    };
  else
    return fail(
      [...sp, 'type'],
      `document source type ${describe(source.type)} cannot be kept (expected "base64", "url" or "text")`,
    );
  if (typeof b.title === 'string') doc.title = b.title;
  const extra: Meta = {};
  if (b.context != null) extra.context = b.context;
  if (b.citations != null) extra.citations = b.citations;
  if (Object.keys(extra).length) doc.meta = { ...doc.meta, ...extra };
  return withCacheControl(doc, b);
}

/** Anthropic `text` block → Baton text (citations kept opaque, A-C1). */
export function readText(b: JsonObject, path: JsonPath): Block {
  const block: Block = { type: 'text', text: str(b, 'text', path) };
  if (Array.isArray(b.citations) && b.citations.length > 0) block.citations = b.citations;
  return withCacheControl(block, b);
}

/** Content of an Anthropic `tool_result` (string, or text and image blocks, A-T7). */
export function readToolResultContent(content: unknown, path: JsonPath): string | ToolResultContentBlock[] {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return fail(path, `expected string or array, got ${describe(content)}`);
  return content.map((item, i): ToolResultContentBlock => {
    const p = [...path, i];
    if (!isObject(item)) fail(p, `expected object, got ${describe(item)}`);
    if (item.type === 'text') return readText(item, p) as ToolResultContentBlock;
    if (item.type === 'image') return readImage(item, p);
    return fail(
      [...p, 'type'],
      `tool_result content type ${describe(item.type)} cannot be kept (expected "text" or "image")`,
    );
  });
}

/** Block types of the assistant side that have no cross-provider meaning (kept as `provider_item`). */
const PROVIDER_ITEM_TYPES = new Set([
  'compaction',
  'container_upload',
  'fallback',
  'mcp_tool_listing',
  'server_tool_use',
  'mcp_tool_use',
  'mcp_tool_result',
]);

/** True for a native assistant block kept verbatim as a `provider_item` (server tools, MCP, compaction, …). */
export function isProviderItemType(type: string): boolean {
  return PROVIDER_ITEM_TYPES.has(type) || type.endsWith('_tool_result');
}

/** A readable rendering of a provider item for display and for other providers, when one makes sense. */
export function renderProviderItem(item: JsonObject): string | undefined {
  const type = item.type;
  if (type === 'compaction') return typeof item.content === 'string' ? item.content : undefined;
  if (type === 'server_tool_use' || type === 'mcp_tool_use') {
    const server = typeof item.server_name === 'string' ? `${item.server_name}/` : '';
    return `[${server}${String(item.name)}] ${JSON.stringify(item.input ?? {})}`;
  }
  const content = item.content;
  if (type === 'web_search_tool_result' && Array.isArray(content))
    return content
      .filter(isObject)
      .map((r) => `${String(r.title ?? '')} ${String(r.url ?? '')}`.trim())
      .join('\n');
  if (type === 'mcp_tool_result') {
    if (typeof content === 'string') return content;
    if (Array.isArray(content))
      return content
        .filter(isObject)
        .map((c) => (typeof c.text === 'string' ? c.text : ''))
        .join('');
  }
  if (isObject(content) && typeof content.stdout === 'string') {
    const err = typeof content.stderr === 'string' && content.stderr ? `\n${content.stderr}` : '';
    return content.stdout + err;
  }
  return undefined;
}

/**
 * One native assistant content block → one Baton block: text, thinking (signature kept exactly,
 * A-K1), redacted_thinking (data kept, A-K1), tool_use → tool_call (id kept, `caller` in meta),
 * image, and the server-side blocks → `provider_item` (transcript-v1.md, Blocks).
 * With `unknownAsItem` (responses and streams: a newer API may add block types) any other typed
 * object is kept as a `provider_item` too; without it (histories) an unknown type is an error.
 * @throws TranscriptError for a block that is malformed or of a type that cannot be kept.
 */
export function readAssistantBlock(b: unknown, path: JsonPath, unknownAsItem = false): Block {
  if (!isObject(b)) return fail(path, `expected object, got ${describe(b)}`);
  const type = b.type;
  switch (type) {
    case 'text':
      return readText(b, path);
    case 'thinking': {
      const block: Block = { type: 'thinking', text: str(b, 'thinking', path) };
      if (typeof b.signature === 'string' && b.signature !== '') block.signature = b.signature;
      return withCacheControl(block, b);
    }
    case 'redacted_thinking':
      return withCacheControl({ type: 'redacted_thinking', data: str(b, 'data', path) }, b);
    case 'tool_use': {
      const id = str(b, 'id', path);
      const name = str(b, 'name', path);
      if (!id) fail([...path, 'id'], 'must not be empty');
      if (!name) fail([...path, 'name'], 'must not be empty');
      const block: Block = { type: 'tool_call', id, name, input: b.input === undefined ? {} : b.input };
      if (b.caller != null) block.meta = { caller: b.caller };
      return withCacheControl(block, b);
    }
    case 'image':
      return readImage(b, path);
    default: {
      if (typeof type !== 'string') return fail([...path, 'type'], `expected string, got ${describe(type)}`);
      if (!unknownAsItem && !isProviderItemType(type))
        return fail([...path, 'type'], `unknown content block type ${describe(type)}`);
      const block: Block = { type: 'provider_item', api: ANTHROPIC_API, item: b };
      const text = renderProviderItem(b);
      if (text !== undefined) block.text = text;
      // A-P2: the beta header a replay of this block needs is stored with it.
      if (type === 'compaction') block.meta = { anthropicBeta: compactionBetaOf(b) };
      return block;
    }
  }
}
