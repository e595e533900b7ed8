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

/**
 * Collects fates while a transcript is prepared and converted. Every input block is registered up
 * front; {@link ReportBuilder.finish} gives each block that received no fate the fate `kept`, so
 * a converter only records what it changed.
 */
export class ReportBuilder {
  /** Fates by turn id, then block index; created on the first fate (most blocks never get one). */
  private readonly fates = new Map<string, (BlockFate[] | undefined)[]>();
  /** Number of blocks of every input turn, to ignore refs that name no input block. */
  private readonly blockCounts = new Map<string, number>();
  private readonly synthesized: Synthesized[] = [];
  private readonly warnings: string[] = [];
  private readonly warned = new Set<string>();
  private readonly turns: Transcript['turns'];
  private readonly blockTotal: number;

  constructor(
    transcript: Transcript,
    private readonly inputFormat = 'baton',
  ) {
    this.turns = transcript.turns;
    let total = 0;
    for (const turn of transcript.turns) {
      this.blockCounts.set(turn.id, turn.blocks.length);
      total += turn.blocks.length;
    }
    this.blockTotal = total;
  }

  private listFor(ref: BlockRef): BlockFate[] | undefined {
    return this.fates.get(ref.turn)?.[ref.index];
  }

  /** Records a fate for an input block. Unknown refs (synthesised blocks) are ignored. */
  add(ref: BlockRef | undefined, fate: Fate, detail: string): void {
    if (!ref) return;
    const count = this.blockCounts.get(ref.turn);
    if (count === undefined || !(ref.index >= 0 && ref.index < count)) return;
    let perTurn = this.fates.get(ref.turn);
    if (!perTurn) this.fates.set(ref.turn, (perTurn = []));
    const list = (perTurn[ref.index] ??= []);
    if (!list.some((f) => f.fate === fate && f.detail === detail)) list.push({ fate, detail });
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
    this.synthesized.push({ kind, detail });
  }

  /** Adds a warning once (identical warnings are collapsed). */
  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.warnings.push(message);
  }

  finish(): ConversionReport {
    const blocks: BlockReport[] = new Array(this.blockTotal);
    let i = 0;
    for (const turn of this.turns) {
      const perTurn = this.fates.get(turn.id);
      for (let index = 0; index < turn.blocks.length; index++) {
        const list = perTurn?.[index];
        blocks[i++] = {
          turn: turn.id,
          index,
          fates: list && list.length > 0 ? list : [{ fate: 'kept', detail: 'sent as is' }],
        };
      }
    }
    return {
      input: { format: this.inputFormat, turns: this.turns.length, blocks: this.blockTotal },
      blocks,
      synthesized: this.synthesized,
      warnings: this.warnings,
    };
  }
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
