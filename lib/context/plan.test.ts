/**
 * The planner (docs/disclosure.md, "Context planner" and "Fitting"): budget, output reserve, oldest whole
 * exchanges dropped, pinned turns kept, why a plan does not fit, the report and the body.
 */
import { describe, expect, it } from 'vitest';
import { estimateCostUsd, lookupModel } from '../models/registry';
import { convertTranscript } from '../providers';
import { TranscriptError } from '../transcript/codec';
import { assistant, CLAUDE, exchanges, transcript, turn, user } from './context.test-helper';
import { plan } from './plan';

const GPT4O = { api: 'openai-chat', model: 'gpt-4o' } as const;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('budget and output reserve', () => {
  const t = transcript(exchanges(1));

  it('uses the registry default output as the reserve and the window minus it as the budget', () => {
    const p = plan(t, GPT4O);
    expect([p.contextWindow, p.maxOutputTokens, p.inputBudget]).toEqual([128_000, 16_384, 128_000 - 16_384]);
    const c = plan(t, { api: 'anthropic-messages', model: 'claude-sonnet-4-5' });
    expect([c.contextWindow, c.maxOutputTokens, c.inputBudget]).toEqual([200_000, 32_768, 200_000 - 32_768]);
  });

  it('takes target.maxOutputTokens, clamped to the model maximum, and the smaller of maxTokens and the window', () => {
    expect(plan(t, { ...GPT4O, maxOutputTokens: 1_000 }).inputBudget).toBe(127_000);
    expect(plan(t, { ...GPT4O, maxOutputTokens: 1_000_000 }).maxOutputTokens).toBe(16_384);
    expect(plan(t, { ...GPT4O, maxOutputTokens: 1_000 }, { maxTokens: 5_000 }).inputBudget).toBe(5_000);
    expect(plan(t, { ...GPT4O, maxOutputTokens: 1_000 }, { maxTokens: 500_000 }).inputBudget).toBe(127_000);
  });

  it('rejects an invalid output limit or policy with a TranscriptError naming the field', () => {
    expect(() => plan(t, { ...GPT4O, maxOutputTokens: 0 })).toThrow(
      new TranscriptError('target.maxOutputTokens', 'expected a positive integer (tokens), got 0'),
    );
    expect(() => plan(t, GPT4O, { maxTurns: 1.5 })).toThrow(
      new TranscriptError('policy.maxTurns', 'expected a positive integer, got 1.5'),
    );
  });

  it('prices the estimated input at the registry list price', () => {
    const p = plan(t, GPT4O);
    expect(p.estimatedCostUsd).toBe(
      estimateCostUsd(lookupModel('gpt-4o', 'openai'), { inputTokens: p.estimatedInputTokens }),
    );
    expect(
      plan(t, { api: 'openai-chat', model: 'some-unknown-model', provider: 'ollama' }).estimatedCostUsd,
    ).toBeUndefined();
  });
});

describe('fitting', () => {
  const t = transcript(exchanges(5), { system: 'Be brief.' });
  const full = plan(t, GPT4O);
  const base = full.estimatedInputTokens - sum(full.turns.map((x) => x.tokens));
  const tokensOf = (ids: string[]) => sum(full.turns.filter((x) => ids.includes(x.id)).map((x) => x.tokens));
  const OVER = 'over the token budget: the oldest exchanges are dropped first';

  it('keeps everything that fits', () => {
    expect(full.fits).toBe(true);
    expect(full.included).toEqual(t.turns.map((x) => x.id));
    expect(full.dropped).toEqual([]);
  });

  it('drops the oldest whole exchanges until the rest fits, exactly at the budget', () => {
    const budget = base + tokensOf(['u3', 'a3', 'u4', 'a4']);
    const p = plan(t, GPT4O, { maxTokens: budget });
    expect(p.fits).toBe(true);
    expect(p.estimatedInputTokens).toBe(budget);
    expect(p.included).toEqual(['u3', 'a3', 'u4', 'a4']);
    expect(p.dropped).toEqual(
      ['u0', 'a0', 'u1', 'a1', 'u2', 'a2'].map((id) => ({ turn: id, reason: 'over-budget', detail: OVER })),
    );
    expect(plan(t, GPT4O, { maxTokens: budget - 1 }).included).toEqual(['u4', 'a4']);
  });

  it('keeps a pinned turn with its whole exchange and drops around it', () => {
    const pinned = transcript(
      exchanges(5).map((x) => (x.id === 'a1' ? { ...x, meta: { pinned: true } } : x)),
      { system: 'Be brief.' },
    );
    const p = plan(pinned, GPT4O, { maxTokens: base + tokensOf(['u1', 'a1', 'u4', 'a4']) });
    expect(p.fits).toBe(true);
    expect(p.included).toEqual(['u1', 'a1', 'u4', 'a4']);
    expect(p.dropped.map((d) => d.turn)).toEqual(['u0', 'a0', 'u2', 'a2', 'u3', 'a3']);
    expect(p.turns.find((x) => x.id === 'a1')).toEqual({
      id: 'a1',
      role: 'assistant',
      tokens: full.turns[3]!.tokens,
      included: true,
      pinned: true,
    });
  });

  it('says why it does not fit when the pinned turns alone exceed the budget', () => {
    const pinned = transcript(
      exchanges(5).map((x) => (x.id === 'u0' ? { ...x, meta: { pinned: true } } : x)),
      { system: 'Be brief.' },
    );
    const budget = base + tokensOf(['u0', 'a0']) - 1;
    const p = plan(pinned, GPT4O, { maxTokens: budget });
    expect(p.fits).toBe(false);
    expect(p.included).toEqual(['u0', 'a0', 'u4', 'a4']);
    expect(p.notFit).toEqual({
      limit: 'tokens',
      cause: 'pinned',
      required: budget + 1,
      allowed: budget,
      message: `does not fit: the pinned turns (with their exchanges) alone need ~${budget + 1} tokens; the input budget is ${budget}`,
    });
  });

  it('says so when the newest exchange alone does not fit, or the system prompt alone', () => {
    const p = plan(t, GPT4O, { maxTokens: base + 1 });
    expect(p.fits).toBe(false);
    expect(p.included).toEqual(['u4', 'a4']);
    expect(p.notFit).toMatchObject({
      limit: 'tokens',
      cause: 'newest',
      required: base + tokensOf(['u4', 'a4']),
      allowed: base + 1,
    });
    expect(plan(t, GPT4O, { maxTokens: base - 1 }).notFit).toMatchObject({
      limit: 'tokens',
      cause: 'system',
      required: base,
    });
  });

  it('never splits a tool call from its result: the exchange goes as a whole', () => {
    const tool = transcript([
      user('u0', 'Weather in Oslo?'),
      turn('a0', 'assistant', [{ type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }]),
      turn('r0', 'tool', [{ type: 'tool_result', callId: 'call_1', content: '4°C, rain' }]),
      assistant('a0b', '4°C and rain.'),
      user('u1', 'Thanks!'),
      assistant('a1', 'You are welcome.'),
    ]);
    const all = plan(tool, GPT4O);
    const last = sum(all.turns.slice(4).map((x) => x.tokens));
    const b = all.estimatedInputTokens - sum(all.turns.map((x) => x.tokens));
    const p = plan(tool, GPT4O, { maxTokens: b + last + all.turns[3]!.tokens + all.turns[2]!.tokens });
    expect(p.included).toEqual(['u1', 'a1']);
    expect(p.dropped.map((d) => d.turn)).toEqual(['u0', 'a0', 'r0', 'a0b']);
  });

  it('drops leading assistant turns (before the first user turn) first, so the history starts on a user turn', () => {
    const lead = transcript([assistant('a-1', 'Welcome back!'), ...exchanges(2)]);
    const all = plan(lead, GPT4O);
    const p = plan(lead, GPT4O, { maxTokens: all.estimatedInputTokens - 1 });
    expect(p.included).toEqual(['u0', 'a0', 'u1', 'a1']);
    expect(p.dropped).toEqual([{ turn: 'a-1', reason: 'over-budget', detail: OVER }]);
  });

  it('limits the number of turns with maxTurns, dropping the oldest exchanges', () => {
    const p = plan(t, GPT4O, { maxTurns: 5 });
    expect(p.fits).toBe(true);
    expect(p.included).toEqual(['u3', 'a3', 'u4', 'a4']);
    expect(p.dropped[0]).toEqual({
      turn: 'u0',
      reason: 'over-max-turns',
      detail: 'over the turn limit (at most 5 turns): the oldest exchanges are dropped first',
    });
    const one = plan(t, GPT4O, { maxTurns: 1 });
    expect(one.fits).toBe(false);
    expect(one.notFit).toEqual({
      limit: 'turns',
      cause: 'newest',
      required: 2,
      allowed: 1,
      message:
        'does not fit: the newest exchange (always sent) with the pinned turns is 2 turns; at most 1 may be sent',
    });
  });

  it('plans an empty transcript', () => {
    const p = plan(transcript([]), GPT4O);
    expect([p.fits, p.included, p.dropped, p.estimatedInputTokens]).toEqual([true, [], [], 3]);
  });
});

describe('report, body and transcript', () => {
  const t = transcript([
    user('u0', 'old question'),
    turn(
      'a0',
      'assistant',
      [
        { type: 'thinking', text: 'hmm', signature: 'sig' },
        { type: 'text', text: 'old answer' },
      ],
      { origin: CLAUDE },
    ),
    user('u1', 'new question'),
  ]);

  it('maps every input block to its fate: dropped turns, converter fates for sent turns', () => {
    const all = plan(t, GPT4O);
    const p = plan(t, GPT4O, { maxTokens: all.estimatedInputTokens - 1 });
    expect(p.report.input).toEqual({ format: 'baton', turns: 3, blocks: 4 });
    expect(p.report.blocks).toEqual([
      {
        turn: 'u0',
        index: 0,
        fates: [
          { fate: 'dropped', detail: 'turn not sent: over the token budget: the oldest exchanges are dropped first' },
        ],
      },
      {
        turn: 'a0',
        index: 0,
        fates: [
          { fate: 'dropped', detail: 'turn not sent: over the token budget: the oldest exchanges are dropped first' },
        ],
      },
      {
        turn: 'a0',
        index: 1,
        fates: [
          { fate: 'dropped', detail: 'turn not sent: over the token budget: the oldest exchanges are dropped first' },
        ],
      },
      { turn: 'u1', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
    ]);
    expect(p.stats).toEqual({ turns: 3, includedTurns: 1, thinkingDropped: 0, imagesOmitted: 0, blocksDropped: 0 });
    expect(all.stats).toEqual({
      turns: 3,
      includedTurns: 3,
      thinkingDropped: 1,
      imagesOmitted: 0,
      blocksDropped: 1,
      reasoningUnused: [{ reason: 'other-model', turns: 1, reasoningTokens: 0 }],
    });
    expect(all.report.blocks[1]!.fates[0]!.fate).toBe('dropped');
  });

  it('the body is exactly what the converter makes of the fitted transcript', () => {
    const p = plan(t, GPT4O, { maxTokens: plan(t, GPT4O).estimatedInputTokens - 1 });
    expect(p.transcript!.turns.map((x) => x.id)).toEqual(p.included);
    expect(p.body).toEqual(convertTranscript(p.transcript!, GPT4O).body);
    expect(p.body).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'new question' }],
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 16_384,
    });
  });

  it('serialises completely (the report and body are computed on first read)', () => {
    const p = plan(t, GPT4O);
    const json = JSON.parse(JSON.stringify(p));
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['report', 'stats', 'transcript', 'body', 'included', 'fits']),
    );
    expect(json.report).toEqual(p.report);
    expect(structuredClone(p).body).toEqual(p.body);
  });
});
