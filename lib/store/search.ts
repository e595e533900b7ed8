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
 * Records ranked per search. A query whose every word is in more than {@link CANDIDATE_KEYS}
 * records ranks the first ones holding them all (in conversation id order): adding a rarer word
 * narrows it (docs/side-panel.md#search).
 */
export const RANKED_CANDIDATES = 50;
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

/** The caps a search applies (tests pass smaller ones to exercise them on a few records). */
export interface SearchCaps {
  /** Keys read from the index per query word ({@link CANDIDATE_KEYS}). */
  keys: number;
  /** Records ranked per search ({@link RANKED_CANDIDATES}). */
  ranked: number;
}

/**
 * The best matches for `query` across every conversation: titles and the text of every turn, on
 * every branch. Every word must occur; the last may be the start of a word (search as you type).
 * An empty query (or one with no word) finds nothing.
 * @param limit most hits returned (default {@link DEFAULT_HITS}).
 * @param caps the candidate caps (default {@link CANDIDATE_KEYS} keys per word, {@link RANKED_CANDIDATES} ranked).
 */
export async function searchConversations(
  db: BatonDb,
  query: string,
  limit = DEFAULT_HITS,
  caps: SearchCaps = { keys: CANDIDATE_KEYS, ranked: RANKED_CANDIDATES },
): Promise<SearchHit[]> {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  return tx(db, ['conversations', 'search'], 'readonly', async (t) => {
    const store = t.objectStore('search');
    const index = store.index('byTerm');
    const last = terms.length - 1;
    const range = (term: string, i: number) => (i === last ? IDBKeyRange.bound(term, `${term}\uffff`) : term);
    const lists = (found: unknown[][], limit: number): KeyList[] =>
      found.map((keys, i) => ({ keys: keys as Key[], complete: keys.length < limit, ordered: i !== last }));
    // First only as many keys per word as are ranked: a word found fewer times than that (or a
    // one-word query) needs no more, since ranking checks every word. Only when every word is
    // that common are more keys read, to find records holding them all (docs/side-panel.md#search).
    // Each read is one Promise.all of this transaction's requests (D5: nothing else is awaited).
    let keyLists = lists(
      await Promise.all(terms.map((term, i) => index.getAllKeys(range(term, i), caps.ranked))),
      caps.ranked,
    );
    if (terms.length > 1 && keyLists.every((l) => !l.complete))
      keyLists = lists(
        await Promise.all(terms.map((term, i) => index.getAllKeys(range(term, i), caps.keys))),
        caps.keys,
      );
    const candidates = intersect(keyLists).slice(0, caps.ranked);
    if (candidates.length === 0) return [];
    // Requested together: one round trip of at most `caps.ranked` reads.
    const records = await Promise.all(candidates.map((k) => store.get(k)));
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

    // The titles of the hits' conversations, requested together (one round trip, not one per hit).
    const ids = [...new Set(ranked.map((r) => byId.get(r.id as string)!.conversationId))];
    const conversations = t.objectStore('conversations');
    const found = await Promise.all(ids.map((id) => conversations.get(id)));
    const titles = new Map(ids.map((id, i) => [id, found[i]?.title ?? ''] as const));
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

/** The record keys read from the index for one query word. */
export interface KeyList {
  keys: Key[];
  /** Fewer keys than the cap came back: these are all the records holding the word. */
  complete: boolean;
  /** One exact word, so the keys come in key order (a prefix's come term by term). */
  ordered: boolean;
}

/** The store's key order: conversation id, then seq. */
function compareKeys(a: Key, b: Key): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1];
}

/**
 * The candidate records of a query, once each: the keys of the base list (the smallest complete
 * one; else, every word being over the cap, an exact word's first keys) that every other list
 * holds. A list cut by the cap still decides for the keys up to its last one when it is one exact
 * word (its keys come in key order, so it is complete up to there); beyond that, or for a cut
 * prefix list, a key cannot be ruled out. Keys every list confirms come first, in key order, then
 * the undecided ones (MiniSearch's ranking, every word required, drops those lacking a word), so
 * a cap keeps real co-occurrences before guesses.
 */
export function intersect(lists: KeyList[]): Key[] {
  const complete = lists.filter((l) => l.complete).sort((a, b) => a.keys.length - b.keys.length);
  const base = complete[0] ?? lists.find((l) => l.ordered) ?? lists[0]!;
  const filters = lists
    .filter((l) => l !== base)
    .map((l) => ({ list: l, has: new Set(l.keys.map(keyString)), lastKey: l.keys.at(-1) }));
  const confirmed: Key[] = [];
  const undecided: Key[] = [];
  // A prefix's keys come term by term: one record may be listed under several terms.
  const seen = new Set<string>();
  for (const k of base.keys) {
    const ks = keyString(k);
    if (seen.has(ks)) continue;
    seen.add(ks);
    let sure = true;
    let out = false;
    for (const f of filters) {
      if (f.has.has(ks)) continue;
      if (f.list.complete || (f.list.ordered && f.lastKey && compareKeys(k, f.lastKey) < 0)) {
        out = true;
        break;
      }
      sure = false;
    }
    if (!out) (sure ? confirmed : undecided).push(k);
  }
  return [...confirmed.sort(compareKeys), ...undecided.sort(compareKeys)];
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
