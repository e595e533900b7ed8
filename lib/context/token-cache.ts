/**
 * The planner's cache: token counts per turn (keyed by turn id, content hash, tokenizer family
 * and counting options), the correction learned from reported usage per provider, and the last
 * conversion, so re-planning a long conversation re-counts and re-converts only what changed.
 * Plain data plus maps; the caller keeps one per conversation (or one per session) in memory.
 */
import { TranscriptError } from '../transcript/codec';
import type { ConvertResult } from '../providers/types';
import { createConversionCache, type ConversionCache } from '../providers';
import type { Turn } from '../transcript/schema';
import { turnContentHash } from './hash';
import type { PlanMemo } from './plan-memo';
import type { ReportMemo } from './plan-report';
import { countTurn, type TurnCount, type TurnCountOptions } from './tokens';

/** Reported against estimated input tokens, summed per provider. */
export interface Correction {
  /** Input tokens the provider reported (tokens). */
  actual: number;
  /** Baton's uncorrected estimates for the same requests (tokens). */
  estimated: number;
}

export interface TokenCache {
  /** `family|flags|turnId|contentHash` → count. Cleared when it grows past {@link MAX_CACHED_TURNS}. */
  turns: Map<string, TurnCount>;
  /** Provider id → usage reported against estimates (see {@link recordUsage}). */
  correction: Record<string, Correction>;
  /**
   * Per turn object: its content hash and the last count looked up for it. Turns are treated as
   * immutable (the store and the stream assembler make a new object for every change); a turn
   * edited in place must not be planned again with the same cache.
   */
  memo: WeakMap<Turn, TurnMemo>;
  /**
   * The last conversion (one slot): reused when the fitted transcript and target are the same.
   * `turns` and `head` (target, system and image flag) let a plan of the same turn objects skip
   * building `key`.
   */
  conversion?: { key: string; result: ConvertResult; head: string; turns: readonly Turn[] };
  /** Report entries of turns not sent, per turn object (`plan-report.ts`). */
  reports: ReportMemo;
  /**
   * The last plan's per-turn results (one slot), for the next plan of the same turns
   * (`plan-memo.ts`); only plans that leave nothing out keep one.
   */
  plan?: PlanMemo | undefined;
  /** Per-turn pre-pass results for the next conversion (docs/architecture.md#incremental-conversion). */
  conversions: ConversionCache;
  /** Counts kept with the stored turns, read before counting (docs/architecture.md#token-counts-with-the-turn). */
  stored?: StoredCounts | undefined;
}

/**
 * Token counts kept with the turns themselves (e.g. on the stored turn record), keyed by
 * `variant`: the tokenizer id (family) and counting options, as {@link cachedTurnCount} names them.
 * The source must give a count only for the turn as it is now (an edited turn is a new turn object
 * and a new record, without counts), so a plan reads counts instead of hashing and tokenising.
 */
export interface StoredCounts {
  /** The count kept with `turn` under `variant`, if any. */
  get(turn: Turn, variant: string): TurnCount | undefined;
  /** Called with every count the planner had to look up or compute (not read here), to be kept with the turn. */
  set?(turn: Turn, variant: string, count: TurnCount): void;
  /**
   * Called with the turns a plan sends, before they are converted: may throw when one of them is
   * not a turn that can be sent (a bounded read's stand-in, docs/architecture.md#the-path-index).
   */
  checkSent?(turns: readonly Turn[]): void;
}

/** What the cache remembers about one turn object. */
export interface TurnMemo {
  hash: string;
  /** The turn's part of the conversion key (`id`, NUL, `hash`). */
  keyPart?: string;
  /** The counting variant (family and options) of {@link count}. */
  variant?: string;
  count?: TurnCount;
}

/** Entries kept before the turn map is cleared (bounds memory for very long sessions). */
export const MAX_CACHED_TURNS = 100_000;
/** Once a provider's summed estimates pass this many tokens, both sums are halved, so recent usage weighs more. */
export const CORRECTION_DECAY_TOKENS = 2_000_000;
/** The correction ratio is kept within these bounds (a wild report cannot make estimates absurd). */
export const CORRECTION_BOUNDS = { min: 0.5, max: 2 } as const;

/** A new, empty cache; `stored`: counts kept with the turns (see {@link StoredCounts}). */
export function createTokenCache(options: { stored?: StoredCounts } = {}): TokenCache {
  return {
    turns: new Map(),
    correction: {},
    memo: new WeakMap(),
    reports: new WeakMap(),
    conversions: createConversionCache(),
    ...(options.stored ? { stored: options.stored } : {}),
  };
}

/** The turn's content hash, computed once per turn object. */
export function cachedTurnHash(cache: TokenCache, turn: Turn): string {
  return memoOf(cache, turn).hash;
}

/** The turn's part of the plan's conversion key: its id and content hash, built once per turn object. */
export function cachedTurnKeyPart(cache: TokenCache, turn: Turn): string {
  const m = memoOf(cache, turn);
  return (m.keyPart ??= `${turn.id}\u0000${m.hash}`);
}

function memoOf(cache: TokenCache, turn: Turn): TurnMemo {
  let m = cache.memo.get(turn);
  if (m === undefined) {
    m = { hash: turnContentHash(turn) };
    cache.memo.set(turn, m);
  }
  return m;
}

/**
 * The count of `turn` under `variant` (tokenizer family and counting options), looked up by
 * `variant`, turn id and content hash; counted (with `opts`, which `variant` must describe) only on a miss. The same turn object asked
 * again with the same variant skips the lookup. `keep` false: the count is not handed to
 * {@link StoredCounts.set} (an estimate standing in for an exact tokenizer not loaded yet).
 */
export function cachedTurnCount(
  cache: TokenCache,
  turn: Turn,
  variant: string,
  opts: TurnCountOptions,
  keep = true,
): TurnCount {
  const seen = cache.memo.get(turn);
  if (seen !== undefined && seen.variant === variant && seen.count !== undefined) return seen.count;
  // A count kept with the turn needs neither its hash nor the tokenizer.
  const kept = cache.stored?.get(turn, variant);
  if (kept !== undefined) return kept;
  const m = seen ?? memoOf(cache, turn);
  const key = `${variant}\u0000${turn.id}\u0000${m.hash}`;
  let count = cache.turns.get(key);
  if (count === undefined) {
    count = countTurn(turn, opts);
    if (cache.turns.size >= MAX_CACHED_TURNS) cache.turns.clear();
    cache.turns.set(key, count);
  }
  if (keep) cache.stored?.set?.(turn, variant, count);
  m.variant = variant;
  m.count = count;
  return count;
}

/** Looks a count up, or computes and stores it. */
export function cachedCount(cache: TokenCache, key: string, compute: () => TurnCount): TurnCount {
  let c = cache.turns.get(key);
  if (c === undefined) {
    c = compute();
    if (cache.turns.size >= MAX_CACHED_TURNS) cache.turns.clear();
    cache.turns.set(key, c);
  }
  return c;
}

/**
 * Records what a provider reported for a request whose input Baton had estimated, to correct
 * later estimates for that provider (Claude, Gemini and other estimated families; exact OpenAI
 * counts are never corrected).
 * @param provider the provider id the request went to.
 * @param estimatedTokens the plan's `uncorrectedInputTokens` for that request (tokens).
 * @param actualInputTokens all input tokens the provider reported, cached ones included
 *   (Anthropic: `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`; Gemini:
 *   `promptTokenCount`; OpenAI: `input_tokens` / `prompt_tokens`).
 * @throws TranscriptError when a count is not a non-negative finite number.
 */
export function recordUsage(
  cache: TokenCache,
  provider: string,
  estimatedTokens: number,
  actualInputTokens: number,
): void {
  for (const [name, v] of [
    ['estimatedTokens', estimatedTokens],
    ['actualInputTokens', actualInputTokens],
  ] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new TranscriptError(name, `must be a non-negative number of tokens, got ${String(v)}`);
  }
  if (estimatedTokens === 0) return;
  const c = (cache.correction[provider] ??= { actual: 0, estimated: 0 });
  c.actual += actualInputTokens;
  c.estimated += estimatedTokens;
  while (c.estimated > CORRECTION_DECAY_TOKENS) {
    c.actual /= 2;
    c.estimated /= 2;
  }
}

/** actual / estimated for `provider`, within {@link CORRECTION_BOUNDS}; 1 before any usage was recorded. */
export function correctionRatio(cache: TokenCache | undefined, provider: string): number {
  const c = cache?.correction[provider];
  if (!c || c.estimated <= 0) return 1;
  return Math.min(CORRECTION_BOUNDS.max, Math.max(CORRECTION_BOUNDS.min, c.actual / c.estimated));
}
