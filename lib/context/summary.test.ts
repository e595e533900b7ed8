/**
 * Summarise instead of dropping (docs/disclosure.md, "Fitting"): the summarisation request with its
 * estimated cost, and the transcript where one labelled user turn replaces the dropped part (N5).
 */
import { describe, expect, it } from 'vitest';
import { estimateCostUsd, lookupModel } from '../models/registry';
import { decodeTranscript, TranscriptError } from '../transcript/codec';
import { assistant, CLAUDE, exchanges, transcript, turn, user } from './context.test-helper';
import { plan } from './plan';
import { applySummary, planSummary, SUMMARY_INSTRUCTION, SUMMARY_OUTPUT_TOKENS } from './summary';

const GPT4O = { api: 'openai-chat', model: 'gpt-4o' } as const;
const HAIKU = { api: 'anthropic-messages', model: 'claude-haiku-4-5' } as const;

describe('planSummary', () => {
  const t = transcript(
    [
      ...exchanges(4),
      turn('a-tool', 'assistant', [{ type: 'tool_call', id: 'call_1', name: 'lookup', input: { q: 'x' } }]),
      turn('r-tool', 'tool', [{ type: 'tool_result', callId: 'call_1', content: 'found' }]),
      user('u9', 'newest question'),
    ],
    { system: 'You are a pirate.' },
  );

  it('asks the chosen model for a summary of the dropped turns, in order, with no system prompt', () => {
    const s = planSummary(t, ['a1', 'u0', 'a0', 'u1'], HAIKU);
    expect(s.transcript.system).toBeUndefined();
    expect(s.transcript.turns.map((x) => x.id)).toEqual(['u0', 'a0', 'u1', 'a1', 'baton-summary-request']);
    expect(s.transcript.turns[4]).toEqual({
      id: 'baton-summary-request',
      role: 'user',
      blocks: [{ type: 'text', text: SUMMARY_INSTRUCTION }],
    });
    expect(decodeTranscript(s.transcript)).toEqual(s.transcript);
    expect(s.plan.target).toEqual({ api: 'anthropic-messages', model: 'claude-haiku-4-5', provider: 'anthropic' });
    expect(s.plan.included).toEqual(['u0', 'a0', 'u1', 'a1', 'baton-summary-request']);
    const body = s.plan.body as { system?: unknown; messages: { role: string }[] };
    expect(body.system).toBeUndefined();
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('estimates the cost: input plus the whole output reserve at list price', () => {
    const s = planSummary(t, ['u0', 'a0'], HAIKU);
    expect(s.maxOutputTokens).toBe(SUMMARY_OUTPUT_TOKENS);
    expect(s.estimatedInputTokens).toBe(s.plan.estimatedInputTokens);
    expect(s.estimatedCostUsd).toBe(
      estimateCostUsd(lookupModel('claude-haiku-4-5', 'anthropic'), {
        inputTokens: s.estimatedInputTokens,
        outputTokens: SUMMARY_OUTPUT_TOKENS,
      }),
    );
    expect(planSummary(t, ['u0', 'a0'], { ...HAIKU, maxOutputTokens: 500 }).maxOutputTokens).toBe(500);
  });

  it('never drops a turn to fit: a request too large says it does not fit', () => {
    const s = planSummary(t, ['u0', 'a0', 'u1', 'a1'], GPT4O, { maxTokens: 20 });
    expect(s.plan.fits).toBe(false);
    expect(s.plan.included).toHaveLength(5);
    expect(s.plan.notFit?.limit).toBe('tokens');
  });

  it('applies the policy: a forbidden summariser gets nothing', () => {
    const s = planSummary(t, ['u0', 'a0'], GPT4O, { neverProviders: ['openai'] });
    expect(s.plan.allowed).toBe(false);
    expect(s.plan.body).toBeUndefined();
    expect(s.estimatedCostUsd).toBeUndefined();
  });

  it('works on a plan’s dropped turns, tool pairs included', () => {
    const full = plan(t, GPT4O);
    const older = full.turns.filter((x) => x.id !== 'u9').reduce((n, x) => n + x.tokens, 0);
    const p = plan(t, GPT4O, { maxTokens: full.estimatedInputTokens - older });
    expect(p.included).toEqual(['u9']);
    const s = planSummary(
      t,
      p.dropped.map((d) => d.turn),
      GPT4O,
    );
    expect(s.plan.included).toEqual([...t.turns.slice(0, -1).map((x) => x.id), 'baton-summary-request']);
    // The call keeps its result (no synthetic error result); the stub tool tells the model not to call it (X8).
    expect(s.plan.report.synthesized.map((x) => x.kind)).toEqual(['stub-tool']);
    expect((s.plan.body as { tool_choice?: unknown }).tool_choice).toBe('none');
    expect(s.plan.fits).toBe(true);
  });

  it('rejects an empty list or an unknown turn id', () => {
    expect(() => planSummary(t, [], HAIKU)).toThrow(new TranscriptError('droppedIds', 'expected at least one turn id'));
    expect(() => planSummary(t, ['u0', 'nope'], HAIKU)).toThrow(
      new TranscriptError('droppedIds[1]', 'no turn "nope" in the transcript'),
    );
  });
});

describe('applySummary', () => {
  const t = transcript([...exchanges(3), assistant('a2b', 'One more thing.', CLAUDE)], { system: 'Be brief.' });
  const WRITER = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-haiku-4-5' } as const;

  it('replaces the dropped turns by one labelled, fenced user turn at their place, never a system turn', () => {
    const out = applySummary(t, ['a0', 'u0', 'u1', 'a1'], '  The user asked about greetings twice.\n', WRITER);
    expect(out.system).toBe('Be brief.');
    expect(out.turns.map((x) => x.id)).toEqual(['summary-u0', 'u2', 'a2', 'a2b']);
    expect(out.turns[0]).toEqual({
      id: 'summary-u0',
      role: 'user',
      blocks: [
        {
          type: 'text',
          text: '[Summary of 4 earlier turns of this conversation, written by anthropic/claude-haiku-4-5 (anthropic-messages)]\n```\nThe user asked about greetings twice.\n```',
        },
      ],
      meta: { summaryOf: ['u0', 'a0', 'u1', 'a1'], summaryOrigin: WRITER },
    });
    expect(decodeTranscript(out)).toEqual(out);
    expect(t.turns).toHaveLength(7);
  });

  it('fences a summary that itself holds backticks, and keeps ids unique', () => {
    const taken = transcript([user('summary-u0', 'x'), ...exchanges(1)]);
    const out = applySummary(taken, ['u0', 'a0'], 'Use ```code``` here', WRITER);
    expect(out.turns.map((x) => x.id)).toEqual(['summary-u0', 'summary-u0-2']);
    expect((out.turns[1]!.blocks[0] as { text: string }).text).toContain('````\nUse ```code``` here\n````');
  });

  it('rejects a blank summary and unknown ids', () => {
    expect(() => applySummary(t, ['u0'], '  \n', WRITER)).toThrow(
      new TranscriptError('summaryText', 'the summary is empty'),
    );
    expect(() => applySummary(t, ['zz'], 'x', WRITER)).toThrow(
      new TranscriptError('droppedIds[0]', 'no turn "zz" in the transcript'),
    );
  });
});
