/**
 * PouchDB with the plugins sync uses, as one module: the IndexedDB adapter (the local mirror), the
 * HTTP adapter (the server), replication and transform-pouch. Evaluating it runs PouchDB's module
 * code and registers the plugins, so only `pouch-loader.ts` imports it: the extension build turns
 * that import into a script loaded on first use (scripts/lazy-modules.ts), and the worker's start-up
 * runs none of it (docs/architecture.md#the-service-workers-start-up).
 */
import PouchDB from 'pouchdb-core';
import HttpAdapter from 'pouchdb-adapter-http';
import IdbAdapter from 'pouchdb-adapter-idb';
import Replication from 'pouchdb-replication';
import Transform from 'transform-pouch';
import type { PouchStatic } from './pouch-types';

/** The PouchDB constructor with the four plugins registered. */
export const pouchWithPlugins: PouchStatic = (PouchDB as PouchStatic)
  .plugin(IdbAdapter)
  .plugin(HttpAdapter)
  .plugin(Replication)
  .plugin(Transform);
