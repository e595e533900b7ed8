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
  private readonly fates = new Map<string, BlockFate[]>();
  private readonly order: BlockRef[] = [];
  private readonly synthesized: Synthesized[] = [];
  private readonly warnings: string[] = [];
  private readonly warned = new Set<string>();

  constructor(
    transcript: Transcript,
    private readonly inputFormat = 'baton',
  ) {
    for (const turn of transcript.turns)
      turn.blocks.forEach((_, index) => {
        this.order.push({ turn: turn.id, index });
        this.fates.set(key({ turn: turn.id, index }), []);
      });
    this.turnCount = transcript.turns.length;
  }
  private readonly turnCount: number;

  /** Records a fate for an input block. Unknown refs (synthesised blocks) are ignored. */
  add(ref: BlockRef | undefined, fate: Fate, detail: string): void {
    if (!ref) return;
    const list = this.fates.get(key(ref));
    if (!list) return;
    if (!list.some((f) => f.fate === fate && f.detail === detail)) list.push({ fate, detail });
  }

  /** True when any fate was recorded for the block so far. */
  hasFates(ref: BlockRef): boolean {
    return (this.fates.get(key(ref))?.length ?? 0) > 0;
  }

  /** True when the block already has a fate that removes it from the body. */
  isDropped(ref: BlockRef): boolean {
    return this.fates.get(key(ref))?.some((f) => f.fate === 'dropped') ?? false;
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
    return {
      input: { format: this.inputFormat, turns: this.turnCount, blocks: this.order.length },
      blocks: this.order.map((ref) => {
        const fates = this.fates.get(key(ref))!;
        return { turn: ref.turn, index: ref.index, fates: fates.length ? fates : [{ fate: 'kept', detail: 'sent as is' }] };
      }),
      synthesized: this.synthesized,
      warnings: this.warnings,
    };
  }
}

function key(ref: BlockRef): string {
  return `${ref.index}\u0000${ref.turn}`;
}
