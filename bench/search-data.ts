/**
 * The records the search section of `npm run bench` seeds (bench/README.md, "Search"), built with
 * the store's own `turnSearchRecord` / `titleSearchRecord`, so the terms are exactly what Baton
 * writes. Pure and streaming (no browser, no Node API): `search-seed.ts` runs it inside the
 * extension's service worker, where 100,000 records are written without crossing CDP.
 */
import type { ConversationRecord } from '../lib/store/db';
import { titleSearchRecord, turnSearchRecord, type SearchRecord } from '../lib/store/search-index';
import type { Turn } from '../lib/transcript/schema';
import { listRecords } from './chromium-data';
import { Rng } from './random';
import { prose } from './text';

/** Pronounceable made-up words, the rarer vocabulary besides the bench's prose words. */
function vocabulary(rng: Rng, size: number): string[] {
  const c = 'bdfgklmnprstvz';
  const v = 'aeiou';
  const out = new Set<string>();
  while (out.size < size) {
    let w = '';
    for (let i = rng.int(3, 5); i > 0; i--) w += rng.pick([...c]) + rng.pick([...v]);
    out.add(w);
  }
  return [...out];
}

/** The seeded corpus: the conversation records, the index records (a one-pass stream) and the query words. */
export interface SearchCorpus {
  conversations: ConversationRecord[];
  /** The titles' records, then the turns'; read once. */
  records: Generator<SearchRecord>;
  /** A made-up word in 2–10 turns and one of the 10 % most frequent; valid once `records` is read to the end. */
  words(): { rare: string; mid: string };
}

/**
 * `conversations` titles and `turns` turn records spread over them, each turn 100–800 characters
 * of prose (assistant) or 50–300 (user) plus 1–4 made-up words picked with a skew (a few are
 * common, most rare). Deterministic for a given `seed`.
 */
export function searchCorpus(p: { conversations: number; turns: number }, seed = 21): SearchCorpus {
  const rng = new Rng(seed);
  const conversations = listRecords(p.conversations, seed);
  const vocab = vocabulary(rng, 30_000);
  const count = new Map<string, number>();
  function* records(): Generator<SearchRecord> {
    for (const c of conversations) yield titleSearchRecord(c.id, c.title);
    for (let i = 0; i < p.turns; i++) {
      const conversationId = conversations[i % conversations.length]!.id;
      const extra: string[] = [];
      for (let k = rng.int(1, 4); k > 0; k--) {
        const w = vocab[Math.floor(vocab.length * rng.next() ** 3)]!;
        extra.push(w);
        count.set(w, (count.get(w) ?? 0) + 1);
      }
      const turn: Turn =
        i % 2
          ? {
              id: `t${i}`,
              role: 'assistant',
              origin: { provider: 'openai', api: 'openai-responses', model: 'm' },
              blocks: [{ type: 'text', text: `${prose(rng, rng.int(100, 800))} ${extra.join(' ')}` }],
            }
          : {
              id: `t${i}`,
              role: 'user',
              blocks: [{ type: 'text', text: `${prose(rng, rng.int(50, 300))} ${extra.join(' ')}` }],
            };
      yield turnSearchRecord({ conversationId, seq: Math.floor(i / conversations.length), turn });
    }
  }
  return {
    conversations,
    records: records(),
    words() {
      const byCount = [...count].sort((a, b) => a[1] - b[1]);
      if (byCount.length === 0) throw new Error('searchCorpus: words() before the records were read');
      const rare = byCount.find(([, c]) => c >= 2 && c <= 10)?.[0] ?? byCount[0]![0];
      const mid = byCount[Math.floor(byCount.length * 0.9)]![0];
      return { rare, mid };
    },
  };
}
