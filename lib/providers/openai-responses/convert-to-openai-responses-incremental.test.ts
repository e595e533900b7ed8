/**
 * The Responses converter resumed from a prefix snapshot (docs/architecture.md#incremental-conversion):
 * a conversation converted through one `ConversionCache` after each append must give the bytes of a
 * cold conversion, including where a pass could reach across the snapshot's boundary — a user
 * message merged into the one before it, and R-T3 call/output pairing by `call_id` — and for the
 * stateful (`previous_response_id`) send, which converts only the turns after the stored response.
 */
import { describe, expect, it } from 'vitest';
import { createConversionCache, type ConversionCache } from '../../transcript/prepare-cache';
import type { Transcript, Turn } from '../../transcript/schema';
import type { ConvertTarget } from '../../transcript/target';
import { convertedBytes, growThroughCache } from '../convert.test-helper';
import { convertToOpenAIResponses } from './convert-to-openai-responses';
import {
  assistant,
  call,
  result,
  SAME,
  text,
  thinking,
  tool,
  transcript,
  user,
} from './convert-to-openai-responses.test-helper';

const TARGET: ConvertTarget = { api: 'openai-responses', model: 'gpt-5.5', maxOutputTokens: 1000 };
const item = (i: Record<string, unknown>, t?: string) => ({
  type: 'provider_item',
  api: 'openai-responses',
  item: i,
  ...(t !== undefined ? { text: t } : {}),
});

/** Headers, body and report as the bytes a send would use. */
const bytes = (t: Transcript, cache?: ConversionCache, target: ConvertTarget = TARGET): string =>
  convertedBytes(t, target, cache);

/** `all`'s first `n` turns, the same turn objects (as the store's transcript cache keeps them). */
const first = (all: Transcript, n: number): Transcript => ({ ...all, turns: all.turns.slice(0, n) });

/** Converts `all` grown one turn at a time through one cache; every conversion must equal a cold one. */
const grow = (all: Transcript, from = 1, target: ConvertTarget = TARGET): ConversionCache =>
  growThroughCache(all, target, from);

describe('Responses conversion resumed from the prefix snapshot', () => {
  it('splices appended turns onto the snapshot, byte for byte the cold body and report', () => {
    const turns: unknown[] = [];
    for (let i = 0; i < 6; i++)
      turns.push(
        user(`u${i}`, text(`question ${i}`)),
        assistant(`a${i}`, SAME, [
          thinking(`why ${i}`, { signature: `enc${i}` }),
          text(`answer ${i}`),
          call(`c${i}`, 'f', { i }),
        ]),
        tool(`t${i}`, result(`c${i}`, i % 2 ? 'ok' : '')),
      );
    const all = transcript(turns, { system: 'be brief', tools: [{ name: 'f', inputSchema: { type: 'object' } }] });
    expect(grow(all).resumed).toBeGreaterThan(0);
    // R-K9: the developer message opens `input` and stays first in the kept items.
    expect(grow(all, 1, { ...TARGET, model: 'gpt-6.2' }).resumed).toBeGreaterThan(0);
    // Azure leaves reasoning ids out (R-K2): its own snapshot, under its own key.
    expect(grow(all, 1, { ...TARGET, provider: 'azure' }).resumed).toBeGreaterThan(0);
  });

  it('merges the first user message after the boundary into the kept one before it', () => {
    // a1's only block is reasoning that cannot be sent (R-K3): u1 and u2 end up as one user message.
    const all = transcript([
      user('u1', text('one')),
      assistant('a1', SAME, [thinking('unsigned')]),
      user('u2', text('two')),
      assistant('a2', SAME, [text('reply')]),
      user('u3', text('three')),
      assistant('a3', SAME, [thinking('unsigned again')]),
      user('u4', text('four')),
    ]);
    const cache = grow(all);
    expect(cache.resumed).toBeGreaterThan(0);
    const input = convertToOpenAIResponses(all, TARGET, { cache }).body.input;
    expect(input.map((i) => ('role' in i ? i.role : i.type))).toEqual(['user', 'assistant', 'user']);
  });

  it('converts cold when a call before the boundary is answered after it (R-T3 pairing by call_id)', () => {
    const shell = item({ type: 'shell_call', call_id: 'sh1', action: { commands: ['ls'] } }, 'ls');
    const output = item({ type: 'shell_call_output', call_id: 'sh1', output: [] }, 'out');
    const all = transcript([
      user('u1', text('run it')),
      assistant('a1', SAME, [text('running'), shell]),
      user('u2', text('and then?')),
      assistant('a2', SAME, [text('waiting')]),
      tool('t2', output),
      user('u3', text('done?')),
      assistant('a3', SAME, [text('yes')]),
    ]);
    const turns = all.turns;
    const cold = convertToOpenAIResponses(all, TARGET).body.input;
    // The call is kept only because its output comes later: a splice that kept the head as it was
    // converted without the output would have sent its text instead.
    expect(cold.some((i) => i.type === 'shell_call')).toBe(true);
    grow(all);
    // A snapshot recorded while the output was in the tail is not used for a tail without it.
    const cache = createConversionCache();
    bytes({ ...all, turns: turns.slice(0, 5) }, cache);
    const other: Transcript = {
      ...all,
      turns: [
        ...turns.slice(0, 3),
        { id: 'u9', role: 'user', blocks: [{ type: 'text', text: 'other' }] } satisfies Turn,
      ],
    };
    expect(bytes(other, cache)).toBe(bytes(other));
  });

  it('keeps the stateless and the previous_response_id bodies identical to cold through one cache', () => {
    const turns: unknown[] = [];
    for (let i = 0; i < 8; i++)
      turns.push(
        user(`u${i}`, text(`q${i}`)),
        assistant(`a${i}`, SAME, [text(`r${i}`), call(`c${i}`, 'f')]),
        tool(`t${i}`, result(`c${i}`, `o${i}`)),
      );
    const all = transcript(turns, { tools: [{ name: 'f', inputSchema: { type: 'object' } }] });
    const cache = createConversionCache();
    for (let n = 4; n <= all.turns.length; n++) {
      const whole = first(all, n);
      // The delta send converts only the turns after the stored response (lib/context/send-plan.ts).
      const anchor = Math.max(1, n - 4);
      const delta: Transcript = { ...whole, turns: whole.turns.slice(anchor) };
      for (const t of [whole, delta, whole]) expect(bytes(t, cache)).toBe(bytes(t));
    }
    expect(cache.resumed).toBeGreaterThan(0);
  });
});
