/**
 * The sync feature (docs/architecture.md#sync; promises SY-1 to SY-5 in docs/security.md#sync):
 * end-to-end encrypted replication with the person's CouchDB-protocol server.
 */
export { syncHandlers } from './handlers';
export { SYNC_ALARM, SyncService } from './service';
export { MIRROR_NAME, SYNC_VAULT_ID, type SyncEngineDeps } from './engine';
export { browserPouch } from './pouch';
