/**
 * PouchDB 9, typed for what sync uses, and built only on first use: the modules are bundled
 * statically (a service worker cannot `import()`), but no plugin is registered and no database is
 * constructed until sync is switched on (docs/architecture.md#the-service-workers-start-up).
 */
import PouchDB from 'pouchdb-core';
import HttpAdapter from 'pouchdb-adapter-http';
import IdbAdapter from 'pouchdb-adapter-idb';
import Replication from 'pouchdb-replication';
import Transform from 'transform-pouch';

/** A stored document: PouchDB's underscore fields and a body. */
export interface PouchDoc {
  _id: string;
  _rev?: string;
  _deleted?: boolean;
  _conflicts?: string[];
  [field: string]: unknown;
}

export interface PouchChange {
  id: string;
  seq: number | string;
  deleted?: boolean;
  doc?: PouchDoc;
}

/** The methods of a PouchDB database that sync calls. */
export interface PouchDb {
  get(id: string, opts?: { rev?: string; conflicts?: boolean }): Promise<PouchDoc>;
  put(doc: PouchDoc): Promise<{ ok: boolean; id: string; rev: string }>;
  bulkDocs(docs: PouchDoc[]): Promise<{ ok?: boolean; id?: string; rev?: string; error?: string }[]>;
  allDocs(opts: { keys?: string[]; include_docs?: boolean; conflicts?: boolean; limit?: number }): Promise<{
    rows: {
      id: string;
      key: string;
      value?: { rev: string; deleted?: boolean };
      doc?: PouchDoc | null;
      error?: string;
    }[];
  }>;
  changes(opts: {
    since: number | string;
    include_docs?: boolean;
    conflicts?: boolean;
    limit?: number;
  }): Promise<{ results: PouchChange[]; last_seq: number | string }>;
  info(): Promise<{ doc_count: number; update_seq: number | string }>;
  destroy(): Promise<unknown>;
  close(): Promise<unknown>;
  transform(config: {
    incoming?(doc: PouchDoc): Promise<PouchDoc> | PouchDoc;
    outgoing?(doc: PouchDoc): Promise<PouchDoc> | PouchDoc;
  }): void;
}

export interface ReplicationResult {
  ok: boolean;
  docs_written: number;
  doc_write_failures: number;
  errors: unknown[];
}

export interface PouchStatic {
  new (name: string, opts?: Record<string, unknown>): PouchDb;
  plugin(p: unknown): PouchStatic;
  replicate(source: PouchDb, target: PouchDb, opts?: Record<string, unknown>): Promise<ReplicationResult>;
}

let built: PouchStatic | undefined;

/**
 * The PouchDB constructor with the IndexedDB adapter (the local mirror), the HTTP adapter (the
 * server), replication and transform-pouch, built on first call.
 */
export function browserPouch(): PouchStatic {
  built ??= (PouchDB as PouchStatic).plugin(IdbAdapter).plugin(HttpAdapter).plugin(Replication).plugin(Transform);
  return built;
}
