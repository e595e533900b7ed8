// @vitest-environment happy-dom
/**
 * The options page's Sync section (docs/security.md#sync): Create, Join, a wrong passphrase, the
 * status line and its error, Sync now, Stop syncing and the two-step Remove, against a scripted
 * background that keeps one sync state.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncState } from '../../lib/messaging/sync-protocol';
import { MockRequestError, mockConnector } from '../testing/mock-connector';
import { SyncSection } from './sync-section';

afterEach(cleanup);

const URL_ = 'https://couch.example.com/baton';
const PASS = 'correct horse battery staple';
const LAST = '2026-12-01T10:00:00.000Z';

/** A background stand-in: one server holding data written with {@link PASS} once Create ran. */
function syncMock(start: SyncState = { state: 'off', pending: 0, unreadable: 0 }) {
  let state = start;
  let setUp = false;
  const on = (): SyncState => ({ state: 'idle', url: URL_, user: 'ada', lastSync: LAST, pending: 0, unreadable: 0 });
  const off = (): SyncState => ({ state: 'off', pending: 0, unreadable: 0 });
  return mockConnector({
    syncStatus: () => state,
    syncCreate: () => {
      setUp = true;
      return (state = on());
    },
    syncJoin: ({ passphrase }) => {
      if (!setUp)
        throw new MockRequestError({
          code: 'not_found',
          message: 'This server holds no Baton data yet: use Create on your first device.',
        });
      if (passphrase !== PASS)
        throw new MockRequestError({
          code: 'forbidden',
          message: 'That sync passphrase does not open the data on this server.',
        });
      return (state = on());
    },
    syncNow: () =>
      (state = {
        ...on(),
        state: 'error',
        pending: 3,
        error: {
          code: 'unreachable',
          message: 'The sync server cannot be reached. Check the address and that it is running.',
        },
      }),
    syncStop: () => (state = off()),
    syncRemoveRemote: () => {
      setUp = false;
      return (state = off());
    },
  });
}

/** Permissions that record what was asked and answer `grant`. */
function perms(grant = true) {
  const asked: string[][] = [];
  return {
    asked,
    permissions: {
      request: async (p: { origins: string[] }) => {
        asked.push(p.origins);
        return grant;
      },
    },
  };
}

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const mode = (c: Element) => c.querySelector('[data-sync]')?.getAttribute('data-sync');
const fill = (passphrase: string) => {
  type('Database URL', URL_);
  type('User', 'ada');
  type('Password', 'couch-password');
  type('Sync passphrase', passphrase);
};

describe('SyncSection', () => {
  it('every control has an accessible name', async () => {
    const m = syncMock();
    const { container } = render(<SyncSection connector={m.connector} permissions={perms().permissions} />);
    await waitFor(() => expect(mode(container)).toBe('off'));
    for (const label of ['Database URL', 'User', 'Password', 'Sync passphrase'])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Join' })).toBeTruthy();
  });

  it('Create asks for the server origin first, sends the form, shows the status, and the secrets leave the page', async () => {
    const m = syncMock();
    const p = perms();
    const { container } = render(<SyncSection connector={m.connector} permissions={p.permissions} />);
    await waitFor(() => expect(mode(container)).toBe('off'));
    fill(PASS);
    click('Create');
    await waitFor(() => expect(mode(container)).toBe('idle'));
    expect(p.asked).toEqual([['https://couch.example.com/*']]);
    expect(m.callsOf('syncCreate')).toEqual([{ url: URL_, user: 'ada', password: 'couch-password', passphrase: PASS }]);
    const status = screen.getAllByRole('status')[0]!.textContent!;
    expect(status).toContain(`Syncing with ${URL_} as ada.`);
    expect(status).toContain('Last sync:');
    await waitFor(() => expect(container.textContent).toContain('Sync is on.'));
    // Neither the passphrase nor the password stays in the page.
    expect(container.innerHTML).not.toContain(PASS);
    expect(container.innerHTML).not.toContain('couch-password');
    expect(container.querySelectorAll('input').length).toBe(0);
  });

  it('a bad URL or a refused permission sends nothing', async () => {
    const m = syncMock();
    const p = perms(false);
    const { container } = render(<SyncSection connector={m.connector} permissions={p.permissions} />);
    await waitFor(() => expect(mode(container)).toBe('off'));
    type('Database URL', 'not a url');
    click('Create');
    await waitFor(() => expect(container.textContent).toContain('Enter the database URL'));
    expect(p.asked).toEqual([]);
    fill(PASS);
    click('Join');
    await waitFor(() =>
      expect(container.textContent).toContain('Baton needs permission to reach https://couch.example.com'),
    );
    expect(m.callsOf('syncJoin')).toEqual([]);
    expect(m.callsOf('syncCreate')).toEqual([]);
    expect(mode(container)).toBe('off');
  });

  it('Join with a wrong passphrase says so and stays off; with the right one it is on', async () => {
    const m = syncMock();
    await m.connector.request('syncCreate', { url: URL_, user: 'ada', password: 'x', passphrase: PASS });
    await m.connector.request('syncStop', {});
    const { container } = render(<SyncSection connector={m.connector} permissions={perms().permissions} />);
    await waitFor(() => expect(mode(container)).toBe('off'));
    fill('not the passphrase');
    click('Join');
    await waitFor(() =>
      expect(container.querySelector('.note-error')?.textContent).toBe(
        'That sync passphrase does not open the data on this server.',
      ),
    );
    expect(mode(container)).toBe('off');
    type('Sync passphrase', PASS);
    click('Join');
    await waitFor(() => expect(mode(container)).toBe('idle'));
    await waitFor(() => expect(container.textContent).toContain('Joined: sync is on.'));
  });

  it('Sync now shows an error a person can act on and the changes waiting; Stop syncing turns it off', async () => {
    const m = syncMock({ state: 'idle', url: URL_, user: 'ada', lastSync: LAST, pending: 0, unreadable: 0 });
    const { container } = render(<SyncSection connector={m.connector} permissions={perms().permissions} />);
    await waitFor(() => expect(mode(container)).toBe('idle'));
    click('Sync now');
    await waitFor(() => expect(mode(container)).toBe('error'));
    expect(container.querySelector('p.error')?.textContent).toBe(
      'The sync server cannot be reached. Check the address and that it is running.',
    );
    expect(screen.getAllByRole('status')[0]!.textContent).toContain('3 change(s) waiting to be sent.');
    click('Stop syncing');
    await waitFor(() => expect(mode(container)).toBe('off'));
    expect(m.callsOf('syncStop')).toHaveLength(1);
    expect(m.callsOf('syncRemoveRemote')).toEqual([]);
  });

  it('Remove my data from the server asks once more; Cancel removes nothing', async () => {
    const m = syncMock({ state: 'idle', url: URL_, user: 'ada', lastSync: LAST, pending: 0, unreadable: 0 });
    const { container } = render(<SyncSection connector={m.connector} permissions={perms().permissions} />);
    await waitFor(() => expect(mode(container)).toBe('idle'));
    click('Remove my data from the server');
    expect(screen.getByRole('group', { name: 'Confirm removal from the server' })).toBeTruthy();
    click('Cancel');
    expect(m.callsOf('syncRemoveRemote')).toEqual([]);
    click('Remove my data from the server');
    click('Remove everything from the server');
    await waitFor(() => expect(mode(container)).toBe('off'));
    expect(m.callsOf('syncRemoveRemote')).toHaveLength(1);
  });
});
