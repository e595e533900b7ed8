/**
 * Planner properties over generated transcripts (docs/disclosure.md, "Tests"): never over budget when it
 * says it fits, never a split tool pair, never starting on an assistant turn, pinned turns always
 * kept, the oldest exchanges go first, deterministic, and a warm cache never changes the answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../test/contract';
import { transcriptArb } from '../../test/property/arbitraries';
import { growOneTurnAtATime, growthPartsArb } from '../../test/property/grow';
import type { Transcript } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { plan, sentBlockReports } from './plan';
import { createTokenCache } from './token-cache';
import type { Policy } from './types';

const TARGETS: ConvertTarget[] = [
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  { api: 'openai-chat', model: 'gpt-4o' },
  { api: 'openai-responses', model: 'gpt-5.5' },
  { api: 'gemini-generate-content', model: 'gemini-2.5-flash' },
];

/** The targets of the growth case below: the five wire APIs. */
const GROWTH_TARGETS: ConvertTarget[] = [...TARGETS, { api: 'gemini-interactions', model: 'gemini-2.5-flash' }];

/** Generated transcripts with some turns pinned. */
const pinnedTranscriptArb: fc.Arbitrary<Transcript> = transcriptArb.chain((t) =>
  fc
    .subarray(
      t.turns.map((x) => x.id),
      { maxLength: Math.min(3, t.turns.length) },
    )
    .map((pinned) => ({
      ...t,
      turns: t.turns.map((x) => (pinned.includes(x.id) ? { ...x, meta: { ...x.meta, pinned: true } } : x)),
    })),
);

const policyArb: fc.Arbitrary<Policy> = fc.record(
  { maxTokens: fc.integer({ min: 1, max: 6_000 }), maxTurns: fc.integer({ min: 1, max: 12 }) },
  { requiredKeys: [] },
);

describe.each(TARGETS.map((t) => [`${t.api} ${t.model}`, t] as const))('plan properties → %s', (_name, target) => {
  it('the sent turns’ report entries are the report’s for the included turns, and reading them first changes nothing', () => {
    fc.assert(
      fc.property(
        pinnedTranscriptArb.chain((t) =>
          fc.tuple(
            fc.constant(t),
            policyArb,
            fc.subarray(
              t.turns.map((x) => x.id),
              { maxLength: Math.min(2, t.turns.length) },
            ),
          ),
        ),
        ([t, policy, excludeTurns]) => {
          const withExclusions: Policy = excludeTurns.length > 0 ? { ...policy, excludeTurns } : policy;
          const first = plan(t, target, withExclusions, createTokenCache());
          const sent = sentBlockReports(first);
          const other = plan(t, target, withExclusions, createTokenCache());
          const included = new Set(other.included);
          expect(sent).toEqual(other.report.blocks.filter((b) => included.has(b.turn)));
          // The plan read in another order (report last, per-turn list last) is the same data.
          expect(JSON.parse(JSON.stringify(first))).toEqual(JSON.parse(JSON.stringify(other)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fits within the budget, keeps pairs, pins and the newest exchange, drops oldest first', () => {
    fc.assert(
      fc.property(pinnedTranscriptArb, policyArb, (t, policy) => {
        const p = plan(t, target, policy);
        const included = new Set(p.included);
        const turns = t.turns;

        // Never over budget (or over maxTurns) when it says it fits; otherwise it says why.
        if (p.fits) {
          expect(p.estimatedInputTokens).toBeLessThanOrEqual(p.inputBudget);
          if (policy.maxTurns !== undefined) expect(p.included.length).toBeLessThanOrEqual(policy.maxTurns);
        } else {
          expect(p.notFit).toBeDefined();
          expect(p.notFit!.required).toBeGreaterThan(p.notFit!.allowed);
        }
        // Never a split tool pair: a tool turn goes with the assistant turn it answers.
        turns.forEach((x, i) => {
          if (x.role !== 'tool') return;
          let j = i - 1;
          while (j >= 0 && turns[j]!.role === 'tool') j--;
          if (j >= 0 && turns[j]!.role === 'assistant') expect(included.has(x.id)).toBe(included.has(turns[j]!.id));
        });
        // Never starting on an assistant turn (unless the transcript itself does and nothing before it was dropped).
        if (p.included.length > 0 && p.included[0] !== turns[0]!.id)
          expect(turns.find((x) => x.id === p.included[0])!.role).toBe('user');
        // Pinned turns are always kept.
        for (const x of turns) if (x.meta?.pinned === true) expect(included.has(x.id)).toBe(true);
        // The newest exchange (from the last user turn on) is always sent.
        const lastUser = turns.map((x) => x.role).lastIndexOf('user');
        for (const x of turns.slice(Math.max(0, lastUser))) expect(included.has(x.id)).toBe(true);
        // Oldest first: a dropped turn has no included turn of an unpinned exchange before it.
        const exchange = exchangeIndex(t);
        const pinnedExchange = new Set(turns.filter((x) => x.meta?.pinned === true).map((x) => exchange.get(x.id)));
        const lastDropped = turns.map((x) => x.id).findLastIndex((id) => !included.has(id));
        if (lastDropped >= 0)
          turns.slice(0, lastDropped).forEach((x) => {
            if (!pinnedExchange.has(exchange.get(x.id))) expect(included.has(x.id)).toBe(false);
          });
        // Every dropped turn has a reason; included and dropped partition the turns.
        expect(p.included.length + p.dropped.length).toBe(turns.length);
        for (const d of p.dropped) expect(['over-budget', 'over-max-turns']).toContain(d.reason);
        // The report names every input block once, in order.
        expect(p.report.blocks.map((b) => `${b.turn}#${b.index}`)).toEqual(
          turns.flatMap((x) => x.blocks.map((_, k) => `${x.id}#${k}`)),
        );
        // The body is a valid request for the target.
        if (p.included.length > 0) expect(validateRequest(target.api, p.body, { model: target.model })).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic, and a warm cache gives the same plan as none', () => {
    const cache = createTokenCache();
    fc.assert(
      fc.property(pinnedTranscriptArb, policyArb, (t, policy) => {
        const cold = JSON.stringify(plan(t, target, policy));
        expect(JSON.stringify(plan(t, target, policy))).toBe(cold);
        expect(JSON.stringify(plan(t, target, policy, cache))).toBe(cold);
        expect(JSON.stringify(plan(structuredClone(t), target, policy, cache))).toBe(cold);
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * docs/architecture.md#long-conversations-and-speed: a conversation grown one turn at a time and
 * planned after every append through one cache (its memos, conversion slot and prefix snapshots
 * reused) gives, at every step, the plan a new cache gives — plan.turns, dropped, report, stats,
 * body — under budgets that drop turns, exclusions and the image policy.
 */
describe.each(GROWTH_TARGETS.map((t) => [`${t.api} ${t.model}`, t] as const))(
  'a conversation grown one turn at a time, planned with reused caches → %s',
  (_name, target) => {
    const growthPolicyArb: fc.Arbitrary<Policy> = fc.record(
      {
        maxTokens: fc.integer({ min: 50, max: 6_000 }),
        maxTurns: fc.integer({ min: 1, max: 12 }),
        images: fc.constantFrom('omit' as const, 'send' as const),
        excludeTurns: fc.array(fc.constantFrom('p0-t1', 'p1-t0', 'p1-t2'), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    );
    it('gives the cold plan after every append', () => {
      fc.assert(
        fc.property(growthPartsArb(4), growthPolicyArb, (parts, policy) => {
          const cache = createTokenCache();
          const t = growOneTurnAtATime(parts, (grown) => {
            expect(JSON.stringify(plan(grown, target, policy, cache))).toBe(
              JSON.stringify(plan(grown, target, policy)),
            );
          });
          // Planned again unchanged: the conversion slot is reused and the answer is the same.
          expect(JSON.stringify(plan(t, target, policy, cache))).toBe(JSON.stringify(plan(t, target, policy)));
        }),
        { numRuns: 25 },
      );
    }, 120_000);
  },
);

/** Turn id → index of its exchange (a new exchange at every user turn). */
function exchangeIndex(t: Transcript): Map<string, number> {
  const out = new Map<string, number>();
  let e = 0;
  t.turns.forEach((x, i) => {
    if (x.role === 'user' && i > 0) e++;
    out.set(x.id, e);
  });
  return out;
}
