/**
 * The database connection's lifecycle in the background (security-requirements.md D3, idb README
 * "openDB" callbacks): a connection that blocks a newer version closes itself (`openBatonDb`);
 * while *our* upgrade is blocked by a page that does not close, requests are answered at once with
 * "close other Baton pages" instead of hanging; an abnormally closed (`terminated`) connection is
 * reopened, and every store keeps working through the same {@link LiveDb} object.
 */
import type { BatonDb, OpenHooks } from './db';

/** What a person is told while an upgrade waits for other Baton pages to close (D3). */
export const BLOCKED_MESSAGE =
  'Baton is updating its storage: close other Baton pages (tabs, windows, side panels), then try again.';

export interface LiveDbEvents {
  /** Our open is blocked by another connection that did not close. */
  onBlocked?(): void;
  /** The blocked open went through. */
  onUnblocked?(): void;
  /** The connection was terminated and has been reopened. */
  onReopened?(): void;
}

/** A database handle that follows reopens, plus whether an upgrade is blocked right now. */
export interface LiveDb {
  /** Forwards every call to the current connection (stores keep this one object). */
  db: BatonDb;
  /** True while our open waits on another context (show {@link BLOCKED_MESSAGE}). */
  blocked(): boolean;
  /** Resolves when the first connection is open. */
  ready: Promise<BatonDb>;
}

/**
 * Opens with `open` (normally `(hooks) => openBatonDb(undefined, hooks)`) and returns a handle
 * whose `db` always forwards to the live connection: on `terminated` the database is opened
 * again. Calls made between the termination and the reopen fail like calls on a closed
 * connection (`InvalidStateError`); later ones use the new connection.
 */
export function openLiveDb(open: (hooks: OpenHooks) => Promise<BatonDb>, events: LiveDbEvents = {}): LiveDb {
  let current: BatonDb | undefined;
  let blocked = false;
  const hooks: OpenHooks = {
    onBlocked: () => {
      blocked = true;
      events.onBlocked?.();
    },
    onTerminated: () => void reopen(),
  };
  const connect = async (): Promise<BatonDb> => {
    const db = await open(hooks);
    if (blocked) {
      blocked = false;
      events.onUnblocked?.();
    }
    current = db;
    return db;
  };
  const reopen = async () => {
    await connect();
    events.onReopened?.();
  };
  const ready = connect();
  const db = new Proxy({} as BatonDb, {
    get(_t, prop) {
      if (!current) throw new DOMException('The database is not open yet.', 'InvalidStateError');
      const v = Reflect.get(current, prop, current) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(current) : v;
    },
  });
  return { db, blocked: () => blocked, ready };
}
