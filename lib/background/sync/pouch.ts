/**
 * PouchDB 9, typed for what sync uses, and loaded only on first use: its module code runs, and its
 * plugins are registered, when a sync cycle first needs it (pouch-loader.ts; in the Chromium worker
 * a script of its own), and no database is constructed until sync is switched on
 * (docs/architecture.md#the-service-workers-start-up).
 */
import { loadPouch } from './pouch-loader';
import type { PouchStatic } from './pouch-types';

export type { PouchChange, PouchDb, PouchDoc, PouchStatic, ReplicationResult } from './pouch-types';

/**
 * The PouchDB constructor with the IndexedDB adapter (the local mirror), the HTTP adapter (the
 * server), replication and transform-pouch, loaded on first call.
 */
export function browserPouch(): PouchStatic {
  return loadPouch();
}
