import { describe, it, expect } from 'vitest';
import { lookupModel } from './registry';
import type { ModelInfo } from './types';

const CONSERVATIVE: Omit<ModelInfo, 'id' | 'provider' | 'apis'> = {
  known: false,
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  defaultOutputTokens: 4_096,
  vision: false,
  pdf: false,
  tools: true,
  thinking: 'none',
  reasoning: false,
  thoughtSignatures: 'none',
  functionResponseParts: false,
  canDisableThinking: false,
};

describe('lookupModel on unknown ids', () => {
  it('gives conservative defaults and keeps the id as given', () => {
    expect(lookupModel('mystery-model-7b')).toEqual({
      ...CONSERVATIVE,
      id: 'mystery-model-7b',
      provider: 'unknown',
      apis: ['openai-chat'],
    });
  });

  it('uses the provider given and the APIs it speaks', () => {
    expect(lookupModel('qwen3-coder', 'ollama')).toEqual({
      ...CONSERVATIVE,
      id: 'qwen3-coder',
      provider: 'ollama',
      apis: ['openai-chat'],
    });
    expect(lookupModel('some-model', 'anthropic').apis).toEqual(['anthropic-messages']);
  });

  it('treats an unknown vendor/model id as an OpenRouter model', () => {
    expect(lookupModel('x-ai/grok-9')).toEqual({
      ...CONSERVATIVE,
      id: 'x-ai/grok-9',
      provider: 'openrouter',
      apis: ['openai-chat'],
    });
  });

  it('applies the Gemini 3 rules to unknown gemini-3+ ids, with or without models/; G-G1 levels from 3.5 (no MINIMAL)', () => {
    const expected = {
      ...CONSERVATIVE,
      provider: 'google',
      apis: ['gemini-interactions', 'gemini-generate-content'],
      vision: true,
      pdf: true,
      thoughtSignatures: 'enforced',
      functionResponseParts: true,
      thinking: 'level',
      thinkingAlwaysOn: true,
    };
    const levels = ['LOW', 'MEDIUM', 'HIGH'];
    expect(lookupModel('gemini-3.9-ultra')).toEqual({ ...expected, id: 'gemini-3.9-ultra', thinkingLevels: levels });
    expect(lookupModel('models/gemini-4-carbon')).toEqual({
      ...expected,
      id: 'models/gemini-4-carbon',
      thinkingLevels: levels,
    });
    expect(lookupModel('gemini-3.2-pro').thinkingLevels).toBeUndefined();
  });

  it('applies the Gemini 2.5 rules to unknown gemini-2.5 ids', () => {
    const m = lookupModel('gemini-2.5-flash-image');
    expect([m.known, m.thoughtSignatures, m.functionResponseParts, m.thinking, m.vision]).toEqual([
      false,
      'optional',
      false,
      'budget',
      true,
    ]);
  });

  it('marks o-series and gpt-5+ ids as reasoning models with the lowest common effort', () => {
    const reasoning = { reasoning: true, thinking: 'effort', minReasoningEffort: 'low', thinkingAlwaysOn: true };
    expect(lookupModel('o9-mini')).toEqual({
      ...CONSERVATIVE,
      ...reasoning,
      id: 'o9-mini',
      provider: 'openai',
      apis: ['openai-responses', 'openai-chat'],
    });
    expect(lookupModel('gpt-7-nova')).toEqual({
      ...CONSERVATIVE,
      ...reasoning,
      vision: true,
      pdf: true,
      id: 'gpt-7-nova',
      provider: 'openai',
      apis: ['openai-responses', 'openai-chat'],
      chatTools: 'responses',
      samplingNeedsEffortNone: true,
      instructionsAfterInput: true,
    });
    const chat = lookupModel('gpt-5.9-chat-latest');
    expect([chat.reasoning, chat.thinking, chat.vision]).toEqual([false, 'none', true]);
  });

  it('C-T9 C-S1 R-K9: unknown gpt-5.4+ ids get the 2026 rules at their safest, gpt-6.2+ also instructions after input', () => {
    const pick = (id: string) => {
      const m = lookupModel(id);
      return [m.chatTools, m.samplingNeedsEffortNone, m.instructionsAfterInput];
    };
    expect(pick('gpt-5.3-codex-max')).toEqual([undefined, undefined, undefined]);
    expect(pick('gpt-5.7-sol')).toEqual(['responses', true, undefined]);
    expect(pick('gpt-6.3-terra')).toEqual(['responses', true, true]);
  });

  it('gives unknown claude ids the Anthropic family defaults', () => {
    expect(lookupModel('claude-opus-9')).toEqual({
      ...CONSERVATIVE,
      id: 'claude-opus-9',
      provider: 'anthropic',
      apis: ['anthropic-messages'],
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      defaultOutputTokens: 8_192,
      vision: true,
      pdf: true,
      thinking: 'adaptive',
    });
  });

  it.each([
    ['claude-sonnet-4-7', 'adaptive'],
    ['claude-haiku-6', 'adaptive'],
    ['claude-fable-7', 'adaptive'],
    ['claude-sonnet-4-2', 'budget'],
    ['claude-3-9-sonnet-20260101', 'budget'],
    ['claude-3-5-sonnet-20241022', 'none'],
    ['claude-3-opus-20240229', 'none'],
    ['claude-instant-1', 'none'],
  ])('derives thinking %s → %s from the Claude version', (id, thinking) => {
    expect(lookupModel(id).known).toBe(false);
    expect(lookupModel(id).thinking).toBe(thinking);
  });

  it('is case-sensitive', () => {
    const m = lookupModel('GPT-5.5');
    expect([m.known, m.id, m.provider, m.reasoning]).toEqual([false, 'GPT-5.5', 'unknown', false]);
  });
});
