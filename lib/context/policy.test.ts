/**
 * Policies (docs/disclosure.md, "Policies, global and per conversation"): merging, validation, and what each
 * policy does to a plan.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../transcript/codec';
import { assistant, CLAUDE, PNG, transcript, turn, user } from './context.test-helper';
import { plan } from './plan';
import { forbiddenReason, mergePolicies, validatePolicy } from './policy';

const GPT4O = { api: 'openai-chat', model: 'gpt-4o' } as const;
const CLAUDE_TARGET = { api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;

describe('mergePolicies', () => {
  it('takes the stricter limit, the conversation’s choices, and unions of lists', () => {
    expect(
      mergePolicies(
        {
          maxTurns: 50,
          maxTokens: 10_000,
          foreignReasoning: 'drop',
          images: 'send',
          neverProviders: ['deepseek'],
          excludeTurns: ['t1'],
        },
        {
          maxTurns: 80,
          maxTokens: 4_000,
          foreignReasoning: 'text',
          images: 'omit',
          lockedProvider: 'anthropic',
          neverProviders: ['openrouter', 'deepseek'],
          excludeBlocks: [{ turn: 't2', index: 0 }],
        },
      ),
    ).toEqual({
      maxTurns: 50,
      maxTokens: 4_000,
      foreignReasoning: 'text',
      images: 'omit',
      lockedProvider: 'anthropic',
      neverProviders: ['deepseek', 'openrouter'],
      excludeTurns: ['t1'],
      excludeBlocks: [{ turn: 't2', index: 0 }],
    });
  });

  it('keeps the global value where the conversation has none, and adds no empty fields', () => {
    expect(mergePolicies({ maxTokens: 8_000, images: 'omit' }, {})).toEqual({ maxTokens: 8_000, images: 'omit' });
    expect(mergePolicies({}, { maxTurns: 3 })).toEqual({ maxTurns: 3 });
    expect(mergePolicies()).toEqual({});
  });

  it('removes duplicate block exclusions', () => {
    expect(
      mergePolicies(
        { excludeBlocks: [{ turn: 'a', index: 1 }] },
        {
          excludeBlocks: [
            { turn: 'a', index: 1 },
            { turn: 'a', index: 2 },
          ],
        },
      ).excludeBlocks,
    ).toEqual([
      { turn: 'a', index: 1 },
      { turn: 'a', index: 2 },
    ]);
  });

  it('rejects invalid fields, naming which policy', () => {
    expect(() => mergePolicies({ maxTokens: -1 }, {})).toThrow(
      new TranscriptError('global.maxTokens', 'expected a positive integer, got -1'),
    );
    expect(() => mergePolicies({}, { images: 'blur' as 'omit' })).toThrow(
      new TranscriptError('conversation.images', 'expected "send" or "omit", got "blur"'),
    );
    expect(() => validatePolicy({ excludeBlocks: [{ turn: 'a', index: -1 }] })).toThrow(TranscriptError);
    expect(() => validatePolicy({ neverProviders: 'openai' as unknown as string[] })).toThrow(
      new TranscriptError('policy.neverProviders', 'expected an array of strings'),
    );
  });
});

describe('provider locks', () => {
  const t = transcript([user('u0', 'secret plans'), assistant('a0', 'noted', CLAUDE), user('u1', 'go on')]);

  it('forbids a provider on the never list: allowed false, nothing included, no body', () => {
    const p = plan(t, GPT4O, { neverProviders: ['openai'] });
    expect(p.allowed).toBe(false);
    expect(p.forbidden).toEqual({
      kind: 'never',
      provider: 'openai',
      message: 'this conversation must never be sent to openai',
    });
    expect(p.fits).toBe(false);
    expect(p.included).toEqual([]);
    expect(p.dropped.map((d) => [d.turn, d.reason])).toEqual([
      ['u0', 'provider-forbidden'],
      ['a0', 'provider-forbidden'],
      ['u1', 'provider-forbidden'],
    ]);
    expect(p.body).toBeUndefined();
    expect(p.transcript).toBeUndefined();
    expect(p.report.blocks.every((b) => b.fates[0]!.fate === 'dropped')).toBe(true);
  });

  it('forbids every provider but the locked one', () => {
    expect(plan(t, GPT4O, { lockedProvider: 'anthropic' }).forbidden).toEqual({
      kind: 'locked',
      provider: 'openai',
      lockedProvider: 'anthropic',
      message: 'this conversation is locked to anthropic; openai may not receive it',
    });
    const ok = plan(t, CLAUDE_TARGET, { lockedProvider: 'anthropic' });
    expect([ok.allowed, ok.forbidden, ok.included]).toEqual([true, undefined, ['u0', 'a0', 'u1']]);
  });

  it('compares the provider the request goes to, not the model’s maker', () => {
    expect(forbiddenReason({ neverProviders: ['anthropic'] }, 'openrouter')).toBeUndefined();
    expect(
      plan(
        t,
        { api: 'openai-chat', model: 'anthropic/claude-sonnet-4.5', provider: 'openrouter' },
        { neverProviders: ['openrouter'] },
      ).allowed,
    ).toBe(false);
  });
});

describe('images', () => {
  const t = transcript([
    turn('u0', 'user', [
      { type: 'text', text: 'Look:' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]),
    turn('u1', 'user', [{ type: 'image', mediaType: 'image/png', data: PNG }]),
    turn('a0', 'assistant', [{ type: 'tool_call', id: 'call_1', name: 'screenshot', input: {} }]),
    turn('r0', 'tool', [
      { type: 'tool_result', callId: 'call_1', content: [{ type: 'image', mediaType: 'image/png', data: PNG }] },
    ]),
    user('u2', 'What do you see?'),
  ]);

  it('are sent by default', () => {
    const p = plan(t, CLAUDE_TARGET);
    expect(p.included).toEqual(['u0', 'u1', 'a0', 'r0', 'u2']);
    expect(JSON.stringify(p.body)).toContain(PNG);
    expect(p.stats.imagesOmitted).toBe(0);
  });

  it('are removed with images: omit, and reported', () => {
    const sent = plan(t, CLAUDE_TARGET);
    const p = plan(t, CLAUDE_TARGET, { images: 'omit' });
    expect(JSON.stringify(p.body)).not.toContain(PNG);
    expect(p.included).toEqual(['u0', 'a0', 'r0', 'u2']);
    expect(p.dropped).toEqual([
      { turn: 'u1', reason: 'images-omitted', detail: 'held only images, and the policy omits images' },
    ]);
    expect(p.report.blocks.slice(0, 3)).toEqual([
      { turn: 'u0', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
      { turn: 'u0', index: 1, fates: [{ fate: 'dropped', detail: 'image omitted (policy images: omit)' }] },
      { turn: 'u1', index: 0, fates: [{ fate: 'dropped', detail: 'image omitted (policy images: omit)' }] },
    ]);
    expect(p.report.blocks[4]!.fates[0]).toEqual({
      fate: 'converted',
      detail: '1 image(s) removed from the result (policy images: omit)',
    });
    expect(p.stats.imagesOmitted).toBe(3);
    expect(sent.estimatedInputTokens - p.estimatedInputTokens).toBe(
      3 * 1 + 3 /* three 1×1 PNGs, ⌈1 × 1 / 750⌉ = 1 token each, and u1's message */,
    );
  });
});

describe('foreign reasoning', () => {
  const t = transcript([
    user('u0', 'Why?'),
    turn(
      'a0',
      'assistant',
      [
        { type: 'thinking', text: 'Because of the rain.', signature: 'sig' },
        { type: 'text', text: 'Rain.' },
      ],
      { origin: CLAUDE },
    ),
    user('u1', 'And?'),
  ]);

  it('is dropped by default and counted in the stats', () => {
    const p = plan(t, GPT4O);
    expect(p.report.blocks[1]!.fates.map((f) => f.fate)).toEqual(['dropped']);
    expect(p.stats.thinkingDropped).toBe(1);
    expect(JSON.stringify(p.body)).not.toContain('Because of the rain.');
  });

  it('is sent as labelled text with foreignReasoning: text (the policy wins over the target)', () => {
    const p = plan(t, { ...GPT4O, foreignReasoning: 'drop' }, { foreignReasoning: 'text' });
    expect(p.report.blocks[1]!.fates.map((f) => f.fate)).toEqual(['converted']);
    expect(p.stats.thinkingDropped).toBe(0);
    expect(JSON.stringify(p.body)).toContain('Because of the rain.');
  });
});

describe('exclusions', () => {
  const t = transcript([
    user('u0', 'Weather in Oslo and Bergen?'),
    turn(
      'a0',
      'assistant',
      [
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_call', id: 'call_oslo', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_call', id: 'call_bergen', name: 'get_weather', input: { city: 'Bergen' } },
      ],
      { native: { api: 'openai-chat', payload: { role: 'assistant', content: 'Checking both.' } } },
    ),
    turn('r0', 'tool', [
      { type: 'tool_result', callId: 'call_oslo', content: '4°C' },
      { type: 'tool_result', callId: 'call_bergen', content: '7°C' },
    ]),
    user('u1', 'Private note: my address is 1 Main St.'),
    user('u2', 'Which is warmer?'),
  ]);

  it('excludeTurns leaves a turn out of this send, reported', () => {
    const p = plan(t, GPT4O, { excludeTurns: ['u1'] });
    expect(p.included).toEqual(['u0', 'a0', 'r0', 'u2']);
    expect(p.dropped).toEqual([{ turn: 'u1', reason: 'excluded', detail: 'left out of this send' }]);
    expect(JSON.stringify(p.body)).not.toContain('1 Main St');
  });

  it('excluding a tool result also leaves out its call (never a split pair), and nothing is replayed natively', () => {
    const p = plan(t, GPT4O, { excludeBlocks: [{ turn: 'r0', index: 1 }] });
    expect(p.report.blocks.slice(1, 6)).toEqual([
      { turn: 'a0', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
      { turn: 'a0', index: 1, fates: [{ fate: 'kept', detail: 'sent as is' }] },
      {
        turn: 'a0',
        index: 2,
        fates: [{ fate: 'dropped', detail: 'left out with the other half of its tool call / result pair (X1)' }],
      },
      { turn: 'r0', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
      { turn: 'r0', index: 1, fates: [{ fate: 'dropped', detail: 'left out of this send' }] },
    ]);
    const body = JSON.stringify(p.body);
    expect(body).not.toContain('call_bergen');
    expect(body).not.toContain('7°C');
    expect(body).toContain('call_oslo');
    expect(p.transcript!.turns[1]!.native).toBeUndefined();
    // No synthetic "no result" for the left-out call: the pair went as a whole.
    expect(p.report.synthesized.map((x) => x.kind)).toEqual(['stub-tool']);
  });

  it('excluding the assistant turn also leaves out the results that answer it', () => {
    const p = plan(t, GPT4O, { excludeTurns: ['a0'] });
    expect(p.included).toEqual(['u0', 'u1', 'u2']);
    expect(p.dropped).toEqual([
      { turn: 'a0', reason: 'excluded', detail: 'left out of this send' },
      { turn: 'r0', reason: 'excluded', detail: 'every block left out of this send' },
    ]);
    expect(p.report.blocks.find((b) => b.turn === 'r0')!.fates[0]!.detail).toBe(
      'left out with the other half of its tool call / result pair (X1)',
    );
  });

  it('ignores exclusions naming turns or blocks that no longer exist', () => {
    expect(plan(t, GPT4O, { excludeTurns: ['gone'], excludeBlocks: [{ turn: 'u0', index: 9 }] }).included).toEqual(
      t.turns.map((x) => x.id),
    );
  });

  it('an excluded pinned turn is excluded', () => {
    const pinned = transcript(t.turns.map((x) => (x.id === 'u1' ? { ...x, meta: { pinned: true } } : x)));
    expect(plan(pinned, GPT4O, { excludeTurns: ['u1'] }).included).not.toContain('u1');
  });
});

describe('thinking-binding controls', () => {
  const thinkingHistory = () =>
    transcript([
      user('u1', 'Plan a trip.'),
      turn(
        'a1',
        'assistant',
        [
          { type: 'thinking', text: 'Trains.', signature: 'sig-1' },
          { type: 'text', text: 'Train.' },
        ],
        { origin: CLAUDE },
      ),
      user('u2', 'And back?'),
    ]);
  const target = { api: 'anthropic-messages', model: CLAUDE.model, thinking: true, maxOutputTokens: 8_000 } as const;

  it('A-B3: by default the plan asks Claude to drop thinking it cannot verify, with the beta header; the policy can say error', () => {
    const p = plan(thinkingHistory(), target);
    expect(p.body?.thinking).toMatchObject({ block_binding: { prefix_mismatch_behavior: 'drop_block' } });
    expect(p.headers).toEqual({ 'anthropic-beta': 'thinking-binding-controls-2026-08-01' });
    const strict = plan(thinkingHistory(), target, { prefixMismatchBehavior: 'error' });
    expect(strict.body?.thinking).not.toHaveProperty('block_binding');
    expect(strict.headers).toBeUndefined();
  });

  it("A-B3: the conversation's choice wins over the global one, and only the two values are accepted", () => {
    expect(
      mergePolicies({ prefixMismatchBehavior: 'error' }, { prefixMismatchBehavior: 'drop_block' })
        .prefixMismatchBehavior,
    ).toBe('drop_block');
    expect(mergePolicies({ prefixMismatchBehavior: 'error' }, {}).prefixMismatchBehavior).toBe('error');
    expect(() => validatePolicy({ prefixMismatchBehavior: 'maybe' as never })).toThrow(
      'policy.prefixMismatchBehavior: expected "drop_block" or "error", got "maybe"',
    );
  });
});

describe('reasoning the target will not use (docs/provider-rules.md)', () => {
  it('A-B1, A-B4: counts the turns and reasoning tokens, by why', () => {
    const t = transcript(
      [
        user('u1', 'Q1'),
        turn(
          'a1',
          'assistant',
          [
            { type: 'thinking', text: 'Imported.', signature: 'sig-cc' },
            { type: 'text', text: 'A1' },
          ],
          { origin: CLAUDE, usage: { reasoningTokens: 300 } },
        ),
        user('u2', 'Q2'),
        turn(
          'a2',
          'assistant',
          [
            { type: 'thinking', text: 'GPT thought.' },
            { type: 'text', text: 'A2' },
          ],
          { usage: { reasoningTokens: 1_200 } },
        ),
        user('u3', 'Q3'),
        turn(
          'a3',
          'assistant',
          [
            { type: 'thinking', text: 'Mine.', signature: 'sig-own' },
            { type: 'text', text: 'A3' },
          ],
          { origin: CLAUDE, meta: { responseId: 'msg_3' } },
        ),
        user('u4', 'Q4'),
      ],
      { source: { kind: 'claude-code' } },
    );
    const p = plan(t, { api: 'anthropic-messages', model: CLAUDE.model, thinking: true, maxOutputTokens: 8_000 });
    expect(p.stats.reasoningUnused).toEqual([
      { reason: 'other-account', turns: 1, reasoningTokens: 300 },
      { reason: 'other-model', turns: 1, reasoningTokens: 1_200 },
    ]);
    expect(
      plan(transcript([user('u1', 'Hi')]), { api: 'anthropic-messages', model: CLAUDE.model }).stats.reasoningUnused,
    ).toBeUndefined();
  });
});
