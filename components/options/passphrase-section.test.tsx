// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { VaultState } from '../../lib/messaging/vault-protocol';
import { MockRequestError, mockConnector } from '../testing/mock-connector';
import { PASSPHRASE_LIMITS } from '../../lib/messaging/vault-protocol';
import { PASSPHRASE_MIN, PassphraseSection } from './passphrase-section';

afterEach(cleanup);

const PASS = 'correct horse battery';

/** A vault stand-in: one passphrase, lock state, the generic wrong-passphrase error (S3). */
function vaultMock(initial: VaultState) {
  let state = { ...initial };
  let secret = initial.passphrase ? PASS : undefined;
  const wrong = () => new MockRequestError({ code: 'locked', message: 'That passphrase does not unlock the keys.' });
  return mockConnector({
    vaultStatus: () => state,
    setPassphrase: ({ passphrase, current }) => {
      if (secret !== undefined && current !== secret) throw wrong();
      secret = passphrase;
      return (state = { passphrase: true, locked: false });
    },
    unlockVault: ({ passphrase }) => {
      if (passphrase !== secret) throw wrong();
      return (state = { passphrase: true, locked: false });
    },
    lockVault: () => (state = { ...state, locked: state.passphrase }),
    removePassphrase: ({ passphrase }) => {
      if (passphrase !== secret) throw wrong();
      secret = undefined;
      return (state = { passphrase: false, locked: false });
    },
  });
}

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const mode = (c: Element) => c.querySelector('[data-vault]')?.getAttribute('data-vault');

describe('PassphraseSection', () => {
  it('states the minimum the background enforces', () => {
    expect(PASSPHRASE_MIN).toBe(PASSPHRASE_LIMITS.min);
  });

  it('S3 sets a passphrase, locks, refuses a wrong one with the generic error, unlocks; passphrases never stay in the DOM', async () => {
    const m = vaultMock({ passphrase: false, locked: false });
    let changes = 0;
    const { container } = render(<PassphraseSection connector={m.connector} onChange={() => changes++} />);
    await waitFor(() => expect(mode(container)).toBe('off'));

    type('New passphrase', 'short');
    click('Set passphrase');
    expect(screen.getByRole('status').textContent).toBe('Use at least 8 characters.');
    expect(m.callsOf('setPassphrase')).toEqual([]);

    // Asked twice, with the minimum stated before anything is typed (docs/side-panel.md).
    expect(container.textContent).toContain('At least 8 characters.');
    type('New passphrase', PASS);
    type('Repeat new passphrase', `${PASS}x`);
    click('Set passphrase');
    expect(screen.getByRole('status').textContent).toBe('The two new passphrases differ. Type the same one twice.');
    expect(m.callsOf('setPassphrase')).toEqual([]);
    type('Repeat new passphrase', PASS);
    click('Set passphrase');
    await waitFor(() => expect(mode(container)).toBe('unlocked'));
    expect(m.callsOf('setPassphrase')).toEqual([{ passphrase: PASS }]);

    click('Lock now');
    await waitFor(() => expect(mode(container)).toBe('locked'));
    expect(screen.getByText('Baton is locked: nothing can be sent until you unlock it.')).toBeTruthy();

    type('Passphrase to unlock', 'wrong passphrase');
    click('Unlock');
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('That passphrase does not unlock the keys.'),
    );
    expect(mode(container)).toBe('locked');

    type('Passphrase to unlock', PASS);
    click('Unlock');
    await waitFor(() => expect(mode(container)).toBe('unlocked'));
    expect(changes).toBe(3);
    expect(container.innerHTML).not.toContain(PASS);
    for (const input of container.querySelectorAll('input')) expect(input.value).toBe('');
  });

  it('S3 changes and removes the passphrase with the current one', async () => {
    const m = vaultMock({ passphrase: true, locked: false });
    const { container } = render(<PassphraseSection connector={m.connector} />);
    await waitFor(() => expect(mode(container)).toBe('unlocked'));
    type('Current passphrase', PASS);
    type('New passphrase', 'another passphrase');
    type('Repeat new passphrase', 'another passphrase');
    click('Change passphrase');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Passphrase changed.'));
    expect(m.callsOf('setPassphrase')).toEqual([{ passphrase: 'another passphrase', current: PASS }]);
    type('Current passphrase', 'another passphrase');
    click('Remove passphrase');
    await waitFor(() => expect(mode(container)).toBe('off'));
  });
});
