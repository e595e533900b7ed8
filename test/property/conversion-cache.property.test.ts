/**
 * Incremental conversion (docs/architecture.md#incremental-conversion): for ANY valid transcript
 * and ANY sequence of edits — append turns, edit a turn, delete a turn, switch the target's API,
 * change its model — converting through one long-lived `ConversionCache` gives byte for byte the
 * body, headers and report of a cold conversion of the same transcript, for every target. Unchanged
 * turns keep their objects across edits (as the store's transcript cache does), so later
 * conversions really are served from the cache (checked: the cache must be hit).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertTranscript, createConversionCache } from '../../lib/providers';
import type { Transcript, Turn } from '../../lib/transcript/schema';
import type { ConvertTarget } from '../../lib/transcript/target';
import { textArb, transcriptArb } from './arbitraries';
import { withText, withTurnsIfValid } from './edits';
import { growOneTurnAtATime, growthPartsArb } from './grow';

/** Targets per API; a model change moves between targets of the same API. */
const TARGETS: Record<string, ConvertTarget[]> = {
  'anthropic-messages': [
    { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
    { api: 'anthropic-messages', model: 'claude-opus-4-5', thinking: true },
    { api: 'anthropic-messages', model: 'claude-sonnet-4-5', foreignReasoning: 'text' },
  ],
  'openai-chat': [
    { api: 'openai-chat', model: 'gpt-4o' },
    { api: 'openai-chat', model: 'deepseek-reasoner', provider: 'deepseek' },
    { api: 'openai-chat', model: 'mistral-large-latest', provider: 'mistral' },
  ],
  'openai-responses': [
    { api: 'openai-responses', model: 'gpt-5.5' },
    { api: 'openai-responses', model: 'gpt-5.5', thinking: true, foreignReasoning: 'text' },
    { api: 'openai-responses', model: 'gpt-4.1' },
  ],
  'gemini-generate-content': [
    { api: 'gemini-generate-content', model: 'gemini-3-pro-preview' },
    { api: 'gemini-generate-content', model: 'gemini-2.5-flash', thinking: true },
  ],
  'gemini-interactions': [
    { api: 'gemini-interactions', model: 'gemini-3-pro-preview' },
    { api: 'gemini-interactions', model: 'gemini-2.5-flash', thinking: true },
  ],
};
const APIS = Object.keys(TARGETS);

type Edit =
  | { kind: 'append'; turns: Turn[] }
  | { kind: 'edit'; at: number; text: string }
  | { kind: 'delete'; at: number }
  | { kind: 'switch-target'; api: number }
  | { kind: 'change-model'; model: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 4, arbitrary: transcriptArb.map((t) => ({ kind: 'append' as const, turns: t.turns.slice(0, 3) })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: textArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switch-target' as const), api: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('change-model' as const), model: fc.nat() }) },
);

/** The transcript after `edit`; unchanged turns stay the same objects. Edits that would make it invalid are skipped. */
function applyEdit(t: Transcript, edit: Edit, step: number): Transcript {
  let turns: Turn[];
  if (edit.kind === 'append')
    turns = [...t.turns, ...edit.turns.map((turn) => ({ ...turn, id: `s${step}-${turn.id}` }))];
  else if (edit.kind === 'delete' && t.turns.length > 0)
    turns = t.turns.filter((_, i) => i !== edit.at % t.turns.length);
  else if (edit.kind === 'edit' && t.turns.length > 0) {
    const at = edit.at % t.turns.length;
    // A new object for the edited turn, as the store makes.
    const edited = withText(t.turns[at]!, edit.text);
    turns = t.turns.map((turn, k) => (k === at ? edited : turn));
  } else return t;
  return withTurnsIfValid(t, turns);
}

/** Body, headers and report as the bytes a send and a preview would use. */
function bytes(t: Transcript, target: ConvertTarget, cache?: ReturnType<typeof createConversionCache>): string {
  const r = convertTranscript(t, { ...target, maxOutputTokens: 4096 }, cache ? { cache } : undefined);
  return JSON.stringify([r.api, r.model, r.headers ?? null, r.body, r.report]);
}

describe.each(APIS)('a cached conversion is byte-identical to a cold one → %s first', (api) => {
  it('over random transcripts and random edits', () => {
    let hits = 0;
    fc.assert(
      fc.property(transcriptArb, fc.array(editArb, { minLength: 1, maxLength: 8 }), fc.nat(), (start, edits, m) => {
        const cache = createConversionCache();
        let apiIndex = APIS.indexOf(api);
        let modelIndex = m;
        const target = (): ConvertTarget => {
          const list = TARGETS[APIS[apiIndex % APIS.length]!]!;
          return list[modelIndex % list.length]!;
        };
        let t = start;
        expect(bytes(t, target(), cache)).toBe(bytes(t, target()));
        edits.forEach((edit, step) => {
          if (edit.kind === 'switch-target') apiIndex += 1 + (edit.api % (APIS.length - 1));
          else if (edit.kind === 'change-model') modelIndex += 1 + edit.model;
          else t = applyEdit(t, edit, step);
          expect(bytes(t, target(), cache)).toBe(bytes(t, target()));
        });
        hits += cache.hits;
      }),
      { numRuns: 120 },
    );
    // The property is about the cache: it must have served turns, not just filled.
    expect(hits).toBeGreaterThan(0);
  }, 120_000);
});

/**
 * The prefix snapshot (docs/architecture.md#incremental-conversion): a conversation that grows one
 * turn at a time, converted after every append through one cache, is spliced onto the previous
 * conversion's snapshot (checked: conversions were resumed) and stays byte-identical to cold.
 */
describe.each(APIS)('many consecutive appends, spliced onto the snapshot → %s', (api) => {
  it('gives the cold bytes after every append', () => {
    let resumed = 0;
    fc.assert(
      fc.property(growthPartsArb(5), fc.nat(), (parts, m) => {
        const list = TARGETS[api]!;
        const target = list[m % list.length]!;
        const cache = createConversionCache();
        growOneTurnAtATime(parts, (t) => {
          expect(bytes(t, target, cache)).toBe(bytes(t, target));
        });
        resumed += cache.resumed;
      }),
      { numRuns: 25 },
    );
    const spliced = [
      'openai-chat',
      'gemini-generate-content',
      'gemini-interactions',
      'anthropic-messages',
      'openai-responses',
    ];
    if (spliced.includes(api)) expect(resumed).toBeGreaterThan(0);
  }, 120_000);
});
