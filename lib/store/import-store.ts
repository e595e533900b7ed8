/**
 * Imported conversations into the store (docs/architecture.md#the-background-by-feature, "File import"; security-requirements.md I3, D4):
 * each conversation is written whole in its own transaction (its metadata and every turn) or not
 * at all, and a batch is idempotent — a conversation already in the store (same id, same
 * `source` kind + id, or, for a source without an id, the same content hash) is skipped as a
 * duplicate, so importing the same file twice adds nothing.
 */
import { contentHash } from '../context/hash';
import { decodeTranscript } from '../transcript/codec';
import { treeOf, withoutVersions, type TurnTree } from '../transcript/versions';
import type { Transcript, Turn } from '../transcript/schema';
import { previewOf } from './conversations';
import { isQuotaExceeded } from './quota';
import { ROOT_PARENT, tx, type BatonDb, type ConversationRecord, type TurnRecord } from './db';
import { indexTitle, indexTurns } from './search-index';
import { rebuildPathIndex } from './path-index';
import { pathIn } from './turn-tree';
import { addConversation } from './list-pages';

/** Longest conversation id the background protocol accepts (`LIMITS.id` in protocol.ts). */
const MAX_ID_CHARS = 200;

/** `transcript.meta` key set by the Baton importer when a `source` is only the file's claim (lib/importers/baton.ts `CLAIMED_SOURCE_META`). */
const CLAIMED_SOURCE_META = 'sourceClaimedByFile';

/** Where the store keeps an imported conversation's dedupe key and content hash: `record.meta[IMPORT_META_KEY]`. */
export const IMPORT_META_KEY = 'batonImport';

/** What the store records about an import, under `meta.batonImport` of the conversation. */
export interface ImportStamp {
  /** `source:<kind>:<id>` or `hash:<16 hex>` (see {@link dedupeKey}). */
  key: string;
  /** Content hash of the conversation as imported: system, tools and turns. */
  hash: string;
  /** ISO 8601 time of the import. */
  at: string;
  /** The imported file's name, when known. */
  file?: string;
  /**
   * The `source` was only a Baton file's claim (docs/security.md): the key matches another import only
   * when the content hash matches too.
   */
  claimed?: true;
  /**
   * The transcript's own `meta` (e.g. `importWarnings`), kept here rather than at the top of the
   * record's `meta`, which holds store-internal state that an export must never carry.
   */
  meta?: Record<string, unknown>;
}

/** One conversation written by {@link importConversations}. */
export interface ImportedConversation {
  id: string;
  title: string;
  turns: number;
  /** What the importer left out or repaired inside it (`meta.importWarnings`), when anything. */
  warnings?: string[];
}

/** One conversation left out, and why (shown to the person as is). */
export interface NotImported {
  /** The transcript's id (the stored id for duplicates). */
  id: string;
  title?: string;
  reason: string;
}

/** The outcome of one batch: every input transcript is in exactly one list, in input order. */
export interface ImportOutcome {
  imported: ImportedConversation[];
  duplicates: NotImported[];
  failed: NotImported[];
}

/**
 * The dedupe key of a transcript: `source:<kind>:<id>` when its source names an id (every
 * importer sets one), else `hash:<contentHash>` of its content (system, tools and turns).
 */
export function dedupeKey(t: Transcript): string {
  if (t.source?.id !== undefined) return `source:${t.source.kind}:${t.source.id}`;
  return `hash:${bodyHash(t)}`;
}

/** {@link contentHash} of what a conversation says: system, tools and turns (not its id, title or meta). */
function bodyHash(t: Transcript): string {
  return contentHash({ system: t.system, tools: t.tools, turns: t.turns });
}

/** The dedupe key of a stored conversation (its import stamp, else its source), if it has one. */
function storedKey(rec: ConversationRecord): string | undefined {
  const stamp = rec.meta?.[IMPORT_META_KEY] as Partial<ImportStamp> | undefined;
  if (stamp && typeof stamp.key === 'string') return stamp.key;
  if (rec.source?.id !== undefined) return `source:${rec.source.kind}:${rec.source.id}`;
  return undefined;
}

/** The import stamp of a stored conversation, if it was imported. */
export function importStampOf(rec: ConversationRecord): ImportStamp | undefined {
  const stamp = rec.meta?.[IMPORT_META_KEY] as ImportStamp | undefined;
  return stamp && typeof stamp === 'object' && typeof stamp.key === 'string' ? stamp : undefined;
}

/** A file cannot be mid-stream: a `streaming` turn in it is stored as `interrupted` (L2 would do the same at the next start). */
function settle(turn: Turn): Turn {
  return turn.status === 'streaming' ? { ...turn, status: 'interrupted' } : turn;
}

/** The conversation record of an imported transcript (list metadata from its turns; `tree` its every version). */
function recordOf(t: Transcript, id: string, stamp: ImportStamp, tree: TurnTree): ConversationRecord {
  let preview = '';
  let last: string | undefined;
  for (const turn of t.turns) {
    preview = previewOf(turn) || preview;
    if (turn.createdAt && (!last || turn.createdAt > last)) last = turn.createdAt;
  }
  const createdAt = t.createdAt ?? last ?? stamp.at;
  return {
    id,
    title: t.title?.replace(/\s+/g, ' ').trim() || 'Imported conversation',
    createdAt,
    // The source's own times, so an old conversation sorts among the old ones.
    updatedAt: last && last > createdAt ? last : createdAt,
    turnCount: t.turns.length,
    preview,
    nextSeq: tree.turns.length,
    ...(tree.leaf !== undefined ? { activeLeaf: tree.leaf } : {}),
    ...(t.system !== undefined ? { system: t.system } : {}),
    ...(t.tools !== undefined ? { tools: t.tools } : {}),
    ...(t.source !== undefined ? { source: t.source } : {}),
    meta: { [IMPORT_META_KEY]: { ...stamp, ...(t.meta !== undefined ? { meta: t.meta } : {}) } },
  };
}

/** Options of {@link importConversations}. */
export interface ImportBatchOptions {
  /** ISO 8601 time of the import (stamped on each conversation). */
  now: string;
  /** The file's name, recorded in the stamp. */
  file?: string;
}

/**
 * Writes `transcripts` into the store, one transaction per conversation (metadata and every turn
 * together, D4): a conversation whose write fails (a storage error, a duplicate turn id) leaves
 * nothing behind and is listed in `failed` with the reason, and the others still import (I3).
 *
 * Each transcript is validated with `decodeTranscript` first (failure → `failed`, with the JSON
 * path). It is a duplicate — skipped, nothing written — when a stored conversation has its id, or
 * the same {@link dedupeKey} (an earlier import of the same source, or a capture with the same
 * source kind and id); the reason says whether the stored copy differs from the file's. The
 * stored id is the transcript's id (importers derive it from the source id, so it is stable),
 * or `import:<hash>` when that id is longer than the protocol's 200 characters.
 *
 * When storage is full (`QuotaExceededError`, D2) the conversation being written and every later
 * one are listed in `failed` with {@link STORAGE_FULL}; conversations already imported stay.
 *
 * Never throws for bad transcripts; only for a database that cannot be read at all.
 */
export async function importConversations(
  db: BatonDb,
  transcripts: readonly Transcript[],
  opts: ImportBatchOptions,
): Promise<ImportOutcome> {
  const out: ImportOutcome = { imported: [], duplicates: [], failed: [] };
  let full = false;
  // Every stored conversation under its dedupe key (several may share one: claimed sources, docs/security.md).
  const byKey = new Map<string, ConversationRecord[]>();
  const remember = (k: string, rec: ConversationRecord) => {
    const list = byKey.get(k);
    if (list) list.push(rec);
    else byKey.set(k, [rec]);
  };
  for (const rec of await db.getAll('conversations')) {
    const k = storedKey(rec);
    if (k !== undefined) remember(k, rec);
  }
  for (const input of transcripts) {
    const label = {
      id: typeof input?.id === 'string' ? input.id : '?',
      ...(typeof input?.title === 'string' ? { title: input.title } : {}),
    };
    let t: Transcript;
    let tree: TurnTree;
    try {
      // docs/transcript.md#versions-and-branches: the turns are the active path; the other versions come from meta.
      const decoded = decodeTranscript(input);
      tree = treeOf(decoded);
      t = withoutVersions(decoded);
    } catch (e) {
      out.failed.push({ ...label, reason: `not a valid transcript: ${(e as Error).message}` });
      continue;
    }
    if (full) {
      out.failed.push({ ...label, reason: STORAGE_FULL });
      continue;
    }
    const key = dedupeKey(t);
    const hash = bodyHash(t);
    const id = t.id.length <= MAX_ID_CHARS ? t.id : `import:${contentHash(t.id)}`;
    const claimed = t.meta?.[CLAIMED_SOURCE_META] === true;
    // docs/security.md: a key shared with a claimed source counts only when the content matches too.
    const known = byKey
      .get(key)
      ?.find((rec) => (!claimed && !importStampOf(rec)?.claimed) || importStampOf(rec)?.hash === hash);
    const stamp: ImportStamp = {
      key,
      hash,
      at: opts.now,
      ...(opts.file !== undefined ? { file: opts.file } : {}),
      ...(claimed ? { claimed: true as const } : {}),
    };
    const rec = recordOf({ ...t, turns: t.turns.map(settle) }, id, stamp, tree);
    try {
      const clash = await tx(db, ['conversations', 'turns', 'search', 'paths', 'summaries'], 'readwrite', async (w) => {
        const existing = (await w.objectStore('conversations').get(id)) ?? known;
        if (existing) return existing;
        await addConversation(w, rec);
        const turns = w.objectStore('turns');
        // docs/side-panel.md#search: every version is indexed, in this same transaction.
        const search = w.objectStore('search');
        await indexTitle(search, id, rec.title);
        const records: TurnRecord[] = [];
        for (const [seq, { parentId, turn }] of tree.turns.entries()) {
          const r: TurnRecord = { conversationId: id, seq, parentId: parentId ?? ROOT_PARENT, turn: settle(turn) };
          await turns.add(r);
          await indexTurns(search, [r]);
          records.push(r);
        }
        // docs/architecture.md#the-path-index: the active path's index, in this same transaction.
        await rebuildPathIndex(w.objectStore('paths'), id, undefined, pathIn(records, rec.activeLeaf));
        return undefined;
        // Default durability: a batch may hold thousands of conversations, and an import cut short
        // by a crash is simply run again (idempotent); each conversation is still all or nothing.
      });
      if (clash) {
        out.duplicates.push({
          id: clash.id,
          ...(t.title !== undefined ? { title: t.title } : {}),
          reason: duplicateReason(clash, key, hash),
        });
        continue;
      }
    } catch (e) {
      const title = t.title !== undefined ? { title: t.title } : {};
      if (isQuotaError(e)) {
        // D2: storage is full — this conversation and every later one are left out whole; nothing is half-written.
        full = true;
        out.failed.push({ id, ...title, reason: STORAGE_FULL });
        continue;
      }
      out.failed.push({ id, ...title, reason: `could not be stored (nothing was written): ${describe(e)}` });
      continue;
    }
    remember(key, rec);
    const warnings = Array.isArray(t.meta?.importWarnings)
      ? (t.meta.importWarnings as unknown[]).filter((w): w is string => typeof w === 'string')
      : [];
    out.imported.push({ id, title: rec.title, turns: t.turns.length, ...(warnings.length ? { warnings } : {}) });
  }
  return out;
}

function duplicateReason(existing: ConversationRecord, key: string, hash: string): string {
  const stamp = existing.meta?.[IMPORT_META_KEY] as Partial<ImportStamp> | undefined;
  const same = storedKey(existing) === key;
  if (same && stamp?.hash === hash) return 'already imported (unchanged)';
  if (same && stamp)
    return 'already imported; the file holds a different version — delete the stored one to import this one';
  if (same) return `already in Baton (same source ${existing.source?.kind ?? ''})`.replace(/ \)$/, ')');
  return 'a conversation with this id is already in Baton';
}

/** The reason given for conversations not stored because the browser's storage is full (D2). */
export const STORAGE_FULL =
  'not stored: the browser storage for Baton is full (nothing was written); free some space and import the file again';

/**
 * True when a write failed because storage is full (D2): the `storage_full` error `tx()` turns
 * it into, or a raw `QuotaExceededError` / `AbortError` around one (see `quota.ts`).
 */
export function isQuotaError(e: unknown): boolean {
  if (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'storage_full') return true;
  return isQuotaExceeded(e, typeof e === 'object' && e !== null ? (e as { inner?: unknown }).inner : undefined);
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.name && e.name !== 'Error' ? `${e.name}: ${e.message}` : e.message;
  return String(e);
}
