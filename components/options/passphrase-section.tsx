import { useEffect, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { VaultState } from '../../lib/messaging/vault-protocol';
import type { Note } from '../../lib/ui/options-model';
import { NoteLine } from './note-line';

export interface PassphraseSectionProps {
  connector: Connector;
  /** Called after the lock state changed (the provider list shows masks only while unlocked). */
  onChange?: () => void;
}

/**
 * The minimum the background enforces, stated up front in the form: `PASSPHRASE_LIMITS.min` of
 * vault-protocol.ts, not imported because that module builds zod schemas, which would pull zod
 * (and its eval probe) into the page bundle. passphrase-section.test.tsx keeps the two equal.
 */
export const PASSPHRASE_MIN = 8;
const MIN = PASSPHRASE_MIN;

/**
 * The optional passphrase (security-requirements.md S2, S3): set, unlock, lock, change, remove.
 * Typed passphrases are cleared from the page state as soon as they are sent.
 */
export function PassphraseSection({ connector, onChange }: PassphraseSectionProps) {
  const [state, setState] = useState<VaultState | undefined>();
  const [pass, setPass] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [note, setNote] = useState<Note | undefined>();

  useEffect(() => {
    connector.request('vaultStatus', {}).then(setState, (e: Error) => setNote({ kind: 'error', text: e.message }));
  }, [connector]);

  const run = async (work: () => Promise<VaultState>, ok: string) => {
    setPass('');
    setNext('');
    setAgain('');
    try {
      setState(await work());
      setNote({ kind: 'ok', text: ok });
      onChange?.();
    } catch (e) {
      setNote({ kind: 'error', text: (e as Error).message });
    }
  };
  const field = (label: string, value: string, set: (v: string) => void) => (
    <input
      type="password"
      aria-label={label}
      placeholder={label}
      autocomplete="off"
      spellcheck={false}
      value={value}
      onInput={(e) => set(e.currentTarget.value)}
    />
  );
  const tooShort = (p: string) =>
    p.length < MIN ? (setNote({ kind: 'error', text: `Use at least ${MIN} characters.` }), true) : false;
  // Asked twice (docs/side-panel.md): a typo in a passphrase that cannot be recovered locks the keys away.
  const differs = () =>
    next !== again
      ? (setNote({ kind: 'error', text: 'The two new passphrases differ. Type the same one twice.' }), true)
      : false;
  const newOk = () => !tooShort(next) && !differs();
  const minHint = <p class="hint">At least {MIN} characters. Type it twice.</p>;

  if (!state) return <NoteLine note={note} />;
  return (
    <div class="passphrase" data-vault={state.passphrase ? (state.locked ? 'locked' : 'unlocked') : 'off'}>
      {!state.passphrase ? (
        <>
          <p class="hint">
            Optional. With a passphrase your keys are stored encrypted and Baton can be locked: while locked nothing can
            be sent. Unlocking lasts until you lock Baton or close the browser. A forgotten passphrase cannot be
            recovered (delete the keys and enter them again).
          </p>
          {minHint}
          <div class="row">
            {field('New passphrase', next, setNext)}
            {field('Repeat new passphrase', again, setAgain)}
            <button
              type="button"
              onClick={() =>
                newOk() &&
                void run(
                  () => connector.request('setPassphrase', { passphrase: next }),
                  'Passphrase set; your keys are encrypted.',
                )
              }
            >
              Set passphrase
            </button>
          </div>
        </>
      ) : state.locked ? (
        <>
          <p class="warn">Baton is locked: nothing can be sent until you unlock it.</p>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => connector.request('unlockVault', { passphrase: pass }), 'Unlocked.');
            }}
          >
            {field('Passphrase to unlock', pass, setPass)}
            <button type="submit" class="primary">
              Unlock
            </button>
          </form>
        </>
      ) : (
        <>
          <p class="hint">
            Your keys are encrypted with your passphrase. Baton is unlocked until you lock it or close the browser.
          </p>
          <button type="button" onClick={() => void run(() => connector.request('lockVault', {}), 'Locked.')}>
            Lock now
          </button>
          {minHint}
          <div class="row">
            {field('Current passphrase', pass, setPass)}
            {field('New passphrase', next, setNext)}
            {field('Repeat new passphrase', again, setAgain)}
            <button
              type="button"
              onClick={() =>
                newOk() &&
                void run(
                  () => connector.request('setPassphrase', { passphrase: next, current: pass }),
                  'Passphrase changed.',
                )
              }
            >
              Change passphrase
            </button>
            <button
              type="button"
              onClick={() =>
                void run(
                  () => connector.request('removePassphrase', { passphrase: pass }),
                  'Passphrase removed; keys are stored without it.',
                )
              }
            >
              Remove passphrase
            </button>
          </div>
        </>
      )}
      <NoteLine note={note} />
    </div>
  );
}
