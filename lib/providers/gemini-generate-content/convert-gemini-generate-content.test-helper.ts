/**
 * Shared pieces of the Gemini converter tests: pinned model facts (so the tests do not depend on
 * registry data that may change), a converter wrapper that also runs the independent contract
 * validator, and small builders for transcripts and report entries.
 */
import { expect } from 'vitest';
import { validateRequest } from '../../../test/contract';
import type { ModelInfo } from '../../models/types';
import type { BlockReport } from '../../transcript/report';
import type { Origin, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget } from '../../transcript/target';
import { encodeGeminiGenerateContent } from './convert-to-gemini-generate-content';

const BASE: Omit<ModelInfo, 'id' | 'thinking' | 'thoughtSignatures' | 'functionResponseParts' | 'canDisableThinking'> =
  {
    provider: 'google',
    apis: ['gemini-generate-content'],
    known: true,
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    defaultOutputTokens: 32_768,
    vision: true,
    pdf: true,
    tools: true,
    reasoning: false,
  };

/** Gemini 3: thinking levels, enforced signatures (G-K1), images in function responses (G-I3). */
export const GEMINI_3_PRO: ModelInfo = {
  ...BASE,
  id: 'gemini-3-pro-preview',
  thinking: 'level',
  thoughtSignatures: 'enforced',
  functionResponseParts: true,
  canDisableThinking: false,
};

/** Gemini 2.5 Flash: thinking budget, can switch thinking off, optional signatures. */
export const GEMINI_25_FLASH: ModelInfo = {
  ...BASE,
  id: 'gemini-2.5-flash',
  thinking: 'budget',
  thoughtSignatures: 'optional',
  functionResponseParts: false,
  canDisableThinking: true,
};

/** Gemini 2.5 Pro: thinking budget that cannot be switched off. */
export const GEMINI_25_PRO: ModelInfo = { ...GEMINI_25_FLASH, id: 'gemini-2.5-pro', canDisableThinking: false };

/** A Gemma model served by the Gemini API: no thinking control, no systemInstruction (G-R1). */
export const GEMMA: ModelInfo = {
  ...BASE,
  id: 'gemma-3-27b-it',
  vision: false,
  pdf: false,
  thinking: 'none',
  thoughtSignatures: 'none',
  functionResponseParts: false,
  canDisableThinking: false,
};

export const VERTEX_ENDPOINT =
  'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google';

/**
 * Converts with pinned model facts (`maxOutputTokens` 1000 unless given) and asserts that the
 * independent contract validator finds nothing wrong with the body.
 */
export function convert(transcript: Transcript, info: ModelInfo, target: Partial<ConvertTarget> = {}) {
  const resolved = resolveTarget({ api: 'gemini-generate-content', model: info.id, maxOutputTokens: 1000, ...target });
  const result = encodeGeminiGenerateContent(transcript, resolved, info);
  const vertex = target.endpoint?.includes('aiplatform.googleapis.com') ?? false;
  expect(validateRequest('gemini-generate-content', result.body, { model: info.id, vertex })).toEqual([]);
  return result;
}

/** `transcript(turns, extra?)`: a decoded (so schema-checked) transcript; `kept(turn, index)`: the report entry of a block that went through unchanged. */
export { kept, transcript } from '../convert.test-helper';

/** Report entry of a block replayed from its turn's `native` parts. */
export function native(turn: string, index: number): BlockReport {
  return { turn, index, fates: [{ fate: 'replayed-native', detail: 'same-origin Gemini parts sent as received' }] };
}

export const ANTHROPIC: Origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' };
export const OPENAI_CHAT: Origin = { provider: 'openai', api: 'openai-chat', model: 'gpt-4.1' };
export const GEMINI_3_ORIGIN: Origin = {
  provider: 'google',
  api: 'gemini-generate-content',
  model: 'gemini-3-pro-preview',
};
export const GEMINI_25_ORIGIN: Origin = {
  provider: 'google',
  api: 'gemini-generate-content',
  model: 'gemini-2.5-flash',
};

/** Detail of the dummy-signature fate. */
export const DUMMY_FATE = {
  fate: 'converted',
  detail:
    'dummy thoughtSignature skip_thought_signature_validator added: Gemini 3 requires one on the first call of each step (G-K1, G-K4)',
} as const;

/** Generation config with thinking off on the pinned models. */
export const OFF_3 = { maxOutputTokens: 1000, thinkingConfig: { thinkingLevel: 'LOW' } } as const;
export const OFF_25 = { maxOutputTokens: 1000, thinkingConfig: { thinkingBudget: 0 } } as const;
