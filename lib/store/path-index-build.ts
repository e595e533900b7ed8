/**
 * The lazy build of the path index (docs/architecture.md#the-path-index) for a conversation stored
 * before it existed, or whose index a write could not keep: a whole read of the conversation that
 * finds no current index notes its records here, and once the worker has been quiet for
 * {@link BUILD_DELAY_MS} the entries are made from those records and written — only while no write
 * of conversations or turns ran since the read (`writeGeneration`), so the index always describes
 * the stored path. The write is a transaction over `paths` alone, so it neither moves the write
 * generation nor invalidates the transcript cache or the counts' pending write-back.
 */
import { tx, writeGeneration, type BatonDb, type TurnRecord } from './db';
import { pathEntryOf, writePathIndex } from './path-index';

/** Quiet time (ms) after the last noted read before the index is built. */
export const BUILD_DELAY_MS = 2_000;

interface Pending {
  records: readonly TurnRecord[];
  generation: number;
}

/** See the module comment. One per database ({@link pathIndexBuilderFor}). */
export class PathIndexBuilder {
  private pending = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private building: Promise<void> | undefined;
  /** Indexes written since creation (for tests and the bench). */
  built = 0;

  constructor(private readonly db: BatonDb) {}

  /**
   * Notes a whole read of `conversationId`'s active path (`records`, root first) that started at
   * write generation `generation` and found no current index; the build runs after a quiet time.
   */
  noteRead(conversationId: string, records: readonly TurnRecord[], generation: number): void {
    if (writeGeneration() !== generation) return;
    this.pending.set(conversationId, { records, generation });
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.build();
    }, BUILD_DELAY_MS);
  }

  /** Builds the noted indexes now. Resolves when done; never rejects (a failed build is simply made again after the next whole read). */
  build(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.building ??= this.run().finally(() => (this.building = undefined));
    return this.building;
  }

  private async run(): Promise<void> {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      if (writeGeneration() !== p.generation) continue;
      const entries = p.records.map(pathEntryOf);
      // Checked synchronously right before the transaction is created: no write since the read.
      if (writeGeneration() !== p.generation) continue;
      try {
        await tx(this.db, ['paths'], 'readwrite', (t) => writePathIndex(t.objectStore('paths'), id, entries));
        this.built++;
      } catch {
        // A closed database or a full disk: the next whole read notes it again.
      }
    }
  }
}

const instances = new WeakMap<BatonDb, PathIndexBuilder>();

/** The lazy builder of `db` (one per open database). */
export function pathIndexBuilderFor(db: BatonDb): PathIndexBuilder {
  let b = instances.get(db);
  if (!b) instances.set(db, (b = new PathIndexBuilder(db)));
  return b;
}
