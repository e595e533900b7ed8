/**
 * PouchDB 9's types as sync uses them (the packages ship none): the methods of a database and of
 * the constructor that sync calls.
 */
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
