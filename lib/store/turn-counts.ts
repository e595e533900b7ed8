/**
 * Token counts kept on the stored turn records (docs/architecture.md#token-counts-with-the-turn):
 * the planner's {@link StoredCounts} source in the worker. A whole read of a conversation
 * ({@link ConversationStore.get} without a limit) registers each turn object with the counts its
 * record holds; a plan reads them instead of hashing and tokenising the turn, and hands over every
 * count it had to make, which {@link StoredTurnCounts.flush} writes back onto the records.
 *
 * A count is written only onto the record it was computed for: the write-back runs only while no
 * other write touched conversations or turns since the read (`writeGeneration`), so a turn replaced
 * meanwhile (an edit, a stream checkpoint: these drop the record's counts, `replacedTurn`) never
 * gets a stale count. The write-back keeps the worker's transcript cache valid (the transcript does
 * not change), and runs in batches, each its own short transaction.
 */
import type { StoredCounts } from '../context/token-cache';
import type { TurnCount } from '../context/tokens';
import type { Turn } from '../transcript/schema';
import { tx, writeGeneration, type BatonDb, type TurnRecord } from './db';
import { transcriptCacheFor } from './transcript-cache';
import { patchPathCounts } from './path-index';

/** Records written back per transaction (short transactions let other requests interleave). */
export const WRITE_BATCH = 500;

/** Quiet time (ms) after the last plan before the counts are written back ({@link StoredTurnCounts.scheduleFlush}). */
export const FLUSH_DELAY_MS = 2_000;

/** One whole read of a conversation: still exact while {@link writeGeneration} equals `generation`. */
interface ReadMark {
  conversationId: string;
  generation: number;
}

/**
 * A plan needed what a stand-in of a turn not read does not have ({@link standInTurn}): a count it
 * has no stored value for, or its content to send. The plan must be made from a whole read.
 */
export class StandInNeededError extends Error {
  override readonly name = 'StandInNeededError';
}

/** Where a stand-in keeps what its index entry says of the turn (a symbol: never serialised or cloned). */
const STAND_IN = Symbol('baton.standIn');

/** What a stand-in carries of the turn it stands for (docs/architecture.md#the-path-index). */
export interface StandInInfo {
  /** `turnContentHash` of the turn as stored (the index entry's). */
  hash: string;
  /** The counts stored on its record, by variant (empty when it has none). */
  counts: Readonly<Record<string, TurnCount>>;
}

/**
 * `turn` (a new object: id, role, pin, origin and content-less blocks of a turn not read) marked
 * as a stand-in with what its index entry holds: {@link StoredTurnCounts.get} answers from
 * `counts` and throws {@link StandInNeededError} for a variant they lack (a stand-in has no
 * content to count), {@link StoredTurnCounts.checkSent} throws when one would be sent, and nothing
 * is ever written back for it. The mark is a property of the object itself, so registering
 * thousands of stand-ins costs no table of its own.
 */
export function standInTurn(turn: Turn, hash: string, counts: Readonly<Record<string, TurnCount>> | undefined): Turn {
  (turn as unknown as Record<symbol, StandInInfo>)[STAND_IN] = { hash, counts: counts ?? {} };
  return turn;
}

/** What `turn` stands for when it is a stand-in ({@link standInTurn}), else undefined. */
export function standInInfo(turn: Turn): StandInInfo | undefined {
  return (turn as unknown as Record<symbol, StandInInfo | undefined>)[STAND_IN];
}

interface Entry {
  mark: ReadMark;
  seq: number;
  counts: Record<string, TurnCount> | undefined;
}

/** See the module comment. One per database ({@link storedCountsFor}). */
export class StoredTurnCounts implements StoredCounts {
  private readonly byTurn = new WeakMap<Turn, Entry>();
  /** Records with counts not yet written back, by conversation. */
  private pending = new Map<string, { mark: ReadMark; entries: Map<number, Entry> }>();
  private flushing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts written back since creation (for tests and the bench). */
  written = 0;

  constructor(private readonly db: BatonDb) {}

  /**
   * Registers the records of a whole read of `conversationId` that started at `generation`;
   * ignored when a write ran meanwhile (the records may already be out of date).
   */
  noteRead(conversationId: string, records: readonly TurnRecord[], generation: number): void {
    if (writeGeneration() !== generation) return;
    const mark: ReadMark = { conversationId, generation };
    for (const r of records) this.byTurn.set(r.turn, { mark, seq: r.seq, counts: r.counts });
    // Counts made since a read of the same generation are still exact (the records did not
    // change): they stay pending, e.g. a bounded preview's counts when the whole path is read next.
    const p = this.pending.get(conversationId);
    if (p !== undefined && p.mark.generation !== generation) this.pending.delete(conversationId);
  }

  /**
   * Registers the records of a partial read (the bounded preview's kept turns): their counts are
   * looked up like a whole read's, and pending write-backs of the conversation are left alone.
   */
  notePartialRead(conversationId: string, records: readonly TurnRecord[], generation: number): void {
    if (writeGeneration() !== generation) return;
    const mark: ReadMark = { conversationId, generation };
    for (const r of records) this.byTurn.set(r.turn, { mark, seq: r.seq, counts: r.counts });
  }

  /** Throws {@link StandInNeededError} when a plan would send a stand-in. */
  checkSent(turns: readonly Turn[]): void {
    for (const t of turns)
      if (standInInfo(t) !== undefined) throw new StandInNeededError(`turn ${t.id} is sent but was not read`);
  }

  get(turn: Turn, variant: string): TurnCount | undefined {
    const standIn = standInInfo(turn);
    if (standIn !== undefined) {
      const c = standIn.counts[variant];
      if (c === undefined) throw new StandInNeededError(`no stored count ${variant} for turn ${turn.id}`);
      return c;
    }
    return this.byTurn.get(turn)?.counts?.[variant];
  }

  set(turn: Turn, variant: string, count: TurnCount): void {
    if (standInInfo(turn) !== undefined) return;
    const e = this.byTurn.get(turn);
    if (!e || e.counts?.[variant] !== undefined) return;
    e.counts = { ...e.counts, [variant]: { tokens: count.tokens, toolCalls: count.toolCalls } };
    const id = e.mark.conversationId;
    let p = this.pending.get(id);
    // Reads of the same generation describe the same records: their counts go out together.
    if (!p || p.mark.generation !== e.mark.generation) this.pending.set(id, (p = { mark: e.mark, entries: new Map() }));
    p.entries.set(e.seq, e);
  }

  /**
   * {@link flush} after {@link FLUSH_DELAY_MS} without another call: the write-back never stands
   * between a preview and the send or request that follows it.
   */
  scheduleFlush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_DELAY_MS);
  }

  /**
   * Writes the pending counts onto their records (batches of {@link WRITE_BATCH}); stops, keeping
   * nothing, as soon as another write has run since the read. Resolves when done; never rejects
   * (a failed write-back only means the counts are made again next time).
   */
  flush(): Promise<void> {
    this.flushing ??= this.writeBack().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writeBack(): Promise<void> {
    const cache = transcriptCacheFor(this.db);
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      const entries = [...p.entries];
      for (let at = 0; at < entries.length; at += WRITE_BATCH) {
        // Checked synchronously right before the transaction starts (which moves the generation).
        if (writeGeneration() !== p.mark.generation) break;
        const batch = entries.slice(at, at + WRITE_BATCH);
        try {
          await cache.write(
            id,
            () =>
              tx(
                this.db,
                ['turns', 'paths'],
                'readwrite',
                async (t) => {
                  const turns = t.objectStore('turns');
                  const written = new Map<number, Record<string, TurnCount> | undefined>();
                  for (const [seq, e] of batch) {
                    const rec = await turns.get([id, seq]);
                    if (rec) {
                      await turns.put({ ...rec, counts: e.counts });
                      written.set(seq, e.counts);
                    }
                  }
                  // docs/architecture.md#the-path-index: the index carries the same counts.
                  await patchPathCounts(t.objectStore('paths'), id, written);
                },
                'relaxed',
              ),
            (transcript) => transcript, // the turns did not change
            true,
          );
        } catch {
          break;
        }
        // Only our own transaction ran (start and end): the read is still exact.
        if (writeGeneration() !== p.mark.generation + 2) break;
        p.mark.generation += 2;
        this.written += batch.length;
      }
    }
  }
}

const instances = new WeakMap<BatonDb, StoredTurnCounts>();

/** The stored-counts source of `db` (one per open database). */
export function storedCountsFor(db: BatonDb): StoredTurnCounts {
  let s = instances.get(db);
  if (!s) instances.set(db, (s = new StoredTurnCounts(db)));
  return s;
}
