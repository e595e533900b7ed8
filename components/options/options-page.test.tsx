// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderStatus, Settings } from '../../lib/messaging/protocol';
import type { PermissionsLike } from '../../lib/ui/options-model';
import { mockConnector, sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { NOTE_MS } from './note-line';
import { OptionsPage } from './options-page';

afterEach(cleanup);

const FULL_KEY = 'sk-proj-THISISTHEWHOLESECRETKEY-1234567890abcd';

/** A permissions stub that records every request and the order relative to requests. */
function permissionsStub(grant: boolean, log: string[]): PermissionsLike & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    request: (p) => {
      asked.push(p.origins);
      log.push(`permissions.request ${p.origins.join(',')}`);
      return Promise.resolve(grant);
    },
  };
}

function setup(extra: MockHandlers = {}, settings: Settings = sampleSettings()) {
  let current = settings;
  const m: MockConnector = mockConnector({
    getSettings: () => current,
    setKey: ({ providerId }) => {
      const status: ProviderStatus = {
        ...current.providers.find((p) => p.id === providerId)!,
        hasKey: true,
        maskedKey: '••••abcd',
      };
      current = { ...current, providers: current.providers.map((p) => (p.id === providerId ? status : p)) };
      return status;
    },
    ...extra,
  });
  return m;
}

async function renderPage(m: MockConnector, permissions: PermissionsLike) {
  render(<OptionsPage connector={m.connector} permissions={permissions} />);
  await screen.findByRole('heading', { name: 'Baton options' });
  // The page renders before the settings arrive; the provider groups fill in when they do.
  await screen.findByRole('group', { name: 'OpenAI' });
}

const section = (id: string) => document.querySelector(`[data-provider="${id}"]`) as HTMLElement;
/** docs/side-panel.md: each provider is a group named after it, holding the textboxes "API key" and "Base URL". */
const field = (provider: string, name: 'API key' | 'Base URL') =>
  within(screen.getByRole('group', { name: provider })).getByRole('textbox', { name });

describe('keys (S5)', () => {
  it('one section per provider, with masked keys only', async () => {
    await renderPage(setup(), permissionsStub(true, []));
    expect([...document.querySelectorAll('[data-provider]')].map((e) => e.getAttribute('data-provider'))).toEqual([
      'openai',
      'anthropic',
      'google',
    ]);
    expect(section('openai').textContent).toContain('Key saved: ••••abcd');
    expect(section('google').textContent).toContain('No key saved.');
    expect((field('OpenAI', 'API key') as HTMLInputElement).type).toBe('password');
  });

  it('saving a key clears the input and leaves only the masked key in the DOM', async () => {
    const m = setup();
    await renderPage(m, permissionsStub(true, []));
    const input = field('Google Gemini', 'API key') as HTMLInputElement;
    fireEvent.input(input, { target: { value: FULL_KEY } });
    fireEvent.click(within(section('google')).getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(section('google').textContent).toContain('Key saved (••••abcd).'));
    expect(m.callsOf('setKey')).toEqual([{ providerId: 'google', key: FULL_KEY }]);
    expect((field('Google Gemini', 'API key') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain(FULL_KEY);
    // S5's definition of key material: no 12-character piece of it either
    for (let i = 0; i + 12 <= FULL_KEY.length; i++)
      expect(document.body.innerHTML).not.toContain(FULL_KEY.slice(i, i + 12));
    expect(section('google').textContent).toContain('Key saved: ••••abcd');
  });

  it('Test key shows the background message; Delete key deletes', async () => {
    const m = setup({
      testKey: () => ({ ok: false, message: 'The provider rejected this key.' }),
      deleteKey: () => null,
    });
    await renderPage(m, permissionsStub(true, []));
    fireEvent.click(within(section('openai')).getByRole('button', { name: 'Test key' }));
    await waitFor(() => expect(section('openai').textContent).toContain('The provider rejected this key.'));
    fireEvent.click(within(section('openai')).getByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(m.callsOf('deleteKey')).toEqual([{ providerId: 'openai' }]));
    expect(m.callsOf('testKey')).toEqual([{ providerId: 'openai' }]);
  });
});

describe('base URLs (N1)', () => {
  it('asks for the host permission first, synchronously in the click, then saves', async () => {
    const log: string[] = [];
    const m = setup({
      setBaseUrl: ({ providerId, baseUrl }) => {
        log.push(`setBaseUrl ${baseUrl}`);
        return { ...sampleSettings().providers.find((p) => p.id === providerId)!, baseUrl: baseUrl! };
      },
    });
    const perms = permissionsStub(true, log);
    await renderPage(m, perms);
    fireEvent.input(field('Anthropic', 'Base URL'), { target: { value: 'http://127.0.0.1:8787' } });
    fireEvent.click(within(section('anthropic')).getByRole('button', { name: 'Save base URL' }));
    // synchronous: asked before the click handler returned
    expect(perms.asked).toEqual([['http://127.0.0.1:8787/*']]);
    await waitFor(() =>
      expect(log).toEqual(['permissions.request http://127.0.0.1:8787/*', 'setBaseUrl http://127.0.0.1:8787']),
    );
    await waitFor(() => expect(section('anthropic').textContent).toContain('Base URL saved: http://127.0.0.1:8787.'));
  });

  it('when the permission is denied, does not call setBaseUrl and says nothing will be sent there', async () => {
    const m = setup({ setBaseUrl: () => sampleSettings().providers[0]! });
    await renderPage(m, permissionsStub(false, []));
    fireEvent.input(field('OpenAI', 'Base URL'), { target: { value: 'https://proxy.example.com/v1' } });
    fireEvent.click(within(section('openai')).getByRole('button', { name: 'Save base URL' }));
    await waitFor(() => expect(section('openai').textContent).toContain('nothing will be sent there'));
    expect(m.callsOf('setBaseUrl')).toEqual([]);
  });

  it('the default origin needs no permission; http:// elsewhere is refused before asking (N4)', async () => {
    const m = setup({ setBaseUrl: ({ baseUrl }) => ({ ...sampleSettings().providers[0]!, baseUrl: baseUrl! }) });
    const perms = permissionsStub(true, []);
    await renderPage(m, perms);
    fireEvent.input(field('OpenAI', 'Base URL'), { target: { value: 'http://proxy.example.com' } });
    fireEvent.click(within(section('openai')).getByRole('button', { name: 'Save base URL' }));
    expect(section('openai').textContent).toContain('Endpoints must use https://');
    fireEvent.input(field('OpenAI', 'Base URL'), { target: { value: 'https://api.openai.com/v1' } });
    fireEvent.click(within(section('openai')).getByRole('button', { name: 'Save base URL' }));
    await waitFor(() =>
      expect(m.callsOf('setBaseUrl')).toEqual([{ providerId: 'openai', baseUrl: 'https://api.openai.com/v1' }]),
    );
    expect(perms.asked).toEqual([]);
  });
});

describe('custom endpoints (N1, N4)', () => {
  const added: ProviderStatus = {
    id: 'custom-abc',
    name: 'Local Ollama',
    api: 'openai-chat',
    baseUrl: 'http://localhost:11434/v1',
    hasKey: false,
    flavor: 'ollama',
  };

  it('rejects an http:// non-local URL without asking for a permission', async () => {
    const m = setup({ saveEndpoint: () => added });
    const perms = permissionsStub(true, []);
    await renderPage(m, perms);
    fireEvent.input(screen.getByLabelText('Endpoint name'), { target: { value: 'Sneaky' } });
    fireEvent.input(screen.getByLabelText('Endpoint base URL'), { target: { value: 'http://evil.example/v1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText(/Endpoints must use https:\/\//)).toBeTruthy();
    expect(perms.asked).toEqual([]);
    expect(m.callsOf('saveEndpoint')).toEqual([]);
  });

  it('asks first, then saves; the new endpoint gets its own key fields', async () => {
    const log: string[] = [];
    const m = setup({
      saveEndpoint: (input) => {
        log.push('saveEndpoint');
        expect(input).toEqual({
          name: 'Local Ollama',
          baseUrl: 'http://localhost:11434/v1',
          flavor: 'ollama',
          defaultModel: 'llama3.2',
        });
        return added;
      },
    });
    const perms = permissionsStub(true, log);
    await renderPage(m, perms);
    fireEvent.input(screen.getByLabelText('Endpoint name'), { target: { value: 'Local Ollama' } });
    fireEvent.input(screen.getByLabelText('Endpoint base URL'), { target: { value: 'http://localhost:11434/v1' } });
    fireEvent.change(screen.getByLabelText('Endpoint flavour'), { target: { value: 'ollama' } });
    fireEvent.input(screen.getByLabelText('Endpoint model'), { target: { value: 'llama3.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(perms.asked).toEqual([['http://localhost:11434/*']]);
    await waitFor(() => expect(section('custom-abc')).not.toBeNull());
    expect(log).toEqual(['permissions.request http://localhost:11434/*', 'saveEndpoint']);
    expect(field('Local Ollama', 'API key')).toBeTruthy();
    expect((screen.getByLabelText('Endpoint name') as HTMLInputElement).value).toBe('');
  });

  it('a denied permission adds nothing', async () => {
    const m = setup({ saveEndpoint: () => added });
    await renderPage(m, permissionsStub(false, []));
    fireEvent.input(screen.getByLabelText('Endpoint name'), { target: { value: 'OR' } });
    fireEvent.input(screen.getByLabelText('Endpoint base URL'), { target: { value: 'https://openrouter.ai/api/v1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText(/the endpoint was not added and nothing will be sent there/)).toBeTruthy();
    expect(m.callsOf('saveEndpoint')).toEqual([]);
  });
});

describe('default target and delete all data', () => {
  it('saves the default provider and model', async () => {
    const m = setup({ setDefaultTarget: () => null });
    await renderPage(m, permissionsStub(true, []));
    fireEvent.change(screen.getByLabelText('Default provider'), { target: { value: 'anthropic' } });
    fireEvent.input(screen.getByLabelText('Default model'), { target: { value: 'claude-sonnet-4-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save default' }));
    await waitFor(() =>
      expect(m.callsOf('setDefaultTarget')).toEqual([
        { target: { providerId: 'anthropic', model: 'claude-sonnet-4-5' } },
      ]),
    );
  });

  it('opens on the saved default, says what a new chat starts with, and restores the saved model when its provider is chosen again', async () => {
    await renderPage(setup(), permissionsStub(true, []));
    const providerBox = screen.getByLabelText('Default provider') as HTMLSelectElement;
    const modelBox = screen.getByLabelText('Default model') as HTMLInputElement;
    expect(providerBox.value).toBe('openai');
    expect(modelBox.value).toBe('gpt-5');
    expect(screen.getByText('New chats start with OpenAI · gpt-5.')).toBeTruthy();
    fireEvent.change(providerBox, { target: { value: 'anthropic' } });
    expect(modelBox.value).toBe('');
    fireEvent.change(providerBox, { target: { value: 'openai' } });
    expect(modelBox.value).toBe('gpt-5');
  });

  it('with no default saved, shows the effective one: the first provider with a key and its default model, saved as such when left empty', async () => {
    const base = sampleSettings();
    const settings: Settings = {
      providers: base.providers.map((p): ProviderStatus =>
        p.id === 'openai'
          ? { id: p.id, name: p.name, api: p.api, hasKey: false }
          : p.id === 'anthropic'
            ? { ...p, defaultModel: 'claude-sonnet-4-6' }
            : p,
      ),
    };
    const m = setup({ setDefaultTarget: () => null }, settings);
    await renderPage(m, permissionsStub(true, []));
    const modelBox = screen.getByLabelText('Default model') as HTMLInputElement;
    expect((screen.getByLabelText('Default provider') as HTMLSelectElement).value).toBe('anthropic');
    expect(modelBox.value).toBe('');
    expect(modelBox.placeholder).toBe('claude-sonnet-4-6 (Anthropic’s default)');
    expect(
      screen.getByText(
        'New chats start with Anthropic · claude-sonnet-4-6: no default is saved, so the first provider with a key and its default model.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save default' }));
    await waitFor(() =>
      expect(m.callsOf('setDefaultTarget')).toEqual([
        { target: { providerId: 'anthropic', model: 'claude-sonnet-4-6' } },
      ]),
    );
    await waitFor(() => expect(screen.getByText('New chats start with Anthropic · claude-sonnet-4-6.')).toBeTruthy());
  });

  it('says so when the saved default’s provider has no usable key', async () => {
    const base = sampleSettings();
    const settings: Settings = {
      ...base,
      defaultTarget: { providerId: 'google', model: 'gemini-3.8-flash' },
    };
    await renderPage(setup({}, settings), permissionsStub(true, []));
    expect((screen.getByLabelText('Default model') as HTMLInputElement).value).toBe('gemini-3.8-flash');
    expect(
      screen.getByText('New chats start with OpenAI: the saved default’s provider, Google Gemini, has no usable key.'),
    ).toBeTruthy();
  });

  it('deletes only after a confirmation step', async () => {
    const m = setup({ deleteAllData: () => null });
    await renderPage(m, permissionsStub(true, []));
    fireEvent.click(screen.getByRole('button', { name: 'Delete all data' }));
    expect(m.callsOf('deleteAllData')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(m.callsOf('deleteAllData')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete all data' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete everything' }));
    await waitFor(() => expect(screen.getByText('All data deleted.')).toBeTruthy());
    expect(m.callsOf('deleteAllData')).toEqual([{ confirm: true }]);
  });
});

describe('newcomer findings (docs/side-panel.md, "The options page")', () => {
  it('renders at once while the settings are still coming: the sections are there, the providers say Loading…', async () => {
    let answer: (s: Settings) => void = () => undefined;
    const m = setup({ getSettings: () => new Promise<Settings>((r) => (answer = r)) });
    render(<OptionsPage connector={m.connector} permissions={permissionsStub(true, [])} />);
    expect(screen.getByRole('heading', { name: 'Baton options' })).toBeTruthy();
    for (const h of [
      'Providers',
      'Passphrase',
      'Add an OpenAI-compatible endpoint',
      'Import and export',
      'Delete all data',
    ])
      expect(screen.getByRole('heading', { name: h })).toBeTruthy();
    const providers = screen.getByRole('heading', { name: 'Providers' }).closest('section')!;
    expect(within(providers).getByRole('status').textContent).toBe('Loading…');
    answer(sampleSettings());
    expect(await screen.findByRole('group', { name: 'OpenAI' })).toBeTruthy();
    expect(within(providers).queryByText('Loading…')).toBeNull();
  });

  it('one primary button per provider: Save key before a key is saved, Test key after, none once the key works', async () => {
    const m = setup({ testKey: () => ({ ok: true, message: 'The key works (3 models available).' }) });
    await renderPage(m, permissionsStub(true, []));
    const primaries = (id: string) => [...section(id).querySelectorAll('button.primary')].map((b) => b.textContent);
    expect(primaries('google')).toEqual(['Save key']); // no key yet
    expect(primaries('openai')).toEqual(['Test key']); // key saved, not tested
    fireEvent.input(field('OpenAI', 'API key'), { target: { value: 'sk-new' } });
    expect(primaries('openai')).toEqual(['Save key']); // a new key typed
    fireEvent.input(field('OpenAI', 'API key'), { target: { value: '' } });
    fireEvent.input(field('Google Gemini', 'API key'), { target: { value: FULL_KEY } });
    fireEvent.click(within(section('google')).getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(primaries('google')).toEqual(['Test key']));
    fireEvent.click(within(section('google')).getByRole('button', { name: 'Test key' }));
    await waitFor(() => expect(section('google').textContent).toContain('The key works'));
    expect(primaries('google')).toEqual([]);
  });

  it('a provider’s "The key works" stays while another provider is set up; "Key saved" clears itself', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const m = setup({ testKey: () => ({ ok: true, message: 'The key works (3 models available).' }) });
      await renderPage(m, permissionsStub(true, []));
      fireEvent.click(within(section('openai')).getByRole('button', { name: 'Test key' }));
      await waitFor(() => expect(section('openai').querySelector('p.note')!.textContent).toContain('The key works'));
      fireEvent.input(field('Google Gemini', 'API key'), { target: { value: FULL_KEY } });
      fireEvent.click(within(section('google')).getByRole('button', { name: 'Save key' }));
      await waitFor(() => expect(section('google').querySelector('p.note')!.textContent).toMatch(/^Key saved/));
      await act(async () => void (await vi.advanceTimersByTimeAsync(NOTE_MS + 1000)));
      expect(section('google').querySelector('p.note')!.textContent).toBe('');
      expect(section('openai').querySelector('p.note')!.textContent).toBe('The key works (3 models available).');
    } finally {
      vi.useRealTimers();
    }
  });
});
