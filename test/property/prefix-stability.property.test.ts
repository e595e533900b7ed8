/**
 * X9 (byte-stable prefixes, provider-rules-2026 A-B2 / R-K7): for ANY valid transcript and every
 * target, converting it and the same transcript plus one appended turn gives identical bytes for
 * every message / item / content the shorter conversion sent before its last one, and the same
 * system text. X10: converters never write into the transcript (the input is deep-frozen).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../../lib/providers';
import { decodeTranscript } from '../../lib/transcript/codec';
import type { Transcript, Turn } from '../../lib/transcript/schema';
import type { ConvertTarget } from '../../lib/transcript/target';
import { ORIGINS, textArb, transcriptArb } from './arbitraries';

const TARGETS: ConvertTarget[] = [
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  { api: 'anthropic-messages', model: 'claude-opus-4-5', thinking: true },
  { api: 'openai-chat', model: 'gpt-4o' },
  { api: 'openai-chat', model: 'gpt-5.6-sol', thinking: true },
  { api: 'openai-chat', model: 'mistral-large-latest', provider: 'mistral' },
  { api: 'openai-chat', model: 'deepseek-reasoner', provider: 'deepseek' },
  { api: 'openai-responses', model: 'gpt-5.5' },
  { api: 'openai-responses', model: 'gpt-6.2-sol', thinking: true },
  { api: 'gemini-generate-content', model: 'gemini-3-pro-preview' },
  { api: 'gemini-generate-content', model: 'gemini-3.8-flash', thinking: true },
  { api: 'gemini-generate-content', model: 'gemini-2.5-flash' },
  { api: 'gemini-interactions', model: 'gemini-3-pro-preview' },
];

/** The request's history array: Anthropic/Chat `messages`, Responses `input`, Gemini `contents`. */
function history(body: Record<string, unknown>): unknown[] {
  const list = body.messages ?? body.input ?? body.contents;
  if (!Array.isArray(list)) throw new Error('the body has no history array');
  return list;
}

/** The request's stable system text, wherever the API puts it. */
function systemOf(body: Record<string, unknown>): string {
  return JSON.stringify([body.system, body.instructions, body.systemInstruction, body.system_instruction]);
}

const userTurn = (text: string): Turn =>
  ({ id: 'appended', role: 'user', blocks: [{ type: 'text', text: text.trim() ? text : 'next' }] }) as Turn;
const assistantTurnArb: fc.Arbitrary<Turn> = fc
  .tuple(fc.constantFrom(...ORIGINS.filter((o) => o.api !== 'web')), textArb)
  .map(
    ([origin, text]) =>
      ({
        id: 'appended',
        role: 'assistant',
        origin,
        blocks: [{ type: 'text', text: text.trim() ? text : 'answer' }],
      }) as Turn,
  );

/** True when the transcript ends on a user turn with non-blank text (an assistant turn can follow without merging). */
function endsOnUserText(t: Transcript): boolean {
  const last = t.turns[t.turns.length - 1];
  return last?.role === 'user' && last.blocks.some((b) => b.type === 'text' && b.text.trim() !== '');
}

/**
 * A transcript and the same transcript plus one appended turn: a user message after anything, or
 * an assistant answer after a user message (the natural next turns of a conversation).
 */
const pairArb: fc.Arbitrary<[Transcript, Transcript]> = fc
  .oneof(
    fc.tuple(transcriptArb, textArb.map(userTurn)),
    fc.tuple(transcriptArb.filter(endsOnUserText), assistantTurnArb),
  )
  .map(([t, turn]) => [t, decodeTranscript({ ...t, turns: [...t.turns, turn] })]);

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

const label = (t: ConvertTarget) => `${t.api} ${t.provider ?? ''} ${t.model}${t.thinking ? ' thinking' : ''}`;

describe.each(TARGETS.map((t) => [label(t), t] as const))('X9 byte-stable prefixes → %s', (_name, target) => {
  it('X9: a transcript and the same transcript plus one turn give identical bytes before the last message', () => {
    fc.assert(
      fc.property(pairArb, ([short, long]) => {
        const a = convertTranscript(short, target).body as Record<string, unknown>;
        const b = convertTranscript(long, target).body as Record<string, unknown>;
        const before = history(a)
          .slice(0, -1)
          .map((m) => JSON.stringify(m));
        const after = history(b)
          .slice(0, before.length)
          .map((m) => JSON.stringify(m));
        expect(after).toEqual(before);
        expect(systemOf(b)).toBe(systemOf(a));
      }),
      { numRuns: 150 },
    );
  });

  it('X9: converting the same transcript twice gives the same bytes', () => {
    fc.assert(
      fc.property(transcriptArb, (t) => {
        expect(JSON.stringify(convertTranscript(t, target).body)).toBe(
          JSON.stringify(convertTranscript(t, target).body),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('X10: the converter never writes into the transcript (deep-frozen input converts, unchanged)', () => {
    fc.assert(
      fc.property(transcriptArb, (t) => {
        const before = JSON.stringify(t);
        const frozen = deepFreeze(structuredClone(t));
        const result = convertTranscript(frozen, target);
        expect(JSON.stringify(result.report)).toBeDefined();
        expect(JSON.stringify(frozen)).toBe(before);
      }),
      { numRuns: 50 },
    );
  });
});
