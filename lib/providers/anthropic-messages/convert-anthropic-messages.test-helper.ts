/**
 * Test helper for the Anthropic Messages converter tests: small transcript builders, a `convert`
 * with test defaults, and the contract check every produced body must pass. Test-only.
 */
import { expect } from 'vitest';
import { validateRequest } from '../../../test/contract';
import type { Block, Origin, Transcript, Turn } from '../../transcript/schema';
import type { ConvertTarget } from '../../transcript/target';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

/** `transcript(turns, extra?)`: a decoded (hence valid) transcript; `kept(turn, index = 0)`: the report entry of a block sent as is. */
export { kept, transcript } from '../convert.test-helper';

/** The default test model: a Claude model with a thinking budget control in the registry. */
export const MODEL = 'claude-sonnet-4-5';
/** An origin that is the same as the default target. */
export const CLAUDE: Origin = { provider: 'anthropic', api: 'anthropic-messages', model: MODEL };
export const OTHER_CLAUDE: Origin = {
  provider: 'anthropic',
  api: 'anthropic-messages',
  model: 'claude-opus-4-1-20250805',
};
export const GPT: Origin = { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' };
export const GEMINI: Origin = { provider: 'google', api: 'gemini-generate-content', model: 'gemini-3-pro-preview' };

export const user = (id: string, ...blocks: Block[]): Turn => ({ id, role: 'user', blocks });
export const tool = (id: string, ...blocks: Block[]): Turn => ({ id, role: 'tool', blocks });
export const assistant = (id: string, origin: Origin, blocks: Block[], extra: Partial<Turn> = {}): Turn => ({
  id,
  role: 'assistant',
  origin,
  blocks,
  ...extra,
});
export const text = (t: string): Block => ({ type: 'text', text: t });

/** Converts to the default test target (`claude-sonnet-4-5`, 1000 output tokens) with overrides. */
export function convert(t: Transcript, target: Partial<ConvertTarget> = {}) {
  return convertToAnthropicMessages(t, { api: 'anthropic-messages', model: MODEL, maxOutputTokens: 1000, ...target });
}

/** Asserts the independent contract validator finds nothing wrong with `body`. */
export function expectValid(body: unknown): void {
  expect(validateRequest('anthropic-messages', body)).toEqual([]);
}

/** An empty report of `turns` turns and `blocks` blocks, to spread over. */
export const reportOf = (turns: number, blocks: number) => ({
  input: { format: 'baton', turns, blocks },
  synthesized: [],
  warnings: [],
});
