/**
 * The last conversations read whole, kept in the background between requests (docs/architecture.md#long-conversations-and-speed, docs/disclosure.md:
 * the disclosure preview re-plans the open conversation after every change of the draft; reading
 * 10,000 turns from IndexedDB took seconds each time, see bench/README.md).
 *
 * Never stale: an entry is served only while {@link writeGeneration} is what it was when the
 * entry was read, and every write of conversations or turns changes it (db.ts `tx`). A write made
 * through {@link TranscriptCache.write} with a patch (append or replace one turn) keeps the entry
 * up to date instead, but only when no other write interleaved (the generation moved by exactly
 * that one transaction); anything else drops it. A read that overlapped a write is returned but
 * not kept.
 *
 * Served transcripts are shared and deeply frozen: a caller that tried to change one would throw
 * rather than change what the next caller sees.
 *
 * Beside the whole reads, the last bounded read (docs/architecture.md#the-path-index: the record,
 * its path index and the turns a cold preview's budget keeps, stand-ins for the rest) is kept under
 * the same rule ({@link TranscriptCache.bounded}), so the previews that follow a cold one reuse it
 * at once instead of waiting for the whole read.
 */
import type { Transcript, Turn } from '../transcript/schema';
import { writeGeneration, type BatonDb } from './db';
import type { PathEntry } from './path-index';

interface Entry {
  id: string;
  /** {@link writeGeneration} the transcript is valid for. */
  generation: number;
  transcript: Transcript;
}

/**
 * A bounded read of one conversation (`ConversationStore.readBounded`), valid while
 * {@link writeGeneration} equals `generation`.
 */
export interface BoundedEntry {
  id: string;
  generation: number;
  /** The path index the read was chosen from (its counts are a lower bound once counts were written back since). */
  entries: readonly PathEntry[];
  /** The active path: the turns read in full, stand-ins for the others; deeply frozen. */
  transcript: Transcript;
  /** The path positions of `transcript.turns` that are turns read in full (not stand-ins). */
  full: ReadonlySet<number>;
  standIns: number;
}

/** Conversations kept at most, and turns kept at most over all of them (the newest entry is always kept). */
export const CACHE_LIMITS = { conversations: 4, turns: 20_000 } as const;

/** The last conversations read whole, valid while nothing was written (see the module comment). */
export class TranscriptCache {
  /** Least recently used first. */
  private entries: Entry[] = [];
  private pending: { id: string; generation: number; promise: Promise<Transcript> } | undefined;
  /** The last bounded read (one conversation: the one being previewed). */
  private lastBounded: BoundedEntry | undefined;

  /**
   * Conversation `id` whole: the cached transcript when still valid, else `read()` (kept when no
   * write overlapped it). Concurrent calls for the same conversation share one read.
   * @throws whatever `read` throws (nothing is kept then).
   */
  async get(id: string, read: () => Promise<Transcript>): Promise<Transcript> {
    const generation = writeGeneration();
    const e = this.entries.find((x) => x.id === id);
    if (e && e.generation === generation) {
      this.keep(e);
      return e.transcript;
    }
    const p = this.pending;
    if (p && p.id === id && p.generation === generation) return p.promise;
    const promise = read().then((t) => {
      const frozen = deepFreeze(t);
      if (writeGeneration() === generation) this.keep({ id, generation, transcript: frozen });
      return frozen;
    });
    this.pending = { id, generation, promise };
    try {
      return await promise;
    } finally {
      if (this.pending?.promise === promise) this.pending = undefined;
    }
  }

  /**
   * Runs `write` — which must start exactly one {@link tx} before its first await, over
   * conversation `id` alone (every store method that passes a patch does) — and then, when no
   * other write interleaved, replaces the entry of `id` by `patch(transcript, result)` (dropped
   * when `patch` returns undefined) and keeps the other entries valid; otherwise every entry is
   * simply no longer valid.
   * @throws whatever `write` throws (the entries are then invalid, as the generation moved).
   */
  async write<R>(
    id: string,
    write: () => Promise<R>,
    patch: (t: Transcript, result: R) => Transcript | undefined,
    turnsUnchanged = false,
  ): Promise<R> {
    const before = writeGeneration();
    const result = await write();
    // `tx` bumps the generation once when it starts and once when it ends.
    const after = before + 2;
    if (writeGeneration() !== after) return result;
    // The bounded read survives only a write that left its conversation's turns and record as they
    // were (`turnsUnchanged`: the counts' write-back) or touched another conversation.
    const b = this.lastBounded;
    this.lastBounded =
      b && b.generation === before && (b.id !== id || turnsUnchanged) ? { ...b, generation: after } : undefined;
    const kept: Entry[] = [];
    for (const e of this.entries) {
      if (e.generation !== before) continue;
      if (e.id !== id) kept.push({ ...e, generation: after });
      else {
        const next = patch(e.transcript, result);
        if (next) kept.push({ id, generation: after, transcript: deepFreeze(next) });
      }
    }
    this.entries = kept;
    return result;
  }

  /** Whether conversation `id` is cached and still valid (a read of it would not touch the database). */
  has(id: string): boolean {
    const generation = writeGeneration();
    return this.entries.some((x) => x.id === id && x.generation === generation);
  }

  /** Whether a read of `id` for the current write generation is under way (a {@link get} would wait for it). */
  reading(id: string): boolean {
    const p = this.pending;
    return p !== undefined && p.id === id && p.generation === writeGeneration();
  }

  /**
   * The kept bounded read of conversation `id` when still valid (nothing written since it was
   * read, but the counts' write-back), else undefined.
   */
  bounded(id: string): BoundedEntry | undefined {
    const b = this.lastBounded;
    return b && b.id === id && b.generation === writeGeneration() ? b : undefined;
  }

  /**
   * Keeps a bounded read of `id` made at write generation `generation` (deeply frozen, like the
   * whole reads); ignored when a write ran since, so a read that overlapped a write is never kept.
   */
  keepBounded(entry: BoundedEntry): void {
    if (entry.generation !== writeGeneration()) return;
    deepFreeze(entry.transcript);
    this.lastBounded = entry;
  }

  /** Forgets every entry, and the bounded read. */
  clear(): void {
    this.entries = [];
    this.lastBounded = undefined;
  }

  /** Makes `e` the most recent entry (replacing one of the same id), then evicts beyond {@link CACHE_LIMITS}. */
  private keep(e: Entry): void {
    const rest = this.entries.filter((x) => x.id !== e.id);
    rest.push(e);
    let turns = rest.reduce((n, x) => n + x.transcript.turns.length, 0);
    while (rest.length > 1 && (rest.length > CACHE_LIMITS.conversations || turns > CACHE_LIMITS.turns))
      turns -= rest.shift()!.transcript.turns.length;
    this.entries = rest;
  }
}

const caches = new WeakMap<BatonDb, TranscriptCache>();

/** The one cache of database handle `db` (the background's stores share it). */
export function transcriptCacheFor(db: BatonDb): TranscriptCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new TranscriptCache()));
  return c;
}

/**
 * `t` with a copy of `turn` appended (as the store keeps it: the caller's object stays the
 * caller's, unfrozen) and the title `title` (an append may set the title).
 */
export function withAppended(t: Transcript, turn: Turn, title: string): Transcript {
  return { ...t, title, turns: [...t.turns, structuredClone(turn)] };
}

/** `t` with the turn of `turn.id` replaced by a copy of `turn`; undefined when `t` has no such turn. */
export function withReplaced(t: Transcript, turn: Turn): Transcript | undefined {
  const i = t.turns.findIndex((x) => x.id === turn.id);
  if (i < 0) return undefined;
  const turns = t.turns.slice();
  turns[i] = structuredClone(turn);
  return { ...t, turns };
}

/** Freezes `v` and everything reachable from it (already frozen parts are skipped). */
function deepFreeze<T>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v) || ArrayBuffer.isView(v)) return v;
  Object.freeze(v);
  // An array by index: `Object.keys` of a 10,000-turn array makes 10,000 key strings at every append.
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) deepFreeze(v[i]);
  else for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}
