// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { VaultState } from '../../lib/messaging/vault-protocol';
import { MockRequestError, mockConnector } from '../testing/mock-connector';
import { FirstRun } from './first-run';
import { LockBar } from './lock-bar';

afterEach(cleanup);

const PASS = 'correct horse battery';

function vault(initial: VaultState) {
  let state = { ...initial };
  return mockConnector({
    vaultStatus: () => state,
    unlockVault: ({ passphrase }) => {
      if (passphrase !== PASS)
        throw new MockRequestError({ code: 'locked', message: 'That passphrase does not unlock the keys.' });
      return (state = { passphrase: true, locked: false });
    },
  });
}

describe('LockBar (docs/side-panel.md: a locked Baton unlocks in the panel)', () => {
  it('shows nothing while unlocked or without a passphrase', async () => {
    for (const s of [
      { passphrase: false, locked: false },
      { passphrase: true, locked: false },
    ]) {
      const m = vault(s);
      const { container } = render(<LockBar connector={m.connector} />);
      await waitFor(() => expect(m.callsOf('vaultStatus')).toHaveLength(1));
      expect(container.innerHTML).toBe('');
      cleanup();
    }
  });

  it('locked: a lock and a passphrase field; Enter submits; a wrong passphrase says so; the right one unlocks and leaves no passphrase in the DOM', async () => {
    const m = vault({ passphrase: true, locked: true });
    let unlocked = 0;
    const { container } = render(<LockBar connector={m.connector} onUnlocked={() => unlocked++} />);
    const form = await screen.findByRole('form', { name: 'Baton is locked' });
    expect(form.querySelector('svg.icon')).not.toBeNull();
    const field = screen.getByLabelText('Passphrase') as HTMLInputElement;
    fireEvent.input(field, { target: { value: 'wrong passphrase' } });
    fireEvent.submit(form); // what Enter in the field does
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('That passphrase is not right. Try again.');
    expect(field.value).toBe('');
    fireEvent.input(field, { target: { value: PASS } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(container.innerHTML).toBe(''));
    expect(m.callsOf('unlockVault')).toEqual([{ passphrase: 'wrong passphrase' }, { passphrase: PASS }]);
    expect(unlocked).toBe(1);
  });

  it('asks again when the panel regains focus (a lock set in the options page shows up)', async () => {
    const m = vault({ passphrase: true, locked: false });
    render(<LockBar connector={m.connector} />);
    await waitFor(() => expect(m.callsOf('vaultStatus')).toHaveLength(1));
    m.handlers.vaultStatus = () => ({ passphrase: true, locked: true });
    window.dispatchEvent(new Event('focus'));
    expect(await screen.findByRole('form', { name: 'Baton is locked' })).toBeTruthy();
  });
});

describe('FirstRun', () => {
  it('one primary call to action that opens the options page', () => {
    let opened = 0;
    render(<FirstRun openOptions={() => opened++} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]!.className).toBe('primary');
    fireEvent.click(screen.getByRole('button', { name: 'Add an API key' }));
    expect(opened).toBe(1);
  });
});
