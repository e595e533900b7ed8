/**
 * Talking to the person's CouchDB-protocol server outside replication: the set-up document, the
 * database's creation and its removal. Every failure becomes a {@link SyncError} with a code the
 * options page turns into something a person can act on.
 */
import { SETUP_DOC_ID, type SyncSetup } from './crypto';

/** Why sync could not run, in terms a person can act on. */
export type SyncErrorCode =
  | 'unreachable'
  | 'timeout'
  | 'auth'
  | 'bad_server'
  | 'not_set_up'
  | 'already_set_up'
  | 'wrong_passphrase'
  | 'foreign_documents'
  | 'locked'
  | 'bad_input';

/** A sync failure: `code` says what kind, `message` what to do about it. */
export class SyncError extends Error {
  override readonly name = 'SyncError';
  constructor(
    readonly code: SyncErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Where the data lives and who may read it. */
export interface ServerAccess {
  /** The database URL (`https://host:6984/baton`). */
  url: string;
  user: string;
  password: string;
}

/** How long one request may take before sync reports the server as slow (ms). */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Checks a database URL: http(s), no credentials or query in it, and http only for a loopback host
 * (the same rule as custom endpoints, N4). Returns it without a trailing slash.
 * @throws SyncError('bad_input')
 */
export function checkServerUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new SyncError('bad_input', 'The server address is not a URL (e.g. https://couch.example.com/baton).');
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback))
    throw new SyncError('bad_input', 'The server address must start with https:// (http:// only for this computer).');
  if (u.username || u.password || u.search || u.hash)
    throw new SyncError('bad_input', 'Put the user and password in their own fields, not in the server address.');
  if (u.pathname === '/' || u.pathname === '')
    throw new SyncError('bad_input', 'The server address must name a database, e.g. https://couch.example.com/baton.');
  return u.href.replace(/\/+$/, '');
}

/** `fetch` with basic auth, a timeout, no redirects (N3), and errors as {@link SyncError}s. */
export function serverFetch(access: Pick<ServerAccess, 'user' | 'password'>, timeoutMs = REQUEST_TIMEOUT_MS) {
  const auth = `Basic ${btoa(unescape(encodeURIComponent(`${access.user}:${access.password}`)))}`;
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (access.user) headers.set('Authorization', auth);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(input, { ...init, headers, signal, redirect: 'error', credentials: 'omit' });
    } catch (e) {
      if (signal.aborted)
        throw new SyncError('timeout', 'The sync server did not answer in time. It will be tried again.', { cause: e });
      throw new SyncError(
        'unreachable',
        'The sync server cannot be reached. Check the address and that it is running.',
        { cause: e },
      );
    }
  };
}

/** A failed response as a {@link SyncError}. */
export function responseError(res: Response, what: string): SyncError {
  if (res.status === 401 || res.status === 403)
    return new SyncError(
      'auth',
      'The sync server refused the user or password (or this user may not use that database).',
    );
  return new SyncError('bad_server', `The sync server answered ${res.status} to ${what}.`);
}

async function jsonOf(res: Response, what: string): Promise<unknown> {
  try {
    return await res.json();
  } catch (e) {
    throw new SyncError('bad_server', `The sync server sent something that is not CouchDB JSON for ${what}.`, {
      cause: e,
    });
  }
}

function isSetup(v: unknown): v is SyncSetup {
  const s = v as Partial<SyncSetup> | null;
  return (
    !!s &&
    s.version === 1 &&
    s.kdf?.name === 'PBKDF2' &&
    typeof s.kdf.iterations === 'number' &&
    typeof s.salt === 'string' &&
    typeof s.check?.e === 'string'
  );
}

/**
 * The server's set-up document, or undefined when the database or the document does not exist.
 * @throws SyncError on network, auth or garbage.
 */
export async function readSetup(access: ServerAccess, timeoutMs?: number): Promise<SyncSetup | undefined> {
  const f = serverFetch(access, timeoutMs);
  const res = await f(`${access.url}/${SETUP_DOC_ID}`);
  if (res.status === 404) return undefined;
  if (!res.ok) throw responseError(res, 'reading the sync set-up');
  const body = await jsonOf(res, 'the sync set-up');
  if (!isSetup(body))
    throw new SyncError('bad_server', 'The sync set-up document on the server is not one Baton wrote.');
  return body;
}

/** Creates the database (when missing) and writes the set-up document. @throws SyncError */
export async function writeSetup(access: ServerAccess, setup: SyncSetup, timeoutMs?: number): Promise<void> {
  const f = serverFetch(access, timeoutMs);
  const db = await f(access.url, { method: 'PUT' });
  // 412: it exists already.
  if (!db.ok && db.status !== 412) throw responseError(db, 'creating the database');
  const res = await f(`${access.url}/${SETUP_DOC_ID}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(setup),
  });
  if (!res.ok) throw responseError(res, 'writing the sync set-up');
}

/**
 * Removes everything Baton wrote: the database when the user may delete it, else every document
 * (as tombstones) and the set-up document. @throws SyncError
 */
export async function removeServerData(access: ServerAccess, timeoutMs?: number): Promise<void> {
  const f = serverFetch(access, timeoutMs);
  const del = await f(access.url, { method: 'DELETE' });
  if (del.ok || del.status === 404) return;
  const all = await f(`${access.url}/_all_docs`);
  if (!all.ok) throw responseError(all, 'listing the documents to remove');
  const rows =
    ((await jsonOf(all, 'the document list')) as { rows?: { id: string; value: { rev: string } }[] }).rows ?? [];
  const docs = rows.map((r) => ({ _id: r.id, _rev: r.value.rev, _deleted: true }));
  const bulk = await f(`${access.url}/_bulk_docs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ docs }),
  });
  if (!bulk.ok) throw responseError(bulk, 'removing the documents');
  const got = await f(`${access.url}/${SETUP_DOC_ID}`);
  if (got.status === 404) return;
  if (!got.ok) throw responseError(got, 'reading the sync set-up');
  const rev = ((await jsonOf(got, 'the sync set-up')) as { _rev?: string })._rev ?? '0-1';
  const setup = await f(`${access.url}/${SETUP_DOC_ID}?rev=${encodeURIComponent(rev)}`, { method: 'DELETE' });
  if (!setup.ok && setup.status !== 404) throw responseError(setup, 'removing the sync set-up');
}
