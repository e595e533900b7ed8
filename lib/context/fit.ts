/**
 * Fitting a history into a budget (docs/disclosure.md, "Fitting"): keep the system prompt and the newest
 * turns, drop the oldest whole exchanges, never drop a pinned turn.
 *
 * An exchange is a user turn with the assistant and tool turns that answer it (turns before the
 * first user turn form one exchange of their own). Dropping whole exchanges means a tool call
 * never loses its result (results answer the assistant turn right before them, X1) and the
 * history after a drop always starts on a user turn. The newest exchange is always kept: it
 * holds the prompt.
 */
import type { DropReason, NotFitReason } from './types';

/** What fitting needs about one candidate turn. */
export interface FitTurn {
  role: 'user' | 'assistant' | 'tool';
  pinned: boolean;
}

export interface FitInput {
  turns: readonly FitTurn[];
  /** Uncorrected tokens of each turn. */
  tokens: readonly number[];
  /** Treat every turn as pinned: never drop, only report whether it fits. */
  keepAll?: boolean;
  /** Uncorrected tokens every request carries (system, tools, priming). */
  baseTokens: number;
  /** Correction ratio applied to uncorrected sums. */
  ratio: number;
  /** Input budget (tokens, corrected scale). */
  budget: number;
  maxTurns?: number;
}

export interface FitResult {
  /** Per candidate: undefined when kept, else why it was dropped. */
  dropped: (DropReason | undefined)[];
  /** Uncorrected tokens of what is kept, base included. */
  tokens: number;
  fits: boolean;
  notFit?: NotFitReason;
}

/** Corrected tokens: ⌈uncorrected × ratio⌉. */
export function corrected(tokens: number, ratio: number): number {
  return ratio === 1 ? tokens : Math.ceil(tokens * ratio);
}

/** Start index of each exchange (a new one at every user turn; index 0 always starts one). */
export function exchangeStarts(turns: readonly { role: string }[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < turns.length; i++) if (i === 0 || turns[i]!.role === 'user') starts.push(i);
  return starts;
}

/**
 * Drops the oldest unpinned exchanges while the request is over the budget or over `maxTurns`.
 * Linear in the number of turns; allocates one array of reasons.
 */
export function fitTurns(input: FitInput): FitResult {
  const { turns, baseTokens, ratio, budget, maxTurns } = input;
  const n = turns.length;
  const cost = input.tokens;
  const dropped: (DropReason | undefined)[] = new Array<DropReason | undefined>(n).fill(undefined);
  let tokens = baseTokens;
  for (let i = 0; i < n; i++) tokens += cost[i]!;
  let count = n;
  const overTokens = () => corrected(tokens, ratio) > budget;
  const overTurns = () => maxTurns !== undefined && count > maxTurns;

  const starts = exchangeStarts(turns);
  // Every exchange but the newest may go, oldest first, unless a turn in it is pinned.
  for (let e = 0; e < starts.length - 1 && (overTokens() || overTurns()); e++) {
    const from = starts[e]!;
    const to = starts[e + 1]!;
    if (input.keepAll || anyPinned(turns, from, to)) continue;
    const reason: DropReason = overTokens() ? 'over-budget' : 'over-max-turns';
    for (let i = from; i < to; i++) {
      dropped[i] = reason;
      tokens -= cost[i]!;
      count--;
    }
  }
  const fits = !overTokens() && !overTurns();
  if (fits) return { dropped, tokens, fits };
  return { dropped, tokens, fits, notFit: whyNotFit(input, starts, tokens, count) };
}

function whyNotFit(input: FitInput, starts: number[], tokens: number, count: number): NotFitReason {
  const { turns, baseTokens, ratio, budget, maxTurns } = input;
  // What the pinned exchanges need without the newest one.
  const newest = starts[starts.length - 1] ?? turns.length;
  let pinnedTokens = baseTokens;
  let pinnedTurns = 0;
  for (let e = 0; e < starts.length - 1; e++) {
    if (!input.keepAll && !anyPinned(turns, starts[e]!, starts[e + 1]!)) continue;
    for (let i = starts[e]!; i < starts[e + 1]!; i++) {
      pinnedTokens += input.tokens[i]!;
      pinnedTurns++;
    }
  }
  const newestTurns = turns.length - newest;
  if (corrected(tokens, ratio) > budget) {
    const cause =
      corrected(baseTokens, ratio) > budget ? 'system' : corrected(pinnedTokens, ratio) > budget ? 'pinned' : 'newest';
    const required =
      cause === 'system'
        ? corrected(baseTokens, ratio)
        : cause === 'pinned'
          ? corrected(pinnedTokens, ratio)
          : corrected(tokens, ratio);
    const what = {
      system: 'the system prompt and tool definitions alone need',
      pinned: 'the pinned turns (with their exchanges) alone need',
      newest: `the newest exchange (${newestTurns} turn${newestTurns === 1 ? '' : 's'}, always sent) with the pinned turns needs`,
    }[cause];
    return {
      limit: 'tokens',
      cause,
      required,
      allowed: budget,
      message: `does not fit: ${what} ~${required} tokens; the input budget is ${budget}`,
    };
  }
  const cause = pinnedTurns > maxTurns! ? 'pinned' : 'newest';
  const required = cause === 'pinned' ? pinnedTurns : count;
  const what =
    cause === 'pinned'
      ? 'the pinned turns (with their exchanges) alone are'
      : 'the newest exchange (always sent) with the pinned turns is';
  return {
    limit: 'turns',
    cause,
    required,
    allowed: maxTurns!,
    message: `does not fit: ${what} ${required} turns; at most ${maxTurns} may be sent`,
  };
}

function anyPinned(turns: readonly FitTurn[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (turns[i]!.pinned) return true;
  return false;
}
