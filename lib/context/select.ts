/**
 * The person's choices for one send, applied before fitting: excluded turns and blocks, and the
 * image policy. A tool call and its result are left out together (X1: never split a pair).
 */
import type { BlockFate } from '../transcript/report';
import type { Block, ToolResultBlock, Turn } from '../transcript/schema';
import type { DroppedTurn, Policy } from './types';

/** One turn still in the running after the person's choices. */
export interface Candidate {
  /** Index in the input transcript. */
  index: number;
  /** The input turn. */
  turn: Turn;
  role: Turn['role'];
  /** The turn to convert: `turn` itself when nothing was removed, else a copy without `native`. */
  sent: Turn;
  /** For a copy: input block index of each of `sent.blocks`. */
  indexMap?: number[];
  /** Input block indices removed by the person's choices. */
  skip?: Set<number>;
  pinned: boolean;
}

export interface Selection {
  candidates: Candidate[];
  /** Turns removed entirely by the person's choices (by input index). */
  removed: Map<number, DroppedTurn>;
  /** Fates the choices gave to blocks (`turnIndex:blockIndex` → fate). */
  fates: Map<string, BlockFate>;
  /** Images the policy removed. */
  imagesOmitted: number;
}

const OMITTED_IMAGE_TEXT = '(image omitted)';

/** True when the turn is pinned (`turn.meta.pinned === true`, transcript-v1.md reserved meta). */
export function isPinned(turn: Turn): boolean {
  return turn.meta?.pinned === true;
}

/** Key of a block in {@link Selection.fates}. */
export function blockKey(turnIndex: number, blockIndex: number): string {
  return `${turnIndex}:${blockIndex}`;
}

/**
 * True when `policy` leaves nothing out (no exclusions, images sent): then {@link selectTurns}
 * makes every turn a {@link plainCandidate} and gives no fates, so a turn's candidate depends on
 * the turn and its index alone.
 */
export function leavesNothingOut(policy: Policy): boolean {
  return (
    policy.images !== 'omit' && (policy.excludeTurns?.length ?? 0) === 0 && (policy.excludeBlocks?.length ?? 0) === 0
  );
}

/** The candidate of a turn nothing was removed from: sent as it is. */
export function plainCandidate(turn: Turn, index: number): Candidate {
  return { index, turn, role: turn.role, sent: turn, pinned: isPinned(turn) };
}

/**
 * Applies `excludeTurns`, `excludeBlocks` (with the other half of every tool pair they touch)
 * and `images: 'omit'`. Exclusions naming turns or blocks that do not exist are ignored (the
 * turn may have been deleted since); an excluded pinned turn is excluded.
 */
export function selectTurns(turns: readonly Turn[], policy: Policy): Selection {
  const fates = new Map<string, BlockFate>();
  const omitImages = policy.images === 'omit';
  const removed = new Map<number, DroppedTurn>();
  const candidates: Candidate[] = [];
  const hasExclusions = (policy.excludeTurns?.length ?? 0) > 0 || (policy.excludeBlocks?.length ?? 0) > 0;
  if (!hasExclusions && !omitImages) {
    // The common case: nothing to leave out.
    for (let index = 0; index < turns.length; index++) candidates.push(plainCandidate(turns[index]!, index));
    return { candidates, removed, fates, imagesOmitted: 0 };
  }

  const excluded = new Set<string>();
  const excludedTurns = new Set<number>();
  if (hasExclusions) {
    const byId = new Map<string, number>();
    turns.forEach((t, i) => byId.set(t.id, i));
    for (const id of policy.excludeTurns ?? []) {
      const i = byId.get(id);
      if (i === undefined) continue;
      excludedTurns.add(i);
      turns[i]!.blocks.forEach((_, k) => excluded.add(blockKey(i, k)));
    }
    for (const ref of policy.excludeBlocks ?? []) {
      const i = byId.get(ref.turn);
      if (i === undefined || ref.index >= turns[i]!.blocks.length) continue;
      const key = blockKey(i, ref.index);
      excluded.add(key);
      fates.set(key, { fate: 'dropped', detail: 'left out of this send' });
    }
    for (const [a, b] of toolPairs(turns)) {
      if (excluded.has(a) === excluded.has(b)) continue;
      const other = excluded.has(a) ? b : a;
      excluded.add(other);
      fates.set(other, { fate: 'dropped', detail: 'left out with the other half of its tool call / result pair (X1)' });
    }
  }

  let imagesOmitted = 0;
  turns.forEach((turn, index) => {
    const pinned = isPinned(turn);
    if (excludedTurns.has(index)) {
      removed.set(index, { turn: turn.id, reason: 'excluded', detail: 'left out of this send' });
      return;
    }
    let blocks: Block[] | undefined;
    let indexMap: number[] | undefined;
    let skip: Set<number> | undefined;
    let onlyImages = turn.blocks.length > 0;
    let anyExcluded = false;
    turn.blocks.forEach((block, k) => {
      let out: Block | undefined = block;
      if (excluded.size > 0 && excluded.has(blockKey(index, k))) {
        out = undefined;
        anyExcluded = true;
      } else if (omitImages && block.type === 'image') {
        out = undefined;
        imagesOmitted++;
        fates.set(blockKey(index, k), { fate: 'dropped', detail: 'image omitted (policy images: omit)' });
      } else if (
        omitImages &&
        block.type === 'tool_result' &&
        Array.isArray(block.content) &&
        block.content.some((c) => c.type === 'image')
      ) {
        const n = block.content.filter((c) => c.type === 'image').length;
        imagesOmitted += n;
        out = withoutImages(block);
        fates.set(blockKey(index, k), {
          fate: 'converted',
          detail: `${n} image(s) removed from the result (policy images: omit)`,
        });
      }
      if (block.type !== 'image') onlyImages = false;
      if (out === block && blocks === undefined) return;
      if (blocks === undefined) {
        blocks = turn.blocks.slice(0, k);
        indexMap = blocks.map((_, j) => j);
      }
      if (out === undefined) (skip ??= new Set()).add(k);
      else {
        blocks.push(out);
        indexMap!.push(k);
      }
    });
    if (blocks === undefined) {
      candidates.push({ index, turn, role: turn.role, sent: turn, pinned });
      return;
    }
    if (blocks.length === 0) {
      removed.set(
        index,
        omitImages && onlyImages && !anyExcluded
          ? { turn: turn.id, reason: 'images-omitted', detail: 'held only images, and the policy omits images' }
          : { turn: turn.id, reason: 'excluded', detail: 'every block left out of this send' },
      );
      return;
    }
    // A changed turn is no longer what its origin produced: never replay its `native` content.
    const { native: _native, ...rest } = turn;
    candidates.push({
      index,
      turn,
      role: turn.role,
      sent: { ...rest, blocks },
      indexMap: indexMap!,
      skip: skip ?? new Set(),
      pinned,
    });
  });
  return { candidates, removed, fates, imagesOmitted };
}

function withoutImages(block: ToolResultBlock): ToolResultBlock {
  const content = (block.content as Exclude<ToolResultBlock['content'], string>).filter((c) => c.type !== 'image');
  return { ...block, content: content.length > 0 ? content : OMITTED_IMAGE_TEXT };
}

/**
 * Tool call ↔ result pairs as the converters pair them (X1, `prepareTranscript`): the calls of a
 * run of assistant turns are answered by the tool turns right after it, by id, first match.
 * Yields `[callKey, resultKey]` ({@link blockKey}).
 */
export function* toolPairs(turns: readonly Turn[]): Generator<[string, string]> {
  let open = new Map<string, string[]>();
  let lastRole: Turn['role'] | undefined;
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.role === 'user') open = new Map();
    else if (turn.role === 'assistant') {
      if (lastRole !== 'assistant') open = new Map();
      turn.blocks.forEach((b, k) => {
        if (b.type !== 'tool_call') return;
        const list = open.get(b.id);
        if (list) list.push(blockKey(i, k));
        else open.set(b.id, [blockKey(i, k)]);
      });
    } else {
      for (let k = 0; k < turn.blocks.length; k++) {
        const b = turn.blocks[k]!;
        if (b.type !== 'tool_result') continue;
        const call = open.get(b.callId)?.shift();
        if (call !== undefined) yield [call, blockKey(i, k)];
      }
    }
    lastRole = turn.role;
  }
}
