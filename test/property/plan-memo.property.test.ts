/**
 * Re-planning through one long-lived token cache (docs/architecture.md#long-conversations-and-speed):
 * for ANY valid transcript and ANY sequence of edits — append turns, edit a turn, pin or unpin
 * one, delete a turn, switch the target's API, change its model, change the budget or the turn
 * limit, leave turns out or omit images for a while — the plan made with the cache (its last plan's
 * per-turn results, report entries, counts and conversion reused) equals the plan a new cache
 * makes: plan.turns, dropped, report, stats, body, every field. Unchanged turns keep their objects
 * across edits (as the store's transcript cache does), so the last plan's results are really
 * offered (checked: some dropped entries came back from the last plan).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCache, plan } from '../../lib/context';
import type { Plan, Policy } from '../../lib/context/types';
import type { Transcript, Turn } from '../../lib/transcript/schema';
import type { ConvertTarget } from '../../lib/transcript/target';
import { textArb, transcriptArb } from './arbitraries';
import { withText, withTurnsIfValid } from './edits';

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
  ],
  'openai-responses': [
    { api: 'openai-responses', model: 'gpt-5.5' },
    { api: 'openai-responses', model: 'gpt-4.1', foreignReasoning: 'text' },
  ],
  'gemini-generate-content': [
    { api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
    { api: 'gemini-generate-content', model: 'gemini-2.5-flash', thinking: true },
  ],
  'gemini-interactions': [
    { api: 'gemini-interactions', model: 'gemini-2.5-pro' },
    { api: 'gemini-interactions', model: 'gemini-2.5-flash', thinking: true },
  ],
};
const APIS = Object.keys(TARGETS);

type Edit =
  | { kind: 'append'; turns: Turn[] }
  | { kind: 'edit'; at: number; text: string }
  | { kind: 'pin'; at: number }
  | { kind: 'delete'; at: number }
  | { kind: 'switch-target'; api: number }
  | { kind: 'change-model'; model: number }
  | { kind: 'change-budget'; maxTokens: number | undefined; maxTurns: number | undefined }
  | { kind: 'leave-out'; turns: number[]; images: boolean };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: transcriptArb.map((t) => ({ kind: 'append' as const, turns: t.turns.slice(0, 3) })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: textArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pin' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switch-target' as const), api: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('change-model' as const), model: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('change-budget' as const),
      maxTokens: fc.option(fc.integer({ min: 30, max: 4_000 }), { nil: undefined }),
      maxTurns: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('leave-out' as const),
      turns: fc.array(fc.nat(), { maxLength: 2 }),
      images: fc.boolean(),
    }),
  },
);

/** The transcript after `edit`; unchanged turns stay the same objects. Edits that would make it invalid are skipped. */
function applyEdit(t: Transcript, edit: Edit, step: number): Transcript {
  let turns: Turn[];
  const n = t.turns.length;
  if (edit.kind === 'append')
    turns = [...t.turns, ...edit.turns.map((turn) => ({ ...turn, id: `s${step}-${turn.id}` }))];
  else if (edit.kind === 'delete' && n > 0) turns = t.turns.filter((_, i) => i !== edit.at % n);
  else if (edit.kind === 'pin' && n > 0) {
    const at = edit.at % n;
    const old = t.turns[at]!;
    const pinned = old.meta?.pinned !== true;
    turns = t.turns.map((turn, k) => (k === at ? { ...old, meta: { ...old.meta, pinned } } : turn));
  } else if (edit.kind === 'edit' && n > 0) {
    const at = edit.at % n;
    // A new object for the edited turn, as the store makes.
    const edited = withText(t.turns[at]!, edit.text);
    turns = t.turns.map((turn, k) => (k === at ? edited : turn));
  } else return t;
  return withTurnsIfValid(t, turns);
}

/** Every field of the plan, as data (the lazy parts read in a fixed order). */
function data(p: Plan): unknown {
  return JSON.parse(JSON.stringify(p)) as unknown;
}

describe.each(APIS)('a re-plan through one cache equals a plan with a new cache → %s first', (api) => {
  it('over random transcripts and random edits', () => {
    let reused = 0;
    fc.assert(
      fc.property(
        transcriptArb,
        fc.array(editArb, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.integer({ min: 30, max: 4_000 }),
        (start, edits, m, maxTokens) => {
          const cache = createTokenCache();
          let apiIndex = APIS.indexOf(api);
          let modelIndex = m;
          let policy: Policy = { maxTokens };
          const target = (): ConvertTarget => {
            const list = TARGETS[APIS[apiIndex % APIS.length]!]!;
            return list[modelIndex % list.length]!;
          };
          let t = start;
          let last: Plan | undefined;
          const check = () => {
            const warm = plan(t, target(), policy, cache);
            // Read in another order than `data` reads (report first) on every other step.
            if (t.turns.length % 2 === 0) void warm.report;
            const cold = plan(t, target(), policy, createTokenCache());
            expect(data(warm)).toEqual(data(cold));
            if (last) {
              const before = new Set(last.dropped);
              reused += warm.dropped.filter((d) => before.has(d)).length;
            }
            last = warm;
          };
          check();
          edits.forEach((edit, step) => {
            if (edit.kind === 'switch-target') apiIndex += 1 + (edit.api % (APIS.length - 1));
            else if (edit.kind === 'change-model') modelIndex += 1 + edit.model;
            else if (edit.kind === 'change-budget') {
              const { maxTokens: _t, maxTurns: _n, ...rest } = policy;
              policy = {
                ...rest,
                ...(edit.maxTokens !== undefined ? { maxTokens: edit.maxTokens } : {}),
                ...(edit.maxTurns !== undefined ? { maxTurns: edit.maxTurns } : {}),
              };
            } else if (edit.kind === 'leave-out') {
              const { excludeTurns: _x, images: _i, ...rest } = policy;
              const ids = t.turns.length > 0 ? edit.turns.map((k) => t.turns[k % t.turns.length]!.id) : [];
              policy = {
                ...rest,
                ...(ids.length > 0 ? { excludeTurns: ids } : {}),
                ...(edit.images ? { images: 'omit' as const } : {}),
              };
            } else t = applyEdit(t, edit, step);
            check();
          });
        },
      ),
      { numRuns: 60 },
    );
    // The property is about reuse: some entries of a last plan must have been offered and taken.
    expect(reused).toBeGreaterThan(0);
  }, 180_000);
});
