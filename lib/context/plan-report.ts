/**
 * The plan's report: the converter's report for the fitted transcript, mapped back to the input
 * transcript's block indices, with a `dropped` fate for every block that is not sent.
 */
import type { BlockFate, BlockReport, ConversionReport } from '../transcript/report';
import type { Transcript, Turn } from '../transcript/schema';
import { blockKey, type Candidate } from './select';
import type { DroppedTurn, PlanStats, ReasoningUnusedReason, ToolsWithReasoning } from './types';

export interface ReportInput {
  transcript: Transcript;
  /** Included candidates by input turn index, in input order. */
  included: Map<number, Candidate>;
  /**
   * Dropped turns by input turn index (undefined: not dropped). With `included` it partitions the
   * input turns: a turn is in exactly one of them.
   */
  dropped: readonly (DroppedTurn | undefined)[];
  /** Block fates from the person's choices (`select.ts`). */
  fates: Map<string, BlockFate>;
  /** The converter's report for the fitted transcript (absent when nothing was converted). */
  converted?: ConversionReport;
  /** Images removed by the policy. */
  imagesOmitted: number;
  /**
   * Entries already built for turns not sent, reused while the turn object and the reason are the
   * same (a conversation grown by a turn re-plans in ~the new turns' time). Optional: the report is
   * the same without it.
   */
  memo?: ReportMemo;
  /**
   * The report of an earlier plan whose first `same` turns are these very turn objects, made with
   * no fates of the person's choices (`plan-memo.ts`): a turn below `same` whose `dropped` entry is
   * the earlier plan's very object (the memo reuses it only for the same reason and text) takes its
   * entries from there, a run at a time. Optional: the report is the same without it.
   */
  prior?: PriorReport;
}

/** See {@link ReportInput.prior}. */
export interface PriorReport {
  same: number;
  dropped: readonly (DroppedTurn | undefined)[];
  blocks: readonly BlockReport[];
  /** Where each turn's entries start in `blocks` (one more than the turns: the end). */
  offsets: Int32Array;
}

/** What {@link assembleReport} keeps per turn object between plans (a `TokenCache` holds one). */
export type ReportMemo = WeakMap<Turn, NotSentEntries>;

/** The report entries of a turn that is not sent, for one reason (`detail`). */
export interface NotSentEntries {
  /** The {@link DroppedTurn.detail} they were built for (undefined: no reason given). */
  detail: string | undefined;
  blocks: readonly BlockReport[];
}

/** The entries of a turn that is not sent and has no fate of its own from the person's choices. */
function notSentEntries(turn: Turn, detail: string | undefined): NotSentEntries {
  const text = detail !== undefined ? `turn not sent: ${detail}` : 'turn not sent';
  const blocks: BlockReport[] = [];
  for (let k = 0; k < turn.blocks.length; k++)
    blocks.push({ turn: turn.id, index: k, fates: [{ fate: 'dropped', detail: text }] });
  return { detail, blocks };
}

/** Why a dropped reasoning block is not sent, from the rule its fate cites; undefined for other drops. */
function unusedReason(fates: readonly BlockFate[]): ReasoningUnusedReason | undefined {
  const detail = fates
    .filter((f) => f.fate === 'dropped')
    .map((f) => f.detail)
    .join(' ');
  if (/A-B4/.test(detail)) return 'other-account';
  if (/A-B5/.test(detail)) return 'dropped-earlier';
  if (/A-P1/.test(detail)) return 'summarised';
  if (/\(X3\b|A-B1/.test(detail)) return 'other-model';
  return undefined;
}

/** The Chat converter's C-T9 warnings, by how each begins (convert-to-openai-chat.ts). */
const TOOLS_WITH_REASONING: readonly [RegExp, ToolsWithReasoning['outcome']][] = [
  [/^reasoning_effort set to none: (\S+) .*\(C-T9\b/, 'effort-none'],
  [/^function tools left out: (\S+) .*\(C-T9\b/, 'tools-left-out'],
  [/^stub tool definitions left out: (\S+) .*\(C-T9\b/, 'stub-tools-left-out'],
];

/** C-T9: what the converter changed about tools and reasoning effort, from its report; undefined when nothing. */
export function toolsWithReasoningOf(warnings: readonly string[]): ToolsWithReasoning | undefined {
  for (const w of warnings)
    for (const [re, outcome] of TOOLS_WITH_REASONING) {
      const m = re.exec(w);
      if (m) return { outcome, model: m[1]! };
    }
  return undefined;
}

/**
 * What {@link assembleSent} gives: the report entries of the turns that are sent, and the summary
 * counts, which depend on those turns only.
 */
export interface SentReport {
  /** Per included turn, in input order: its blocks' entries (what the report holds for them). */
  turns: BlockReport[][];
  stats: PlanStats;
}

/**
 * The report entries of the included turns and the summary counts, in one pass over their blocks
 * alone: a turn that is not sent adds no count, so a plan that keeps 500 of 10,000 turns looks at
 * 500 (docs/architecture.md#the-path-index). `included` must be in input order (the planner's is).
 */
export function assembleSent(input: Omit<ReportInput, 'memo'>): SentReport {
  const { transcript, included, fates, converted } = input;
  const convertedBlocks = converted?.blocks ?? [];
  let cursor = 0;
  const turns: BlockReport[][] = [];
  const stats: PlanStats = {
    turns: transcript.turns.length,
    includedTurns: included.size,
    thinkingDropped: 0,
    imagesOmitted: input.imagesOmitted,
    blocksDropped: 0,
  };
  const unused: Partial<Record<ReasoningUnusedReason, Map<string, number>>> = {};
  for (const [i, candidate] of included) {
    const turn = transcript.turns[i]!;
    const blocks: BlockReport[] = [];
    // Blocks of the sent turn, in order, map back to input indices.
    const sentFates: BlockFate[][] = [];
    for (let j = 0; j < candidate.sent.blocks.length; j++) {
      const r = convertedBlocks[cursor];
      if (r && r.turn === turn.id && r.index === j) {
        sentFates.push(r.fates);
        cursor++;
      } else sentFates.push([{ fate: 'kept', detail: 'sent as is' }]);
    }
    for (let k = 0, j = 0; k < turn.blocks.length; k++) {
      const own = fates.get(blockKey(i, k));
      let list: BlockFate[];
      if (candidate.skip?.has(k)) list = [own ?? { fate: 'dropped', detail: 'left out of this send' }];
      else {
        const conv = sentFates[j] ?? [{ fate: 'kept', detail: 'sent as is' }];
        j++;
        list = own ? [own, ...conv.filter((f) => f.fate !== 'kept')] : conv;
      }
      const type = turn.blocks[k]!.type;
      const isDropped = list.some((f) => f.fate === 'dropped');
      if (isDropped) {
        stats.blocksDropped++;
        if (type === 'thinking' || type === 'redacted_thinking') {
          stats.thinkingDropped++;
          const reason = unusedReason(list);
          if (reason) (unused[reason] ??= new Map()).set(turn.id, turn.usage?.reasoningTokens ?? 0);
        }
      }
      // The converter drops an image or replaces it with a placeholder when the target cannot take it.
      if (type === 'image' && !own && list.some((f) => f.fate === 'dropped' || f.fate === 'converted'))
        stats.imagesOmitted++;
      blocks.push({ turn: turn.id, index: k, fates: list });
    }
    turns.push(blocks);
  }
  const reasons = Object.keys(unused) as ReasoningUnusedReason[];
  if (reasons.length > 0)
    stats.reasoningUnused = reasons.map((reason) => {
      const byTurn = unused[reason]!;
      return { reason, turns: byTurn.size, reasoningTokens: [...byTurn.values()].reduce((a, b) => a + b, 0) };
    });
  const tools = toolsWithReasoningOf(converted?.warnings ?? []);
  if (tools) stats.toolsWithReasoning = tools;
  return { turns, stats };
}

/**
 * Builds the report and the summary counts: the entries of every input block, in order — those
 * of the included turns from `sent` ({@link assembleSent} of the same input, made here when not
 * given), a `dropped` fate for every block of a turn not sent. `offsets` says where each turn's
 * entries start in `report.blocks` (for the next plan's {@link ReportInput.prior}).
 */
export function assembleReport(
  input: ReportInput,
  sent: SentReport = assembleSent(input),
): { report: ConversionReport; stats: PlanStats; offsets: Int32Array } {
  const { transcript, included, dropped, fates, converted } = input;
  const turns = transcript.turns;
  const n = turns.length;
  let blocks: BlockReport[] = [];
  const offsets = new Int32Array(n + 1);
  let next = 0;
  const memo = input.memo;
  // Entries of the earlier plan are reused only when no block has a fate of its own.
  const prior = fates.size === 0 ? input.prior : undefined;
  const same = prior !== undefined ? Math.min(prior.same, n) : 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = blocks.length;
    const turn = turns[i]!;
    const why = dropped[i];
    if (why === undefined && included.has(i)) {
      const own = sent.turns[next++]!;
      for (let k = 0; k < own.length; k++) blocks.push(own[k]!);
      continue;
    }
    if (i < same && why !== undefined && prior!.dropped[i] === why) {
      // A run of turns not sent, each for the reason it had in the earlier plan: its entries as they were.
      let j = i + 1;
      while (j < same && dropped[j] !== undefined && prior!.dropped[j] === dropped[j]) j++;
      const from = prior!.offsets[i]!;
      const to = prior!.offsets[j]!;
      const shift = blocks.length - from;
      for (let m = i + 1; m < j; m++) offsets[m] = prior!.offsets[m]! + shift;
      const old = prior!.blocks;
      // The first run (the oldest turns, usually most of them) in one copy.
      if (blocks.length === 0) blocks = old.slice(from, to);
      else for (let b = from; b < to; b++) blocks.push(old[b]!);
      i = j - 1;
      continue;
    }
    if (fates.size === 0) {
      // No block has a fate of its own: the entries depend on the turn and the reason only.
      const detail = why?.detail;
      let entries = memo?.get(turn);
      if (entries === undefined || entries.detail !== detail) {
        entries = notSentEntries(turn, detail);
        memo?.set(turn, entries);
      }
      for (let k = 0; k < entries.blocks.length; k++) blocks.push(entries.blocks[k]!);
      continue;
    }
    const detail = why ? `turn not sent: ${why.detail}` : 'turn not sent';
    for (let k = 0; k < turn.blocks.length; k++) {
      const own = fates.get(blockKey(i, k));
      blocks.push({
        turn: turn.id,
        index: k,
        fates: [own && own.fate === 'dropped' ? own : { fate: 'dropped', detail }],
      });
    }
  }
  offsets[n] = blocks.length;
  return {
    report: {
      // Every input block has exactly one entry, whichever way its turn went.
      input: { format: 'baton', turns: n, blocks: blocks.length },
      blocks,
      synthesized: converted?.synthesized ?? [],
      warnings: converted?.warnings ?? [],
    },
    stats: sent.stats,
    offsets,
  };
}
