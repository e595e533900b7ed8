/**
 * The Anthropic Messages converter resumed from the prefix snapshot
 * (docs/architecture.md#incremental-conversion): conversations that grow one turn at a time,
 * converted through one cache after every append, give the bytes of a cold conversion (body,
 * headers, report) while the passes that read across messages carry their state over the boundary
 * (A-S2 breakpoint count, A-C1 document count, A-T1 server tool ids, A-B4/A-B5 blocked thinking) or
 * force a cold conversion (a compaction block after the boundary, A-P1).
 */
import { describe, expect, it } from 'vitest';
import { createConversionCache } from '../../transcript/prepare-cache';
import type { Block, Transcript, Turn } from '../../transcript/schema';
import type { ConvertTarget } from '../../transcript/target';
import { growThroughCache } from '../convert.test-helper';
import { assistant, CLAUDE, GPT, text, tool, transcript, user } from './convert-anthropic-messages.test-helper';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

const TARGET: ConvertTarget = { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: 4096 };
const THINKING: ConvertTarget = { ...TARGET, thinking: true };

/** Converts every prefix of `t` (same turn objects) through one cache; each must equal cold. Returns the splices. */
const grow = (t: Transcript, target: ConvertTarget): number => growThroughCache(t, target).resumed;

const thinking = (t: string, signature: string): Block => ({ type: 'thinking', text: t, signature });
const breakpoint = (s: string, ttl?: '1h') => ({
  type: 'text',
  text: s,
  cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' },
});

/** An answer of the target's own model whose native content carries a `cache_control` breakpoint. */
function cachedAnswer(id: string, s: string, ttl?: '1h'): Turn {
  return assistant(id, CLAUDE, [text(s)], { native: { api: 'anthropic-messages', payload: [breakpoint(s, ttl)] } });
}

describe('Anthropic Messages resumed from the prefix snapshot', () => {
  it('a plain conversation is spliced, and every step equals cold', () => {
    const turns: Turn[] = [];
    for (let i = 0; i < 8; i++) turns.push(user(`u${i}`, text(`Q${i}`)), assistant(`a${i}`, CLAUDE, [text(`A${i}`)]));
    expect(grow(transcript(turns), TARGET)).toBeGreaterThan(0);
  });

  it('A-S2: replayed breakpoints are counted across the boundary (the fifth and a 1h after a 5m go)', () => {
    const turns: Turn[] = [];
    for (let i = 0; i < 7; i++)
      turns.push(user(`u${i}`, text(`Q${i}`)), cachedAnswer(`a${i}`, `A${i}`, i === 5 ? '1h' : undefined));
    turns.push(user('u7', text('Q7')));
    const t = transcript(turns);
    expect(grow(t, TARGET)).toBeGreaterThan(0);
    const r = convertToAnthropicMessages(t, TARGET, { cache: createConversionCache() });
    expect(r.report.warnings.some((w) => w.includes('A-S2'))).toBe(true);
    // The transcript's own native content keeps its breakpoints (the converter copies, never deletes in place).
    expect(JSON.stringify(t.turns[11]!.native)).toContain('cache_control');
  });

  it("A-C1: a citation by document index is kept or dropped by the whole request's document count", () => {
    const doc: Block = { type: 'document', mediaType: 'text/plain', data: 'Tm90ZXMu' } as Block;
    const cited = assistant('a0', CLAUDE, [text('Cited.')], {
      native: {
        api: 'anthropic-messages',
        payload: [
          { type: 'text', text: 'Cited.', citations: [{ type: 'char_location', cited_text: 'N', document_index: 1 }] },
        ],
      },
    });
    const t = transcript([
      user('u0', text('Q0')),
      cited,
      user('u1', text('Q1')),
      assistant('a1', CLAUDE, [text('A1')]),
      user('u2', doc),
      assistant('a2', CLAUDE, [text('A2')]),
      user('u3', doc),
      assistant('a3', CLAUDE, [text('A3')]),
      user('u4', text('Q4')),
    ]);
    grow(t, TARGET);
  });

  it('A-B4: thinking imported from Claude Code is blocked on both sides of the boundary', () => {
    const turns: Turn[] = [];
    for (let i = 0; i < 6; i++)
      turns.push(user(`u${i}`, text(`Q${i}`)), assistant(`a${i}`, CLAUDE, [thinking(`T${i}`, `s${i}`), text(`A${i}`)]));
    turns.push(user('u6', text('Q6')));
    const t = transcript(turns, { source: { kind: 'claude-code' } });
    expect(grow(t, THINKING)).toBeGreaterThan(0);
    expect(grow(t, TARGET)).toBeGreaterThan(0);
  });

  it('A-P1: a compaction block after the boundary reaches back: that conversion is cold, and equal', () => {
    const compaction = { type: 'compaction', content: 'Summary so far.' };
    const t = transcript([
      user('u0', text('Q0')),
      assistant('a0', CLAUDE, [text('A0')]),
      user('u1', text('Q1')),
      assistant('a1', CLAUDE, [text('A1')]),
      user('u2', text('Q2')),
      assistant('a2', CLAUDE, [
        { type: 'provider_item', api: 'anthropic-messages', item: compaction, text: compaction.content } as Block,
        text('A2'),
      ]),
      user('u3', text('Q3')),
      assistant('a3', CLAUDE, [text('A3')]),
      user('u4', text('Q4')),
    ]);
    grow(t, TARGET);
  });

  it('tool loops, a user turn right after a tool result, other origins and thinking: every step equals cold', () => {
    const call = (id: string): Block => ({ type: 'tool_call', id, name: 'search', input: { q: id } });
    const result = (id: string): Block => ({ type: 'tool_result', callId: id, content: `r-${id}` });
    const t = transcript([
      user('u0', text('Q0')),
      assistant('a0', CLAUDE, [thinking('T0', 's0'), call('c0')]),
      tool('t0', result('c0')),
      user('u1', text('Interrupting.')),
      assistant('a1', GPT, [text('A1'), call('c1')]),
      tool('t1', result('c1')),
      assistant('a2', CLAUDE, [thinking('T2', 's2'), text('A2')]),
      user('u2', text('Q2')),
      assistant('a3', CLAUDE, [thinking('T3', 's3'), call('c3')]),
      tool('t3', result('c3')),
      user('u3', text('Q3')),
    ]);
    grow(t, THINKING);
    grow(t, TARGET);
  });
});
