/**
 * The conversation list's own copy (docs/architecture.md#the-conversation-list): every
 * conversation's list fields ({@link ConversationMeta}), kept in the `summaries` object store
 * beside the records, so listing reads a few hundred small values instead of every record.
 *
 * Why pages, and why this text: in Chromium the time of a `getAll` grows with the number of records
 * and with their bytes, far more than with the objects built from them (bench/README.md, "List
 * from pages"). So the entries are grouped into {@link LIST_PAGES} pages by a hash of the
 * conversation id, and a page is the UTF-8 bytes of one text of delimited fields, {@link FIELD_COUNT}
 * per entry in {@link FIELDS} order, every field followed by {@link SEP} (U+001F): no key names, no
 * quotes, one decode and one `split` per page to read it. Bytes, not a string: a JavaScript string
 * with a single character above U+00FF (an emoji, the preview's "…") is stored as UTF-16, twice the
 * bytes of the whole page. A string field escapes U+001F, the escape character U+0010 and lone
 * surrogates (which UTF-8 cannot hold; see {@link escapeField}), so a title or preview can hold any
 * character.
 *
 * Every write that changes a record's list fields rewrites its page in the SAME transaction
 * (security-requirements.md D4): {@link putConversation}, {@link addConversation} and
 * {@link deleteConversation} are the only writers of conversation records, so the list never
 * disagrees with the records. These helpers only queue requests of the caller's transaction (D5).
 */
import type { ConversationMeta } from '../messaging/protocol';
import { together } from './together';

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

/** How many fields an entry has on its page. */
const FIELD_COUNT = FIELDS.length;

/** Ends every field of a page (U+001F, the unit separator). */
const SEP = '\u001f';
/** The escape character (U+0010); a field that holds it needs {@link unescapeField}. */
const ESC = '\u0010';
/**
 * A string field that is absent (`undefined`): the escape character alone, which
 * {@link escapeField} never writes (it always pairs it with a digit).
 */
const ABSENT = ESC;

/** A character that a field must escape: the escape character, the separator, a lone surrogate. */
// eslint-disable-next-line no-control-regex -- the format's separator and escape are control characters
const NEEDS_ESCAPE = /[\u0010\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string as a page field: U+0010 becomes U+0010 "0", U+001F becomes U+0010 "1", and a lone
 * surrogate (half of an emoji cut by a `slice`) becomes U+0010 "2" and its four hex digits, so no
 * field holds the separator and the UTF-8 encoding loses nothing; every other character (quotes,
 * newlines, other control characters, emoji) is kept as it is.
 */
export function escapeField(s: string): string {
  NEEDS_ESCAPE.lastIndex = 0;
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(NEEDS_ESCAPE, (c) =>
    c === ESC ? `${ESC}0` : c === SEP ? `${ESC}1` : `${ESC}2${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The string a page field holds (the inverse of {@link escapeField}); `undefined` for {@link ABSENT}. */
function unescapeField(f: string): string | undefined {
  if (f === ABSENT) return undefined;
  // eslint-disable-next-line no-control-regex -- the escape character
  return f.replace(/\u0010(0|1|2[0-9a-f]{4})/g, (_, d: string) =>
    d === '0' ? ESC : d === '1' ? SEP : String.fromCharCode(parseInt(d.slice(1), 16)),
  );
}

/** A string field, read: the fast path is a field without the escape character (nearly all). */
function str(f: string): string | undefined {
  return f.indexOf(ESC) < 0 ? f : unescapeField(f);
}

/** A string list field as written: escaped, or {@link ABSENT}. */
function strField(v: unknown): string {
  return typeof v === 'string' ? escapeField(v) : ABSENT;
}

/**
 * An object field (`lastTarget`, `source`) as written: its JSON, or empty when absent. JSON text
 * never holds a raw U+0000–U+001F character (`JSON.stringify` writes them as `\\u00XX`), so it
 * needs no escape.
 */
function objField(v: unknown): string {
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

/** The fields of conversation record `rec`'s entry, each followed by {@link SEP}. */
function encode(rec: ConversationRecord): string {
  return (
    strField(rec.id) +
    SEP +
    strField(rec.title) +
    SEP +
    strField(rec.createdAt) +
    SEP +
    strField(rec.updatedAt) +
    SEP +
    (typeof rec.turnCount === 'number' ? String(rec.turnCount) : '') +
    SEP +
    strField(rec.preview) +
    SEP +
    (rec.pinned === undefined ? '' : rec.pinned ? '1' : '0') +
    SEP +
    objField(rec.lastTarget) +
    SEP +
    objField(rec.source) +
    SEP
  );
}

/** The entry whose fields start at `f[i]` (as {@link pageText} stored them: object fields index `dict`). */
function decodeAt(f: readonly string[], i: number, dict: readonly string[]): ConversationMeta {
  const out = {
    id: str(f[i]!),
    title: str(f[i + 1]!),
    createdAt: str(f[i + 2]!),
    updatedAt: str(f[i + 3]!),
    turnCount: f[i + 4] === '' ? undefined : Number(f[i + 4]),
    preview: str(f[i + 5]!),
  } as Record<string, unknown>;
  // Absent fields are left out, as the record had them (rare: every writer sets all six).
  for (const k of ['id', 'title', 'createdAt', 'updatedAt', 'turnCount', 'preview'])
    if (out[k] === undefined) delete out[k];
  const pinned = f[i + 6];
  if (pinned !== '') out.pinned = pinned === '1';
  if (f[i + 7] !== '') out.lastTarget = JSON.parse(dict[Number(f[i + 7])]!);
  if (f[i + 8] !== '') out.source = JSON.parse(dict[Number(f[i + 8])]!);
  return out as unknown as ConversationMeta;
}

/** Page bytes: UTF-8 (ASCII text is one byte a character, whatever else the page holds). */
const encoder = new TextEncoder();
/** Keeps a leading U+FEFF (a BOM is never stripped: it may begin a conversation id). */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A page as stored: the UTF-8 bytes of its entries' text. */
export type ListPage = Uint8Array;

/** The object fields of an entry (`lastTarget`, `source`), by position. */
const OBJECT_FIELDS = [7, 8] as const;

/**
 * A page's text: first how many distinct object-field values (`lastTarget`, `source` JSON) the page
 * holds and those values, then every entry's fields with each object field written as its index in
 * that table. Most conversations share a handful of targets, so a target costs a few bytes, not its
 * ~50 of JSON, and is parsed from a short table.
 */
function pageText(entries: readonly string[]): string {
  const dict = new Map<string, number>();
  const body: string[] = [];
  for (const e of entries) {
    const f = e.split(SEP);
    for (const k of OBJECT_FIELDS) {
      const json = f[k]!;
      if (json === '') continue;
      let n = dict.get(json);
      if (n === undefined) dict.set(json, (n = dict.size));
      f[k] = String(n);
    }
    body.push(f.join(SEP));
  }
  return String(dict.size) + SEP + [...dict.keys()].map((j) => j + SEP).join('') + body.join('');
}

/** A page's table of object-field values and its entries' fields ({@link pageText}). */
function fieldsOf(page: ListPage | undefined): { dict: string[]; f: string[] } {
  if (!page || page.byteLength === 0) return { dict: [], f: [] };
  const all = decoder.decode(page).split(SEP);
  all.length -= 1; // the empty piece after the final separator
  const n = Number(all[0]);
  return { dict: all.slice(1, 1 + n), f: all.slice(1 + n) };
}

/** The entries of a page as {@link encode} writes them (object fields as JSON), one string per entry. */
function entriesOf(page: ListPage | undefined): string[] {
  const { dict, f } = fieldsOf(page);
  const out: string[] = [];
  for (let i = 0; i < f.length; i += FIELD_COUNT) {
    const e = f.slice(i, i + FIELD_COUNT);
    for (const k of OBJECT_FIELDS) if (e[k] !== '') e[k] = dict[Number(e[k])]!;
    out.push(e.join(SEP) + SEP);
  }
  return out;
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
export function listFromPages(pages: readonly ListPage[]): ConversationMeta[] {
  const out: ConversationMeta[] = [];
  for (const p of pages) {
    const { dict, f } = fieldsOf(p);
    for (let i = 0; i + FIELD_COUNT <= f.length; i += FIELD_COUNT) out.push(decodeAt(f, i, dict));
  }
  return out.sort(compareListed);
}

/** What is used of the `summaries` store in a writing transaction. */
interface PageStore {
  get(key: number): Promise<ListPage | undefined>;
  getAll(): Promise<ListPage[]>;
  put(page: ListPage, key: number): Promise<unknown>;
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

/**
 * `page` with conversation `id`'s entry set to `entry` (with `entry` undefined, dropped): the new
 * page, `null` when it is left empty, or `undefined` when nothing changes.
 */
function withEntry(page: ListPage | undefined, id: string, entry: string | undefined): ListPage | null | undefined {
  const entries = entriesOf(page);
  // An entry starts with its escaped id and the separator: an id that is a prefix of another never matches.
  const head = escapeField(id) + SEP;
  const i = entries.findIndex((e) => e.startsWith(head));
  if (entry === undefined) {
    if (i < 0) return undefined;
    entries.splice(i, 1);
  } else if (i < 0) entries.push(entry);
  else if (entries[i] === entry) return undefined;
  else entries[i] = entry;
  return entries.length === 0 ? null : encoder.encode(pageText(entries));
}

/**
 * Writes record `rec` (`add` when `add`; with `rec` undefined, deletes record `id`) and
 * conversation `id`'s list entry. The record's request and the page's read are issued together
 * (lib/store/together.ts) and the page is written when both are done, so a write waits for one
 * round trip fewer than when each was awaited in turn (bench/README.md, "Append with the list
 * pages"). With `read` (the page as the caller read it earlier in this transaction,
 * {@link readListPage}) the record and the page are written together (bench/README.md, "Append: the reads issued together").
 */
async function writeWithEntry(
  t: ListWriteTx,
  id: string,
  rec: ConversationRecord | undefined,
  add: boolean,
  read?: { page: ListPage | undefined },
): Promise<void> {
  const records = t.objectStore('conversations');
  const pages = t.objectStore(LIST_STORE);
  const key = pageOf(id);
  const entry = rec === undefined ? undefined : encode(rec);
  if (read !== undefined) {
    // The page was read earlier: both writes go out together.
    const next = withEntry(read.page, id, entry);
    await together([
      () => (rec === undefined ? records.delete(id) : add ? records.add(rec) : records.put(rec)),
      () => (next === null ? pages.delete(key) : next !== undefined ? pages.put(next, key) : undefined),
    ]);
    return;
  }
  const [, page] = await together([
    () => (rec === undefined ? records.delete(id) : add ? records.add(rec) : records.put(rec)),
    () => pages.get(key),
  ]);
  const next = withEntry(page, id, entry);
  if (next === null) await pages.delete(key);
  else if (next !== undefined) await pages.put(next, key);
}

/**
 * Puts conversation record `rec` and its list entry, in the caller's transaction (D4). `read` is
 * its list page as the caller read it earlier in this transaction ({@link readListPage}), issued
 * beside the caller's own first read, so the record and the page are then written together.
 */
export async function putConversation<R extends ConversationRecord>(
  t: ListWriteTx,
  rec: R,
  read?: { page: ListPage | undefined },
): Promise<void> {
  await writeWithEntry(t, rec.id, rec, false, read);
}

/** Reads the list page that holds conversation `id`'s entry, for a later {@link putConversation} in the same transaction. */
export async function readListPage(t: ListWriteTx, id: string): Promise<ListPage | undefined> {
  return t.objectStore(LIST_STORE).get(pageOf(id));
}

/** Adds conversation record `rec` (fails when the id exists) and its list entry, in the caller's transaction (D4). */
export async function addConversation<R extends ConversationRecord>(t: ListWriteTx, rec: R): Promise<void> {
  await writeWithEntry(t, rec.id, rec, true);
}

/** Deletes conversation record `id` and its list entry, in the caller's transaction (D4). */
export async function deleteConversation(t: ListWriteTx, id: string): Promise<void> {
  await writeWithEntry(t, id, undefined, false);
}

/**
 * Writes every page again from the conversation records, replacing what was there: the schema
 * step that creates the store (lib/store/db.ts), and a repair for records written around the
 * helpers above (the benchmarks seed records directly).
 */
export async function rebuildListPages(t: ListWriteTx): Promise<void> {
  const pages = t.objectStore(LIST_STORE);
  await pages.clear();
  const byPage = new Map<number, string[]>();
  for (const rec of await t.objectStore('conversations').getAll()) {
    const key = pageOf(rec.id);
    const list = byPage.get(key);
    if (list) list.push(encode(rec));
    else byPage.set(key, [encode(rec)]);
  }
  for (const [key, entries] of byPage) await pages.put(encoder.encode(pageText(entries)), key);
}
