import { useEffect, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { SyncState } from '../../lib/messaging/sync-protocol';
import type { Note, PermissionsLike } from '../../lib/ui/options-model';
import { NoteLine } from './note-line';

export interface SyncSectionProps {
  connector: Connector;
  permissions: PermissionsLike;
}

/** The origin of a server URL, or undefined when it is not a URL. */
function originOf(url: string): string | undefined {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * End-to-end encrypted sync (docs/security.md#sync): the server, the user and password (kept in the
 * vault like a key), the sync passphrase; Create on the first device, Join on the others; status;
 * Stop syncing; Remove my data from the server. The passphrase and password leave the page state
 * as soon as they are sent.
 */
export function SyncSection({ connector, permissions }: SyncSectionProps) {
  const [state, setState] = useState<SyncState | undefined>();
  const [url, setUrl] = useState('');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [note, setNote] = useState<Note | undefined>();
  const [confirmRemove, setConfirmRemove] = useState(false);

  useEffect(() => {
    connector.request('syncStatus', {}).then(setState, (e: Error) => setNote({ kind: 'error', text: e.message }));
  }, [connector]);

  const run = async (work: () => Promise<SyncState>, ok: string) => {
    try {
      const s = await work();
      setState(s);
      setNote(s.error ? { kind: 'error', text: s.error.message } : { kind: 'ok', text: ok });
    } catch (e) {
      setNote({ kind: 'error', text: (e as Error).message });
    }
  };
  const setUp = (kind: 'syncCreate' | 'syncJoin') => async () => {
    const origin = originOf(url);
    if (!origin)
      return setNote({ kind: 'error', text: 'Enter the database URL, e.g. https://couch.example.com/baton.' });
    // N1: the server's origin is asked for from this click.
    const granted = await permissions.request({ origins: [`${origin}/*`] }).catch(() => false);
    if (!granted) return setNote({ kind: 'error', text: `Baton needs permission to reach ${origin} to sync.` });
    const input = { url, user, password, passphrase };
    setPassword('');
    setPassphrase('');
    setNote({ kind: 'ok', text: 'Deriving the keys and syncing…' });
    await run(() => connector.request(kind, input), kind === 'syncCreate' ? 'Sync is on.' : 'Joined: sync is on.');
  };
  const common = (label: string, value: string, set: (v: string) => void) => ({
    'aria-label': label,
    placeholder: label,
    autocomplete: 'off',
    spellcheck: false,
    value,
    onInput: (e: { currentTarget: HTMLInputElement }) => set(e.currentTarget.value),
  });
  const text = (label: string, value: string, set: (v: string) => void) => (
    <input type="text" {...common(label, value, set)} />
  );
  const secret = (label: string, value: string, set: (v: string) => void) => (
    <input type="password" {...common(label, value, set)} />
  );

  if (!state) return <NoteLine note={note} />;
  if (state.state === 'off')
    return (
      <div class="sync" data-sync="off">
        <p class="hint">
          Optional. Keep your conversations in step on every browser through your own CouchDB server (or IBM Cloudant).
          Everything is encrypted here with your sync passphrase before it leaves: the server sees only ciphertext. Keys
          never sync. Use <strong>Create</strong> on your first device and <strong>Join</strong> with the same
          passphrase on the others. A forgotten sync passphrase cannot be recovered.
        </p>
        <div class="row">{text('Database URL', url, setUrl)}</div>
        <div class="row">
          {text('User', user, setUser)}
          {secret('Password', password, setPassword)}
        </div>
        <div class="row">{secret('Sync passphrase', passphrase, setPassphrase)}</div>
        <div class="row">
          <button type="button" onClick={() => void setUp('syncCreate')()}>
            Create
          </button>
          <button type="button" onClick={() => void setUp('syncJoin')()}>
            Join
          </button>
        </div>
        <NoteLine note={note} />
      </div>
    );
  return (
    <div class="sync" data-sync={state.state}>
      <p role="status">
        Syncing with {state.url}
        {state.user ? ` as ${state.user}` : ''}.{' '}
        {state.lastSync ? `Last sync: ${new Date(state.lastSync).toLocaleString()}.` : 'Not synced yet.'}
        {state.pending > 0 ? ` ${state.pending} change(s) waiting to be sent.` : ''}
      </p>
      {state.error ? <p class="error">{state.error.message}</p> : null}
      <div class="row">
        <button type="button" onClick={() => void run(() => connector.request('syncNow', {}), 'Synced.')}>
          Sync now
        </button>
        <button
          type="button"
          onClick={() => void run(() => connector.request('syncStop', {}), 'Sync is off on this device.')}
        >
          Stop syncing
        </button>
        {confirmRemove ? (
          <span role="group" aria-label="Confirm removal from the server">
            <button
              type="button"
              class="danger"
              onClick={() => {
                setConfirmRemove(false);
                void run(() => connector.request('syncRemoveRemote', {}), 'Your data was removed from the server.');
              }}
            >
              Remove everything from the server
            </button>
            <button type="button" onClick={() => setConfirmRemove(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" class="danger" onClick={() => setConfirmRemove(true)}>
            Remove my data from the server
          </button>
        )}
      </div>
      <NoteLine note={note} />
    </div>
  );
}
