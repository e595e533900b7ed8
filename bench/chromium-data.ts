/**
 * Pure inputs and statistics of the Chromium benchmarks (bench/README.md, "Storage and rendering"):
 * the IndexedDB records to seed, the chunks of the streamed answer, and the per-chunk summary.
 * No browser here, so every helper has a unit test (`chromium-data.test.ts`).
 */
import type { ConversationRecord, TurnRecord } from '../lib/store/db';
import type { Transcript } from '../lib/transcript/schema';
import { chainedRecords } from '../lib/store/turn-tree';
import { median } from './harness';
import { Rng } from './random';
import { sentence } from './text';

/** Epoch of the seeded list; the big conversation is one hour newer than every listed one. */
const LIST_START = Date.UTC(2026, 0, 1, 8, 0, 0);

/**
 * `count` conversation records of the list benchmark, as the store keeps them (metadata only,
 * no turns): ids `bench-list-<i>`, a title, a 120-character preview, one a minute apart, every
 * 50th pinned. Deterministic for a given `seed`.
 */
export function listRecords(count: number, seed = 9): ConversationRecord[] {
  const rng = new Rng(seed);
  const out: ConversationRecord[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(LIST_START + i * 60_000).toISOString();
    const turns = rng.int(2, 400);
    out.push({
      id: `bench-list-${i}`,
      title: sentence(rng).slice(0, 60),
      createdAt: at,
      updatedAt: at,
      turnCount: turns,
      preview: sentence(rng).concat(' ', sentence(rng)).slice(0, 120),
      nextSeq: turns,
      ...(i % 50 === 0 ? { pinned: true } : {}),
      lastTarget: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
    });
  }
  return out;
}

/**
 * The store records of `transcript` as conversation `id`: its metadata record (newer than every
 * {@link listRecords} entry, so it heads the list) and one turn record per turn, `seq` 0….
 */
export function conversationRecords(
  transcript: Transcript,
  id: string,
): { record: ConversationRecord; turns: TurnRecord[] } {
  const at = new Date(LIST_START + 365 * 24 * 3_600_000).toISOString();
  const record: ConversationRecord = {
    id,
    title: transcript.title ?? 'Benchmark conversation',
    createdAt: transcript.createdAt ?? at,
    updatedAt: at,
    turnCount: transcript.turns.length,
    preview: 'Benchmark conversation',
    nextSeq: transcript.turns.length,
    ...(transcript.turns.length ? { activeLeaf: transcript.turns.at(-1)!.id } : {}),
    ...(transcript.system !== undefined ? { system: transcript.system } : {}),
    ...(transcript.tools !== undefined ? { tools: transcript.tools } : {}),
  };
  return { record, turns: chainedRecords(id, transcript.turns) };
}

/** Splits `items` into consecutive batches of at most `size` (≥ 1). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isSafeInteger(size) || size < 1)
    throw new RangeError(`batch size: expected a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Splits `text` into `count` consecutive chunks whose lengths differ by at most one character
 * (UTF-16 code units). A surrogate pair is never split: the cut moves one unit later, so a text
 * dense in astral characters may give fewer chunks.
 * @throws RangeError when `count` is not a positive integer or exceeds the text length.
 */
export function chunkText(text: string, count: number): string[] {
  if (!Number.isSafeInteger(count) || count < 1 || count > text.length)
    throw new RangeError(`chunks: expected 1…${text.length}, got ${count}`);
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i <= count; i++) {
    let to = Math.round((text.length * i) / count);
    const code = text.charCodeAt(to - 1);
    if (to < text.length && code >= 0xd800 && code <= 0xdbff) to++;
    if (to <= from) continue;
    out.push(text.slice(from, to));
    from = to;
  }
  if (from < text.length) out[out.length - 1] += text.slice(from);
  return out;
}

/** Summary of per-chunk times (ms): median of all, of the first `edge` and of the last `edge`. */
export interface ChunkStats {
  chunks: number;
  medianMs: number;
  firstMs: number;
  lastMs: number;
  totalMs: number;
  maxMs: number;
}

/** Summarises per-chunk times (ms, in arrival order); `edge` is the window size (100 in bench/README.md). */
export function chunkStats(times: readonly number[], edge = 100): ChunkStats {
  if (times.length === 0) throw new RangeError('chunk times: none');
  const n = Math.min(edge, times.length);
  return {
    chunks: times.length,
    medianMs: median(times),
    firstMs: median(times.slice(0, n)),
    lastMs: median(times.slice(-n)),
    totalMs: times.reduce((a, b) => a + b, 0),
    maxMs: Math.max(...times),
  };
}

/**
 * "Does not grow with the length of the message" (bench/README.md) as a test: the last-100 median is at
 * most 1.5 × the first-100 median, plus 0.25 ms of slack so timer noise on sub-millisecond
 * figures does not decide it.
 */
export function flat(stats: Pick<ChunkStats, 'firstMs' | 'lastMs'>): boolean {
  return stats.lastMs <= stats.firstMs * 1.5 + 0.25;
}
