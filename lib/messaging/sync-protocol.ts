/**
 * The sync part of the background protocol (docs/security.md#sync), spread into `REQUESTS` and
 * `Responses` of `protocol.ts`. Only extension pages may send these (M1).
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';

const server = onFirstUse(() => ({
  /** The database URL, e.g. `https://couch.example.com/baton`. */
  url: z.string().min(1).max(2_000),
  user: z.string().max(200),
  password: z.string().max(1_000),
  /** The sync passphrase (never stored; at least 8 characters to create). */
  passphrase: z.string().min(1).max(1_000),
}));

export const SYNC_REQUESTS = onFirstUse(
  () =>
    ({
      /** State, last sync, pending changes and the last error. */
      syncStatus: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
      /** First device: set the server up with a new sync passphrase, then sync. */
      syncCreate: { input: onFirstUse(() => z.strictObject(server)), from: ['extension'] },
      /** Other devices: open the server's data with its sync passphrase, then sync. A wrong one changes nothing. */
      syncJoin: { input: onFirstUse(() => z.strictObject(server)), from: ['extension'] },
      /** Sync now (also runs on an alarm, after local changes and when a panel opens). */
      syncNow: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
      /** Stop syncing on this device (the server keeps its data). */
      syncStop: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
      /** Remove everything Baton wrote on the server, then stop syncing. */
      syncRemoveRemote: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
    }) as const,
);

/** What the options page shows about sync. */
export interface SyncState {
  state: 'off' | 'idle' | 'syncing' | 'error';
  url?: string;
  user?: string;
  /** ISO time of the last finished cycle. */
  lastSync?: string;
  /** Changes made here not yet on the server. */
  pending: number;
  /** Documents on the server another sync passphrase wrote (ignored). */
  unreadable: number;
  error?: { code: string; message: string };
}

export interface SyncResponses {
  syncStatus: SyncState;
  syncCreate: SyncState;
  syncJoin: SyncState;
  syncNow: SyncState;
  syncStop: SyncState;
  syncRemoveRemote: SyncState;
}
