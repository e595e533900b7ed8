/**
 * A hybrid logical clock (Kulkarni et al. 2014) for the per-field merge of sync's mutable documents
 * (docs/security.md#sync, "Conflicts"). A timestamp is `wall:counter:node`, fixed width, so two
 * timestamps compare as strings: later wall time wins, then the counter, then the node id (a stable
 * tie-break). It never goes backwards on one device, and after {@link Hlc.observe} a device's next
 * timestamp is later than every one it has seen, so an edit made after reading another device's
 * edit always wins over it, whatever the two devices' wall clocks say.
 */

/** A hybrid timestamp: 13-digit wall-clock milliseconds, 6-digit base-36 counter, node id. */
export type HlcStamp = string;

const pack = (wall: number, counter: number, node: string): HlcStamp =>
  `${String(wall).padStart(13, '0')}:${counter.toString(36).padStart(6, '0')}:${node}`;

/** The wall time and counter of `s`. @throws Error on a malformed stamp. */
export function parseStamp(s: HlcStamp): { wall: number; counter: number; node: string } {
  const m = /^(\d{13}):([0-9a-z]{6}):(.+)$/.exec(s);
  if (!m) throw new Error(`malformed hybrid timestamp: ${JSON.stringify(s).slice(0, 60)}`);
  return { wall: Number(m[1]), counter: parseInt(m[2]!, 36), node: m[3]! };
}

/** Whether `s` is a well-formed stamp. */
export function isStamp(s: unknown): s is HlcStamp {
  return typeof s === 'string' && /^\d{13}:[0-9a-z]{6}:.+$/.test(s);
}

/** One device's clock. `now` is injected (milliseconds since the epoch). */
export class Hlc {
  private wall = 0;
  private counter = 0;

  constructor(
    readonly node: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new stamp, later than every stamp this clock issued or observed. */
  tick(): HlcStamp {
    return this.tickAt(this.now());
  }

  /**
   * A stamp for an event that happened at `ms` (wall-clock milliseconds, e.g. when a title was
   * edited, not when it is sent): that time when it is later than every stamp issued or observed,
   * else just after the latest of them. A time in the future of this clock counts as now, so a
   * skewed record cannot win every later merge.
   */
  tickAt(ms: number): HlcStamp {
    const now = this.now();
    const pt = Number.isFinite(ms) ? Math.min(ms, now) : now;
    if (pt > this.wall) {
      this.wall = pt;
      this.counter = 0;
    } else this.counter++;
    return pack(this.wall, this.counter, this.node);
  }

  /** Takes in a stamp from another device, so the next {@link tick} is later than it. Malformed stamps are ignored. */
  observe(s: HlcStamp): void {
    if (!isStamp(s)) return;
    const { wall, counter } = parseStamp(s);
    if (wall > this.wall || (wall === this.wall && counter > this.counter)) {
      this.wall = wall;
      this.counter = counter;
    }
  }
}
