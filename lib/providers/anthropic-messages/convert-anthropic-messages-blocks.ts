/**
 * Prepared Baton blocks → Anthropic Messages content blocks (provider-rules.md §1), one small
 * helper per block type. Used by `convert-to-anthropic-messages.ts` after the shared pre-pass,
 * which has already removed foreign opaque state (X3), empty text (X4), unsupported media and
 * orphans (X1); what is left to decide here is Anthropic's own shape.
 */
import type {
  Base64ImageSource,
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  TextCitationParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { PreparedBlock } from '../../transcript/prepare';
import { decodeBase64Utf8 } from '../../transcript/prepare-blocks';
import type { BlockRef, ReportBuilder } from '../../transcript/report';
import type {
  DocumentBlock,
  ImageBlock,
  ProviderItemBlock,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
} from '../../transcript/schema';
import { fenced, isBlank } from '../../transcript/text';
import { assistantBlockProblem, SERVER_TOOL_RESULT_TYPES } from './convert-anthropic-messages-native';
import type { AnthropicContentBlock, AnthropicVerbatimBlock } from './convert-anthropic-messages-types';
import { ANTHROPIC_API, isObject } from './read-anthropic-messages-content';

/** What a tool result with no content says instead (X4, A-E1: no empty text, even as a string result). */
export const EMPTY_RESULT_TEXT = '(empty result)';

/** What the block encoders need besides the block itself. */
export interface EncodeContext {
  report: ReportBuilder;
  /** The role of the message the blocks go into (A-R1: some blocks belong in one role only). */
  role: 'user' | 'assistant';
}

/**
 * One prepared block → the content block that stands for it, or undefined when it is dropped
 * (every drop or change is reported against the input block). Exhaustive over the block types.
 * A block never becomes more than one, so no array is made per block: this runs for every block
 * of every cold conversion.
 */
export function encodeBlock(pb: PreparedBlock, ctx: EncodeContext): AnthropicContentBlock | undefined {
  const b = pb.block;
  switch (b.type) {
    case 'text':
      return encodeText(b, pb, ctx);
    case 'thinking':
      return encodeThinking(b, pb, ctx);
    case 'redacted_thinking':
      return encodeRedactedThinking(b, pb, ctx);
    case 'tool_call':
      return encodeToolUse(b, pb, ctx);
    case 'tool_result':
      return encodeToolResult(b, pb.ref, ctx);
    case 'image':
      return encodeImage(b);
    case 'document':
      return encodeDocument(b, pb.ref, ctx);
    case 'provider_item':
      return encodeProviderItem(b, pb, ctx);
    default: {
      const never: never = b;
      throw new Error(`unhandled block type ${(never as { type: string }).type}`);
    }
  }
}

/**
 * `text` → `{type: 'text', text, citations?}`. Citations replay only on same-origin assistant text
 * (A-C1; the pre-pass strips them elsewhere). Anthropic text has no signature: a same-origin one
 * (never produced by this API) is dropped, and an empty signed text block goes (A-E1).
 */
export function encodeText(b: TextBlock, pb: PreparedBlock, ctx: EncodeContext): TextBlockParam | undefined {
  if (isBlank(b.text)) {
    ctx.report.add(pb.ref, 'dropped', 'empty or whitespace-only text (X4, A-E1)');
    return undefined;
  }
  if (b.signature !== undefined)
    ctx.report.add(pb.ref, 'converted', 'signature dropped: Anthropic text blocks carry none');
  const out: TextBlockParam = { type: 'text', text: b.text };
  if (pb.sameOrigin && b.citations !== undefined && b.citations.length > 0)
    out.citations = b.citations as TextCitationParam[];
  return out;
}

/**
 * `thinking` → `{type: 'thinking', thinking, signature}`, unchanged (A-K1). Thinking without a
 * signature is never sent as thinking (A-K6, A-E2): the pre-pass turns foreign reasoning into
 * text or drops it; same-origin thinking that lost its signature (an interrupted stream) is dropped.
 */
export function encodeThinking(
  b: ThinkingBlock,
  pb: PreparedBlock,
  ctx: EncodeContext,
): AnthropicContentBlock | undefined {
  if (!pb.sameOrigin || b.signature === undefined || b.signature === '') {
    ctx.report.add(pb.ref, 'dropped', 'thinking without a signature cannot be replayed as thinking (A-K1, A-K6, A-E2)');
    return undefined;
  }
  return { type: 'thinking', thinking: b.text, signature: b.signature };
}

/**
 * `redacted_thinking` → `{type: 'redacted_thinking', data}`, opaque and unchanged (A-K1); same
 * origin only (X3). Empty `data` is no data: there is nothing to replay, so the block is dropped.
 */
export function encodeRedactedThinking(
  b: RedactedThinkingBlock,
  pb: PreparedBlock,
  ctx: EncodeContext,
): AnthropicContentBlock | undefined {
  if (!pb.sameOrigin) {
    ctx.report.add(pb.ref, 'dropped', 'redacted thinking is opaque state of another origin (X3)');
    return undefined;
  }
  if (b.data === '') {
    ctx.report.add(pb.ref, 'dropped', 'redacted thinking with empty data has nothing to replay (A-K1)');
    return undefined;
  }
  return { type: 'redacted_thinking', data: b.data };
}

/**
 * `tool_call` → `{type: 'tool_use', id, name, input}` with the id and name the pre-pass mapped
 * (X2, X5). `input` must be a JSON object (A-T9): any other value is wrapped as `{value: …}` and
 * reported. A same-origin call keeps its `caller` (programmatic tool calling; the reader keeps it
 * in `meta.caller`). A signature on the call has no place in `tool_use`: dropped, reported.
 */
export function encodeToolUse(b: ToolCallBlock, pb: PreparedBlock, ctx: EncodeContext): AnthropicContentBlock {
  let input = b.input;
  if (!isObject(input)) {
    ctx.report.add(pb.ref, 'converted', 'tool call input is not a JSON object: sent wrapped as {"value": …} (A-T9)');
    input = { value: input };
  }
  const out: AnthropicVerbatimBlock = { type: 'tool_use', id: b.id, name: b.name, input };
  if (pb.sameOrigin && isObject(b.meta?.caller)) out.caller = b.meta.caller;
  // docs/security.md: tool_use has no signature field; the report says so instead of "sent as is".
  if (b.signature !== undefined)
    ctx.report.add(pb.ref, 'converted', 'signature dropped: Anthropic tool_use blocks carry none');
  return out;
}

/**
 * `tool_result` → `{type: 'tool_result', tool_use_id, content, is_error?}` (A-T7). The content is
 * the string, or text and image blocks (images are allowed inside results, A-T7/X7). Blank text
 * parts are left out (A-E1); a result left with nothing says {@link EMPTY_RESULT_TEXT}.
 * Citations and signatures inside a result have no origin to replay to and are dropped.
 */
export function encodeToolResult(
  b: ToolResultBlock,
  ref: BlockRef | undefined,
  ctx: EncodeContext,
): ToolResultBlockParam {
  const out: ToolResultBlockParam = { type: 'tool_result', tool_use_id: b.callId };
  if (typeof b.content === 'string') {
    if (!isBlank(b.content)) out.content = b.content;
  } else {
    const parts: Exclude<ToolResultBlockParam['content'], string | undefined> = [];
    for (const c of b.content) {
      if (c.type === 'image') parts.push(encodeImage(c));
      else if (isBlank(c.text))
        ctx.report.add(ref, 'converted', 'empty text part left out of the tool result (X4, A-E1)');
      else {
        if (c.citations !== undefined || c.signature !== undefined)
          ctx.report.add(ref, 'converted', 'citations or signature inside a tool result dropped (X3)');
        parts.push({ type: 'text', text: c.text });
      }
    }
    if (parts.length > 0) out.content = parts;
  }
  if (out.content === undefined) {
    out.content = EMPTY_RESULT_TEXT;
    ctx.report.add(ref, 'converted', `empty tool result sent as "${EMPTY_RESULT_TEXT}" (X4, A-E1)`);
  }
  if (b.isError === true) out.is_error = true;
  return out;
}

/** `image` → base64 or url source (A-I1; the pre-pass has checked the media type and URL support). */
export function encodeImage(b: ImageBlock): ImageBlockParam {
  if (b.url !== undefined) return { type: 'image', source: { type: 'url', url: b.url } };
  return {
    type: 'image',
    source: { type: 'base64', media_type: b.mediaType as Base64ImageSource['media_type'], data: b.data ?? '' },
  };
}

/**
 * `document` → `{type: 'document', source, title?}`: a PDF as a base64 or url source, plain text
 * as a `text` source (the API takes `text/plain` only; a text document by URL, or one whose data
 * is not UTF-8, becomes a short labelled text block and is reported).
 * Source: SDK `DocumentBlockParam` (`Base64PDFSource`, `URLPDFSource`, `PlainTextSource`).
 */
export function encodeDocument(b: DocumentBlock, ref: BlockRef | undefined, ctx: EncodeContext): AnthropicContentBlock {
  const withTitle = (d: DocumentBlockParam): DocumentBlockParam =>
    b.title !== undefined && b.title !== '' ? { ...d, title: b.title } : d;
  if (b.mediaType === 'application/pdf') {
    if (b.url !== undefined) return withTitle({ type: 'document', source: { type: 'url', url: b.url } });
    return withTitle({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: b.data ?? '' },
    });
  }
  const text = b.data !== undefined ? decodeBase64Utf8(b.data) : undefined;
  if (text !== undefined && !isBlank(text))
    return withTitle({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } });
  const title = b.title ? `"${b.title}" ` : '';
  const why =
    b.url !== undefined
      ? `at ${b.url} (the API fetches only PDFs by URL)`
      : 'omitted: its data is empty or not UTF-8 text';
  ctx.report.add(ref, 'converted', `${b.mediaType} document replaced by a placeholder: ${why}`);
  return { type: 'text', text: `[document ${title}(${b.mediaType}) ${why}]` };
}

/**
 * `provider_item` of this API from the same origin → the item verbatim, in place (server tool
 * use and results, MCP blocks, compaction…; transcript-v1.md), when it is a well-formed block of a
 * type an assistant message takes ({@link assistantBlockProblem}; A-R1). Not replayed: a client
 * `tool_use` (it pairs with a result only as a `tool_call` block, A-T3), and any item in a user
 * message (a tool turn's item) but a server tool result, which the converter then moves behind its
 * call in the assistant message (`moveServerToolResults`, A-R1, A-T2). Such an item is sent as its `text`, fenced and labelled, or
 * dropped when it has none; either way reported. The pre-pass has already converted foreign items.
 */
export function encodeProviderItem(
  b: ProviderItemBlock,
  pb: PreparedBlock,
  ctx: EncodeContext,
): AnthropicContentBlock | undefined {
  if (!pb.sameOrigin || b.api !== ANTHROPIC_API) {
    ctx.report.add(pb.ref, 'dropped', `a ${b.api} item replays only to its own origin (X3)`);
    return undefined;
  }
  const problem = providerItemProblem(b.item, ctx.role);
  if (problem === undefined) return b.item as AnthropicVerbatimBlock;
  const type = isObject(b.item) && typeof b.item.type === 'string' ? `${b.item.type} ` : '';
  if (b.text !== undefined && !isBlank(b.text)) {
    ctx.report.add(pb.ref, 'converted', `item not replayed (${problem}): its text was sent instead`);
    return { type: 'text', text: fenced(`[${ANTHROPIC_API} ${type}item, as text]`, b.text) };
  }
  ctx.report.add(pb.ref, 'dropped', `item not replayed (${problem}) and has no text`);
  return undefined;
}

/** Why a same-origin item cannot be replayed in a message of `role`, or undefined when it can. */
function providerItemProblem(item: unknown, role: EncodeContext['role']): string | undefined {
  const problem = assistantBlockProblem(item);
  if (problem !== undefined) return problem;
  const type = (item as { type: string }).type;
  if (type === 'tool_use') return 'a client tool_use pairs with its result only as a tool_call block (A-T3)';
  // A tool turn's server tool result goes back behind its call (`moveServerToolResults`, A-T2).
  if (role === 'user' && !SERVER_TOOL_RESULT_TYPES.has(type)) return `${type} belongs in an assistant message (A-R1)`;
  return undefined;
}
