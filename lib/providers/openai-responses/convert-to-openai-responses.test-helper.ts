/**
 * Test helper for the Responses converter tests: transcript builders, a converter call with test
 * defaults that also runs the independent contract validator, and body/report shorthands.
 * Test-only.
 */
import { expect } from 'vitest';
import { lookupModel } from '../../models/registry';
import type { BlockFate, BlockReport, ConversionReport, Fate, Synthesized } from '../../transcript/report';
import type { Origin, Transcript } from '../../transcript/schema';
import type { ConvertTarget } from '../../transcript/target';
import { validateRequest } from '../../../test/contract';
import { convertToOpenAIResponses } from './convert-to-openai-responses';

export const MODEL = 'gpt-5.5';
/** A turn produced by the target itself (same origin: `requestedModel` equals the target model). */
export const SAME: Origin = {
  provider: 'openai',
  api: 'openai-responses',
  model: 'gpt-5.5-2026-04-23',
  requestedModel: 'gpt-5.5',
};
export const CLAUDE: Origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' };
export const MINI: Origin = {
  provider: 'openai',
  api: 'openai-responses',
  model: 'gpt-5-mini-2025-08-07',
  requestedModel: 'gpt-5-mini',
};

/** `reasoning` sent to gpt-5.5 with thinking off: its lowest effort, as the registry records it. */
export const OFF = { effort: lookupModel(MODEL, 'openai').minReasoningEffort };

/** `transcript(turns, extra?)`: a valid transcript (decoded, so a typo in a test fails loudly). */
export { transcript } from '../convert.test-helper';

export const text = (t: string, extra: Record<string, unknown> = {}) => ({ type: 'text', text: t, ...extra });
export const user = (id: string, ...blocks: unknown[]) => ({ id, role: 'user', blocks });
export const tool = (id: string, ...blocks: unknown[]) => ({ id, role: 'tool', blocks });
export const assistant = (id: string, origin: Origin, blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  role: 'assistant',
  origin,
  blocks,
  ...extra,
});
export const call = (id: string, name: string, input: unknown = {}, extra: Record<string, unknown> = {}) => ({
  type: 'tool_call',
  id,
  name,
  input,
  ...extra,
});
export const result = (callId: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  callId,
  content,
  ...extra,
});
export const thinking = (t: string, extra: Record<string, unknown> = {}) => ({ type: 'thinking', text: t, ...extra });

/** Converts for gpt-5.5 with a 1000-token limit unless the target says otherwise; asserts the contract validator finds nothing. */
export function convert(t: Transcript, target: Partial<ConvertTarget> = {}) {
  const out = convertToOpenAIResponses(t, { api: 'openai-responses', model: MODEL, maxOutputTokens: 1000, ...target });
  expect(validateRequest('openai-responses', out.body)).toEqual([]);
  return out;
}

/** A gpt-5.5 body (thinking off, 1000 tokens) with `input` and any extra fields. */
export function body(input: unknown[], extra: Record<string, unknown> = {}) {
  return {
    model: MODEL,
    input,
    stream: true,
    store: false,
    include: ['reasoning.encrypted_content'],
    max_output_tokens: 1000,
    reasoning: OFF,
    ...extra,
  };
}

/** Input items. */
export const userMsg = (...texts: string[]) => ({
  type: 'message',
  role: 'user',
  content: texts.map((t) => ({ type: 'input_text', text: t })),
});
export const asstMsg = (t: string, extra: Record<string, unknown> = {}) => ({
  type: 'message',
  role: 'assistant',
  ...extra,
  content: [{ type: 'output_text', text: t }],
});
export const fnCall = (callId: string, name: string, args: string, extra: Record<string, unknown> = {}) => ({
  type: 'function_call',
  ...extra,
  call_id: callId,
  name,
  arguments: args,
});
export const fnOut = (callId: string, output: unknown) => ({ type: 'function_call_output', call_id: callId, output });

export const KEPT: BlockFate = { fate: 'kept', detail: 'sent as is' };
export const NATIVE: BlockFate = { fate: 'replayed-native', detail: "the turn's own output items, sent as received" };
export const fate = (f: Fate, detail: string): BlockFate => ({ fate: f, detail });

/** One report entry (kept when no fates are given). */
export function at(turn: string, index: number, ...list: BlockFate[]): BlockReport {
  return { turn, index, fates: list.length > 0 ? list : [KEPT] };
}

/** A whole report for `t`. */
export function report(
  t: Transcript,
  blocks: BlockReport[],
  synthesized: Synthesized[] = [],
  warnings: string[] = [],
): ConversionReport {
  return {
    input: { format: 'baton', turns: t.turns.length, blocks: t.turns.reduce((n, x) => n + x.blocks.length, 0) },
    blocks,
    synthesized,
    warnings,
  };
}

/** The synthetic final user turn of the pre-pass. */
export const CONTINUE = {
  kind: 'user-turn',
  detail: 'the history ends on an assistant turn: a user turn asks the model to continue (A-R4, G-R6, M-3)',
} as const;
