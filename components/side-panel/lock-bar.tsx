import { useEffect, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { VaultState } from '../../lib/messaging/vault-protocol';
import { describeError } from '../../lib/ui/error-text';
import { Icon, Lock } from '../icons';

export interface LockBarProps {
  connector: Connector;
  /** Called after Baton was unlocked here (the panel may reload its providers). */
  onUnlocked?: () => void;
  /** Told whether Baton is locked, each time that is known (the panel shows a lock in its header). */
  onLocked?: (locked: boolean) => void;
  /**
   * Show the lock as the page's content (no conversation open: a lock, what it means and the
   * unlock form) rather than as a bar above a conversation.
   */
  full?: boolean;
}

/**
 * A locked Baton in the side panel (docs/side-panel.md, item 6; security-requirements.md S3): a lock under
 * the header and the passphrase field to unlock it here (Enter submits). Renders nothing while
 * unlocked or without a passphrase. The state is asked again when the panel regains focus, so a
 * lock set in the options page shows up. The typed passphrase leaves the page state once sent.
 */
export function LockBar({ connector, onUnlocked, onLocked, full = false }: LockBarProps) {
  const [state, setState] = useState<VaultState | undefined>();
  const [pass, setPass] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const locked = state?.locked === true;
  useEffect(() => {
    if (state) onLocked?.(locked);
  }, [state, locked, onLocked]);
  useEffect(() => {
    let live = true;
    const ask = () =>
      connector.request('vaultStatus', {}).then(
        (s) => live && setState(s),
        () => undefined,
      );
    void ask();
    addEventListener('focus', ask);
    return () => {
      live = false;
      removeEventListener('focus', ask);
    };
  }, [connector]);

  if (!state?.locked) return null;
  const unlock = async () => {
    const typed = pass;
    if (!typed) return setError('Type your passphrase first.');
    setPass('');
    setBusy(true);
    try {
      setState(await connector.request('unlockVault', { passphrase: typed }));
      setError(undefined);
      onUnlocked?.();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      setError(
        code === 'locked'
          ? 'That passphrase is not right. Try again.'
          : describeError({ code: 'internal', message: (e as Error).message }).sentence,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class={full ? 'lock-bar lock-screen' : 'lock-bar'}
      aria-label="Baton is locked"
      data-locked
      onSubmit={(e) => {
        e.preventDefault();
        void unlock();
      }}
    >
      {full ? (
        <>
          <span class="lock-mark">
            <Icon icon={Lock} size={28} />
          </span>
          <h2>Baton is locked</h2>
          <p class="lock-why">
            Your API keys are encrypted with your passphrase. Saved conversations stay readable; nothing can be sent
            until you unlock.
          </p>
        </>
      ) : (
        <p>
          <Icon icon={Lock} />
          Baton is locked: nothing can be sent until you unlock it.
        </p>
      )}
      <input
        type="password"
        aria-label="Passphrase"
        autocomplete="current-password"
        spellcheck={false}
        placeholder="Passphrase"
        value={pass}
        onInput={(e) => setPass(e.currentTarget.value)}
      />
      <button type="submit" class="primary" disabled={busy}>
        Unlock
      </button>
      {error ? (
        <p class="note note-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
