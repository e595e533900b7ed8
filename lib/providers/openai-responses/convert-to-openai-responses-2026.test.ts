/**
 * Responses on OpenAI's 2026 models (provider-rules-2026-anthropic-openai.md §3a): R-K7 (byte
 * stability), R-K8 (reasoning and compaction only to the same model, every turn's), R-K9 (stable
 * system text as a leading developer message on GPT-6.2+), R-P1 (phase resent on same-origin
 * messages only), R-X1 (compaction items in place, never a compaction_trigger from history), R-K10
 * (encrypted reasoning asked for) and R-S1 (no sampling parameters).
 */
import { describe, expect, it } from 'vitest';
import type { Origin } from '../../transcript/schema';
import {
  assistant,
  call,
  CLAUDE,
  convert,
  result,
  SAME,
  text,
  thinking,
  tool,
  transcript,
  user,
} from './convert-to-openai-responses.test-helper';

const SOL62: Origin = { provider: 'openai', api: 'openai-responses', model: 'gpt-6.2-sol' };
const COMPACTION = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAcompact' };

describe('R-K9: stable system text on GPT-6.2+', () => {
  it('R-K9: GPT-6.2 gets the system prompt as the leading developer message, no instructions', () => {
    const t = transcript([user('u1', text('Hi'))], { system: 'Answer briefly.' });
    const { body } = convert(t, { model: 'gpt-6.2-sol' });
    expect(body.instructions).toBeUndefined();
    expect(body.input[0]).toEqual({
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: 'Answer briefly.' }],
    });
    expect(body.input[1]).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] });
  });

  it('R-K9: earlier models keep instructions', () => {
    const t = transcript([user('u1', text('Hi'))], { system: 'Answer briefly.' });
    const { body } = convert(t, { model: 'gpt-5.5' });
    expect(body.instructions).toBe('Answer briefly.');
    expect(body.input.every((i) => !('role' in i) || i.role !== 'developer')).toBe(true);
  });
});

describe('R-P1: phase', () => {
  const turns = (origin: Origin) => [
    user('u1', text('Check the weather.')),
    assistant('a1', origin, [
      text('Checking.', { meta: { itemId: 'msg_1', phase: 'commentary' } }),
      text('It is 4°C.', { meta: { itemId: 'msg_2', phase: 'final_answer' } }),
    ]),
    user('u2', text('Thanks.')),
  ];
  it('R-P1: resent on every replayed same-origin assistant message, never on user or developer messages', () => {
    const { body } = convert(transcript(turns(SAME), { system: 'S' }), { model: 'gpt-5.5' });
    expect(
      body.input.filter((i) => i.type === 'message' && i.role === 'assistant').map((m) => (m as { id?: string }).id),
    ).toEqual(['msg_1', 'msg_2']);
    const messages = body.input.filter((i) => i.type === 'message') as { role: string; phase?: string }[];
    expect(messages.filter((m) => m.role === 'assistant').map((m) => m.phase)).toEqual(['commentary', 'final_answer']);
    expect(messages.filter((m) => m.role !== 'assistant').every((m) => m.phase === undefined)).toBe(true);
  });
  it('R-P1: never invented or carried over for another origin', () => {
    const { body } = convert(transcript(turns(SOL62)), { model: 'gpt-5.5' });
    expect(body.input.filter((i) => i.type === 'message' && i.role === 'assistant').every((m) => !('phase' in m))).toBe(
      true,
    );
  });
});

describe('R-K8 R-X1: reasoning and compaction only to the same model', () => {
  const history = (origin: Origin) =>
    transcript([
      user('u1', text('First.')),
      assistant('a1', origin, [thinking('plan 1', { signature: 'enc-1' }), text('One.')]),
      user('u2', text('Second.')),
      assistant('a2', origin, [
        { type: 'provider_item', api: 'openai-responses', item: COMPACTION },
        thinking('plan 2', { signature: 'enc-2' }),
        text('Two.'),
      ]),
      user('u3', text('Third.')),
    ]);

  it("R-K8 R-X1: same model → every turn's reasoning and the compaction item replayed in place", () => {
    const { body } = convert(history(SAME));
    const types = body.input.map((i) => (i.type === 'message' ? `${(i as { role: string }).role}` : i.type));
    expect(types).toEqual(['user', 'reasoning', 'assistant', 'user', 'compaction', 'reasoning', 'assistant', 'user']);
    expect(body.input[4]).toEqual(COMPACTION);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
  });

  it('R-K8 R-X1: another model (even of the same provider and API) → reasoning and compaction dropped and reported', () => {
    const { body, report } = convert(history(SOL62));
    expect(body.input.some((i) => i.type === 'reasoning' || i.type === 'compaction')).toBe(false);
    const fates = report.blocks.filter((b) => b.turn === 'a1' || b.turn === 'a2').map((b) => b.fates[0]!.fate);
    expect(fates).toEqual(['dropped', 'kept', 'dropped', 'dropped', 'kept']);
  });

  it('R-X1: a compaction_trigger is never replayed from history', () => {
    const t = transcript([
      user('u1', text('Go.')),
      assistant('a1', SAME, [
        { type: 'provider_item', api: 'openai-responses', item: { type: 'compaction_trigger' } },
        text('Ok.'),
      ]),
      user('u2', text('Next.')),
    ]);
    const { body, report } = convert(t);
    expect(body.input.some((i) => i.type === 'compaction_trigger')).toBe(false);
    expect(report.blocks[1]!.fates.map((f) => f.detail).join(' ')).toContain('R-X1');
  });
});

describe('R-K10 R-S1 R-K7: request fields and byte stability', () => {
  it('R-K10: store false with encrypted reasoning asked for on reasoning models', () => {
    const { body } = convert(transcript([user('u1', text('Hi'))]), { model: 'gpt-6.2-sol', thinking: true });
    expect([body.store, body.include]).toEqual([false, ['reasoning.encrypted_content']]);
  });

  it.each(['gpt-5.4', 'gpt-6.2-astra', 'gpt-5.5'])(
    'R-S1: no sampling parameter or logprobs include for %s',
    (model) => {
      for (const thinking of [false, true]) {
        const { body } = convert(transcript([user('u1', text('Hi'))]), { model, thinking });
        for (const key of ['temperature', 'top_p', 'top_logprobs']) expect(body).not.toHaveProperty(key);
        expect(body.include ?? []).not.toContain('message.output_text.logprobs');
      }
    },
  );

  it('R-K7: earlier items are byte-identical when a turn is appended (call ids, arguments, developer message)', () => {
    const turns = [
      user('u1', text('Weather?')),
      assistant('a1', CLAUDE, [call('toolu_01|odd id', 'get weather', { city: 'Oslo', n: 1 })]),
      tool('t1', result('toolu_01|odd id', '4°C')),
      assistant('a2', SOL62, [thinking('p', { signature: 'enc' }), text('4°C.')]),
    ];
    const a = convert(transcript(turns, { system: 'S' }), { model: 'gpt-6.2-sol' }).body.input;
    const b = convert(transcript([...turns, user('u2', text('More?'))], { system: 'S' }), { model: 'gpt-6.2-sol' }).body
      .input;
    expect(JSON.stringify(b.slice(0, a.length - 1))).toBe(JSON.stringify(a.slice(0, -1)));
  });
});
