/**
 * Sync's document model (docs/security.md#sync): the plaintext bodies of the local mirror
 * database, which the transform encrypts on their way to the server.
 *
 * - A **turn document** per turn version: immutable once its turn is final (a regenerate or an
 *   edit is a new document naming its parent), written by the one device that made it, so turn
 *   documents never conflict.
 * - One mutable **conversation document** per conversation: its fields (title, pin, active leaf,
 *   policy, summary…) each carry a hybrid timestamp and merge per field; `del` marks it deleted,
 *   and a delete wins over every edit.
 * - A **ledger document** per disclosure record: immutable.
 * - One **settings document**: the chosen settings, merged per field like a conversation.
 *
 * Document ids are keyed hashes of the natural ids (crypto.ts `docIdOf`), never the ids themselves.
 */
import type { Turn } from '../../transcript/schema';
import type { HlcStamp } from './hlc';

/** A field value and the hybrid timestamp of its last write. */
export interface Stamped<T = unknown> {
  v: T;
  t: HlcStamp;
}

/** Per-field stamped values of a mutable document. Absent value (`v` undefined) = field cleared. */
export type StampedFields = Record<string, Stamped>;

export interface ConversationDoc {
  k: 'conv';
  /** The conversation id. */
  cid: string;
  f: StampedFields;
  /** Set when the conversation was deleted: the stamp of the delete. Delete wins (no field revives it). */
  del?: HlcStamp;
}

export interface TurnDoc {
  k: 'turn';
  cid: string;
  /** The parent turn id, `''` for a first turn (lib/store/db.ts ROOT_PARENT). */
  parent: string;
  /** Creation order on the device that made it (orders versions among siblings). */
  seq: number;
  turn: Turn;
}

export interface LedgerDoc {
  k: 'ledger';
  cid: string;
  /** The disclosure record without its local auto-increment id. */
  rec: Record<string, unknown>;
}

export interface SettingsDoc {
  k: 'settings';
  f: StampedFields;
}

export type SyncDoc = ConversationDoc | TurnDoc | LedgerDoc | SettingsDoc;

/** Which natural id a document's id is derived from: `docIdOf(keys, kind, ...parts)`. */
export const DOC_KINDS = {
  conv: (cid: string) => ['conv', cid] as const,
  turn: (cid: string, turnId: string) => ['turn', cid, turnId] as const,
  ledger: (cid: string, fingerprint: string) => ['ledger', cid, fingerprint] as const,
  settings: () => ['settings'] as const,
};

const later = (a: HlcStamp | undefined, b: HlcStamp | undefined): HlcStamp | undefined =>
  a === undefined ? b : b === undefined ? a : a >= b ? a : b;

/** Per field, the value with the later stamp (last writer wins by hybrid time). Pure. */
export function mergeFields(a: StampedFields, b: StampedFields): StampedFields {
  const out: StampedFields = { ...a };
  for (const [name, s] of Object.entries(b)) {
    const mine = out[name];
    // Equal stamps only come from one write, so the values agree; the JSON order keeps a tie symmetric anyway.
    if (!mine || s.t > mine.t || (s.t === mine.t && JSON.stringify(s.v) > JSON.stringify(mine.v))) out[name] = s;
  }
  return out;
}

/**
 * Merges two revisions of one mutable document: per field, the later stamp wins; a delete on
 * either side wins over everything (the stamp kept is the later delete). Commutative, associative
 * and idempotent, so every device converges whatever order revisions arrive in. Pure.
 */
export function mergeDocs<D extends ConversationDoc | SettingsDoc>(a: D, b: D): D {
  const merged = { ...a, f: mergeFields(a.f, b.f) } as D;
  if (a.k === 'conv' && b.k === 'conv') {
    const del = later(a.del, (b as ConversationDoc).del);
    if (del !== undefined) (merged as ConversationDoc).del = del;
  }
  return merged;
}

/** The newest stamp in `doc` (to advance the local clock past it). */
export function newestStamp(doc: SyncDoc): HlcStamp | undefined {
  if (doc.k !== 'conv' && doc.k !== 'settings') return undefined;
  let t: HlcStamp | undefined = doc.k === 'conv' ? doc.del : undefined;
  for (const s of Object.values(doc.f)) t = later(t, s.t);
  return t;
}

/**
 * Stamps the fields of `next` that differ from `prev` (JSON equality) with `stamp(field)`; unchanged
 * fields keep their old stamp; fields gone from `next` become `{ v: undefined }` (cleared).
 * Returns undefined when nothing changed. Pure.
 */
export function restamp(
  prev: StampedFields | undefined,
  next: Record<string, unknown>,
  stamp: (field: string) => HlcStamp,
): StampedFields | undefined {
  const out: StampedFields = { ...(prev ?? {}) };
  let changed = false;
  const names = new Set([...Object.keys(prev ?? {}), ...Object.keys(next)]);
  for (const name of names) {
    const v = next[name];
    const old = prev?.[name];
    if (old && sameJson(old.v, v)) continue;
    if (!old && v === undefined) continue;
    out[name] = v === undefined ? { v: undefined, t: stamp(name) } : { v, t: stamp(name) };
    changed = true;
  }
  return changed ? out : undefined;
}

/** JSON equality (key order included: values come from the same code paths). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The plain values of stamped fields (cleared fields omitted). */
export function valuesOf(f: StampedFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(f)) if (s.v !== undefined) out[k] = s.v;
  return out;
}
