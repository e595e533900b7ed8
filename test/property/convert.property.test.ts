/**
 * Property: for ANY valid transcript and every target, the converted body passes that API's
 * independent contract validator (provider-rules.md §0–5), and the report names every input block
 * exactly once, in order, with at least one fate (transcript-v1.md, "The `baton convert` contract").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../../lib/providers';
import type { ConvertTarget } from '../../lib/transcript/target';
import { validateRequest } from '../contract';
import { transcriptArb } from './arbitraries';

const TARGETS: ConvertTarget[] = [
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5', thinking: true },
  { api: 'anthropic-messages', model: 'claude-opus-4-5', foreignReasoning: 'text' },
  { api: 'openai-chat', model: 'gpt-4o' },
  { api: 'openai-chat', model: 'deepseek-reasoner', provider: 'deepseek' },
  { api: 'openai-chat', model: 'mistral-large-latest', provider: 'mistral' },
  { api: 'openai-chat', model: 'llama-3.3-70b-versatile', provider: 'groq' },
  { api: 'openai-chat', model: 'mistralai/mistral-large', provider: 'openrouter' },
  { api: 'openai-chat', model: 'llama3.1', provider: 'ollama', endpoint: 'http://localhost:11434/v1' },
  { api: 'openai-responses', model: 'gpt-5.5' },
  { api: 'openai-responses', model: 'gpt-5.5', thinking: true, foreignReasoning: 'text' },
  { api: 'openai-responses', model: 'gpt-4.1' },
  { api: 'gemini-generate-content', model: 'gemini-3-pro-preview' },
  { api: 'gemini-generate-content', model: 'gemini-2.5-flash', thinking: true },
  { api: 'gemini-interactions', model: 'gemini-3-pro-preview' },
  { api: 'gemini-interactions', model: 'gemini-2.5-flash', thinking: true, foreignReasoning: 'text' },
];

const label = (t: ConvertTarget) =>
  `${t.api} ${t.provider ?? ''} ${t.model}${t.thinking ? ' thinking' : ''}${t.foreignReasoning === 'text' ? ' reasoning-as-text' : ''}`;

describe.each(TARGETS.map((t) => [label(t), t] as const))('every transcript converts validly → %s', (_name, target) => {
  it('passes the contract validator and reports every block once', () => {
    fc.assert(
      fc.property(transcriptArb, (transcript) => {
        const { body, report, api, model } = convertTranscript(transcript, target);
        expect(api).toBe(target.api);
        expect(model).toBe(target.model);
        const violations = validateRequest(target.api, body, { provider: target.provider, model: target.model });
        expect(violations).toEqual([]);
        const expected = transcript.turns.flatMap((t) => t.blocks.map((_, index) => `${t.id}#${index}`));
        expect(report.blocks.map((b) => `${b.turn}#${b.index}`)).toEqual(expected);
        for (const b of report.blocks) expect(b.fates.length).toBeGreaterThan(0);
        expect(report.input).toEqual({ format: 'baton', turns: transcript.turns.length, blocks: expected.length });
      }),
      { numRuns: 150 },
    );
  });
});
