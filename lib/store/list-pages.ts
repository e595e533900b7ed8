/**
 * The conversation list's own copy (docs/architecture.md#the-conversation-list): every
 * conversation's list fields ({@link ConversationMeta}), kept in the `summaries` object store
 * beside the records, so listing reads a few hundred small values instead of every record.
 *
 * Why pages, and why text: in Chromium the time of a `getAll` grows with the number of records
 * and with their bytes, far more than with the objects built from them (bench/README.md,
 * "List from pages"). So the entries are grouped into {@link LIST_PAGES} pages by a hash of the
 * conversation id, and a page is one string — the JSON of an array of entries, each a tuple of
 * the fields in {@link FIELDS} order — not objects with their key names repeated.
 *
 * Every write that changes a record's list fields rewrites its page in the SAME transaction
 * (security-requirements.md D4): {@link putConversation}, {@link addConversation} and
 * {@link deleteConversation} are the only writers of conversation records, so the list never
 * disagrees with the records. These helpers only queue requests of the caller's transaction (D5).
 */
import type { ConversationMeta } from '../messaging/protocol';

/**
 * A conversation record as these helpers see it: its list fields and whatever else it holds
 * (lib/store/db.ts `ConversationRecord`, not imported here so that db.ts can use this module).
 */
type ConversationRecord = ConversationMeta;

/** Object store name of the list pages (kept here so lib/store/db.ts can create it without a cycle). */
export const LIST_STORE = 'summaries';

/**
 * How many pages the list is spread over. A page holds about `conversations / 256` entries of
 * ~300 bytes: 5,000 conversations are pages of ~6 KB; 50,000 stay under 64 KB (above which
 * Chromium keeps a value as a separate file, and every write of it costs a file).
 */
export const LIST_PAGES = 256;

/** The list fields, in the order an entry's tuple holds them (every key of {@link ConversationMeta}). */
const FIELDS = [
  'id',
  'title',
  'createdAt',
  'updatedAt',
  'turnCount',
  'preview',
  'pinned',
  'lastTarget',
  'source',
] as const satisfies readonly (keyof ConversationMeta)[];

/** A compile error here means a list field is missing from {@link FIELDS}. */
const _everyField: Exclude<keyof ConversationMeta, (typeof FIELDS)[number]> extends never ? true : never = true;
void _everyField;

/** One entry as stored: the values of {@link FIELDS}, `null` for an absent optional field. */
type Entry = unknown[];

/** The page of conversation `id` (FNV-1a of its UTF-16 code units, modulo {@link LIST_PAGES}). */
export function pageOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % LIST_PAGES;
}

/** The list fields of a record: the record without its store-only fields (what `list()` returns). */
export function listFieldsOf(rec: ConversationRecord): ConversationMeta {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) if (rec[f] !== undefined) out[f] = rec[f];
  return out as unknown as ConversationMeta;
}

function encode(rec: ConversationRecord): Entry {
  return FIELDS.map((f) => rec[f] ?? null);
}

function decode(e: Entry): ConversationMeta {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS.length; i++) if (e[i] !== null && e[i] !== undefined) out[FIELDS[i]!] = e[i];
  return out as unknown as ConversationMeta;
}

/** The entries of a stored page (none for a missing one). */
function entriesOf(page: string | undefined): Entry[] {
  return page ? (JSON.parse(page) as Entry[]) : [];
}

/**
 * Pinned first, then newest first (`updatedAt`, ISO 8601), ties by id descending — the order the
 * list had when it was read backwards from the records' `byUpdatedAt` index.
 */
export function compareListed(a: ConversationMeta, b: ConversationMeta): number {
  if (!a.pinned !== !b.pinned) return a.pinned ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Every listed conversation from the pages' values, in list order ({@link compareListed}). */
export function listFromPages(pages: readonly string[]): ConversationMeta[] {
  const out: ConversationMeta[] = [];
  for (const p of pages) for (const e of entriesOf(p)) out.push(decode(e));
  return out.sort(compareListed);
}

/** What is used of the `summaries` store in a writing transaction. */
interface PageStore {
  get(key: number): Promise<string | undefined>;
  getAll(): Promise<string[]>;
  put(page: string, key: number): Promise<unknown>;
  delete(key: number): Promise<unknown>;
  clear(): Promise<unknown>;
}

/** What is used of the `conversations` store in a writing transaction. */
interface RecordStore {
  getAll(): Promise<ConversationRecord[]>;
  put(rec: ConversationRecord): Promise<unknown>;
  add(rec: ConversationRecord): Promise<unknown>;
  delete(id: string): Promise<unknown>;
}

/**
 * A writing transaction over `conversations` and the list pages (and any other stores): typed
 * structurally, since every writer's transaction names its own stores and only these two are used here.
 */
export interface ListWriteTx {
  objectStore(name: 'conversations'): RecordStore;
  objectStore(name: typeof LIST_STORE): PageStore;
}

/** Sets (or with `remove`, drops) conversation `id`'s entry on its page. */
async function writeEntry(pages: PageStore, id: string, entry: Entry | undefined): Promise<void> {
  const key = pageOf(id);
  const entries = entriesOf(await pages.get(key));
  const i = entries.findIndex((e) => e[0] === id);
  if (entry === undefined) {
    if (i < 0) return;
    entries.splice(i, 1);
  } else if (i < 0) entries.push(entry);
  else if (JSON.stringify(entries[i]) === JSON.stringify(entry)) return;
  else entries[i] = entry;
  if (entries.length === 0) await pages.delete(key);
  else await pages.put(JSON.stringify(entries), key);
}

/** Puts conversation record `rec` and its list entry, in the caller's transaction (D4). */
export async function putConversation<R extends ConversationRecord>(t: ListWriteTx, rec: R): Promise<void> {
  await t.objectStore('conversations').put(rec);
  await writeEntry(t.objectStore(LIST_STORE), rec.id, encode(rec));
}

/** Adds conversation record `rec` (fails when the id exists) and its list entry, in the caller's transaction (D4). */
export async function addConversation<R extends ConversationRecord>(t: ListWriteTx, rec: R): Promise<void> {
  await t.objectStore('conversations').add(rec);
  await writeEntry(t.objectStore(LIST_STORE), rec.id, encode(rec));
}

/** Deletes conversation record `id` and its list entry, in the caller's transaction (D4). */
export async function deleteConversation(t: ListWriteTx, id: string): Promise<void> {
  await t.objectStore('conversations').delete(id);
  await writeEntry(t.objectStore(LIST_STORE), id, undefined);
}

/**
 * Writes every page again from the conversation records, replacing what was there: the schema
 * step that creates the store (lib/store/db.ts), and a repair for records written around the
 * helpers above (the benchmarks seed records directly).
 */
export async function rebuildListPages(t: ListWriteTx): Promise<void> {
  const pages = t.objectStore(LIST_STORE);
  await pages.clear();
  const byPage = new Map<number, Entry[]>();
  for (const rec of await t.objectStore('conversations').getAll()) {
    const key = pageOf(rec.id);
    const list = byPage.get(key);
    if (list) list.push(encode(rec));
    else byPage.set(key, [encode(rec)]);
  }
  for (const [key, entries] of byPage) await pages.put(JSON.stringify(entries), key);
}
