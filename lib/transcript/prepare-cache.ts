/**
 * The per-turn conversion cache (docs/architecture.md#incremental-conversion): what the shared
 * pre-pass's block step (`prepareBlock` over one input turn: X3, X4, X6, A-T9, media) made of a
 * turn, per request context, with the report fates it recorded, so converting a conversation
 * again after an append re-prepares only the new turn.
 *
 * Keyed by the turn object (turns are immutable: the store, the stream assembler and every edit
 * make a new object, as the planner's token cache already assumes) and by everything else the
 * block step reads: the resolved target (API, provider, endpoint, model, options), the target's
 * media capabilities, and the turn's position-dependent context (same-origin status, the origin
 * its provider items belong to, imported state). The steps that look across turns (merges,
 * pairing, id and name maps, repairs at the ends, stubs) and each converter's own encoding run
 * on every conversion, so their output never comes from the cache. A hit replays the recorded
 * fates into the request's report in the order they were recorded, so body and report are
 * byte-identical to a cold conversion (test/property/conversion-cache.property.test.ts,
 * `bench/golden.ts --cached`).
 *
 * Memory: entries live as long as their turn objects (a `WeakMap`), at most
 * {@link MAX_VARIANTS_PER_TURN} contexts per turn. The cache may be dropped at any time without
 * changing any result.
 */
import type { BlockRef, Fate } from './report';
import type { PreparedBlock } from './prepare-blocks';
import type { Origin, Turn } from './schema';

/** Contexts remembered per turn (targets switched between); past it the turn's entries are cleared. */
export const MAX_VARIANTS_PER_TURN = 8;

/** What the block step made of one input turn in one context. */
export interface PreparedTurnParts {
  /** A-P2: blocks that travel as a user turn in front of the turn's own. */
  before: PreparedBlock[] | undefined;
  /** The turn's own prepared blocks (may be empty). */
  blocks: PreparedBlock[];
  /** Provider items of a tool turn flattened to text: a user turn after it. */
  moved: PreparedBlock[] | undefined;
  /** The fates recorded meanwhile, flattened as (ref, fate, detail) triples, in order. */
  fates: (BlockRef | Fate | string)[];
}

/** A cache of prepared turns; one per conversation or per worker (see {@link createConversionCache}). */
export interface ConversionCache {
  /** Turn object → context key → its prepared parts. */
  readonly turns: WeakMap<Turn, Map<string, PreparedTurnParts>>;
  /** Origin object → its key (origins are small; this saves re-serialising them per turn). */
  readonly origins: WeakMap<Origin, string>;
  /** Turns served from the cache and turns prepared, since creation (for tests and the bench). */
  hits: number;
  misses: number;
}

/** A new, empty cache. */
export function createConversionCache(): ConversionCache {
  return { turns: new WeakMap(), origins: new WeakMap(), hits: 0, misses: 0 };
}

/** The key of an origin (absent: ''), memoised per origin object. */
export function originKey(cache: ConversionCache, origin: Origin | undefined): string {
  if (origin === undefined) return '';
  let k = cache.origins.get(origin);
  if (k === undefined) {
    k = JSON.stringify(origin);
    cache.origins.set(origin, k);
  }
  return k;
}

/** The parts cached for `turn` under `key`, counting the hit or miss. */
export function cachedParts(cache: ConversionCache, turn: Turn, key: string): PreparedTurnParts | undefined {
  const parts = cache.turns.get(turn)?.get(key);
  if (parts) cache.hits++;
  else cache.misses++;
  return parts;
}

/** Remembers the parts of `turn` under `key`. */
export function storeParts(cache: ConversionCache, turn: Turn, key: string, parts: PreparedTurnParts): void {
  let byKey = cache.turns.get(turn);
  if (byKey === undefined) cache.turns.set(turn, (byKey = new Map()));
  else if (byKey.size >= MAX_VARIANTS_PER_TURN) byKey.clear();
  byKey.set(key, parts);
}
