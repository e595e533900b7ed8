/** The search bench's corpus (bench/README.md, "Search"): the records Baton would write, deterministic. */
import { describe, expect, it } from 'vitest';
import { TITLE_SEQ, termsOf } from '../lib/store/search-index';
import { searchCorpus } from './search-data';

describe('searchCorpus', () => {
  it('streams a title record per conversation, then the turns, as the store builds them', () => {
    const c = searchCorpus({ conversations: 10, turns: 50 });
    expect(() => c.words()).toThrow(/before the records were read/);
    const records = [...c.records];
    expect(records).toHaveLength(60);
    expect(records.slice(0, 10).every((r) => r.seq === TITLE_SEQ)).toBe(true);
    expect(records.slice(10).map((r) => r.turnId)).toEqual(Array.from({ length: 50 }, (_, i) => `t${i}`));
    for (const r of records) expect(r.terms).toEqual(termsOf(r.text));
    const { rare, mid } = c.words();
    expect(records.some((r) => r.terms.includes(rare))).toBe(true);
    expect(records.some((r) => r.terms.includes(mid))).toBe(true);
  });

  it('is the same for the same seed', () => {
    const a = searchCorpus({ conversations: 5, turns: 20 }, 3);
    const b = searchCorpus({ conversations: 5, turns: 20 }, 3);
    expect([...a.records]).toEqual([...b.records]);
    expect(a.words()).toEqual(b.words());
  });
});
