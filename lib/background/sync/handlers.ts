/**
 * The sync requests (docs/security.md#sync): set-up, status, Stop and Remove. A server origin
 * needs its host permission first (N1: the options page asks for it from the click).
 */
import { BatonError } from '../../messaging/errors';
import type { ErrorCode } from '../../messaging/protocol';
import type { Handlers } from '../core/router';
import type { SyncStatus } from './engine';
import { checkServerUrl, SyncError, type SyncErrorCode } from './remote';
import type { SyncService } from './service';

type SyncHandlers = Pick<
  Handlers,
  'syncStatus' | 'syncCreate' | 'syncJoin' | 'syncNow' | 'syncStop' | 'syncRemoveRemote'
>;

const CODES: Record<SyncErrorCode, ErrorCode> = {
  unreachable: 'network',
  timeout: 'timeout',
  auth: 'forbidden',
  bad_server: 'provider_error',
  not_set_up: 'not_found',
  already_set_up: 'bad_request',
  wrong_passphrase: 'forbidden',
  foreign_documents: 'provider_error',
  locked: 'locked',
  bad_input: 'bad_request',
};

/** A sync failure as the protocol's error (the message says what to do). */
function asBatonError(e: unknown): unknown {
  return e instanceof SyncError ? new BatonError(CODES[e.code], e.message) : e;
}

const plain = (s: SyncStatus): SyncStatus => ({ ...s, ...(s.error ? { error: { ...s.error } } : {}) });

/** The handlers over one {@link SyncService}; without one every request but the status refuses. */
export function syncHandlers(d: {
  sync?: SyncService;
  hasHostPermission(origin: string): Promise<boolean>;
}): SyncHandlers {
  const off = (): SyncStatus => ({ state: 'off', pending: 0, unreadable: 0 });
  const need = () => {
    if (!d.sync) throw new BatonError('internal', 'Sync is not available here.');
    return d.sync;
  };
  const setUp = async (input: { url: string; user: string; password: string; passphrase: string }, join: boolean) => {
    const s = need();
    let origin: string;
    try {
      origin = new URL(checkServerUrl(input.url)).origin;
    } catch (e) {
      throw asBatonError(e);
    }
    if (!(await d.hasHostPermission(origin)))
      throw new BatonError(
        'endpoint_not_permitted',
        `Baton may not reach ${origin} yet: allow it when asked, then try again.`,
      );
    try {
      const status = join ? await s.engine().join(input) : await s.engine().create(input);
      s.scheduled();
      return plain(status);
    } catch (e) {
      throw asBatonError(e);
    }
  };
  return {
    syncStatus: async () => (d.sync ? plain(await d.sync.engine().status()) : off()),
    syncCreate: (input) => setUp(input, false),
    syncJoin: (input) => setUp(input, true),
    syncNow: async () => plain((await need().syncIfOn()) ?? off()),
    syncStop: async () => {
      const s = need();
      await s.engine().stop();
      s.unscheduled();
      return off();
    },
    syncRemoveRemote: async () => {
      const s = need();
      try {
        await s.engine().removeRemote();
      } catch (e) {
        throw asBatonError(e);
      }
      s.unscheduled();
      return off();
    },
  };
}
