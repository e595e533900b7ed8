/**
 * Server tools (web search, code execution, MCP…) in replayed assistant content. A server tool
 * call may stay without a result in its own message only while the next user message holds
 * nothing but `tool_result` blocks (A-T2: programmatic tool calling, where the code-execution
 * result arrives after the client tools answered). Otherwise the API could not pair it, so it is
 * dropped and reported. (A `pause_turn` answer resumes with its paused content as the final
 * message; Baton always ends a request on a user turn, so such a call is dropped the same way.)
 */
import type { ReportBuilder } from '../../transcript/report';
import { SERVER_TOOL_RESULT_TYPES } from './convert-anthropic-messages-native';
import type { DraftBlock, DraftMessage } from './convert-anthropic-messages-types';
import { isObject } from './read-anthropic-messages-content';

const SERVER_CALL_TYPES = new Set(['server_tool_use', 'mcp_tool_use']);

const onlyToolResults = (m: DraftMessage | undefined): boolean =>
  m !== undefined &&
  m.role === 'user' &&
  m.blocks.length > 0 &&
  m.blocks.every(({ block }) => isObject(block) && block.type === 'tool_result');

/** The server tool call and result ids seen so far in a request (A-T1), carried across a snapshot's boundary. */
export interface ServerToolIds {
  calls: Set<unknown>;
  results: Set<unknown>;
}

/**
 * Drops server tool calls that have no result in their own message where A-T2 forbids it, and
 * any second server tool call or result with an id already used in the request (A-T1: ids unique).
 * `seen` holds the ids of the messages before these (a resumed conversion's, see
 * docs/architecture.md#incremental-conversion) and receives theirs.
 */
export function dropUnansweredServerTools(
  messages: DraftMessage[],
  report: ReportBuilder,
  seen: ServerToolIds = { calls: new Set(), results: new Set() },
): DraftMessage[] {
  const seenCalls = seen.calls;
  const seenResults = seen.results;
  const drop = (ref: DraftMessage['blocks'][number]['ref'], why: string) =>
    ref ? report.add(ref, 'dropped', why) : report.warn(`dropped: ${why}`);
  // Only messages holding a server tool call or result need the checks below (the usual request has none).
  if (!messages.some((m) => m.role === 'assistant' && m.blocks.some(isServerBlock))) return messages;
  return messages.map((m, i) => {
    if (m.role !== 'assistant' || !m.blocks.some(isServerBlock)) return m;
    const keepUnanswered = onlyToolResults(messages[i + 1]);
    const answered = new Set<unknown>();
    for (const { block } of m.blocks)
      if (isObject(block) && typeof block.tool_use_id === 'string') answered.add(block.tool_use_id);
    const kept = m.blocks.filter(({ block, ref }) => {
      if (!isObject(block)) return true;
      if (SERVER_CALL_TYPES.has(String(block.type))) {
        if (seenCalls.has(block.id))
          return (
            drop(ref, `a second ${String(block.type)} with id ${String(block.id)} (A-T1: ids must be unique)`),
            false
          );
        if (!answered.has(block.id) && !keepUnanswered)
          return (
            drop(
              ref,
              `${String(block.type)} ${String(block.id)} has no result, and the next user message is not only tool results (A-T2)`,
            ),
            false
          );
        seenCalls.add(block.id);
      } else if (typeof block.tool_use_id === 'string' && block.type !== 'tool_result') {
        if (seenResults.has(block.tool_use_id) || !seenCalls.has(block.tool_use_id))
          return (
            drop(
              ref,
              `${String(block.type)} for ${block.tool_use_id} has no server tool call before it in this request, or repeats one`,
            ),
            false
          );
        seenResults.add(block.tool_use_id);
      }
      return true;
    });
    return kept.length === m.blocks.length ? m : { ...m, blocks: kept };
  });
}

/** A server tool's result ({@link moveServerToolResults} moves it from a user message into the assistant message before). */
export const isServerResult = ({ block }: DraftBlock): boolean => SERVER_TOOL_RESULT_TYPES.has(block.type);
/** A block {@link dropUnansweredServerTools} looks at: a server tool call, or a non-client result naming a call. */
export const isServerBlock = ({ block }: DraftBlock): boolean =>
  isObject(block) &&
  (SERVER_CALL_TYPES.has(String(block.type)) ||
    (typeof block.tool_use_id === 'string' && block.type !== 'tool_result'));
/** A block's field, read loosely (verbatim blocks are typed only by `type`). */
const field = ({ block }: DraftBlock, key: 'id' | 'tool_use_id'): unknown => (block as Record<string, unknown>)[key];

/**
 * A-R1, A-T2: a server tool's result (e.g. `web_search_tool_result`) lives in the assistant
 * message, right after its `server_tool_use` / `mcp_tool_use`. A same-origin result that a tool
 * turn holds arrives in the user message after that assistant message; it is moved back behind its
 * call (after any result already following it). One whose call is not in the assistant message
 * just before, or whose call already has a result, is dropped. Both are reported. Leaves user
 * messages that become empty for {@link compactMessages} to remove.
 */
export function moveServerToolResults(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  if (!messages.some((m) => m.role === 'user' && m.blocks.some(isServerResult))) return messages;
  const out = messages.map((m) => ({ ...m, blocks: [...m.blocks] }));
  out.forEach((m, i) => {
    if (m.role !== 'user' || !m.blocks.some(isServerResult)) return;
    const prev = out[i - 1]?.role === 'assistant' ? out[i - 1] : undefined;
    m.blocks = m.blocks.filter((d) => {
      if (!isServerResult(d)) return true;
      const id = field(d, 'tool_use_id');
      const at = prev ? prev.blocks.findIndex((p) => SERVER_CALL_TYPES.has(p.block.type) && field(p, 'id') === id) : -1;
      if (!prev || at < 0) {
        report.add(
          d.ref,
          'dropped',
          `${d.block.type} for ${String(id)}: its server tool call is not in the assistant message before it (A-R1, A-T2)`,
        );
        return false;
      }
      if (prev.blocks.some((p) => p.block.type === d.block.type && field(p, 'tool_use_id') === id)) {
        report.add(
          d.ref,
          'dropped',
          `${d.block.type} for ${String(id)}: the assistant message already holds its result`,
        );
        return false;
      }
      let end = at + 1;
      while (end < prev.blocks.length && field(prev.blocks[end]!, 'tool_use_id') === id) end++;
      prev.blocks.splice(end, 0, d);
      report.add(
        d.ref,
        'converted',
        `moved into the assistant message, right after its ${String(prev.blocks[at]!.block.type)} ${String(id)} (A-R1, A-T2)`,
      );
      return false;
    });
  });
  return out;
}
