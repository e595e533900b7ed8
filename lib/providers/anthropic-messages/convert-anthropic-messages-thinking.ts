/**
 * Thinking configuration and the message-level rules of the Anthropic Messages converter that
 * depend on it (provider-rules.md §1: A-K2, A-K3, A-K4, A-R4), plus the final tidy-up of the
 * message list (X4, A-R2, A-T2). All functions are pure: they return new arrays and record every
 * change in the report.
 */
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelInfo } from '../../models/types';
import type { ReportBuilder } from '../../transcript/report';
import type { AnthropicContentBlock, DraftBlock, DraftMessage } from './convert-anthropic-messages-types';

/** The smallest `budget_tokens` the API takes (SDK `ThinkingConfigEnabled`: "Must be ≥1024 and less than `max_tokens`"). */
export const MIN_THINKING_BUDGET = 1024;

/**
 * The thinking budget for a request, in tokens: half of `max_tokens`, at least
 * {@link MIN_THINKING_BUDGET}, and always below `max_tokens`. Undefined when `max_tokens` is too
 * small for any budget (≤ 1024).
 */
export function thinkingBudget(maxTokens: number): number | undefined {
  if (maxTokens <= MIN_THINKING_BUDGET) return undefined;
  return Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2));
}

/**
 * The `thinking` field for a request that asks for thinking (`--thinking on`), from the model
 * registry's control: `adaptive` → `{type: 'adaptive'}`; `budget` → `{type: 'enabled',
 * budget_tokens}` ({@link thinkingBudget}). Undefined (with a warning) when the model has no
 * Anthropic thinking control or `max_tokens` leaves no room for a budget.
 */
export function thinkingConfig(
  info: ModelInfo,
  maxTokens: number,
  report: ReportBuilder,
): ThinkingConfigParam | undefined {
  if (info.thinking === 'adaptive') return { type: 'adaptive' };
  if (info.thinking === 'budget') {
    const budget = thinkingBudget(maxTokens);
    if (budget !== undefined) return { type: 'enabled', budget_tokens: budget };
    report.warn(
      `thinking off: max_tokens ${maxTokens} leaves no room for the minimum thinking budget of ${MIN_THINKING_BUDGET} tokens`,
    );
    return undefined;
  }
  report.warn(
    `thinking off: the model registry lists no Anthropic thinking control for ${info.id}${info.known ? '' : ' (unknown model)'}`,
  );
  return undefined;
}

const isThinking = (b: AnthropicContentBlock): boolean => b.type === 'thinking' || b.type === 'redacted_thinking';

/**
 * A-K3: an assistant message that holds thinking must start with it. Only merged turns can break
 * this (e.g. another model's text followed by this model's thinking); their thinking is dropped,
 * since thinking may not be moved or changed (A-K1).
 */
export function enforceThinkingFirst(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  let out: DraftMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (
      m.role !== 'assistant' ||
      m.blocks.length === 0 ||
      isThinking(m.blocks[0]!.block) ||
      !m.blocks.some((d) => isThinking(d.block))
    )
      continue;
    (out ??= messages.slice())[i] = {
      ...m,
      blocks: dropThinking(
        m.blocks,
        report,
        'the message does not start with thinking once merged with the turn before it (A-K3)',
      ),
    };
  }
  return out ?? messages;
}

/**
 * A-K2: while thinking is on and a tool loop is in progress (the last message is a user message
 * that starts with `tool_result`), the last assistant message must start with a thinking or
 * redacted_thinking block. True when that holds or no tool loop is in progress.
 */
export function toolLoopStartsWithThinking(messages: readonly DraftMessage[]): boolean {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || last.blocks[0]?.block.type !== 'tool_result') return true;
  for (let i = messages.length - 2; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') return m.blocks[0] !== undefined && isThinking(m.blocks[0].block);
  }
  return true;
}

/** A-K4: with thinking off, an assistant message in the final position must not contain thinking. */
export function stripFinalThinking(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant' || !last.blocks.some((d) => isThinking(d.block))) return messages;
  const blocks = dropThinking(last.blocks, report, 'thinking is off and the message is in the final position (A-K4)');
  return [...messages.slice(0, -1), { ...last, blocks }];
}

/**
 * A-R4: a final assistant message is a prefill, and its text must not end in whitespace. Trims the
 * last block when it is text (dropping it if nothing is left, A-E1).
 */
export function trimFinalAssistant(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  const last = messages[messages.length - 1];
  const tail = last?.role === 'assistant' ? last.blocks[last.blocks.length - 1] : undefined;
  if (!last || !tail || tail.block.type !== 'text' || typeof tail.block.text !== 'string') return messages;
  const text = tail.block.text.trimEnd();
  if (text === tail.block.text) return messages;
  report.add(
    tail.ref,
    text ? 'converted' : 'dropped',
    'trailing whitespace removed from the final assistant message (A-R4)',
  );
  const blocks = text
    ? [...last.blocks.slice(0, -1), { ...tail, block: { ...tail.block, text } }]
    : last.blocks.slice(0, -1);
  return [...messages.slice(0, -1), { ...last, blocks }];
}

/**
 * X4, A-R2, A-T2: removes messages left without content and merges neighbours of the same role; in
 * a user message the `tool_result` blocks go first, in their order, then everything else.
 */
export function compactMessages(messages: readonly DraftMessage[]): DraftMessage[] {
  const out: DraftMessage[] = [];
  let owned = false; // the last message of `out` is a merge made here, whose blocks may be appended to
  for (const m of messages) {
    if (m.blocks.length === 0) continue;
    const prev = out[out.length - 1];
    if (prev && prev.role === m.role) {
      if (owned) for (const d of m.blocks) prev.blocks.push(d);
      else {
        out[out.length - 1] = { role: m.role, blocks: prev.blocks.concat(m.blocks) };
        owned = true;
      }
    } else {
      out.push(m);
      owned = false;
    }
  }
  for (let i = 0; i < out.length; i++) {
    const m = out[i]!;
    if (m.role !== 'user') continue;
    // A-T2: results first. Nothing to do when no non-result block comes before a result.
    let sorted = true;
    let other = false;
    for (const d of m.blocks) {
      if (d.block.type !== 'tool_result') other = true;
      else if (other) {
        sorted = false;
        break;
      }
    }
    if (sorted) continue;
    const results: DraftBlock[] = [];
    const rest: DraftBlock[] = [];
    for (const d of m.blocks) (d.block.type === 'tool_result' ? results : rest).push(d);
    out[i] = { role: m.role, blocks: results.concat(rest) };
  }
  return out;
}

function dropThinking(blocks: readonly DraftBlock[], report: ReportBuilder, why: string): DraftBlock[] {
  return blocks.filter((d) => {
    if (!isThinking(d.block)) return true;
    report.add(d.ref, 'dropped', `${d.block.type} dropped: ${why}`);
    return false;
  });
}
