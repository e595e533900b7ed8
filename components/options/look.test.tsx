// @vitest-environment happy-dom
/** docs/side-panel.md, items 6 and 8: the options page's names, first-key card, permission feedback and self-clearing notes. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../lib/messaging/protocol';
import type { PermissionsLike } from '../../lib/ui/options-model';
import { mockConnector, sampleSettings } from '../testing/mock-connector';
import { NOTE_MS, NoteLine } from './note-line';
import { OptionsPage } from './options-page';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const granted: PermissionsLike = { request: () => Promise.resolve(true) };

async function page(settings: Settings, permissions: PermissionsLike = granted, extra = {}) {
  const m = mockConnector({ getSettings: () => settings, ...extra });
  render(<OptionsPage connector={m.connector} permissions={permissions} />);
  await screen.findByRole('heading', { name: 'Baton options' });
  // The page renders before the settings arrive; the provider groups fill in when they do.
  await screen.findByRole('group', { name: 'OpenAI' });
  return m;
}

describe('provider groups (docs/side-panel.md: names people and tests rely on)', () => {
  it('each built-in provider is a group named after it, holding API key, Base URL, Save key, Test key and Save base URL; the address comes first', async () => {
    await page(sampleSettings());
    for (const name of ['OpenAI', 'Anthropic', 'Google Gemini']) {
      const group = screen.getByRole('group', { name });
      const key = within(group).getByRole('textbox', { name: 'API key' });
      const base = within(group).getByRole('textbox', { name: 'Base URL' });
      for (const b of ['Save key', 'Test key', 'Save base URL'])
        expect(within(group).getByRole('button', { name: b })).toBeTruthy();
      // N2 binds a key to its address: the form asks for the address first (docs/side-panel.md, item 8).
      expect(base.compareDocumentPosition(key) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      // One primary action per card.
      expect(group.querySelectorAll('button.primary')).toHaveLength(1);
    }
  });

  it('"Add your first key" shows while no provider can be used, and not once one can', async () => {
    const none = sampleSettings();
    await page({ ...none, providers: none.providers.map((p) => ({ ...p, hasKey: false })) });
    expect(screen.getByRole('heading', { name: 'Add your first key' })).toBeTruthy();
    cleanup();
    await page(sampleSettings());
    expect(screen.queryByRole('heading', { name: 'Add your first key' })).toBeNull();
  });
});

describe('base URL permission feedback (docs/side-panel.md, item 8)', () => {
  it('says at once that it asks the browser, then says what happened when the answer is no', async () => {
    let answer!: (v: boolean) => void;
    const m = await page(
      sampleSettings(),
      { request: () => new Promise<boolean>((r) => (answer = r)) },
      { setBaseUrl: () => sampleSettings().providers[0]! },
    );
    const group = screen.getByRole('group', { name: 'OpenAI' });
    fireEvent.input(within(group).getByRole('textbox', { name: 'Base URL' }), {
      target: { value: 'https://proxy.example.com/v1' },
    });
    fireEvent.click(within(group).getByRole('button', { name: 'Save base URL' }));
    await waitFor(() =>
      expect(group.querySelector('.note')!.textContent).toBe(
        'Asking your browser for permission to reach https://proxy.example.com…',
      ),
    );
    answer(false);
    await waitFor(() => expect(group.querySelector('.note')!.textContent).toContain('was not granted'));
    expect(group.querySelector('.note-error')).not.toBeNull();
    expect(m.callsOf('setBaseUrl')).toEqual([]);
  });
});

describe('NoteLine (docs/side-panel.md: transient status messages clear themselves)', () => {
  it('a success note clears itself; an error stays', () => {
    vi.useFakeTimers();
    const { container, rerender } = render(<NoteLine note={{ kind: 'ok', text: 'Key saved.' }} />);
    expect(container.textContent).toBe('Key saved.');
    act(() => void vi.advanceTimersByTime(NOTE_MS + 10));
    expect(container.textContent).toBe('');
    rerender(<NoteLine note={{ kind: 'error', text: 'The provider rejected the key.' }} />);
    act(() => void vi.advanceTimersByTime(NOTE_MS * 3));
    expect(container.textContent).toBe('The provider rejected the key.');
  });
});
