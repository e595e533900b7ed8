/**
 * The context planner (docs/disclosure.md, "Context planner"): transcript + target + policy → what one
 * request would disclose. Pure: no network, no storage; token counts come from `tokens.ts` and
 * are cached per turn in a {@link TokenCache}.
 */
import { estimateCostUsd, lookupModel } from '../models/registry';
import type { ModelInfo } from '../models/types';
import { convertTranscript } from '../providers';
import type { ConvertResult } from '../providers/types';
import { TranscriptError } from '../transcript/codec';
import type { BlockReport } from '../transcript/report';
import type { Transcript, Turn } from '../transcript/schema';
import { isSameOrigin, resolveTarget, type ConvertTarget, type ResolvedTarget } from '../transcript/target';
import { corrected, fitTurns } from './fit';
import { contentHash } from './hash';
import { assembleReport, assembleSent, type SentReport } from './plan-report';
import { forbiddenReason, validatePolicy } from './policy';
import { planReuse, reuseCandidates, type PlanMemo, type PlanReuse } from './plan-memo';
import { leavesNothingOut, selectTurns, type Candidate, type Selection } from './select';
import {
  cachedCount,
  cachedTurnCount,
  cachedTurnKeyPart,
  correctionRatio,
  createTokenCache,
  type TokenCache,
} from './token-cache';
import {
  countRequestBase,
  countSystemPrompt,
  countTurn,
  isExactFamily,
  countingFamily,
  tokenizerFamily,
  type TurnCount,
  type TurnCountOptions,
} from './tokens';
import type { DroppedTurn, Plan, PlanTarget, Policy } from './types';

/** Internal options (used by `planSummary`). */
export interface PlanOptions {
  /** Never drop a turn to fit: a request that is too large is reported as not fitting. */
  keepAll?: boolean;
}

const FIT_DETAIL: Record<'over-budget' | 'over-max-turns', (p: Policy) => string> = {
  'over-budget': () => 'over the token budget: the oldest exchanges are dropped first',
  'over-max-turns': (p) => `over the turn limit (at most ${p.maxTurns} turns): the oldest exchanges are dropped first`,
};

/**
 * Plans one request of `transcript` to `target` under `policy` (merge global and conversation
 * policies first with `mergePolicies`).
 *
 * - Input budget = min(`policy.maxTokens`, context window − output reserve), in tokens; the
 *   output reserve is `target.maxOutputTokens`, else the registry's default output, clamped to
 *   the model's maximum (as the converters do).
 * - The person's exclusions and the image policy apply first (`select.ts`); then the oldest
 *   unpinned exchanges are dropped until the request fits (`fit.ts`). When even the pinned turns
 *   or the newest exchange do not fit, `fits` is false and `notFit` says why.
 * - The fitted transcript is converted with `convertTranscript` (policy `foreignReasoning`
 *   overrides the target's); the report maps every input block to its fate.
 * - A provider the policy forbids gives `allowed: false`, `forbidden`, nothing included and no body.
 *
 * @param cache token counts and corrections to reuse (recommended: one per conversation).
 * @throws TranscriptError for an invalid policy or `target.maxOutputTokens`.
 */
export function plan(transcript: Transcript, target: ConvertTarget, policy: Policy = {}, cache?: TokenCache): Plan {
  return planTranscript(transcript, target, policy, cache, {});
}

/** {@link plan} with internal options. */
export function planTranscript(
  transcript: Transcript,
  target: ConvertTarget,
  policy: Policy,
  cache: TokenCache | undefined,
  options: PlanOptions,
): Plan {
  validatePolicy(policy);
  let convertTarget: ConvertTarget = policy.foreignReasoning
    ? { ...target, foreignReasoning: policy.foreignReasoning }
    : target;
  // A-B3: the person's choice for Anthropic thinking whose conversation check fails (default drop_block).
  if (policy.prefixMismatchBehavior)
    convertTarget = { ...convertTarget, prefixMismatchBehavior: policy.prefixMismatchBehavior };
  const resolved = resolveTarget(convertTarget);
  const info = lookupModel(resolved.model, resolved.provider);
  const maxOutputTokens = outputReserve(resolved, info);
  const inputBudget = Math.max(0, Math.min(policy.maxTokens ?? Infinity, info.contextWindow - maxOutputTokens));
  // An OpenAI model whose rank table is not loaded yet is estimated, and labelled so (countingFamily).
  const family = countingFamily(tokenizerFamily(resolved.model));
  const ratio = isExactFamily(family) ? 1 : correctionRatio(cache, resolved.provider);
  const planTarget: PlanTarget = {
    api: resolved.api,
    model: resolved.model,
    provider: resolved.provider,
    ...(resolved.endpoint ? { endpoint: resolved.endpoint } : {}),
  };
  const common = {
    target: planTarget,
    tokenizer: family,
    contextWindow: info.contextWindow,
    maxOutputTokens,
    inputBudget,
    correction: ratio,
  };

  const forbidden = forbiddenReason(policy, resolved.provider);
  if (forbidden) {
    const dropped: DroppedTurn[] = transcript.turns.map((t) => ({
      turn: t.id,
      reason: 'provider-forbidden',
      detail: forbidden.message,
    }));
    const { report, stats } = assembleReport({
      transcript,
      included: new Map(),
      dropped,
      fates: new Map(),
      imagesOmitted: 0,
    });
    return {
      ...common,
      allowed: false,
      forbidden,
      estimatedInputTokens: 0,
      uncorrectedInputTokens: 0,
      systemTokens: 0,
      fits: false,
      included: [],
      dropped,
      turns: transcript.turns.map((t) => ({
        id: t.id,
        role: t.role,
        tokens: 0,
        included: false,
        pinned: t.meta?.pinned === true,
      })),
      stats,
      report,
    };
  }

  const store = cache ?? createTokenCache();
  // A model without vision gets no images (the converter drops them): count none.
  const omitForCount = policy.images === 'omit' || !info.vision;
  // docs/architecture.md#token-counts-with-the-turn: only counts in the model's own tokenizer are kept with the turns.
  const keep = family === tokenizerFamily(resolved.model);
  // A plan that leaves nothing out reuses the last plan's per-turn results for the turns it shares
  // with it (plan-memo.ts); the key is everything besides the turn that decides a turn's count.
  const plain = leavesNothingOut(policy);
  const countKey = plain
    ? `${JSON.stringify(resolved)}\u0001${family}\u0001${omitForCount ? 1 : 0}\u0001${keep ? 1 : 0}`
    : '';
  const reuse = plain ? planReuse(store.plan, transcript.turns, countKey) : undefined;
  const selection: Selection = plain
    ? { candidates: reuseCandidates(transcript.turns, reuse), removed: new Map(), fates: new Map(), imagesOmitted: 0 }
    : selectTurns(transcript.turns, policy);
  const { candidates } = selection;
  const counts = countCandidates(candidates, resolved, family, omitForCount, store, keep, reuse);
  const toolActivity = counts.some((c) => c.toolCalls);
  const systemKey = contentHash([transcript.system ?? null, transcript.tools ?? null]);
  const baseTokens = cachedCount(store, `${family}\u0001base\u0001${toolActivity ? 1 : 0}\u0001${systemKey}`, () => ({
    tokens: countRequestBase(transcript.system, transcript.tools, toolActivity, family),
    toolCalls: false,
  })).tokens;

  const tokens = counts.map((c) => c.tokens);
  const fit = fitTurns({
    turns: candidates,
    tokens,
    keepAll: options.keepAll === true,
    baseTokens,
    ratio,
    budget: inputBudget,
    ...(policy.maxTurns !== undefined ? { maxTurns: policy.maxTurns } : {}),
  });

  const n = transcript.turns.length;
  // Per input turn index: why it is not sent (undefined: sent). With includedByIndex a partition.
  const droppedByIndex = new Array<DroppedTurn | undefined>(n).fill(undefined);
  for (const [i, d] of selection.removed) droppedByIndex[i] = d;
  const includedByIndex = new Map<number, Candidate>();
  const kept: Candidate[] = [];
  const tokensByIndex: number[] = new Array<number>(n).fill(0);
  // One detail string per reason for the whole plan (the report's memo compares them).
  const details: Partial<Record<'over-budget' | 'over-max-turns', string>> = {};
  const same = reuse?.same ?? 0;
  const priorDropped = reuse?.memo.dropped;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    tokensByIndex[c.index] = tokens[i]!;
    const reason = fit.dropped[i] as 'over-budget' | 'over-max-turns' | undefined;
    if (reason === undefined) {
      kept.push(c);
      includedByIndex.set(c.index, c);
      continue;
    }
    const detail = (details[reason] ??= FIT_DETAIL[reason](policy));
    // The last plan's entry for the same turn at the same place, when it says the same: its
    // identity then tells the report that the turn's entries are the last report's (plan-memo.ts).
    const old = c.index < same ? priorDropped![c.index] : undefined;
    droppedByIndex[c.index] =
      old !== undefined && old.reason === reason && old.detail === detail ? old : { turn: c.turn.id, reason, detail };
  }
  const droppedList: DroppedTurn[] = [];
  for (let i = 0; i < n; i++) {
    const d = droppedByIndex[i];
    if (d !== undefined) droppedList.push(d);
  }
  const memo: PlanMemo | undefined = plain
    ? { turns: transcript.turns.slice(), countKey, candidates, counts, dropped: droppedByIndex }
    : undefined;
  if (memo) store.plan = memo;

  const estimatedInputTokens = corrected(fit.tokens, ratio);
  const cost = estimateCostUsd(info, { inputTokens: estimatedInputTokens });
  const result: Omit<Plan, keyof Lazy> & Pick<Lazy, 'turns'> = {
    ...common,
    allowed: true,
    estimatedInputTokens,
    uncorrectedInputTokens: fit.tokens,
    systemTokens: corrected(countSystemPrompt(transcript.system, family), ratio),
    ...(cost !== undefined ? { estimatedCostUsd: cost } : {}),
    fits: fit.fits,
    ...(fit.notFit ? { notFit: fit.notFit } : {}),
    included: kept.map((c) => c.turn.id),
    dropped: droppedList,
    // Built on first read (below): a counts-only preview of a long conversation never reads it.
    turns: [],
  };
  let conversion: { sent: SentReport; transcript: Transcript; result: ConvertResult } | undefined;
  // The conversion (the costly part for long histories) runs when its results are first read.
  const convert = () => {
    if (conversion) return conversion;
    store.stored?.checkSent?.(kept.map((c) => c.turn));
    const fitted: Transcript = { ...transcript, turns: kept.map((c) => c.sent) };
    const converted = convertCached(store, fitted, kept, convertTarget, resolved, systemKey, policy.images === 'omit');
    // The entries and counts of the sent turns only; the report's entries for the turns not sent
    // are built when the report itself is first read (docs/architecture.md#the-path-index).
    const sent = assembleSent({
      transcript,
      included: includedByIndex,
      dropped: droppedByIndex,
      fates: selection.fates,
      converted: converted.result.report,
      imagesOmitted: selection.imagesOmitted,
    });
    conversion = { sent, transcript: converted.transcript, result: converted.result };
    return conversion;
  };
  const planned = withLazy(result, {
    turns: () =>
      transcript.turns.map((t, i) => ({
        id: t.id,
        role: t.role,
        tokens: tokensByIndex[i]!,
        included: includedByIndex.has(i),
        pinned: t.meta?.pinned === true,
      })),
    report: () => {
      const prior = reuse?.memo.report;
      const built = assembleReport(
        {
          transcript,
          included: includedByIndex,
          dropped: droppedByIndex,
          fates: selection.fates,
          converted: convert().result.report,
          imagesOmitted: selection.imagesOmitted,
          memo: store.reports,
          ...(reuse && prior ? { prior: { same: reuse.same, dropped: reuse.memo.dropped, ...prior } } : {}),
        },
        convert().sent,
      );
      // A copy of the list: the caller owns the report it is handed.
      if (memo) memo.report = { blocks: built.report.blocks.slice(), offsets: built.offsets };
      return built.report;
    },
    stats: () => convert().sent.stats,
    transcript: () => convert().transcript,
    body: () => convert().result.body,
    headers: () => convert().result.headers,
  });
  SENT.set(planned, () => convert().sent.turns);
  return planned;
}

/** Per plan made here: the report entries of its included turns (see {@link sentBlockReports}). */
const SENT = new WeakMap<Plan, () => readonly (readonly BlockReport[])[]>();

/**
 * The entries `plan.report.blocks` holds for the blocks of the included turns, in order, without
 * building the report's entries for the turns not sent (a counts-only preview of a long
 * conversation needs these only: docs/architecture.md#the-path-index). Runs the plan's conversion
 * if it has not run yet.
 */
export function sentBlockReports(plan: Plan): readonly BlockReport[] {
  const sent = SENT.get(plan);
  if (sent) return sent().flat();
  const ids = new Set(plan.included);
  return plan.report.blocks.filter((b) => ids.has(b.turn));
}

type Lazy = Pick<Plan, 'turns' | 'report' | 'stats' | 'transcript' | 'body' | 'headers'>;

/**
 * Makes each key of `compute` an enumerable property of `plan` computed on its first read (then
 * plain data), so `JSON.stringify`, structured clone and spreads see them; a key already in `plan`
 * keeps its place. The computations share their work through the caller's closures (the
 * conversion runs once for `stats`, `transcript`, `body`, `headers` and `report`).
 */
function withLazy(plan: Omit<Plan, keyof Lazy> & Partial<Lazy>, compute: { [K in keyof Lazy]-?: () => Lazy[K] }): Plan {
  for (const key of Object.keys(compute) as (keyof Lazy)[]) {
    Object.defineProperty(plan, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = compute[key]();
        Object.defineProperty(plan, key, { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
      set(value: unknown) {
        Object.defineProperty(plan, key, { value, enumerable: true, writable: true, configurable: true });
      },
    });
  }
  return plan as Plan;
}

/** Output reserve in tokens: the target's limit, else the registry default; never above a known model's maximum. */
function outputReserve(target: ResolvedTarget, info: ModelInfo): number {
  const asked = target.maxOutputTokens;
  if (asked !== undefined && !(Number.isSafeInteger(asked) && asked > 0))
    throw new TranscriptError('target.maxOutputTokens', `expected a positive integer (tokens), got ${String(asked)}`);
  const tokens = asked ?? info.defaultOutputTokens;
  return info.known ? Math.min(tokens, info.maxOutputTokens) : tokens;
}

/** Per candidate: its uncorrected count, cached by family, counting flags, turn id and content hash. */
function countCandidates(
  candidates: readonly Candidate[],
  target: ResolvedTarget,
  family: ReturnType<typeof tokenizerFamily>,
  omitImages: boolean,
  cache: TokenCache,
  keep: boolean,
  reuse?: PlanReuse,
): TurnCount[] {
  const reasoningAsText = target.foreignReasoning === 'text';
  // The memo's counts for the turns it shares with this plan (same objects, same places, same
  // target and variants: plan-memo.ts); only the rest are looked up.
  const from = reuse?.same ?? 0;
  // Filled in order from `from` (each store appends), so the list stays packed.
  const out: TurnCount[] = from > 0 ? reuse!.memo.counts.slice(0, from) : [];
  // Variant keys: family and counting options (same origin, reasoning as text, images omitted).
  const flags = `${reasoningAsText ? 't' : 'd'}${omitImages ? 'o' : 's'}`;
  const same = `${family}:same:${flags}`;
  const other = `${family}:other:${flags}`;
  const sameOpts: TurnCountOptions = { family, sameOrigin: true, reasoningAsText, omitImages };
  const otherOpts: TurnCountOptions = { family, sameOrigin: false, reasoningAsText, omitImages };
  let lastAssistantSame = false;
  // Same-origin status at `from`: the nearest turn before it that is not a tool turn says.
  for (let j = from - 1; j >= 0; j--) {
    const turn = candidates[j]!.turn;
    if (turn.role === 'tool') continue;
    if (turn.role === 'assistant') lastAssistantSame = isSameOrigin(turn.origin, target);
    break;
  }
  for (let i = from; i < candidates.length; i++) {
    const { turn, skip } = candidates[i]!;
    let sameOrigin = false;
    if (turn.role === 'assistant') sameOrigin = lastAssistantSame = isSameOrigin(turn.origin, target);
    else if (turn.role === 'tool') sameOrigin = lastAssistantSame;
    else lastAssistantSame = false;
    if (skip && skip.size > 0)
      out[i] = countTurn(turn, { ...(sameOrigin ? sameOpts : otherOpts), skip }); // Rare: not cached.
    else
      out[i] = sameOrigin
        ? cachedTurnCount(cache, turn, same, sameOpts, keep)
        : cachedTurnCount(cache, turn, other, otherOpts, keep);
  }
  return out;
}

/** Converts the fitted transcript, reusing the cache's last conversion when nothing that matters changed. */
function convertCached(
  cache: TokenCache,
  fitted: Transcript,
  kept: readonly Candidate[],
  target: ConvertTarget,
  resolved: ResolvedTarget,
  systemKey: string,
  omitImages: boolean,
): { transcript: Transcript; result: ConvertResult } {
  const head = `${JSON.stringify(resolved)}\u0001${systemKey}\u0001${omitImages ? '1' : '0'}`;
  const last = cache.conversion;
  // The same turn objects (none with blocks left out) give the same key: no need to build it.
  if (last && last.head === head && sameTurns(last.turns, kept)) return { transcript: fitted, result: last.result };
  const parts: string[] = [head];
  let anySkip = false;
  for (const c of kept) {
    const part = cachedTurnKeyPart(cache, c.turn);
    if (c.skip && c.skip.size > 0) {
      anySkip = true;
      parts.push(`${part}\u0000${[...c.skip].join(',')}`);
    } else parts.push(part);
  }
  const key = parts.join('\u0001');
  const turns = anySkip ? [] : kept.map((c) => c.turn);
  if (last?.key === key) {
    cache.conversion = { ...last, head, turns };
    return { transcript: fitted, result: last.result };
  }
  const result = convertTranscript(fitted, target, { cache: cache.conversions });
  cache.conversion = { key, result, head, turns };
  return { transcript: fitted, result };
}

/** True when `kept` sends exactly the turn objects `turns` holds, whole (`turns` is empty when blocks were left out). */
function sameTurns(turns: readonly Turn[], kept: readonly Candidate[]): boolean {
  if (turns.length === 0 || turns.length !== kept.length) return false;
  for (let i = kept.length - 1; i >= 0; i--) {
    const c = kept[i]!;
    if (c.turn !== turns[i] || (c.skip && c.skip.size > 0)) return false;
  }
  return true;
}
