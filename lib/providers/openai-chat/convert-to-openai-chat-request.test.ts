import { describe, expect, it } from 'vitest';
import { lookupModel } from '../../models/registry';
import { TranscriptError } from '../../transcript/codec';
import { loadNeutralTranscript } from '../../../test/fixtures/transcripts';
import { convertToOpenAIChat } from './convert-to-openai-chat';
import { convert, expectValid, text, transcript, user } from './convert-to-openai-chat.test-helper';

describe('request parameters', () => {
  it('defaults the output limit to the registry and uses max_tokens for providers other than OpenAI', () => {
    const t = loadNeutralTranscript('simple-text');
    const openai = convertToOpenAIChat(t, { api: 'openai-chat', model: 'gpt-4o' });
    expect(openai.body.max_completion_tokens).toBe(lookupModel('gpt-4o', 'openai').defaultOutputTokens);
    expect(openai.body.max_tokens).toBeUndefined();
    const groq = convertToOpenAIChat(t, { api: 'openai-chat', model: 'llama-3.3-70b-versatile', provider: 'groq' });
    expect(groq.body.max_tokens).toBe(lookupModel('llama-3.3-70b-versatile', 'groq').defaultOutputTokens);
    expect(groq.body.max_completion_tokens).toBeUndefined();
  });

  it('caps a limit above the model maximum with a warning, and rejects a non-positive limit', () => {
    const t = loadNeutralTranscript('simple-text');
    const max = lookupModel('gpt-4o', 'openai').maxOutputTokens;
    const r = convert(t, { maxOutputTokens: max + 1 });
    expect(r.body.max_completion_tokens).toBe(max);
    expect(r.report.warnings).toEqual([
      `max output tokens ${max + 1} exceeds the limit of gpt-4o (${max}): sent ${max}`,
    ]);
    expect(() => convert(t, { maxOutputTokens: 0 })).toThrow(TranscriptError);
  });

  it('uses the developer role and reasoning_effort for OpenAI reasoning models (C-R1)', () => {
    const info = lookupModel('gpt-5.5', 'openai');
    const t = loadNeutralTranscript('simple-text');
    const off = convert(t, { model: 'gpt-5.5' });
    expect(off.body.messages[0]).toEqual({ role: info.reasoning ? 'developer' : 'system', content: 'Answer briefly.' });
    expect(off.body.reasoning_effort).toBe(info.minReasoningEffort);
    const on = convert(t, { model: 'gpt-5.5', thinking: true });
    expect(on.body.reasoning_effort).toBe('medium');
    expectValid(on.body);
  });

  it('warns when thinking is asked of a model without reasoning control', () => {
    const r = convert(loadNeutralTranscript('simple-text'), { thinking: true });
    expect(r.body.reasoning_effort).toBeUndefined();
    expect(r.report.warnings).toEqual([
      'thinking requested, but gpt-4o has no reasoning_effort control on openai Chat Completions: sent without it',
    ]);
  });

  it('sends at most 128 tools (C-T5)', () => {
    const tools = Array.from({ length: 130 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const r = convert(transcript([user('u1', text('Hi'))], { tools }));
    expect(r.body.tools).toHaveLength(128);
    expect(r.body.tools?.[127]?.function.name).toBe('t127');
    expect(r.report.warnings).toEqual(['130 tools: only the first 128 are sent (C-T5)']);
    expect(r.body.tool_choice).toBeUndefined();
    expectValid(r.body);
  });
});
