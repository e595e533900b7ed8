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
import type { IdMap, NameMap } from './ids';
import type { BlockRef, Fate, ReportBase } from './report';
import type { PreparedBlock } from './prepare-blocks';
import type { Origin, Transcript, Turn } from './schema';

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
  /** Turn object → context number → its prepared parts. */
  turns: WeakMap<Turn, Map<number, PreparedTurnParts>>;
  /** Request key (target and capabilities, serialised) → a small number, so per-turn keys are numbers. */
  readonly requests: Map<string, number>;
  /** Origin object → a small number; origins equal by value share one. */
  origins: WeakMap<Origin, number>;
  readonly originIds: Map<string, number>;
  /** Turns served from the cache and turns prepared, since creation (for tests and the bench). */
  hits: number;
  misses: number;
  /** The last conversion's prefix snapshot per converter and request ({@link PrefixSnapshot}), newest last. */
  readonly snapshots: Map<string, PrefixSnapshot>;
  /** Conversions spliced onto a snapshot, since creation (for tests and the bench). */
  resumed: number;
}

/** Snapshots kept per cache (one per converter and request; the oldest goes first). */
export const MAX_SNAPSHOTS = 8;

/**
 * A conversion's state at a turn boundary (docs/architecture.md#incremental-conversion): input
 * turn `k` is a user turn that starts a prepared turn of its own, after a prepared turn of another
 * role, so nothing the turns from `k` on do can change what the turns before it became (no merge,
 * pairing or end-of-history rule reaches across). Converting a transcript whose turns `0..k` are
 * these same objects (and whose system prompt and tools are the same) runs every per-turn pass from
 * `k` only, from the states kept here, and splices the result onto the kept output.
 */
export interface PrefixSnapshot {
  /** Input turns `0..k` (the boundary turn included), compared by reference. */
  turns: readonly Turn[];
  k: number;
  system: Transcript['system'];
  tools: Transcript['tools'];
  meta: Transcript['meta'];
  /** The pre-pass's final prepared turns for input turns `0..k-1`, without a synthetic first user turn. */
  prepared: readonly unknown[];
  /** The block step's carried state at turn `k` (the last assistant turn's imported status). */
  lastImported: boolean;
  /** The id and name maps when pairing reached turn `k`. Never mutated: a resumed conversion copies them. */
  ids: IdMap;
  names: NameMap;
  /** Distinct mapped tool-call names of the prepared prefix, in first-use order (for X8 stubs). */
  callNames: readonly string[];
  /** The report of the turns before `k`. */
  report: ReportBase;
  /** The converter's own state at the boundary (its output so far), opaque here. */
  encoded: unknown;
}

/**
 * One conversion's use of snapshots: the snapshot it may resume from (already checked against the
 * transcript) and where it records the next one.
 */
export interface Incremental {
  cache: ConversionCache;
  key: string;
  transcript: Transcript;
  /** Valid for this transcript, or undefined (convert cold). */
  snapshot: PrefixSnapshot | undefined;
  /** Input index of the boundary to record this time (the last user turn after the first), or -1. */
  next: number;
}

/**
 * The snapshot use of one conversion with `cache` under `key` (converter and everything it reads
 * besides the transcript): a snapshot is offered only if the transcript's turns up to its boundary
 * are the same objects and its system prompt, tools and meta are the same. Undefined without a cache.
 */
export function beginIncremental(
  cache: ConversionCache | undefined,
  key: string,
  transcript: Transcript,
): Incremental | undefined {
  if (!cache) return undefined;
  const turns = transcript.turns;
  let next = -1;
  for (let i = turns.length - 1; i >= 1; i--)
    if (turns[i]!.role === 'user') {
      next = i;
      break;
    }
  let snapshot = cache.snapshots.get(key);
  if (
    snapshot &&
    !(
      snapshot.system === transcript.system &&
      snapshot.tools === transcript.tools &&
      snapshot.meta === transcript.meta &&
      turns.length > snapshot.k &&
      samePrefix(turns, snapshot.turns)
    )
  )
    snapshot = undefined;
  return { cache, key, transcript, snapshot, next };
}

function samePrefix(turns: readonly Turn[], kept: readonly Turn[]): boolean {
  for (let i = kept.length - 1; i >= 0; i--) if (turns[i] !== kept[i]) return false;
  return true;
}

/**
 * One conversion under `key` that resumes from the prefix snapshot when it can
 * (docs/architecture.md#incremental-conversion): with a snapshot, `convert` is given it and its
 * result is counted in `cache.resumed`; a splice that turns out not to be exact (`convert` returns
 * undefined) and a conversion with no snapshot run `convert` again from the start, still with `inc`
 * so the next snapshot is recorded (undefined without a cache). `convert` must return a result when
 * `inc` has no snapshot.
 */
export function convertResuming<R>(
  cache: ConversionCache | undefined,
  key: string,
  transcript: Transcript,
  convert: (inc: Incremental | undefined) => R | undefined,
): R {
  const inc = beginIncremental(cache, key, transcript);
  if (inc?.snapshot) {
    const spliced = convert(inc);
    if (spliced) {
      inc.cache.resumed++;
      return spliced;
    }
    inc.snapshot = undefined;
  }
  return convert(inc)!;
}

/** Keeps `snapshot` as the newest under `inc.key`. */
export function keepSnapshot(inc: Incremental, snapshot: PrefixSnapshot): void {
  const { snapshots } = inc.cache;
  snapshots.delete(inc.key);
  snapshots.set(inc.key, snapshot);
  if (snapshots.size > MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
}

/** Request keys or origins interned before the cache starts over (bounds memory; numbers stay exact). */
const MAX_INTERNED = 1 << 16;

/** A new, empty cache. */
export function createConversionCache(): ConversionCache {
  return {
    turns: new WeakMap(),
    requests: new Map(),
    origins: new WeakMap(),
    originIds: new Map(),
    hits: 0,
    misses: 0,
    snapshots: new Map(),
    resumed: 0,
  };
}

/** The number of a request key (see {@link ConversionCache.requests}). */
export function requestId(cache: ConversionCache, key: string): number {
  let id = cache.requests.get(key);
  if (id === undefined) {
    if (cache.requests.size >= MAX_INTERNED) clear(cache);
    id = cache.requests.size + 1;
    cache.requests.set(key, id);
  }
  return id;
}

/** The number of an origin (absent: 0), memoised per origin object; equal origins share one. */
export function originId(cache: ConversionCache, origin: Origin | undefined): number {
  if (origin === undefined) return 0;
  let id = cache.origins.get(origin);
  if (id === undefined) {
    const key = JSON.stringify(origin);
    id = cache.originIds.get(key);
    if (id === undefined) {
      if (cache.originIds.size >= MAX_INTERNED) clear(cache);
      id = cache.originIds.size + 1;
      cache.originIds.set(key, id);
    }
    cache.origins.set(origin, id);
  }
  return id;
}

/** The context number of one turn: request, origin and the two flags (fits well within 2^53). */
export function contextKey(request: number, origin: number, sameOrigin: boolean, imported: boolean): number {
  return ((request * (MAX_INTERNED + 1) + origin) * 2 + (sameOrigin ? 1 : 0)) * 2 + (imported ? 1 : 0);
}

/** Forgets everything (ids would otherwise be reused for other keys). */
function clear(cache: ConversionCache): void {
  cache.turns = new WeakMap();
  cache.requests.clear();
  cache.origins = new WeakMap();
  cache.originIds.clear();
  cache.snapshots.clear();
}

/** The parts cached for `turn` under `key`, counting the hit or miss. */
export function cachedParts(cache: ConversionCache, turn: Turn, key: number): PreparedTurnParts | undefined {
  const parts = cache.turns.get(turn)?.get(key);
  if (parts) cache.hits++;
  else cache.misses++;
  return parts;
}

/** Remembers the parts of `turn` under `key`. */
export function storeParts(cache: ConversionCache, turn: Turn, key: number, parts: PreparedTurnParts): void {
  let byKey = cache.turns.get(turn);
  if (byKey === undefined) cache.turns.set(turn, (byKey = new Map()));
  else if (byKey.size >= MAX_VARIANTS_PER_TURN) byKey.clear();
  byKey.set(key, parts);
}
