/* The PouchDB 9 packages ship no types; lib/background/sync/pouch-types.ts types them in typed interfaces. */
declare module 'pouchdb-core' {
  const PouchDB: unknown;
  export default PouchDB;
}
declare module 'pouchdb-adapter-idb' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-adapter-http' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-replication' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-adapter-memory' {
  const plugin: unknown;
  export default plugin;
}
declare module 'transform-pouch' {
  const plugin: unknown;
  export default plugin;
}
