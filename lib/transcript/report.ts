/**
 * The conversion report of transcript-v1.md ("The `baton convert` contract"): what happened to
 * every input block on the way to one target, what was synthesised, and warnings.
 */
import type { Transcript } from './schema';

/** What happened to one input block. */
export type Fate = 'kept' | 'replayed-native' | 'converted' | 'dropped' | 'id-mapped' | 'name-mapped';

export interface BlockFate {
  fate: Fate;
  /** Why, or `from → to`. */
  detail: string;
}

export interface BlockReport {
  /** The input turn's id. */
  turn: string;
  /** The block's index in that turn's `blocks`. */
  index: number;
  /** One or more fates, in the order they were applied. */
  fates: BlockFate[];
}

export type SynthesizedKind = 'stub-tool' | 'error-result' | 'dummy-signature' | 'user-turn' | 'text';

export interface Synthesized {
  kind: SynthesizedKind;
  detail: string;
}

export interface ConversionReport {
  input: { format: string; turns: number; blocks: number };
  /** Every input block exactly once, in input order. */
  blocks: BlockReport[];
  synthesized: Synthesized[];
  warnings: string[];
}

/** Identifies one input block: its turn id and its index in that turn. */
export interface BlockRef {
  turn: string;
  index: number;
}

/** A synthesized entry or a warning with the pipeline stage that recorded it (see {@link ReportBuilder.stage}). */
export interface StagedEntry<T> {
  stage: number;
  entry: T;
}

/**
 * What a report holds for the turns before a boundary (docs/architecture.md#incremental-conversion):
 * their fates, and the synthesized entries and warnings the per-turn stages recorded for them,
 * each in stage order. Never mutated once made.
 */
export interface ReportBase {
  fates: ReadonlyMap<string, readonly (readonly BlockFate[] | undefined)[]>;
  synthesized: readonly StagedEntry<Synthesized>[];
  warnings: readonly StagedEntry<string>[];
  /** Input blocks of the turns before the boundary. */
  blocks: number;
}

/**
 * Collects fates while a transcript is prepared and converted. Every input block is registered up
 * front; {@link ReportBuilder.finish} gives each block that received no fate the fate `kept`, so
 * a converter only records what it changed.
 *
 * Resumed from a {@link ReportBase} (a conversion spliced onto a prefix snapshot), only the turns
 * from `from` on are registered; the base gives the fates of the others, which must receive no
 * new fate (one that would sets {@link ReportBuilder.tainted}, and the converter starts over cold).
 */
export class ReportBuilder {
  /** Fates by turn id, then block index; created on the first fate (most blocks never get one). */
  private readonly fates = new Map<string, (BlockFate[] | undefined)[]>();
  /** Number of blocks of every input turn, to ignore refs that name no input block. */
  private readonly blockCounts = new Map<string, number>();
  private readonly synthesized: StagedEntry<Synthesized>[] = [];
  private readonly warnings: StagedEntry<string>[] = [];
  private readonly warned = new Set<string>();
  private readonly turns: Transcript['turns'];
  private readonly blockTotal: number;
  /**
   * The pipeline stage now recording (a number that only grows within one conversion). Entries are
   * listed by stage, then in the order recorded, which in a cold conversion is simply the order
   * recorded; a resumed conversion interleaves the base's entries by it.
   */
  stage = 0;
  /** True once a resumed builder was asked to change a turn of its base. */
  tainted = false;
  /**
   * Keep repeated warnings (collapsed by {@link finish} all the same), so that a snapshot's ranges
   * hold every warning their turns gave, not only those no earlier stage gave first.
   */
  keepRepeats = false;

  constructor(
    transcript: Transcript,
    private readonly inputFormat = 'baton',
    private readonly base?: ReportBase,
    from = 0,
  ) {
    this.turns = transcript.turns;
    let total = base ? base.blocks : 0;
    const turns = transcript.turns;
    for (let i = from; i < turns.length; i++) {
      const turn = turns[i]!;
      this.blockCounts.set(turn.id, turn.blocks.length);
      total += turn.blocks.length;
    }
    this.blockTotal = total;
  }

  private listFor(ref: BlockRef): readonly BlockFate[] | undefined {
    const own = this.fates.get(ref.turn);
    if (own || !this.base) return own?.[ref.index];
    return this.base.fates.get(ref.turn)?.[ref.index];
  }

  /** Records a fate for an input block. Unknown refs (synthesised blocks) are ignored. */
  add(ref: BlockRef | undefined, fate: Fate, detail: string): void {
    if (!ref) return;
    const count = this.blockCounts.get(ref.turn);
    if (count === undefined) {
      if (this.base) this.tainted = true;
      return;
    }
    if (!(ref.index >= 0 && ref.index < count)) return;
    // Exact-size arrays and no closure: a pushed-to `[]` reserves 17 slots, and this runs for every
    // block a cold conversion changes.
    let perTurn = this.fates.get(ref.turn);
    if (!perTurn) this.fates.set(ref.turn, (perTurn = new Array<BlockFate[] | undefined>(count)));
    const list = perTurn[ref.index];
    if (!list) {
      perTurn[ref.index] = [{ fate, detail }];
      return;
    }
    for (let i = 0; i < list.length; i++) if (list[i]!.fate === fate && list[i]!.detail === detail) return;
    list.push({ fate, detail });
  }

  /** True when any fate was recorded for the block so far. */
  hasFates(ref: BlockRef): boolean {
    return (this.listFor(ref)?.length ?? 0) > 0;
  }

  /** True when the block already has a fate that removes it from the body. */
  isDropped(ref: BlockRef): boolean {
    return this.listFor(ref)?.some((f) => f.fate === 'dropped') ?? false;
  }

  synthesize(kind: SynthesizedKind, detail: string): void {
    this.synthesized.push({ stage: this.stage, entry: { kind, detail } });
  }

  /** Adds a warning once (identical warnings are collapsed). */
  warn(message: string): void {
    if (this.warned.has(message)) {
      if (!this.keepRepeats) return;
    } else this.warned.add(message);
    this.warnings.push({ stage: this.stage, entry: message });
  }

  /** Entries recorded so far (for a snapshot: slices of them belong to the turns before a boundary). */
  counts(): { synthesized: number; warnings: number } {
    return { synthesized: this.synthesized.length, warnings: this.warnings.length };
  }

  /**
   * The base for a later conversion resumed at input turn `to` (this builder's base covers the
   * turns before `from`): the fates of the turns in between added to the base's, and the entries
   * `[start, end)` of each recorded range (the per-turn stages' entries for those turns).
   */
  baseUpTo(
    from: number,
    to: number,
    ranges: readonly { synthesized: [number, number]; warnings: [number, number] }[],
  ): ReportBase {
    const fates = new Map<string, readonly (readonly BlockFate[] | undefined)[]>(this.base?.fates);
    let blocks = this.base?.blocks ?? 0;
    for (let i = from; i < to; i++) {
      const turn = this.turns[i]!;
      blocks += turn.blocks.length;
      const own = this.fates.get(turn.id);
      // Copied: later stages of this conversion may still add to the lists.
      if (own)
        fates.set(
          turn.id,
          own.map((l) => (l ? l.slice() : undefined)),
        );
    }
    const synthesized = this.base ? this.base.synthesized.slice() : [];
    const warnings = this.base ? this.base.warnings.slice() : [];
    for (const r of ranges) {
      for (let i = r.synthesized[0]; i < r.synthesized[1]; i++) synthesized.push(this.synthesized[i]!);
      for (let i = r.warnings[0]; i < r.warnings[1]; i++) warnings.push(this.warnings[i]!);
    }
    return { fates, synthesized: byStage(synthesized), warnings: byStage(warnings), blocks };
  }

  finish(): ConversionReport {
    const blocks: BlockReport[] = new Array(this.blockTotal);
    let i = 0;
    const baseFates = this.base?.fates;
    for (const turn of this.turns) {
      const perTurn = this.fates.get(turn.id) ?? baseFates?.get(turn.id);
      for (let index = 0; index < turn.blocks.length; index++) {
        const list = perTurn?.[index];
        blocks[i++] = {
          turn: turn.id,
          index,
          fates: list && list.length > 0 ? (list as BlockFate[]) : [{ fate: 'kept', detail: 'sent as is' }],
        };
      }
    }
    let synthesized = this.synthesized;
    let warnings = this.warnings;
    if (this.base) {
      synthesized = byStage([...this.base.synthesized, ...synthesized]);
      warnings = byStage([...this.base.warnings, ...warnings]);
    }
    const seen = new Set<string>();
    const warningList: string[] = [];
    for (const w of warnings)
      if (!seen.has(w.entry)) {
        seen.add(w.entry);
        warningList.push(w.entry);
      }
    return {
      input: { format: this.inputFormat, turns: this.turns.length, blocks: this.blockTotal },
      blocks,
      synthesized: synthesized.map((s) => s.entry),
      warnings: warningList,
    };
  }
}

/** A stable sort by stage (entries of one stage keep their order). */
function byStage<T>(entries: StagedEntry<T>[]): StagedEntry<T>[] {
  for (let i = 1; i < entries.length; i++) if (entries[i]!.stage < entries[i - 1]!.stage) return stableSort(entries);
  return entries;
}

function stableSort<T>(entries: StagedEntry<T>[]): StagedEntry<T>[] {
  return entries
    .map((e, i) => [e, i] as const)
    .sort((a, b) => a[0].stage - b[0].stage || a[1] - b[1])
    .map(([e]) => e);
}

/**
 * Adds `report` to a converter's result as an enumerable property that runs `builder.finish()` on
 * first read and then holds the report as plain data: a request that is only sent never builds
 * the per-block entries (docs/architecture.md#long-conversations-and-speed, conversion cost), while any reader — `JSON.stringify`, a spread,
 * `structuredClone`, a test's `toEqual` — sees the same report as an eager `finish()` would give.
 * The builder must receive no more fates after this call.
 */
export function withLazyReport<T extends object>(result: T, builder: ReportBuilder): T & { report: ConversionReport } {
  return Object.defineProperty(result, 'report', {
    enumerable: true,
    configurable: true,
    get(this: T): ConversionReport {
      const report = builder.finish();
      Object.defineProperty(this, 'report', { value: report, enumerable: true, writable: true, configurable: true });
      return report;
    },
    set(this: T, value: ConversionReport) {
      Object.defineProperty(this, 'report', { value, enumerable: true, writable: true, configurable: true });
    },
  }) as T & { report: ConversionReport };
}
