/**
 * Test helper for the Chat Completions converter tests: small transcript builders, a converter
 * call with test defaults, and report shorthands. Test-only.
 */
import { expect } from 'vitest';
import type { BlockFate, BlockReport } from '../../transcript/report';
import type { Origin, Transcript } from '../../transcript/schema';
import type { ConvertTarget } from '../../transcript/target';
import { validateRequest } from '../../../test/contract';
import { convertToOpenAIChat } from './convert-to-openai-chat';

export const GPT4O: Origin = { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' };
export const CLAUDE: Origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' };

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

/** Converts with `gpt-4o` and a 1000-token limit unless the target says otherwise. */
export function convert(t: Transcript, target: Partial<ConvertTarget> = {}) {
  return convertToOpenAIChat(t, { api: 'openai-chat', model: 'gpt-4o', maxOutputTokens: 1000, ...target });
}

/** Asserts the independent contract validator finds nothing wrong with the body. */
export function expectValid(body: unknown, provider?: string): void {
  expect(validateRequest('openai-chat', body, { provider })).toEqual([]);
}

export const KEPT: BlockFate = { fate: 'kept', detail: 'sent as is' };

/** One report entry. */
export function fates(turn: string, index: number, ...list: BlockFate[]): BlockReport {
  return { turn, index, fates: list.length > 0 ? list : [KEPT] };
}

/** The usual body prefix for OpenAI (`gpt-4o`, 1000 tokens). */
export const OPENAI_BASE = {
  model: 'gpt-4o',
  stream: true,
  stream_options: { include_usage: true },
  max_completion_tokens: 1000,
} as const;
