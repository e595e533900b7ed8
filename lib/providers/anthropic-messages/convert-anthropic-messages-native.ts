/**
 * Checks for Anthropic content replayed verbatim to its own origin (a turn's `native` payload, or
 * a same-origin `provider_item`): every block must be a well-formed content block of a type the
 * API takes in an assistant message, and a turn's payload must stand for exactly the turn's
 * blocks, so that nothing the report calls `replayed-native` is missing from the body and no
 * `tool_use` appears without the `tool_result` the pre-pass paired with its call (A-T3, A-T4).
 * Pure; provider-rules.md §1 (A-R1, A-E1, A-K1, A-T1, A-T8, A-T9).
 */
import type { PreparedTurn } from '../../transcript/prepare';
import type { ReportBuilder } from '../../transcript/report';
import type { Block } from '../../transcript/schema';
import { isBlank } from '../../transcript/text';
import type { AnthropicContentBlock, DraftBlock, DraftMessage } from './convert-anthropic-messages-types';
import { isObject, type JsonObject } from './read-anthropic-messages-content';

/** A-T1: the tool_use id pattern (server and MCP tool ids too). */
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
/** A-T8: the tool-name pattern the API enforces (docs 64, API 128). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * Server-side tool results, which live in the assistant message right after their
 * `server_tool_use` / `mcp_tool_use` (SDK `ContentBlockParam`, beta `BetaContentBlockParam`).
 */
export const SERVER_TOOL_RESULT_TYPES: ReadonlySet<string> = new Set([
  'web_search_tool_result',
  'web_fetch_tool_result',
  'advisor_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_result',
]);

/**
 * Block types an assistant message may hold (SDK `ContentBlockParam` and the beta
 * `BetaContentBlockParam` members the API returns as output). Left out: `tool_result` (user
 * content, A-R1), `image`/`document`/`search_result` (kept out of assistant turns, A-I2), and the
 * beta `tool_addition`/`tool_removal`, which only appear inside `compaction.tool_changes`.
 */
export const ASSISTANT_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'server_tool_use',
  'mcp_tool_use',
  ...SERVER_TOOL_RESULT_TYPES,
  'container_upload',
  'compaction',
  'mcp_tool_listing',
  'fallback',
]);

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * Why `block` cannot be replayed in an assistant message, or undefined when it is a well-formed
 * block of a type in {@link ASSISTANT_BLOCK_TYPES}: text with non-blank string `text` (A-E1),
 * thinking with string `thinking` and a non-empty `signature` (A-K1), redacted_thinking with
 * non-empty `data` (A-K1), tool calls (client, server, MCP) with an id of A-T1's pattern, a string
 * name (A-T8 for client tools) and an object `input` (A-T9), server tool results with a
 * `tool_use_id` of that pattern.
 */
export function assistantBlockProblem(block: unknown): string | undefined {
  if (!isObject(block) || typeof block.type !== 'string') return 'not an object with a string type';
  const b = block;
  const type = b.type as string;
  if (!ASSISTANT_BLOCK_TYPES.has(type))
    return `${JSON.stringify(type)} is not a content block type of an assistant message (A-R1)`;
  switch (type) {
    case 'text':
      if (typeof b.text !== 'string' || isBlank(b.text)) return 'text block without non-blank string text (A-E1)';
      if (b.citations !== undefined && b.citations !== null && !Array.isArray(b.citations))
        return 'text citations are not an array (A-C1)';
      return undefined;
    case 'thinking':
      if (typeof b.thinking !== 'string') return 'thinking block without string thinking';
      return nonEmpty(b.signature) ? undefined : 'thinking block without its signature (A-K1)';
    case 'redacted_thinking':
      return nonEmpty(b.data) ? undefined : 'redacted_thinking block with empty data (A-K1)';
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use':
      return toolUseProblem(b);
    case 'container_upload':
      return nonEmpty(b.file_id) ? undefined : 'container_upload without a file_id';
    default:
      if (SERVER_TOOL_RESULT_TYPES.has(type) && !(typeof b.tool_use_id === 'string' && TOOL_ID.test(b.tool_use_id)))
        return `${type} without a valid tool_use_id (A-T1)`;
      return undefined;
  }
}

function toolUseProblem(b: JsonObject): string | undefined {
  if (typeof b.id !== 'string' || !TOOL_ID.test(b.id))
    return `${String(b.type)} id does not match ^[a-zA-Z0-9_-]+$ (A-T1)`;
  if (!nonEmpty(b.name) || (b.type === 'tool_use' && !TOOL_NAME.test(b.name)))
    return `${String(b.type)} without a valid name (A-T8)`;
  if (!isObject(b.input)) return `${String(b.type)} input is not a JSON object (A-T9)`;
  if (b.type === 'mcp_tool_use' && !nonEmpty(b.server_name)) return 'mcp_tool_use without a server_name';
  return undefined;
}

/** True when the payload element `el` is the content block that input block `block` was read from. */
function standsFor(block: Block, el: JsonObject): boolean {
  switch (block.type) {
    case 'text':
      return el.type === 'text' && el.text === block.text;
    case 'thinking':
      return el.type === 'thinking' && el.thinking === block.text && el.signature === block.signature;
    case 'redacted_thinking':
      return el.type === 'redacted_thinking' && el.data === block.data;
    case 'tool_call':
      return el.type === 'tool_use' && el.id === block.id && el.name === block.name;
    case 'provider_item': {
      const item = block.item;
      return isObject(item) && el.type === item.type && el.id === item.id && el.tool_use_id === item.tool_use_id;
    }
    default:
      return false;
  }
}

/** Why a turn's payload cannot be replayed for it, or undefined when it can. */
function payloadProblem(turn: PreparedTurn, content: readonly unknown[]): string | undefined {
  const source = turn.sources[0]!;
  if (content.length === 0) return 'the payload is empty';
  for (let i = 0; i < content.length; i++) {
    const problem = assistantBlockProblem(content[i]);
    if (problem) return `content[${i}]: ${problem}`;
  }
  // Every tool_use must be one of this turn's calls, as mapped for this request, each exactly once:
  // the pre-pass paired those, and only those, with results (A-T3, A-T4, X1, X2).
  const payloadIds = content
    .flatMap((b) => ((b as JsonObject).type === 'tool_use' ? [String((b as JsonObject).id)] : []))
    .sort();
  const callIds = turn.blocks.flatMap((pb) => (pb.block.type === 'tool_call' ? [pb.block.id] : [])).sort();
  if (payloadIds.join('\u0000') !== callIds.join('\u0000'))
    return `its tool_use ids [${payloadIds.join(', ')}] are not the turn's tool calls [${callIds.join(', ')}]`;
  // One block per input block, in order: the report may then say each was replayed.
  if (content.length !== source.blocks.length)
    return `it has ${content.length} content blocks for ${source.blocks.length} input blocks`;
  const at = source.blocks.findIndex((b, i) => !standsFor(b, content[i] as JsonObject));
  return at >= 0 ? `content[${at}] does not match block ${at} (${source.blocks[at]!.type})` : undefined;
}

/**
 * Same-origin replay (A-K1, X3): the turn's own content array (or string), verbatim, each block
 * tied to the input block it stands for and reported `replayed-native`. The pre-pass sets
 * `native` only when no block of the turn was changed, ids and names included. Undefined, with a
 * warning (the caller then rebuilds the turn from its blocks), when the payload is not an
 * Anthropic content array, holds a malformed or unknown block ({@link assistantBlockProblem}), has
 * other `tool_use` ids than the turn's calls, or does not match the turn's blocks one to one.
 */
export function replayNative(turn: PreparedTurn, report: ReportBuilder): DraftBlock[] | undefined {
  const source = turn.sources[0];
  if (!source || turn.sources.length !== 1) return undefined;
  const payload = turn.native?.payload;
  const content: unknown[] | undefined =
    typeof payload === 'string' ? [{ type: 'text', text: payload }] : Array.isArray(payload) ? payload : undefined;
  if (!content) {
    report.warn(`turn ${source.id}: its native payload is not an Anthropic content array; rebuilt from its blocks`);
    return undefined;
  }
  const problem = payloadProblem(turn, content);
  if (problem) {
    report.warn(`turn ${source.id}: its native content was not replayed (${problem}); rebuilt from its blocks`);
    return undefined;
  }
  source.blocks.forEach((_, index) =>
    report.add({ turn: source.id, index }, 'replayed-native', 'same-origin content replayed verbatim (A-K1)'),
  );
  return content.map((block, index) => ({ block: block as AnthropicContentBlock, ref: { turn: source.id, index } }));
}

/** The number of document blocks in the request, tool results included (A-C1: what `document_index` counts). */
export function countDocuments(messages: readonly DraftMessage[]): number {
  let n = 0;
  // Indexed loops: this runs once per conversion, often before the optimising compiler has seen
  // it, where `for…of` would allocate an iterator per message.
  for (let i = 0; i < messages.length; i++) {
    const blocks = messages[i]!.blocks;
    for (let k = 0; k < blocks.length; k++) {
      const block = blocks[k]!.block;
      if (block.type === 'document') n++;
      const inner = (block as { content?: unknown }).content;
      if (block.type === 'tool_result' && Array.isArray(inner))
        n += inner.filter((c) => isObject(c) && c.type === 'document').length;
    }
  }
  return n;
}

/**
 * A-C1: document-based citations (`char_location`, `page_location`, `content_block_location`)
 * point by `document_index` into the documents of this request. Same-origin text replays its
 * citations, but the documents they point at may not be in this request any more: such citations
 * are left out (the text stays), and reported. `documents`: the request's document count, when
 * `messages` is only part of it (docs/architecture.md#incremental-conversion).
 */
export function dropDanglingCitations(
  messages: DraftMessage[],
  report: ReportBuilder,
  documents = countDocuments(messages),
): DraftMessage[] {
  const dangling = (c: unknown): boolean =>
    isObject(c) &&
    c.document_index !== undefined &&
    !(
      Number.isInteger(c.document_index) &&
      (c.document_index as number) >= 0 &&
      (c.document_index as number) < documents
    );
  return messages.map((m) => {
    if (!citesWhere(m.blocks, dangling)) return m;
    const blocks = m.blocks.map((d) => {
      const citations = d.block.type === 'text' ? (d.block as { citations?: unknown }).citations : undefined;
      if (!Array.isArray(citations) || !citations.some(dangling)) return d;
      const kept = citations.filter((c) => !dangling(c));
      const { citations: _dropped, ...rest } = d.block as JsonObject;
      report.add(
        d.ref,
        'converted',
        `citations left out, text kept: they point at a document that is not in this request (${documents} documents, A-C1)`,
      );
      return { ...d, block: (kept.length > 0 ? { ...rest, citations: kept } : rest) as AnthropicContentBlock };
    });
    return { ...m, blocks };
  });
}

/** True when a text block of `blocks` carries a citation that `test` accepts (no closure per message). */
function citesWhere(blocks: readonly DraftBlock[], test: (citation: unknown) => boolean): boolean {
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k]!.block;
    if (block.type === 'text' && Array.isArray(block.citations) && block.citations.some(test)) return true;
  }
  return false;
}

/**
 * True when a text block of `messages` carries a citation with a `document_index`: what
 * {@link dropDanglingCitations} makes of it depends on the request's document count.
 */
export function citesDocuments(messages: readonly DraftMessage[]): boolean {
  for (const m of messages)
    for (const { block } of m.blocks)
      if (
        block.type === 'text' &&
        Array.isArray(block.citations) &&
        block.citations.some((c: unknown) => isObject(c) && c.document_index !== undefined)
      )
        return true;
  return false;
}
