import { describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../messaging/protocol';
import { upsertMeta } from './turns';

const meta = (id: string, minute: number, title = id): ConversationMeta => {
  const at = new Date(Date.UTC(2026, 0, 1, 8, minute)).toISOString();
  return { id, title, createdAt: at, updatedAt: at, turnCount: 1, preview: '' };
};

describe('upsertMeta', () => {
  it('returns the same list when an equal meta is already there (docs/architecture.md#long-conversations-and-speed: nothing to re-render on open)', () => {
    const list = [meta('b', 2), meta('a', 1)];
    expect(upsertMeta(list, { ...meta('a', 1) })).toBe(list);
  });

  it('replaces a changed meta, adds a new one, and sorts newest first', () => {
    const list = [meta('b', 2), meta('a', 1)];
    expect(upsertMeta(list, meta('a', 1, 'renamed')).map((c) => [c.id, c.title])).toEqual([
      ['b', 'b'],
      ['a', 'renamed'],
    ]);
    expect(upsertMeta(list, meta('a', 5)).map((c) => c.id)).toEqual(['a', 'b']);
    expect(upsertMeta(list, meta('c', 3)).map((c) => c.id)).toEqual(['c', 'b', 'a']);
    // A list out of order is sorted even when the meta is unchanged.
    const unsorted = [meta('a', 1), meta('b', 2)];
    expect(upsertMeta(unsorted, meta('a', 1)).map((c) => c.id)).toEqual(['b', 'a']);
  });
});
