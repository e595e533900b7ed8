/**
 * Server tools (web search, code execution, MCP…) in replayed assistant content. A server tool
 * call may stay without a result in its own message only while the next user message holds
 * nothing but `tool_result` blocks (A-T2: programmatic tool calling, where the code-execution
 * result arrives after the client tools answered). Otherwise the API could not pair it, so it is
 * dropped and reported. (A `pause_turn` answer resumes with its paused content as the final
 * message; Baton always ends a request on a user turn, so such a call is dropped the same way.)
 */
import type { ReportBuilder } from '../../transcript/report';
import type { DraftMessage } from './convert-anthropic-messages-types';
import { isObject } from './read-anthropic-messages-content';

const SERVER_CALL_TYPES = new Set(['server_tool_use', 'mcp_tool_use']);

const onlyToolResults = (m: DraftMessage | undefined): boolean =>
  m !== undefined && m.role === 'user' && m.blocks.length > 0 && m.blocks.every(({ block }) => isObject(block) && block.type === 'tool_result');

/**
 * Drops server tool calls that have no result in their own message where A-T2 forbids it, and
 * any second server tool call or result with an id already used in the request (A-T1: ids unique).
 */
export function dropUnansweredServerTools(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  const seenCalls = new Set<unknown>();
  const seenResults = new Set<unknown>();
  const drop = (ref: DraftMessage['blocks'][number]['ref'], why: string) => (ref ? report.add(ref, 'dropped', why) : report.warn(`dropped: ${why}`));
  return messages.map((m, i) => {
    if (m.role !== 'assistant') return m;
    const keepUnanswered = onlyToolResults(messages[i + 1]);
    const answered = new Set<unknown>();
    for (const { block } of m.blocks) if (isObject(block) && typeof block.tool_use_id === 'string') answered.add(block.tool_use_id);
    const kept = m.blocks.filter(({ block, ref }) => {
      if (!isObject(block)) return true;
      if (SERVER_CALL_TYPES.has(String(block.type))) {
        if (seenCalls.has(block.id)) return drop(ref, `a second ${String(block.type)} with id ${String(block.id)} (A-T1: ids must be unique)`), false;
        if (!answered.has(block.id) && !keepUnanswered)
          return drop(ref, `${String(block.type)} ${String(block.id)} has no result, and the next user message is not only tool results (A-T2)`), false;
        seenCalls.add(block.id);
      } else if (typeof block.tool_use_id === 'string' && block.type !== 'tool_result') {
        if (seenResults.has(block.tool_use_id) || !seenCalls.has(block.tool_use_id))
          return drop(ref, `${String(block.type)} for ${block.tool_use_id} has no server tool call before it in this request, or repeats one`), false;
        seenResults.add(block.tool_use_id);
      }
      return true;
    });
    return kept.length === m.blocks.length ? m : { ...m, blocks: kept };
  });
}
