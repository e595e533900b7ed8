/**
 * Full-text search over the stored conversations (docs/side-panel.md#search). The `search` store's
 * `byTerm` multiEntry index (lib/store/search-index.ts) gives the candidates — the records holding
 * each word of the query, the last word as a prefix — and MiniSearch ranks them (BM25+, all words
 * required, the last one as a prefix) over just those candidates. Snippets come from the stored text.
 * One read transaction; nothing is kept in memory between searches, so nothing is rebuilt on open.
 */
import MiniSearch from 'minisearch';
import type { SearchHit, SnippetPart } from '../messaging/search-protocol';
import { tx, type BatonDb } from './db';
import { processTerm, queryTerms, TITLE_SEQ, type SearchRecord } from './search-index';

/** Keys read from the index per query word: a word in more records than this can no longer narrow the others. */
export const CANDIDATE_KEYS = 1_000;
/**
 * Records ranked per search. A query whose every word is this common ranks the first ones found
 * (in conversation id order): adding a rarer word narrows it (docs/side-panel.md#search).
 */
export const RANKED_CANDIDATES = 100;
/** Hits returned when the caller names no limit. */
export const DEFAULT_HITS = 20;

/** Snippet length around the first match, in characters. */
const SNIPPET_CHARS = 160;
/** Characters of context shown before the first match. */
const SNIPPET_LEAD = 40;
/** Title matches weigh more than the same word in a message. */
const TITLE_BOOST = 2;
/** MiniSearch's default separator (SPACE_OR_PUNCTUATION), to find where words are in the stored text. */
const SEPARATOR = /[\n\r\p{Z}\p{P}]+/gu;

type Key = [string, number];
const keyString = (k: Key): string => `${k[0]}\u0000${k[1]}`;

/**
 * The best matches for `query` across every conversation: titles and the text of every turn, on
 * every branch. Every word must occur; the last may be the start of a word (search as you type).
 * An empty query (or one with no word) finds nothing.
 * @param limit most hits returned (default {@link DEFAULT_HITS}).
 */
export async function searchConversations(db: BatonDb, query: string, limit = DEFAULT_HITS): Promise<SearchHit[]> {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  return tx(db, ['conversations', 'search'], 'readonly', async (t) => {
    const store = t.objectStore('search');
    const index = store.index('byTerm');
    const last = terms.length - 1;
    const sets = await Promise.all(
      terms.map((term, i) =>
        index.getAllKeys(i === last ? IDBKeyRange.bound(term, `${term}\uffff`) : term, CANDIDATE_KEYS),
      ),
    );
    const candidates = intersect(sets as Key[][]).slice(0, RANKED_CANDIDATES);
    if (candidates.length === 0) return [];
    // Dense candidates (a common word) are read in one range request, sparse ones one by one.
    const span = IDBKeyRange.bound(candidates[0]!, candidates.at(-1)!);
    const dense = (await store.count(span)) <= candidates.length * 2;
    const wanted = new Set(candidates.map(keyString));
    const records = dense
      ? (await store.getAll(span)).filter((r) => wanted.has(keyString([r.conversationId, r.seq])))
      : await Promise.all(candidates.map((k) => store.get(k)));
    const byId = new Map<string, SearchRecord>();
    for (const r of records) if (r) byId.set(keyString([r.conversationId, r.seq]), r);

    const ms = new MiniSearch<{ id: string; text: string }>({ fields: ['text'], processTerm });
    ms.addAll([...byId].map(([id, r]) => ({ id, text: r.text })));
    const ranked = ms
      .search(query, {
        combineWith: 'AND',
        prefix: (_term, i, all) => i === all.length - 1,
        boostDocument: (id) => (byId.get(id as string)?.seq === TITLE_SEQ ? TITLE_BOOST : 1),
      })
      .slice(0, limit);

    const titles = new Map<string, string>();
    for (const r of ranked) {
      const rec = byId.get(r.id as string)!;
      if (!titles.has(rec.conversationId))
        titles.set(rec.conversationId, (await t.objectStore('conversations').get(rec.conversationId))?.title ?? '');
    }
    return ranked.map((r): SearchHit => {
      const rec = byId.get(r.id as string)!;
      return {
        conversationId: rec.conversationId,
        title: titles.get(rec.conversationId) ?? '',
        ...(rec.turnId !== undefined ? { turnId: rec.turnId } : {}),
        ...(rec.role === 'user' || rec.role === 'assistant' ? { role: rec.role } : {}),
        snippet: snippetOf(rec.text, new Set(r.terms)),
      };
    });
  });
}

/**
 * The keys in every list, once each, in key order. A list that reached
 * {@link CANDIDATE_KEYS} is incomplete, so it cannot rule a key out; MiniSearch's ranking (all
 * words required) still drops such a candidate when its record lacks the word.
 */
function intersect(sets: Key[][]): Key[] {
  const sorted = [...sets].sort((a, b) => a.length - b.length);
  const [base, ...rest] = sorted;
  const filters = rest.filter((s) => s.length < CANDIDATE_KEYS).map((s) => new Set(s.map(keyString)));
  // A prefix's keys come term by term: one record may be listed under several terms.
  const seen = new Set<string>();
  const out = base!.filter((k) => {
    const ks = keyString(k);
    if (seen.has(ks) || !filters.every((f) => f.has(ks))) return false;
    seen.add(ks);
    return true;
  });
  // Key order (the store's), so a run of candidates is one key range.
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
}

/**
 * A one-line excerpt of `text` around its first word whose term is in `matched`, with every
 * matching word marked; the start of the text when none is found (a prefix of a longer term).
 */
export function snippetOf(text: string, matched: ReadonlySet<string>): SnippetPart[] {
  const words: { start: number; end: number; hit: boolean }[] = [];
  let at = 0;
  for (const sep of text.matchAll(SEPARATOR)) {
    if (sep.index > at) words.push(word(text, at, sep.index, matched));
    at = sep.index + sep[0].length;
  }
  if (at < text.length) words.push(word(text, at, text.length, matched));
  const first = words.find((w) => w.hit);
  let start = first ? Math.max(0, first.start - SNIPPET_LEAD) : 0;
  // Start on a word boundary.
  if (start > 0) start = words.find((w) => w.start >= start)?.start ?? start;
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const parts: SnippetPart[] = [];
  const push = (s: string, mark: boolean) => {
    const flat = s.replace(/\s+/g, ' ');
    if (!flat) return;
    const prev = parts.at(-1);
    if (prev && !prev.mark && !mark) prev.text += flat;
    else parts.push(mark ? { text: flat, mark: true } : { text: flat });
  };
  if (start > 0) push('…', false);
  let pos = start;
  for (const w of words) {
    if (w.end <= start || !w.hit) continue;
    if (w.start >= end) break;
    push(text.slice(pos, w.start), false);
    push(text.slice(w.start, w.end), true);
    pos = w.end;
  }
  push(text.slice(pos, end), false);
  if (end < text.length) push('…', false);
  if (parts[0] && !parts[0].mark) parts[0].text = parts[0].text.trimStart();
  return parts;
}

function word(text: string, start: number, end: number, matched: ReadonlySet<string>) {
  const term = processTerm(text.slice(start, end));
  return { start, end, hit: term !== null && matched.has(term) };
}
