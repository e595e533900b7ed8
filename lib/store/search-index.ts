/**
 * The full-text search index's records (docs/side-panel.md#search): one record per stored turn —
 * every version on every branch — and one per conversation title, in the `search` object store,
 * each listing its terms under a multiEntry index (`byTerm`). The terms come from MiniSearch's own
 * tokenizer and term processing (lower case), with accents folded, so the index and the query
 * (lib/store/search.ts) agree on what a word is.
 *
 * Every write of a turn or a title puts or deletes its record in the SAME transaction as the write
 * (security-requirements.md D4): an aborted write leaves no index entry behind, and the index is
 * never rebuilt on open. These helpers only queue requests on the caller's store (D5).
 */
import MiniSearch from 'minisearch';
import type { Turn } from '../transcript/schema';

/** Object store name of the index (kept here so lib/store/db.ts can build it without a cycle). */
export const SEARCH_STORE = 'search';

/** {@link SearchRecord.seq} of a conversation's title record (turn `seq`s start at 0). */
export const TITLE_SEQ = -1;

/** Longest term indexed, in characters: longer runs (base64, hashes) are never words a person types. */
export const MAX_TERM_CHARS = 64;

/** Searchable text kept per turn, in characters; words after it are not found (a pasted book stays searchable by its first 100,000 characters). */
export const MAX_TEXT_CHARS = 100_000;

/**
 * One indexed text: a turn (`seq` ≥ 0, the turn record's key) or a conversation's title
 * (`seq` = {@link TITLE_SEQ}). Keyed `[conversationId, seq]`, like the turns.
 */
export interface SearchRecord {
  conversationId: string;
  seq: number;
  /** The turn's id (absent on a title record). */
  turnId?: string;
  role?: Turn['role'];
  /** What was indexed: the text of the turn's text blocks, tool results and document titles, or the title. */
  text: string;
  /** The distinct terms of `text` ({@link termsOf}); the `byTerm` multiEntry index points at them. */
  terms: string[];
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string, fieldName?: string) => string[];
const lowerCase = MiniSearch.getDefault('processTerm') as (term: string, fieldName?: string) => unknown;

/**
 * MiniSearch's term processing (lower case) with accents folded ("Zürich" → "zurich"); `null` for
 * an empty term or one longer than {@link MAX_TERM_CHARS}. Used for indexing and for queries alike.
 */
export function processTerm(term: string): string | null {
  const lower = lowerCase(term);
  if (typeof lower !== 'string') return null;
  const folded = lower.normalize('NFD').replace(/\p{M}+/gu, '');
  return folded && folded.length <= MAX_TERM_CHARS ? folded : null;
}

/** The distinct processed terms of `text`, in order of first occurrence. */
export function termsOf(text: string): string[] {
  const out = new Set<string>();
  for (const token of tokenize(text)) {
    const t = processTerm(token);
    if (t) out.add(t);
  }
  return [...out];
}

/** The words a query asks for, processed as the index's terms are (duplicates kept out). */
export const queryTerms = termsOf;

/**
 * The searchable text of a turn: its text blocks, its tool results' text and its documents'
 * titles, one per line, at most {@link MAX_TEXT_CHARS}. Thinking is left out: it is the model's
 * working, not what was said, and often longer than the answer. Tolerates a malformed stored
 * record (an old or hand-edited one): what is not text is skipped.
 */
export function searchableText(turn: Turn): string {
  const parts: string[] = [];
  const blocks: unknown = (turn as { blocks?: unknown }).blocks;
  if (Array.isArray(blocks)) {
    for (const b of blocks as Turn['blocks']) {
      if (!b || typeof b !== 'object') continue;
      if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
      else if (b.type === 'document' && typeof b.title === 'string') parts.push(b.title);
      else if (b.type === 'tool_result') {
        if (typeof b.content === 'string') parts.push(b.content);
        else if (Array.isArray(b.content))
          for (const c of b.content) if (c?.type === 'text' && typeof c.text === 'string') parts.push(c.text);
      }
    }
  }
  const text = parts.join('\n');
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

/** The index record of a stored turn. */
export function turnSearchRecord(r: { conversationId: string; seq: number; turn: Turn }): SearchRecord {
  const text = searchableText(r.turn);
  return {
    conversationId: r.conversationId,
    seq: r.seq,
    turnId: r.turn.id,
    role: r.turn.role,
    text,
    terms: termsOf(text),
  };
}

/** The index record of a conversation's title. */
export function titleSearchRecord(conversationId: string, title: string): SearchRecord {
  return { conversationId, seq: TITLE_SEQ, text: title, terms: termsOf(title) };
}

/** Every key of conversation `id` (its title's and its turns'). */
export function conversationKeys(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, -Infinity], [id, Infinity]);
}

/** What the helpers need of the `search` store inside a readwrite transaction. */
export interface SearchStoreWriter {
  put(value: SearchRecord): Promise<unknown>;
  delete(key: [string, number] | IDBKeyRange): Promise<unknown>;
}

/** Puts (or replaces) the records of `turns`, in the caller's transaction. */
export async function indexTurns(
  store: SearchStoreWriter,
  turns: Iterable<{ conversationId: string; seq: number; turn: Turn }>,
): Promise<void> {
  for (const r of turns) await store.put(turnSearchRecord(r));
}

/** Puts (or replaces) the title record of a conversation, in the caller's transaction. */
export async function indexTitle(store: SearchStoreWriter, conversationId: string, title: string): Promise<void> {
  await store.put(titleSearchRecord(conversationId, title));
}

/** Deletes the records of removed turns, in the caller's transaction. */
export async function unindexTurns(
  store: SearchStoreWriter,
  conversationId: string,
  seqs: Iterable<number>,
): Promise<void> {
  for (const seq of seqs) await store.delete([conversationId, seq]);
}

/** Deletes every record of conversation `id` (title and turns), in the caller's transaction. */
export async function unindexConversation(store: SearchStoreWriter, id: string): Promise<void> {
  await store.delete(conversationKeys(id));
}
