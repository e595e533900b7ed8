/**
 * PouchDB reached through a function, so a build can defer its module code to the first call
 * (docs/architecture.md#the-service-workers-start-up), like the provider SDKs (sdk-loaders.ts).
 *
 * This file is what Node (CLI, tests, bench) runs: a plain import, evaluated with the module. The
 * extension build replaces it (`scripts/lazy-modules.ts`): in the Chromium worker `loadPouch`
 * imports the script `lazy/pouchdb.js` on its first call, and {@link keepPouchScript} imports that
 * script while the worker is evaluated for installation (so Chromium serves it again later); the
 * Firefox build holds the library in the loader's body. Callers use only these functions.
 */
import { pouchWithPlugins } from './pouch-library';
import type { PouchStatic } from './pouch-types';

/** The PouchDB constructor with its plugins (pouch-library.ts). */
export function loadPouch(): PouchStatic {
  return pouchWithPlugins;
}

/**
 * Called once at the worker's top level, after its listeners are registered. Here (Node) and in the
 * Firefox build it does nothing; the Chromium build replaces it with one that imports PouchDB's
 * script during the install evaluation (scripts/lazy-modules.ts).
 */
export function keepPouchScript(): void {}
