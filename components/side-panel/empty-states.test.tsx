// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { VaultState } from '../../lib/messaging/vault-protocol';
import { MockRequestError, mockConnector, sampleSettings, type MockHandlers } from '../testing/mock-connector';
import { SidePanel } from './side-panel';
import { conversationMeta as meta } from '../testing/open-conversation';

afterEach(cleanup);

const PASS = 'correct horse battery';

function setup(extra: MockHandlers = {}, convs: ConversationMeta[] = []) {
  let vault: VaultState = { passphrase: false, locked: false };
  const m = mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => convs,
    listModels: () => [{ id: 'gpt-5' }],
    vaultStatus: () => vault,
    unlockVault: ({ passphrase }) => {
      if (passphrase !== PASS) throw new MockRequestError({ code: 'locked', message: 'no' });
      return (vault = { passphrase: true, locked: false });
    },
    ...extra,
  });
  return { m, lock: () => (vault = { passphrase: true, locked: true }) };
}

const emptyChat = () => screen.findByRole('region', { name: 'Start a conversation' });

describe('the empty chat (docs/side-panel.md, "Empty chat")', () => {
  it('welcomes, says who receives the message, and offers starters; none of them is a primary button', async () => {
    const { m } = setup();
    render(<SidePanel connector={m.connector} openOptions={() => undefined} />);
    const region = await emptyChat();
    expect(region.textContent).toContain('Baton carries a conversation between');
    await waitFor(() =>
      expect(region.querySelector('[data-empty-target]')?.textContent).toBe('Your message goes to GPT-5 · OpenAI'),
    );
    const starters = within(within(region).getByRole('list', { name: 'Ways to start' }));
    for (const name of ['Import a conversation', 'Explain some code', 'Summarise a text'])
      expect(starters.getByRole('button', { name })).toBeTruthy();
    expect(starters.getByText('Continue a chat from a page')).toBeTruthy();
    expect(region.querySelectorAll('button.primary')).toHaveLength(0);
    expect(screen.queryByText('Write a message below to start.')).toBeNull();
  });

  it('an example prompt fills the composer and focuses it, without sending', async () => {
    const { m } = setup();
    render(<SidePanel connector={m.connector} />);
    await emptyChat();
    fireEvent.click(screen.getByRole('button', { name: 'Explain some code' }));
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.value).toMatch(/^Explain what this code does/);
    expect(document.activeElement).toBe(box);
    expect(m.callsOf('sendMessage')).toHaveLength(0);
  });

  it('"Continue a chat from a page" opens a one-paragraph how-to naming the context menu item', async () => {
    const { m } = setup();
    render(<SidePanel connector={m.connector} />);
    await emptyChat();
    const how = screen.getByText('Continue a chat from a page').closest('details')!;
    expect(how.open).toBe(false);
    fireEvent.click(how.querySelector('summary')!);
    how.open = true; // happy-dom does not toggle <details> on a summary click
    expect(how.textContent).toContain('Continue this chat in…');
  });

  it('"Import a conversation" asks for a file, as the header’s Import does', async () => {
    const { m } = setup();
    render(<SidePanel connector={m.connector} />);
    await emptyChat();
    const picked: string[] = [];
    const click = HTMLInputElement.prototype.click;
    HTMLInputElement.prototype.click = function (this: HTMLInputElement) {
      picked.push(this.type);
    };
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Import a conversation' }));
    } finally {
      HTMLInputElement.prototype.click = click;
    }
    expect(picked).toEqual(['file']);
  });

  it('with no provider, exactly one call to action, even when imported conversations exist (they stay listed)', async () => {
    const { m } = setup(
      { getSettings: () => ({ providers: sampleSettings().providers.map((p) => ({ ...p, hasKey: false })) }) },
      [meta('imported')],
    );
    let opened = 0;
    render(<SidePanel connector={m.connector} openOptions={() => opened++} />);
    await screen.findByRole('heading', { name: 'Add your first API key' });
    await waitFor(() => expect(document.querySelector('[data-conversation-id="imported"]')).not.toBeNull());
    expect(screen.queryByRole('region', { name: 'Start a conversation' })).toBeNull();
    const main = document.querySelector('main')!;
    expect(main.querySelectorAll('button')).toHaveLength(1);
    expect(main.querySelectorAll('button.primary')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Add an API key' }));
    expect(opened).toBe(1);
  });
});

describe('the locked panel (docs/side-panel.md, "Layout")', () => {
  it('with no conversation open, the page is the lock: what it means and the unlock form; Enter unlocks; then the starters', async () => {
    const { m, lock } = setup();
    lock();
    render(<SidePanel connector={m.connector} />);
    const form = await screen.findByRole('form', { name: 'Baton is locked' });
    expect(form.closest('main')).not.toBeNull();
    expect(within(form).getByRole('heading', { name: 'Baton is locked' })).toBeTruthy();
    expect(form.textContent).toContain('nothing can be sent until you unlock');
    expect(within(screen.getByRole('banner')).getByRole('img', { name: 'Locked' })).toBeTruthy();
    // No starters and no first-run card under a lock.
    expect(screen.queryByRole('region', { name: 'Start a conversation' })).toBeNull();
    const field = within(form).getByLabelText('Passphrase') as HTMLInputElement;
    fireEvent.input(field, { target: { value: PASS } });
    fireEvent.submit(form); // what Enter in the field does
    await waitFor(() => expect(m.callsOf('unlockVault')).toEqual([{ passphrase: PASS }]));
    await emptyChat();
    expect(screen.queryByRole('img', { name: 'Locked' })).toBeNull();
  });
});

describe('the header (docs/side-panel.md, "Layout")', () => {
  it('icon buttons keep their names; New chat keeps its words', async () => {
    const { m } = setup();
    render(<SidePanel connector={m.connector} openOptions={() => undefined} />);
    await emptyChat();
    const header = within(screen.getByRole('banner'));
    for (const name of ['Conversations', 'Theme: Auto', 'Import…', 'Options', 'New chat']) {
      const b = header.getByRole('button', { name });
      expect(b.querySelector('svg.icon')).not.toBeNull();
    }
    expect(header.getByRole('button', { name: 'New chat' }).textContent).toBe('New chat');
  });
});
