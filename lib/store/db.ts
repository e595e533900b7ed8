/**
 * The one typed IndexedDB module (DESIGN.md, "Storage"; "Style to follow" 5): the schema, the
 * store names, the versioned upgrade ladder and a `tx()` helper that awaits `tx.done`.
 *
 * Stores:
 * - `conversations`: list metadata only, so the conversation list never loads transcripts.
 * - `turns`: one record per turn, keyed `[conversationId, seq]`; each names its parent turn, so a
 *   conversation is a tree of turns whose active path (lib/store/turn-tree.ts) is what every reader sees.
 * - `disclosures`: what was sent to whom (the ledger).
 * - `vault`: provider keys (never synced, never exported).
 * - `settings`: provider configuration and preferences, one record per key.
 * - `search`: the full-text index, one record per turn and per title with its terms
 *   (lib/store/search-index.ts), written in the same transaction as the turn or title.
 * - `paths`: the active path's plan index per conversation (lib/store/path-index.ts), written in the
 *   same transaction as every write of the turns ({@link tx} refuses a readwrite transaction over
 *   `turns` without it).
 * - `summaries`: the conversation list's pages (lib/store/list-pages.ts), each conversation's list
 *   fields, written in the same transaction as its record; `list()` reads only these.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { ConversationMeta } from '../messaging/protocol';
import type { Transcript, Turn } from '../transcript/schema';
import type { TurnCount } from '../context/tokens';
import { isQuotaExceeded, storageFullError } from './quota';
import { SEARCH_STORE, titleSearchRecord, turnSearchRecord, type SearchRecord } from './search-index';
import { PATHS_STORE, type PathIndexRecord } from './path-index';
import { LIST_STORE, rebuildListPages, type ListPage } from './list-pages';

export const DB_NAME = 'baton';
/** Current schema version; each step of the ladder in {@link upgradeDb} raises it by one. */
export const DB_VERSION = 5;

export const STORES = {
  conversations: 'conversations',
  turns: 'turns',
  disclosures: 'disclosures',
  vault: 'vault',
  settings: 'settings',
  search: SEARCH_STORE,
  paths: PATHS_STORE,
  summaries: LIST_STORE,
} as const;

/** What the conversation list needs, plus the transcript-level fields that are not turns. */
export interface ConversationRecord extends ConversationMeta {
  /** Next `seq` for a new turn (monotonic; never reused after a delete). */
  nextSeq: number;
  system?: string;
  tools?: Transcript['tools'];
  meta?: Record<string, unknown>;
  /**
   * The turn id of the active leaf (docs/transcript.md#versions-and-branches): the active path runs
   * from the root to this turn. Absent while the conversation has no turn.
   */
  activeLeaf?: string;
  /**
   * The user turn whose answers are compared side by side (docs/side-panel.md#ask-several-models-at-once):
   * set by a send to several models, until the person picks one (`endCompare`) or anything else is
   * appended to the conversation. Optional: absent on every other record (no migration).
   */
  compareOf?: string;
  /**
   * When each field `update()` changed was last set here (ISO time): sync stamps a synced edit with
   * its edit time, not its send time, so the later edit wins a merge (docs/security.md#sync).
   * Local bookkeeping: never shown, exported or synced.
   */
  editedAt?: Partial<Record<'title' | 'pinned' | 'lastTarget', string>>;
}

/** {@link TurnRecord.parentId} of a first turn (a root of the tree). */
export const ROOT_PARENT = '';

export interface TurnRecord {
  conversationId: string;
  /** Order of creation in the conversation (monotonic; versions of one turn sort by it). */
  seq: number;
  /**
   * The turn id of the turn before this one on its path, or {@link ROOT_PARENT} for a first turn.
   * Siblings (same parent) are versions of one turn (docs/transcript.md#versions-and-branches).
   * Set on every record from schema version 2 on (the ladder sets it on older ones).
   */
  parentId: string;
  turn: Turn;
  /**
   * Token counts of `turn`, by counting variant (tokenizer family and counting options, as the
   * planner names them: `lib/context/token-cache.ts`), written back after the first plan that
   * counted them and dropped whenever `turn` is replaced (docs/architecture.md#token-counts-with-the-turn).
   * Optional: records without it are simply counted again (no migration).
   */
  counts?: Record<string, TurnCount>;
}

export interface DisclosureRecord {
  id?: number;
  conversationId: string;
  at: string;
  providerId: string;
  api: string;
  model: string;
  endpoint: string;
  /** `[turnId, contentHash]` of every turn sent. */
  turns: [string, string][];
  estimatedInputTokens?: number;
  usage?: Turn['usage'];
  costUsd?: number;
  responseId?: string;
}

/** A stored key: plain text (version 1, no passphrase) or sealed with the passphrase (version 2, S2). */
export type VaultRecord = PlainVaultRecord | SealedVaultRecord;

/** A key stored without a passphrase (the default; S1: still never in chrome.storage). */
export interface PlainVaultRecord {
  providerId: string;
  version: 1;
  secret: string;
  /** The origin this key may be sent to (N2). */
  boundOrigin: string;
  savedAt: string;
}

/**
 * A key sealed with the passphrase-derived key (S2): PBKDF2 parameters, the 16-byte salt and
 * 12-byte IV (base64), and the AES-GCM ciphertext of the key (base64, additional data
 * `providerId|boundOrigin`). See lib/vault/vault.ts.
 */
export interface SealedVaultRecord {
  providerId: string;
  version: 2;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number };
  salt: string;
  iv: string;
  ciphertext: string;
  /** The origin this key may be sent to (N2); not secret. */
  boundOrigin: string;
  savedAt: string;
}

export interface BatonDbSchema extends DBSchema {
  conversations: { key: string; value: ConversationRecord; indexes: { byUpdatedAt: string } };
  turns: {
    key: [string, number];
    value: TurnRecord;
    indexes: { byTurnId: [string, string]; byStatus: string; byParent: [string, string] };
  };
  disclosures: { key: number; value: DisclosureRecord; indexes: { byConversation: string } };
  vault: { key: string; value: VaultRecord };
  settings: { key: string; value: { key: string; value: unknown } };
  search: { key: [string, number]; value: SearchRecord; indexes: { byTerm: string } };
  paths: { key: [string, number]; value: PathIndexRecord };
  /** The list pages: page number → the UTF-8 bytes of its entries' delimited text (lib/store/list-pages.ts). */
  summaries: { key: number; value: ListPage };
}

export type BatonDb = IDBPDatabase<BatonDbSchema>;
type StoreName = StoreNames<BatonDbSchema>;

/** Hooks for the upgrade lifecycle (security-requirements.md D3). */
export interface OpenHooks {
  /** Another context holds an older version open and did not close it: show "close other extension pages". */
  onBlocked?: () => void;
  /** This connection blocks a newer version: it is closed before this is called. */
  onBlocking?: () => void;
  /** The browser closed the connection abnormally: the next {@link openBatonDb} reopens it. */
  onTerminated?: () => void;
}

/**
 * The upgrade ladder: one `if (oldVersion < N)` step per version, each tested from a seeded
 * database of the version before (D4). Steps above `newVersion` do not run (tests seed an older version).
 */
export function upgradeDb(
  db: IDBPDatabase<BatonDbSchema>,
  oldVersion: number,
  transaction?: IDBPTransaction<BatonDbSchema, StoreName[], 'versionchange'>,
  newVersion = DB_VERSION,
): void {
  if (oldVersion < 1) {
    const conversations = db.createObjectStore(STORES.conversations, { keyPath: 'id' });
    conversations.createIndex('byUpdatedAt', 'updatedAt');
    const turns = db.createObjectStore(STORES.turns, { keyPath: ['conversationId', 'seq'] });
    turns.createIndex('byTurnId', ['conversationId', 'turn.id'], { unique: true });
    // Only turns with an explicit status are indexed, so recovery at start-up reads just those (L2).
    turns.createIndex('byStatus', 'turn.status');
    const disclosures = db.createObjectStore(STORES.disclosures, { keyPath: 'id', autoIncrement: true });
    disclosures.createIndex('byConversation', 'conversationId');
    db.createObjectStore(STORES.vault, { keyPath: 'providerId' });
    db.createObjectStore(STORES.settings, { keyPath: 'key' });
  }
  // Data steps run one after another in the upgrade transaction, after every store exists.
  const steps: UpgradeStep[] = [];
  if (oldVersion < 2 && newVersion >= 2) {
    // docs/transcript.md#versions-and-branches: turns form a tree; a version is a sibling (same parent).
    const turns = transaction!.objectStore(STORES.turns);
    turns.createIndex('byParent', ['conversationId', 'parentId']);
    // A database created at version 2 has no turn yet; an older one gets its linear turns chained.
    if (oldVersion >= 1) steps.push(chainLinearTurns);
  }
  if (oldVersion < 3 && newVersion >= 3) {
    // docs/side-panel.md#search: the full-text index, one record per turn and per title.
    const search = db.createObjectStore(STORES.search, { keyPath: ['conversationId', 'seq'] });
    search.createIndex('byTerm', 'terms', { multiEntry: true });
    if (oldVersion >= 1) steps.push(buildSearchIndex);
  }
  if (oldVersion < 4 && newVersion >= 4) {
    // docs/architecture.md#the-path-index: no data step — a conversation without an index is read
    // whole once, and that read builds it (an upgrade never stalls on hashing every stored turn).
    db.createObjectStore(STORES.paths, { keyPath: ['conversationId', 'chunk'] });
  }
  if (oldVersion < 5 && newVersion >= 5) {
    // docs/architecture.md#the-conversation-list: the list reads its own pages, not the records.
    db.createObjectStore(STORES.summaries);
    if (oldVersion >= 1) steps.push(rebuildListPages);
  }
  if (steps.length) void runSteps(transaction!, steps);
}

type UpgradeTx = IDBPTransaction<BatonDbSchema, StoreName[], 'versionchange'>;
type UpgradeStep = (t: UpgradeTx) => Promise<void>;

/**
 * Runs the ladder's data steps in order inside the upgrade transaction, awaiting only its
 * requests (D5). A failure aborts the upgrade, so the database stays at its old version, untouched.
 */
async function runSteps(t: UpgradeTx, steps: readonly UpgradeStep[]): Promise<void> {
  try {
    for (const step of steps) await step(t);
  } catch {
    try {
      t.abort();
    } catch {
      // already finished
    }
  }
}

/**
 * The version-2 step of the ladder: every stored conversation was a list of turns in `seq` order,
 * so each turn's parent is the turn before it and the active leaf is the last one — the active
 * path is exactly the old conversation.
 */
async function chainLinearTurns(t: UpgradeTx): Promise<void> {
  const last = new Map<string, string>();
  let cursor = await t.objectStore(STORES.turns).openCursor();
  while (cursor) {
    const r = cursor.value as TurnRecord & { parentId?: string };
    await cursor.update({ ...r, parentId: last.get(r.conversationId) ?? ROOT_PARENT });
    last.set(r.conversationId, r.turn.id);
    cursor = await cursor.continue();
  }
  let conv = await t.objectStore(STORES.conversations).openCursor();
  while (conv) {
    const leaf = last.get(conv.value.id);
    if (leaf !== undefined) await conv.update({ ...conv.value, activeLeaf: leaf });
    conv = await conv.continue();
  }
}

/**
 * The version-3 step: the full-text index of what is already stored — every conversation's title
 * and every turn of every branch (docs/side-panel.md#search). Built once, here; later writes keep
 * it current in their own transactions.
 */
async function buildSearchIndex(t: UpgradeTx): Promise<void> {
  const search = t.objectStore(STORES.search);
  let conv = await t.objectStore(STORES.conversations).openCursor();
  while (conv) {
    await search.put(titleSearchRecord(conv.value.id, conv.value.title));
    conv = await conv.continue();
  }
  let cursor = await t.objectStore(STORES.turns).openCursor();
  while (cursor) {
    await search.put(turnSearchRecord(cursor.value));
    cursor = await cursor.continue();
  }
}

/** Bumped around every readwrite transaction on conversations or turns, and on every (re)open. */
let generation = 0;

/**
 * A number that changes whenever conversations or turns may have changed in this context: it is
 * bumped when a readwrite {@link tx} over `conversations` or `turns` starts and again when it
 * ends (committed or aborted), and when a connection opens or is terminated. Caches of stored
 * data (`TranscriptCache`) compare it before serving. Every write of the extension goes through
 * `tx` in the background (pages talk to it through the protocol), so no write escapes it.
 */
export function writeGeneration(): number {
  return generation;
}

/**
 * Opens (and upgrades) the database. A connection that blocks a newer version closes itself (D3).
 * @param name database name (tests use their own).
 */
export async function openBatonDb(name = DB_NAME, hooks: OpenHooks = {}, version = DB_VERSION): Promise<BatonDb> {
  const db: BatonDb = await openDB<BatonDbSchema>(name, version, {
    upgrade: (database, oldVersion, newVersion, transaction) =>
      upgradeDb(database, oldVersion, transaction, newVersion ?? version),
    blocked: () => hooks.onBlocked?.(),
    blocking: () => {
      db.close();
      hooks.onBlocking?.();
    },
    terminated: () => {
      generation++;
      hooks.onTerminated?.();
    },
  });
  generation++;
  return db;
}

/**
 * Runs `work` in one transaction over `stores` and resolves after it commits (`tx.done`).
 * `work` must only await IndexedDB requests of this transaction (D5): any other await would let
 * the transaction auto-commit midway.
 * @throws BatonError `storage_full` when the browser reports the storage full (D2), else what `work` or the commit threw.
 */
export async function tx<S extends StoreName[], M extends 'readonly' | 'readwrite', R>(
  db: BatonDb,
  stores: S,
  mode: M,
  work: (t: IDBPTransaction<BatonDbSchema, S, M>) => Promise<R>,
  durability: 'strict' | 'default' | 'relaxed' = 'default',
): Promise<R> {
  const writes = mode === 'readwrite' && stores.some((s) => s === 'conversations' || s === 'turns');
  // docs/architecture.md#the-path-index: every write of turns keeps the path index in the same transaction.
  if (mode === 'readwrite' && stores.includes('turns' as S[number]) && !stores.includes('paths' as S[number]))
    throw new Error("a readwrite transaction over 'turns' must include 'paths' (the path index)");
  if (writes) generation++;
  const t = db.transaction(stores, mode, { durability });
  // Observed from the start: `work`'s requests may be issued together (lib/store/together.ts), and
  // the abort that one failure causes can then settle `done` before the catch below awaits it.
  t.done.catch(() => undefined);
  try {
    const result = await work(t);
    await t.done;
    return result;
  } catch (e) {
    try {
      t.abort();
    } catch {
      // already finished or aborted
    }
    await t.done.catch(() => undefined);
    // D2: a full storage is one clear error; the transaction is aborted, so nothing is half-written.
    if (isQuotaExceeded(e, t.error)) throw storageFullError();
    throw e;
  } finally {
    if (writes) generation++;
  }
}
