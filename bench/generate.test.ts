import { describe, expect, it } from 'vitest';
import { decodeTranscript } from '../lib/transcript/codec';
import type { Block, Transcript } from '../lib/transcript/schema';
import { GENERATED_ORIGINS, generateTranscript } from './generate';

const blocks = (t: Transcript): Block[] => t.turns.flatMap((turn) => turn.blocks);

describe('generateTranscript', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateTranscript({ turns: 50 })).toEqual(generateTranscript({ turns: 50 }));
    expect(generateTranscript({ turns: 50, seed: 1 })).not.toEqual(generateTranscript({ turns: 50, seed: 2 }));
  });

  it('gives exactly the asked number of turns, valid, ending on a user turn', () => {
    for (const turns of [1, 2, 3, 4, 5, 7, 10, 33, 100]) {
      const t = generateTranscript({ turns });
      expect(t.turns).toHaveLength(turns);
      expect(t.turns.at(-1)!.role).toBe('user');
      expect(() => decodeTranscript(t)).not.toThrow();
    }
  });

  it('answers every tool call in the tool turn right after it, and nothing else', () => {
    const t = generateTranscript({ turns: 400 });
    t.turns.forEach((turn, i) => {
      const calls = turn.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : []));
      const next = t.turns[i + 1];
      if (calls.length > 0) {
        expect(next?.role).toBe('tool');
        expect(next!.blocks.map((b) => (b.type === 'tool_result' ? b.callId : b.type))).toEqual(calls);
      }
      if (turn.role === 'tool') expect(t.turns[i - 1]!.blocks.some((b) => b.type === 'tool_call')).toBe(true);
    });
  });

  it('mixes every block kind and all four origins at 3,000 turns', () => {
    const t = generateTranscript({ turns: 3000 });
    const kinds = new Set(blocks(t).map((b) => b.type));
    expect([...kinds].sort()).toEqual(['image', 'redacted_thinking', 'text', 'thinking', 'tool_call', 'tool_result']);
    const origins = new Set(t.turns.flatMap((turn) => (turn.origin ? [turn.origin.api] : [])));
    expect([...origins].sort()).toEqual(
      Object.values(GENERATED_ORIGINS)
        .map((o) => o.api)
        .sort(),
    );
    const parallel = t.turns.filter((turn) => turn.blocks.filter((b) => b.type === 'tool_call').length > 1);
    expect(parallel.length).toBeGreaterThan(20);
    const toolImages = blocks(t).filter(
      (b) => b.type === 'tool_result' && Array.isArray(b.content) && b.content.some((c) => c.type === 'image'),
    );
    expect(toolImages.length).toBeGreaterThan(0);
  });

  it('keeps each origin’s opaque state in the shape its reader records', () => {
    const t = generateTranscript({ turns: 1000 });
    for (const turn of t.turns) {
      for (const b of turn.blocks) {
        if (turn.origin?.api === 'openai-responses' && b.type === 'thinking') {
          expect(b.signature).toMatch(/^gAAAAA/);
          expect(b.meta?.itemId).toMatch(/^rs_/);
        }
        if (turn.origin?.api === 'gemini-generate-content' && b.type === 'tool_call')
          expect(b.meta).toEqual({ generatedId: true });
        if (turn.origin?.api === 'anthropic-messages' && b.type === 'thinking') expect(b.signature).toMatch(/^EqQB/);
        if (turn.origin?.api === 'openai-chat')
          expect(b.type === 'thinking' || b.type === 'redacted_thinking').toBe(false);
      }
    }
  });

  it('rejects a turn count that is not a positive integer', () => {
    expect(() => generateTranscript({ turns: 0 })).toThrow(RangeError);
    expect(() => generateTranscript({ turns: 1.5 })).toThrow(RangeError);
  });
});
