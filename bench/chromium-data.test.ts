import { describe, expect, it } from 'vitest';
import { generateTranscript } from './generate';
import { isStale } from './chromium-build';
import { batches, chunkStats, chunkText, conversationRecords, flat, listRecords } from './chromium-data';

describe('listRecords', () => {
  it('makes metadata records, one a minute apart, every 50th pinned, deterministic', () => {
    const a = listRecords(120);
    expect(a).toHaveLength(120);
    expect(a.map((r) => r.id).slice(0, 3)).toEqual(['bench-list-0', 'bench-list-1', 'bench-list-2']);
    expect(a.filter((r) => r.pinned).map((r) => r.id)).toEqual(['bench-list-0', 'bench-list-50', 'bench-list-100']);
    expect(Date.parse(a[1]!.updatedAt) - Date.parse(a[0]!.updatedAt)).toBe(60_000);
    for (const r of a) {
      expect(r.preview.length).toBeLessThanOrEqual(120);
      expect(r.nextSeq).toBe(r.turnCount);
    }
    expect(listRecords(120)).toEqual(a);
    expect(listRecords(120, 10)).not.toEqual(a);
  });
});

describe('conversationRecords', () => {
  it('gives one turn record per turn in order and a metadata record newer than the list', () => {
    const t = generateTranscript({ turns: 7 });
    const { record, turns } = conversationRecords(t, 'c1');
    // One path (docs/transcript.md#versions-and-branches): each turn's parent is the one before it.
    expect(turns).toEqual(
      t.turns.map((turn, seq) => ({ conversationId: 'c1', seq, parentId: seq ? t.turns[seq - 1]!.id : '', turn })),
    );
    expect(record).toMatchObject({ id: 'c1', turnCount: 7, nextSeq: 7, tools: t.tools, activeLeaf: t.turns[6]!.id });
    expect(record.updatedAt > listRecords(5_000).at(-1)!.updatedAt).toBe(true);
  });
});

describe('batches', () => {
  it('splits into consecutive batches of at most the size', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batches([], 3)).toEqual([]);
    expect(() => batches([1], 0)).toThrow(RangeError);
  });
});

describe('chunkText', () => {
  it('splits into the given number of chunks whose lengths differ by at most one', () => {
    const parts = chunkText('abcdefghij', 3);
    expect(parts).toEqual(['abc', 'defg', 'hij']);
    expect(parts.join('')).toBe('abcdefghij');
    const many = chunkText('x'.repeat(200_000), 2_000);
    expect(many).toHaveLength(2_000);
    expect(new Set(many.map((p) => p.length))).toEqual(new Set([100]));
  });

  it('never splits a surrogate pair', () => {
    const text = '😀😀😀'; // 6 code units
    const parts = chunkText(text, 4);
    expect(parts).toEqual(['😀', '😀', '😀']);
  });

  it('rejects a count that is not 1…length', () => {
    expect(() => chunkText('ab', 3)).toThrow(RangeError);
    expect(() => chunkText('ab', 0)).toThrow(RangeError);
  });
});

describe('chunkStats and flat', () => {
  it('summarises the whole run and its first and last windows', () => {
    const times = [...Array.from({ length: 100 }, () => 1), ...Array.from({ length: 100 }, () => 3)];
    expect(chunkStats(times)).toEqual({ chunks: 200, medianMs: 2, firstMs: 1, lastMs: 3, totalMs: 400, maxMs: 3 });
    expect(chunkStats([5, 1, 3], 2)).toEqual({ chunks: 3, medianMs: 3, firstMs: 3, lastMs: 2, totalMs: 9, maxMs: 5 });
    expect(() => chunkStats([])).toThrow(RangeError);
  });

  it('calls growth beyond 1.5× (+0.25 ms) not flat', () => {
    expect(flat({ firstMs: 1, lastMs: 1.75 })).toBe(true);
    expect(flat({ firstMs: 1, lastMs: 1.76 })).toBe(false);
    expect(flat({ firstMs: 0.1, lastMs: 0.4 })).toBe(true);
    expect(flat({ firstMs: 5, lastMs: 50 })).toBe(false);
  });
});

describe('isStale', () => {
  it('is stale when there is no build or a source is newer than it', () => {
    expect(isStale(undefined, [])).toBe(true);
    expect(isStale(100, [50, 99, 100])).toBe(false);
    expect(isStale(100, [50, 101])).toBe(true);
  });
});
