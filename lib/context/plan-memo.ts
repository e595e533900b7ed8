/**
 * What one plan leaves for the next plan through the same {@link TokenCache} (one slot), so that
 * re-planning a conversation grown by a turn does per-turn work only for the turns that changed
 * (docs/architecture.md#long-conversations-and-speed). Without it every plan walks every turn of
 * a 10,000-turn conversation several times (candidates, counts, the dropped list, the report),
 * which is most of a preview after an append once conversion and counting are cached.
 *
 * Kept only for plans with nothing left out by the person (no exclusions, images sent): then a
 * turn's candidate depends on the turn and its index alone, and a turn not sent has no fate of its
 * own, so its report entries depend on the turn and the reason's text only.
 */
import type { BlockReport } from '../transcript/report';
import type { Turn } from '../transcript/schema';
import { plainCandidate, type Candidate } from './select';
import type { TurnCount } from './tokens';
import type { DroppedTurn } from './types';

/** The part of a plan the next plan of the same turns may reuse, position by position. */
export interface PlanMemo {
  /** The planned turns, copied: the caller's array may change after the plan. */
  turns: readonly Turn[];
  /**
   * Everything besides the turns that decides a turn's count: the resolved target (which
   * decides same-origin status) and the counting variants. A plan under another key reuses nothing.
   */
  countKey: string;
  /** Per input turn (all of them are candidates here). */
  candidates: readonly Candidate[];
  /** Per input turn: its uncorrected count, as `countCandidates` gave it. */
  counts: readonly TurnCount[];
  /**
   * Per input turn: why it is not sent, or undefined when it is sent. An entry of the next plan
   * is this very object only when it is the same turn at the same position, not sent for the same
   * reason with the same text (so identity is the test that its report entries are these).
   */
  dropped: readonly (DroppedTurn | undefined)[];
  /** Set when the plan's report was built: its entries, and where turn `i`'s start (`offsets[i]`, `offsets[turns.length]` = total). */
  report?: { blocks: readonly BlockReport[]; offsets: Int32Array };
}

/** How much of `memo` a plan of `turns` under `countKey` may reuse: the first `same` turns. */
export interface PlanReuse {
  memo: PlanMemo;
  /** Length of the common prefix: `turns[i] === memo.turns[i]` for every `i < same`. */
  same: number;
}

/** The reusable part of `memo` for `turns` under `countKey`, or undefined when nothing is. */
export function planReuse(memo: PlanMemo | undefined, turns: readonly Turn[], countKey: string): PlanReuse | undefined {
  if (memo === undefined || memo.countKey !== countKey) return undefined;
  const old = memo.turns;
  const n = Math.min(old.length, turns.length);
  let same = 0;
  while (same < n && old[same] === turns[same]) same++;
  return same > 0 ? { memo, same } : undefined;
}

/** The candidates of `turns` (nothing left out by the person): the memo's for the common prefix. */
export function reuseCandidates(turns: readonly Turn[], reuse: PlanReuse | undefined): Candidate[] {
  const from = reuse?.same ?? 0;
  const out = from > 0 ? reuse!.memo.candidates.slice(0, from) : [];
  for (let i = from; i < turns.length; i++) out.push(plainCandidate(turns[i]!, i));
  return out;
}
