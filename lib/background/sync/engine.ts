/**
 * The sync engine (docs/security.md#sync, docs/architecture.md#sync): one-shot replication of a
 * local mirror database with the person's CouchDB-protocol server, everything on the server
 * encrypted.
 *
 * One cycle ({@link SyncEngine.syncNow}), never two at once:
 * 1. **Export**: what changed in Baton's store since the last cycle becomes mirror documents
 *    through the allowlist mapper (mapper.ts) — turn versions, conversation documents restamped
 *    per changed field, ledger records, the chosen settings; local deletes become tombstones.
 * 2. **Replicate** mirror → server → mirror, one-shot, through a transform on the **server**
 *    database that seals each body on the way out and opens it on the way in (crypto.ts). PouchDB
 *    keeps replication checkpoints in `_local` documents, so a cycle cut short by the worker's
 *    death resumes where it stopped.
 * 3. **Import**: the mirror's changes since the import checkpoint are merged (conversation and
 *    settings conflicts per field, losing revisions removed) and applied to Baton's store, one
 *    transaction per conversation (lib/store/sync-apply.ts). What was just applied equals what the
 *    next export maps, so nothing is echoed back.
 */
import type { BackgroundEvent } from '../../messaging/protocol';
import type { ConversationStore } from '../../store/conversations';
import type { BatonDb, DisclosureRecord } from '../../store/db';
import type { DisclosureStore, LedgerRecord } from '../../store/disclosures';
import type { SettingsStore } from '../../store/settings';
import { applySyncedConversation, type SyncedTurn } from '../../store/sync-apply';
import type { DisclosurePolicy } from '../../messaging/disclosure-types';
import type { SyncState } from '../../messaging/sync-protocol';
import {
  createSetup,
  docIdOf,
  joinSetup,
  openDoc,
  sealDoc,
  SYNC_ITERATIONS,
  UnreadableDocError,
  WrongSyncPassphraseError,
  type SyncKeys,
} from './crypto';
import { Hlc } from './hlc';
import { conversationFields, ledgerDoc, ledgerFingerprint, settingsFields, turnDoc } from './mapper';
import {
  mergeDocs,
  newestStamp,
  restamp,
  sameJson,
  valuesOf,
  type ConversationDoc,
  type SettingsDoc,
  type SyncDoc,
  type TurnDoc,
} from './model';
import type { PouchDb, PouchDoc, PouchStatic } from './pouch';
import {
  checkServerUrl,
  readSetup,
  removeServerData,
  serverFetch,
  SyncError,
  writeSetup,
  type ServerAccess,
} from './remote';

/** `settings` record of the sync configuration (never synced, never exported). */
export const SYNC_CONFIG_KEY = 'sync';
/** `settings` record of the last status, so a restarted worker and the options page still see it. */
export const SYNC_STATUS_KEY = 'syncStatus';
/** The vault entry of the server password (kept like a provider key, S1). */
export const SYNC_VAULT_ID = 'sync-server';
/** The local mirror database's name. */
export const MIRROR_NAME = 'baton-sync-mirror';
const INDEX_ID = '_local/baton-index';

/** What sync keeps on this device once switched on. */
export interface SyncConfig {
  version: 1;
  url: string;
  user: string;
  /** This device's hybrid-clock node id (random). */
  node: string;
  /** The non-extractable keys of the sync passphrase (structured-cloned CryptoKeys; the passphrase is not kept). */
  keys: SyncKeys;
}

/** What the options page shows: the protocol's sync state (one shape for the worker and the page). */
export type SyncStatus = SyncState;

/** The mirror's own bookkeeping (a `_local` document: never replicated). */
interface MirrorIndex {
  _id: string;
  _rev?: string;
  /** Per conversation: its document id, a stamp of the local state last exported, its turn documents. */
  convs: Record<string, { doc: string; stamp?: string; turns: Record<string, string>; deleted?: boolean }>;
  /** Highest local disclosure record id exported. */
  ledgerMax: number;
  /** The mirror's change sequence imported so far. */
  importSeq: number | string;
  pending: number;
}

/** A stored turn document, as the import reads it (a tombstone keeps `k`, `cid` and `tid`). */
interface TurnGone {
  k: 'turn';
  cid: string;
  tid: string;
}

export interface SyncEngineDeps {
  db: BatonDb;
  store: ConversationStore;
  settings: SettingsStore;
  disclosures: DisclosureStore;
  /** The server password, kept in the vault. @throws when the vault is locked */
  password: {
    get(): Promise<string | undefined>;
    set(secret: string, origin: string): Promise<void>;
    clear(): Promise<void>;
  };
  /** Every saved key, so the mapper can scrub any that turns up in synced text. */
  secrets(): Promise<string[]>;
  broadcast(e: BackgroundEvent): void;
  /** The PouchDB constructor (pouch.ts `browserPouch`; tests add the memory adapter). */
  pouch(): PouchStatic;
  /** Options of the mirror database (`{ adapter: 'idb' }` in the extension). */
  mirrorOptions?: Record<string, unknown>;
  mirrorName?: string;
  now(): number;
  /** PBKDF2 iterations for Create (tests pass fewer, with `allowWeakKdf`). */
  iterations?: number;
  allowWeakKdf?: boolean;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
}

const BATCH = 200;
const iso = (ms: number) => new Date(ms).toISOString();

/** Removes PouchDB's underscore fields. */
function bodyOf(doc: PouchDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (!k.startsWith('_')) out[k] = v;
  return out;
}

export class SyncEngine {
  private running: Promise<SyncStatus> | undefined;
  private again = false;
  private mirrorDb: PouchDb | undefined;
  /** The last transport failure of the server database in this cycle. */
  private fetchError: SyncError | undefined;

  constructor(private readonly deps: SyncEngineDeps) {}

  /** The configuration, or undefined while sync is off. */
  async config(): Promise<SyncConfig | undefined> {
    return (await this.deps.db.get('settings', SYNC_CONFIG_KEY))?.value as SyncConfig | undefined;
  }

  /** The last status (state `off` while sync is off). */
  async status(): Promise<SyncStatus> {
    const cfg = await this.config();
    if (!cfg) return { state: 'off', pending: 0, unreadable: 0 };
    const s = (await this.deps.db.get('settings', SYNC_STATUS_KEY))?.value as SyncStatus | undefined;
    return { ...(s ?? { state: 'idle', pending: 0, unreadable: 0 }), url: cfg.url, user: cfg.user };
  }

  /**
   * *Create* on the first device: a new passphrase set-up on a server that holds none, then a first
   * cycle. @throws SyncError (`already_set_up` when the server holds Baton data: Join instead).
   */
  async create(input: { url: string; user: string; password: string; passphrase: string }): Promise<SyncStatus> {
    const access = this.accessOf(input);
    if (input.passphrase.length < 8)
      throw new SyncError('bad_input', 'Choose a sync passphrase of at least 8 characters.');
    if (await readSetup(access, this.deps.timeoutMs))
      throw new SyncError('already_set_up', 'This server already holds Baton data: use Join with its passphrase.');
    const { setup, keys } = await createSetup(
      input.passphrase,
      this.deps.iterations ?? SYNC_ITERATIONS,
      this.deps.allowWeakKdf,
    );
    await writeSetup(access, setup, this.deps.timeoutMs);
    await this.switchOn(access, keys);
    return this.syncNow();
  }

  /**
   * *Join* on another device: the server's set-up opened with the passphrase, then a first cycle.
   * A wrong passphrase throws `wrong_passphrase` and changes nothing. @throws SyncError
   */
  async join(input: { url: string; user: string; password: string; passphrase: string }): Promise<SyncStatus> {
    const access = this.accessOf(input);
    const setup = await readSetup(access, this.deps.timeoutMs);
    if (!setup)
      throw new SyncError('not_set_up', 'This server holds no Baton data yet: use Create on your first device.');
    let keys: SyncKeys;
    try {
      keys = await joinSetup(setup, input.passphrase, this.deps.allowWeakKdf);
    } catch (e) {
      if (e instanceof WrongSyncPassphraseError) throw new SyncError('wrong_passphrase', e.message);
      throw e;
    }
    await this.switchOn(access, keys);
    return this.syncNow();
  }

  /** *Stop syncing*: forgets the configuration, the password and the mirror; the server keeps its data. */
  async stop(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.deps.db.delete('settings', SYNC_CONFIG_KEY);
    await this.deps.db.delete('settings', SYNC_STATUS_KEY);
    await this.deps.password.clear();
    const mirror = this.mirror();
    this.mirrorDb = undefined;
    await mirror.destroy();
  }

  /**
   * *Delete all data* (docs/security.md#sync): removes the local mirror database, which holds a
   * plaintext copy of everything synced, after any running cycle. The caller clears Baton's own
   * stores (the configuration and the password with them).
   */
  async forgetLocal(): Promise<void> {
    await this.running?.catch(() => undefined);
    const mirror = this.mirror();
    this.mirrorDb = undefined;
    await mirror.destroy();
  }

  /** *Remove my data from the server*, then {@link stop}. @throws SyncError (nothing is forgotten then). */
  async removeRemote(): Promise<void> {
    const cfg = await this.config();
    if (!cfg) throw new SyncError('not_set_up', 'Sync is off.');
    await removeServerData(await this.accessFor(cfg), this.deps.timeoutMs);
    await this.stop();
  }

  /**
   * Runs one cycle now, or once more after the one running. Never throws: failures are in the
   * returned (and stored) status, and nothing local is lost.
   */
  syncNow(): Promise<SyncStatus> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      let s = await this.cycleSafely();
      while (this.again) {
        this.again = false;
        s = await this.cycleSafely();
      }
      return s;
    })();
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return run;
  }

  private async cycleSafely(): Promise<SyncStatus> {
    const cfg = await this.config();
    if (!cfg) return { state: 'off', pending: 0, unreadable: 0 };
    const before = await this.status();
    await this.saveStatus({ ...before, state: 'syncing' });
    try {
      const r = await this.cycle(cfg);
      const s: SyncStatus = {
        state: r.unreadable > 0 ? 'error' : 'idle',
        lastSync: iso(this.deps.now()),
        pending: 0,
        unreadable: r.unreadable,
        ...(r.unreadable > 0
          ? {
              error: {
                code: 'foreign_documents',
                message: `${r.unreadable} document(s) on the server were written with another sync passphrase; they are ignored.`,
              },
            }
          : {}),
      };
      await this.saveStatus(s);
      return { ...s, url: cfg.url, user: cfg.user };
    } catch (e) {
      const err =
        e instanceof SyncError
          ? { code: e.code, message: e.message }
          : { code: 'bad_server', message: `Sync failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
      const pending = await this.index()
        .then((i) => i.pending)
        .catch(() => 0);
      const s: SyncStatus = { ...before, state: 'error', error: err, pending };
      await this.saveStatus(s);
      return { ...s, url: cfg.url, user: cfg.user };
    }
  }

  /** One export → replicate → import cycle. */
  private async cycle(cfg: SyncConfig): Promise<{ unreadable: number }> {
    const access = await this.accessFor(cfg);
    const clock = new Hlc(cfg.node, this.deps.now);
    const secrets = await this.deps.secrets();
    const exported = await this.exportLocal(cfg, clock, secrets);
    const unreadable = { n: 0 };
    this.fetchError = undefined;
    const remote = this.remote(cfg, access, unreadable);
    try {
      await this.replicate(this.mirror(), remote);
      const index = await this.index();
      index.pending = 0;
      await this.mirror().put(index as unknown as PouchDoc);
      await this.replicate(remote, this.mirror());
      const merged = await this.importRemote(cfg, clock, secrets, exported);
      // Merges made here go back to the server in the same cycle.
      if (merged > 0) await this.replicate(this.mirror(), remote);
    } finally {
      await remote.close().catch(() => undefined);
    }
    return { unreadable: unreadable.n };
  }

  private async replicate(source: PouchDb, target: PouchDb): Promise<void> {
    let result;
    try {
      result = await this.deps.pouch().replicate(source, target, { batch_size: 100, retry: false });
    } catch (e) {
      throw this.replicationError(e);
    }
    if (result.doc_write_failures > 0 || result.ok === false)
      throw this.replicationError(
        result.errors[0] ?? new Error(`${result.doc_write_failures} documents were not written`),
      );
  }

  private replicationError(e: unknown): SyncError {
    if (e instanceof SyncError) return e;
    if (this.fetchError) return this.fetchError;
    const x = e as { status?: number; name?: string; message?: string; cause?: unknown } | undefined;
    const inner = x?.cause instanceof SyncError ? x.cause : undefined;
    if (inner) return inner;
    if (x?.status === 401 || x?.status === 403)
      return new SyncError(
        'auth',
        'The sync server refused the user or password (or this user may not use that database).',
      );
    const msg = String(x?.message ?? e);
    if (/timeout|timed out|aborted/i.test(msg))
      return new SyncError('timeout', 'The sync server did not answer in time. It will be tried again.');
    if (/fetch|network|ECONNREFUSED|Failed to fetch/i.test(msg))
      return new SyncError(
        'unreachable',
        'The sync server cannot be reached. Check the address and that it is running.',
      );
    return new SyncError(
      'bad_server',
      `The sync server answered something replication could not use: ${msg.slice(0, 200)}`,
    );
  }

  // ---------------------------------------------------------------- export

  /** Writes the local changes to the mirror; returns the revisions it wrote, by document id. */
  private async exportLocal(cfg: SyncConfig, clock: Hlc, secrets: string[]): Promise<Map<string, string>> {
    const mirror = this.mirror();
    const index = await this.index();
    const { db } = this.deps;
    const writes: PouchDoc[] = [];
    const records = await db.getAll('conversations');
    const live = new Set(records.map((r) => r.id));
    for (const cid of Object.keys(index.convs)) index.convs[cid]!.doc ||= await docIdOf(cfg.keys, 'conv', cid);
    for (const rec of records) index.convs[rec.id] ??= { doc: await docIdOf(cfg.keys, 'conv', rec.id), turns: {} };
    // Current mirror conversation documents, to restamp only what changed.
    const convIds = Object.values(index.convs).map((c) => c.doc);
    const current = await this.docsById(convIds);
    for (const d of current.values()) {
      const t = newestStamp(d as unknown as SyncDoc);
      if (t) clock.observe(t);
    }
    for (const rec of records) {
      const entry = index.convs[rec.id]!;
      if (entry.deleted) continue;
      // Turns: only when the conversation changed since the last export (its stamp).
      const stamp = `${rec.updatedAt}|${rec.nextSeq}|${rec.turnCount}|${rec.activeLeaf ?? ''}`;
      if (entry.stamp !== stamp) {
        const turns = await db.getAll('turns', IDBKeyRange.bound([rec.id, -Infinity], [rec.id, Infinity]));
        const have = new Set<string>();
        const ids: string[] = [];
        const docs: TurnDoc[] = [];
        for (const r of turns) {
          have.add(r.turn.id);
          const d = turnDoc(r, secrets);
          if (!d) continue;
          entry.turns[r.turn.id] ??= await docIdOf(cfg.keys, 'turn', rec.id, r.turn.id);
          ids.push(entry.turns[r.turn.id]!);
          docs.push(d);
        }
        const existing = await this.docsById(ids, true);
        docs.forEach((d, i) => {
          const old = existing.get(ids[i]!);
          if (old && !old._deleted && sameJson(bodyOf(old), d)) return;
          writes.push({ _id: ids[i]!, ...(old?._rev ? { _rev: old._rev } : {}), ...d });
        });
        const gone = Object.keys(entry.turns).filter((tid) => !have.has(tid));
        const goneDocs = await this.docsById(
          gone.map((tid) => entry.turns[tid]!),
          true,
        );
        for (const tid of gone) {
          const id = entry.turns[tid]!;
          const old = goneDocs.get(id);
          if (old && !old._deleted)
            writes.push({ _id: id, _rev: old._rev!, _deleted: true, k: 'turn', cid: rec.id, tid });
          delete entry.turns[tid];
        }
        entry.stamp = stamp;
      }
      const old = current.get(entry.doc) as (PouchDoc & Partial<ConversationDoc>) | undefined;
      // SY-4: a field is stamped at its edit time where the store recorded one (title, pin), so the
      // later edit wins whichever device syncs last; the clock of this document still never goes
      // back behind a stamp it holds.
      const docClock = new Hlc(cfg.node, this.deps.now);
      const held = old ? newestStamp(old as unknown as SyncDoc) : undefined;
      if (held) docClock.observe(held);
      const editedAt = rec.editedAt as Record<string, string | undefined> | undefined;
      const f = restamp(old?.f, conversationFields(rec, secrets), (name) => {
        const at = editedAt?.[name];
        const stamp = at ? docClock.tickAt(Date.parse(at)) : docClock.tick();
        clock.observe(stamp);
        return stamp;
      });
      if (f)
        writes.push({
          _id: entry.doc,
          ...(old?._rev ? { _rev: old._rev } : {}),
          k: 'conv',
          cid: rec.id,
          f,
          ...(old?.del ? { del: old.del } : {}),
        });
    }
    // Conversations deleted here: the delete wins everywhere.
    for (const [cid, entry] of Object.entries(index.convs)) {
      if (live.has(cid) || entry.deleted) continue;
      const old = current.get(entry.doc) as (PouchDoc & Partial<ConversationDoc>) | undefined;
      writes.push({
        _id: entry.doc,
        ...(old?._rev ? { _rev: old._rev } : {}),
        k: 'conv',
        cid,
        f: old?.f ?? {},
        del: clock.tick(),
      });
      const turnDocs = await this.docsById(Object.values(entry.turns), true);
      for (const [tid, id] of Object.entries(entry.turns)) {
        const t = turnDocs.get(id);
        if (t && !t._deleted) writes.push({ _id: id, _rev: t._rev!, _deleted: true, k: 'turn', cid, tid });
      }
      entry.turns = {};
      entry.deleted = true;
    }
    // Ledger records: immutable, written once.
    const ledger = (await db.getAll('disclosures', IDBKeyRange.lowerBound(index.ledgerMax, true))) as LedgerRecord[];
    const ledgerIds = await Promise.all(
      ledger.map((r) => docIdOf(cfg.keys, 'ledger', r.conversationId, ledgerFingerprint(r))),
    );
    const ledgerHave = await this.docsById(ledgerIds);
    ledger.forEach((r, i) => {
      if (!ledgerHave.has(ledgerIds[i]!) && live.has(r.conversationId))
        writes.push({ _id: ledgerIds[i]!, ...ledgerDoc(r, secrets) });
      index.ledgerMax = Math.max(index.ledgerMax, r.id ?? 0);
    });
    // Settings.
    const settingsId = await docIdOf(cfg.keys, 'settings');
    const oldSettings = (await this.docsById([settingsId])).get(settingsId) as
      (PouchDoc & Partial<SettingsDoc>) | undefined;
    const fields = settingsFields(
      await this.deps.settings.get(),
      await this.deps.disclosures.getGlobalPolicy(),
      secrets,
    );
    const sf = restamp(oldSettings?.f, fields, () => clock.tick());
    if (sf)
      writes.push({ _id: settingsId, ...(oldSettings?._rev ? { _rev: oldSettings._rev } : {}), k: 'settings', f: sf });
    // Turns first, conversation documents after them: a device that pulls a conversation has its turns.
    writes.sort((a, b) => Number(a.k === 'conv') - Number(b.k === 'conv'));
    const wrote = new Map<string, string>();
    for (let i = 0; i < writes.length; i += BATCH) {
      const res = await mirror.bulkDocs(writes.slice(i, i + BATCH));
      const failed = res.find((r) => r.error);
      if (failed) throw new Error(`the local sync mirror refused a write (${failed.error})`);
      for (const r of res) if (r.id && r.rev) wrote.set(r.id, r.rev);
    }
    index.pending += writes.length;
    await mirror.put(index as unknown as PouchDoc);
    return wrote;
  }

  // ---------------------------------------------------------------- import

  /**
   * Applies the mirror's changes since the checkpoint (the turn revisions this cycle exported itself
   * are left out: they are this device's own). Returns how many merges it wrote to the mirror.
   */
  private async importRemote(
    cfg: SyncConfig,
    clock: Hlc,
    secrets: string[],
    exported: Map<string, string>,
  ): Promise<number> {
    const mirror = this.mirror();
    let merged = 0;
    for (;;) {
      const index = await this.index();
      const res = await mirror.changes({ since: index.importSeq, include_docs: true, conflicts: true, limit: BATCH });
      if (res.results.length === 0) break;
      const touched = new Map<
        string,
        { conv?: ConversationDoc; turns: SyncedTurn[]; removed: string[]; ledger: LedgerRecord[] }
      >();
      const at = (cid: string) => {
        let t = touched.get(cid);
        if (!t) touched.set(cid, (t = { turns: [], removed: [], ledger: [] }));
        return t;
      };
      let settings: SettingsDoc | undefined;
      for (const ch of res.results) {
        const doc = ch.doc;
        if (!doc || doc._id.startsWith('_')) continue;
        const body = bodyOf(doc) as unknown as SyncDoc | TurnGone | { k?: string };
        if (body.k === 'conv') {
          const c = await this.resolve(doc as PouchDoc & ConversationDoc);
          if (c.wrote) merged++;
          const t = newestStamp(c.doc);
          if (t) clock.observe(t);
          index.convs[c.doc.cid] ??= { doc: doc._id, turns: {} };
          at(c.doc.cid).conv = c.doc;
        } else if (body.k === 'turn') {
          if (exported.get(doc._id) === doc._rev) continue;
          const b = body as TurnDoc & Partial<TurnGone>;
          const tid = doc._deleted ? b.tid : b.turn?.id;
          if (typeof b.cid !== 'string' || typeof tid !== 'string') continue;
          const entry = (index.convs[b.cid] ??= { doc: await docIdOf(cfg.keys, 'conv', b.cid), turns: {} });
          if (doc._deleted) {
            at(b.cid).removed.push(tid);
            delete entry.turns[tid];
          } else {
            at(b.cid).turns.push({ parentId: b.parent, seq: b.seq, turn: b.turn });
            entry.turns[tid] = doc._id;
          }
        } else if (body.k === 'ledger' && !doc._deleted) {
          const l = body as { cid: string; rec: Record<string, unknown> };
          at(l.cid).ledger.push(l.rec as unknown as LedgerRecord);
        } else if (body.k === 'settings') {
          const s = await this.resolve(doc as PouchDoc & SettingsDoc);
          if (s.wrote) merged++;
          settings = s.doc;
        }
      }
      for (const [cid, t] of touched) await this.applyConversation(cfg, index, cid, t, secrets);
      if (settings) await this.applySettings(settings, secrets);
      index.importSeq = res.last_seq;
      await mirror.put(index as unknown as PouchDoc);
    }
    return merged;
  }

  /** Merges a mutable document's conflicting revisions into its winner and removes the losers. */
  private async resolve<D extends ConversationDoc | SettingsDoc>(
    doc: PouchDoc & D,
  ): Promise<{ doc: D; wrote: boolean }> {
    const conflicts = doc._conflicts ?? [];
    let merged = bodyOf(doc) as unknown as D;
    if (conflicts.length === 0) return { doc: merged, wrote: false };
    const mirror = this.mirror();
    for (const rev of conflicts) {
      const other = await mirror.get(doc._id, { rev });
      merged = mergeDocs(merged, bodyOf(other) as unknown as D);
    }
    await mirror.bulkDocs([
      { _id: doc._id, _rev: doc._rev!, ...merged },
      ...conflicts.map((rev) => ({ _id: doc._id, _rev: rev, _deleted: true })),
    ]);
    return { doc: merged, wrote: true };
  }

  private async applyConversation(
    cfg: SyncConfig,
    index: MirrorIndex,
    cid: string,
    t: { conv?: ConversationDoc; turns: SyncedTurn[]; removed: string[]; ledger: LedgerRecord[] },
    secrets: string[],
  ): Promise<void> {
    const { db } = this.deps;
    const entry = index.convs[cid]!;
    let conv = t.conv;
    if (!conv) {
      const d = (await this.docsById([entry.doc])).get(entry.doc);
      conv = d ? (bodyOf(d) as unknown as ConversationDoc) : undefined;
    }
    const local = await db.get('conversations', cid);
    if (conv?.del) {
      entry.deleted = true;
      entry.turns = {};
      if (local) {
        await this.deps.store.delete(cid);
        this.deps.broadcast({ type: 'conversationDeleted', id: cid });
      }
      return;
    }
    if (entry.deleted) return;
    const fields: Record<string, unknown> = {};
    if (conv) {
      const theirs = valuesOf(conv.f);
      const mine = local ? conversationFields(local, secrets) : {};
      for (const name of new Set([...Object.keys(theirs), ...Object.keys(mine)]))
        if (!sameJson(theirs[name], mine[name])) fields[name] = theirs[name];
    }
    if (!local && conv) {
      // A conversation new here: every turn the mirror holds for it, not only this batch's.
      const all = await this.docsById(Object.values(entry.turns));
      t.turns = [...all.values()]
        .map((d) => bodyOf(d) as unknown as TurnDoc)
        .filter((b) => b.k === 'turn' && b.turn)
        .map((b) => ({ parentId: b.parent, seq: b.seq, turn: b.turn }));
    }
    const localTurns = local ? await db.getAll('turns', IDBKeyRange.bound([cid, -Infinity], [cid, Infinity])) : [];
    const have = new Map(localTurns.map((r) => [r.turn.id, r]));
    // New versions, and versions changed on the device that made them (an answer synced while
    // interrupted, then completed). A turn still streaming here, or a finished answer that the
    // other side holds unfinished, is left as it is: nothing a provider wrote is lost.
    const turns = t.turns.filter((s) => {
      const mine = have.get(s.turn.id);
      if (!mine) return true;
      if (mine.turn.status === 'streaming') return false;
      if (mine.turn.status === 'complete' && s.turn.status !== 'complete') return false;
      return !sameJson(turnDoc(mine, secrets)?.turn, s.turn);
    });
    const removed = t.removed.filter((id) => have.has(id));
    let ledger: Omit<DisclosureRecord, 'id'>[] = [];
    if (t.ledger.length > 0) {
      const mineLedger = local ? await db.getAllFromIndex('disclosures', 'byConversation', cid) : [];
      const known = new Set(mineLedger.map((r) => ledgerFingerprint(r)));
      ledger = t.ledger.filter((r) => Array.isArray(r.turns) && !known.has(ledgerFingerprint(r)));
    }
    if (Object.keys(fields).length === 0 && turns.length === 0 && removed.length === 0 && ledger.length === 0) return;
    if (!local && !conv) return; // turns of a conversation whose document has not arrived: applied when it does
    const meta = await applySyncedConversation(
      db,
      { id: cid, fields, turns, removedTurns: removed, ledger },
      iso(this.deps.now()),
    );
    if (meta) this.deps.broadcast({ type: 'conversationUpdated', meta });
    for (const s of turns) entry.turns[s.turn.id] ??= await docIdOf(cfg.keys, 'turn', cid, s.turn.id);
  }

  private async applySettings(doc: SettingsDoc, secrets: string[]): Promise<void> {
    const theirs = valuesOf(doc.f);
    const mine = settingsFields(await this.deps.settings.get(), await this.deps.disclosures.getGlobalPolicy(), secrets);
    const differs = (k: string) => theirs[k] !== undefined && !sameJson(theirs[k], mine[k]);
    if (differs('endpoints') || differs('baseUrls') || differs('defaultTarget'))
      await this.deps.settings.update((s) => ({
        ...s,
        ...(differs('endpoints') ? { endpoints: theirs.endpoints as typeof s.endpoints } : {}),
        ...(differs('baseUrls') ? { baseUrls: theirs.baseUrls as typeof s.baseUrls } : {}),
        ...(differs('defaultTarget') ? { defaultTarget: theirs.defaultTarget as typeof s.defaultTarget } : {}),
      }));
    if (differs('disclosurePolicy'))
      await this.deps.disclosures.setGlobalPolicy(theirs.disclosurePolicy as DisclosurePolicy);
  }

  // ---------------------------------------------------------------- plumbing

  private accessOf(input: { url: string; user: string; password: string }): ServerAccess {
    return { url: checkServerUrl(input.url), user: input.user.trim(), password: input.password };
  }

  private async accessFor(cfg: SyncConfig): Promise<ServerAccess> {
    let password: string | undefined;
    try {
      password = await this.deps.password.get();
    } catch {
      throw new SyncError('locked', 'Baton is locked: unlock it with your passphrase in the options page to sync.');
    }
    return { url: cfg.url, user: cfg.user, password: password ?? '' };
  }

  private async switchOn(access: ServerAccess, keys: SyncKeys): Promise<void> {
    if (access.password) await this.deps.password.set(access.password, new URL(access.url).origin);
    const cfg: SyncConfig = {
      version: 1,
      url: access.url,
      user: access.user,
      node: crypto.randomUUID().slice(0, 8),
      keys,
    };
    await this.deps.db.put('settings', { key: SYNC_CONFIG_KEY, value: cfg });
    await this.saveStatus({ state: 'idle', pending: 0, unreadable: 0 });
  }

  private async saveStatus(s: SyncStatus): Promise<void> {
    const { url: _u, user: _n, ...rest } = s;
    await this.deps.db.put('settings', { key: SYNC_STATUS_KEY, value: rest });
  }

  private mirror(): PouchDb {
    this.mirrorDb ??= new (this.deps.pouch())(this.deps.mirrorName ?? MIRROR_NAME, {
      ...(this.deps.mirrorOptions ?? {}),
      // Deterministic revisions are an MD5 of the plaintext body, and the server sees revisions.
      deterministic_revs: false,
      auto_compaction: true,
    });
    return this.mirrorDb;
  }

  /** The server database, wrapped so every body is sealed on the way to it and opened on the way back. */
  private remote(cfg: SyncConfig, access: ServerAccess, unreadable: { n: number }): PouchDb {
    const f = serverFetch(access, this.deps.timeoutMs);
    const remote = new (this.deps.pouch())(access.url, {
      adapter: 'http',
      skip_setup: true,
      fetch: async (input: string, init?: RequestInit) => {
        try {
          return await f(input, init);
        } catch (e) {
          // PouchDB rewraps fetch failures; the cycle reports the original.
          if (e instanceof SyncError) this.fetchError = e;
          throw e;
        }
      },
    });
    // transform-pouch also wraps `query` on an http database; sync uses no views, so it need not exist.
    if (!('query' in remote))
      (remote as unknown as { query(): Promise<never> }).query = () => Promise.reject(new Error('sync uses no views'));
    remote.transform({
      incoming: async (doc) => {
        const sealed = await sealDoc(cfg.keys, doc._id, bodyOf(doc));
        const out: PouchDoc = { _id: doc._id, ...sealed };
        for (const [k, v] of Object.entries(doc)) if (k.startsWith('_') && k !== '_id') out[k] = v;
        return out;
      },
      outgoing: async (doc) => {
        const out: PouchDoc = { _id: doc._id };
        for (const [k, v] of Object.entries(doc)) if (k.startsWith('_') && k !== '_id') out[k] = v;
        try {
          const body = await openDoc(cfg.keys, doc._id, doc);
          return { ...out, ...(body as Record<string, unknown>) };
        } catch (e) {
          if (!(e instanceof UnreadableDocError)) throw e;
          unreadable.n++;
          return { ...out, k: 'unreadable' };
        }
      },
    });
    return remote;
  }

  private async index(): Promise<MirrorIndex> {
    try {
      return (await this.mirror().get(INDEX_ID)) as unknown as MirrorIndex;
    } catch (e) {
      if ((e as { status?: number }).status !== 404) throw e;
      return { _id: INDEX_ID, convs: {}, ledgerMax: 0, importSeq: 0, pending: 0 };
    }
  }

  /** Mirror documents by id (missing ones left out; with `withDeleted`, tombstones as `{ _deleted }`). */
  private async docsById(ids: string[], withDeleted = false): Promise<Map<string, PouchDoc>> {
    const out = new Map<string, PouchDoc>();
    for (let i = 0; i < ids.length; i += 500) {
      const res = await this.mirror().allDocs({ keys: ids.slice(i, i + 500), include_docs: true });
      for (const row of res.rows) {
        if (row.doc) out.set(row.id, row.doc);
        else if (withDeleted && row.value?.deleted)
          out.set(row.id, { _id: row.id, _rev: row.value.rev, _deleted: true });
      }
    }
    return out;
  }
}
