// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, ConversationView } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { mockConnector, sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { SidePanel } from './side-panel';
import { conversationMeta as meta, T0 } from '../testing/open-conversation';

afterEach(cleanup);

const user = (id: string, text: string): Turn => ({
  id,
  role: 'user',
  createdAt: T0,
  blocks: [{ type: 'text', text }],
});
const assistant = (id: string, text: string, status: Turn['status'], provider = 'openai', model = 'gpt-5'): Turn => ({
  id,
  role: 'assistant',
  origin: { provider, api: provider === 'openai' ? 'openai-responses' : 'anthropic-messages', model },
  status,
  blocks: text ? [{ type: 'text', text }] : [],
});

function setup(extra: MockHandlers = {}, convs: ConversationMeta[] = []): MockConnector {
  return mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => convs,
    listModels: ({ providerId }) =>
      providerId === 'openai' ? [{ id: 'gpt-5' }, { id: 'gpt-5-mini' }] : [{ id: 'claude-sonnet-4-5' }],
    ...extra,
  });
}

/** A mock whose sendMessage stores the user turn as the background does (event first, then the reply). */
function withSend(m: () => MockConnector): MockHandlers {
  return {
    createConversation: () => meta('c1'),
    sendMessage: ({ conversationId, text }) => {
      m().emit({ type: 'turnUpdated', conversationId, turn: user('u1', text) });
      return { userTurnId: 'u1' };
    },
  };
}

const phase = () => document.querySelector('.phase')!.textContent;
const message = () => screen.getByLabelText('Message') as HTMLTextAreaElement;
const turnEl = (id: string) => document.querySelector(`[data-turn-id="${id}"]`) as HTMLElement | null;

async function renderPanel(m: MockConnector, openOptions?: () => void) {
  render(<SidePanel connector={m.connector} openOptions={openOptions} />);
  await screen.findByLabelText('Provider');
}

describe('sending', () => {
  it('shows the user turn and the answer streaming in, then clears the draft', async () => {
    const m: MockConnector = setup(withSend(() => m));
    await renderPanel(m);
    fireEvent.input(message(), { target: { value: 'Hello there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(turnEl('u1')).not.toBeNull());
    expect(m.callsOf('createConversation')).toEqual([{ target: { providerId: 'openai', model: 'gpt-5' } }]);
    expect(m.callsOf('sendMessage')).toEqual([
      { conversationId: 'c1', text: 'Hello there', target: { providerId: 'openai', model: 'gpt-5' } },
    ]);
    expect(turnEl('u1')!.dataset).toMatchObject({ role: 'user', status: 'complete' });
    expect(turnEl('u1')!.textContent).toContain('Hello there');
    expect(message().value).toBe('');

    act(() => m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: assistant('a1', '', 'streaming') }));
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    act(() => m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: assistant('a1', 'Hi', 'streaming') }));
    expect(turnEl('a1')!.textContent).toContain('Hi');
    expect(turnEl('a1')!.dataset.status).toBe('streaming');
    act(() =>
      m.emit({
        type: 'textDelta',
        conversationId: 'c1',
        turnId: 'a1',
        index: 0,
        kind: 'text',
        at: 2,
        seq: 1,
        text: ', friend',
      }),
    );
    expect(turnEl('a1')!.textContent).toContain('Hi, friend');
    expect(phase()).toBe('Writing…');

    act(() =>
      m.emit({
        type: 'turnUpdated',
        conversationId: 'c1',
        turn: assistant('a1', 'Hi, friend. How can I help?', 'complete'),
      }),
    );
    act(() => m.emit({ type: 'sendStateChanged', conversationId: 'c1', state: 'idle' }));
    expect(turnEl('a1')!.dataset).toMatchObject({ role: 'assistant', status: 'complete' });
    expect(turnEl('a1')!.textContent).toContain('Hi, friend. How can I help?');
    expect(turnEl('a1')!.textContent).toContain('GPT-5 · OpenAI');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    // the new conversation is listed
    expect(document.querySelector('[data-conversation-id="c1"]')).not.toBeNull();
  });

  it('Enter sends, Shift+Enter does not', async () => {
    const m: MockConnector = setup(withSend(() => m));
    await renderPanel(m);
    fireEvent.input(message(), { target: { value: 'line one' } });
    const shift = fireEvent.keyDown(message(), { key: 'Enter', shiftKey: true });
    expect(shift).toBe(true); // not prevented: the textarea inserts the new line
    expect(m.callsOf('sendMessage')).toEqual([]);
    const plain = fireEvent.keyDown(message(), { key: 'Enter' });
    expect(plain).toBe(false);
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]!.text).toBe('line one');
  });

  it('a send refused before anything is stored keeps the draft and explains', async () => {
    const m = setup({
      createConversation: () => meta('c1'),
      sendMessage: () => {
        throw Object.assign(new Error('No API key is saved for openai.'), { code: 'no_key' });
      },
    });
    const opened: number[] = [];
    await renderPanel(m, () => opened.push(1));
    fireEvent.input(message(), { target: { value: 'keep me' } });
    fireEvent.keyDown(message(), { key: 'Enter' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('There is no API key for this provider');
    expect(message().value).toBe('keep me');
    fireEvent.click(within(alert).getByRole('button', { name: 'Open options' }));
    expect(opened).toEqual([1]);
  });

  it('Stop calls stopGeneration for the open conversation', async () => {
    const m = setup(
      {
        getConversation: () => ({
          meta: meta('c9'),
          turns: [user('u1', 'q'), assistant('a1', 'partial', 'streaming')],
          busy: true,
        }),
        stopGeneration: () => null,
      },
      [meta('c9')],
    );
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c9"]')!).getByRole('button'));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(m.callsOf('stopGeneration')).toEqual([{ conversationId: 'c9' }]));
  });
});

describe('retry and recovery (L2)', () => {
  const interrupted = (): ConversationView => ({
    meta: meta('c2', { lastTarget: { providerId: 'anthropic', model: 'claude-sonnet-4-5' } }),
    turns: [user('u1', 'q'), assistant('a1', 'half an ans', 'interrupted', 'anthropic', 'claude-sonnet-4-5')],
    busy: false,
  });

  it('offers Retry for an interrupted last turn and calls retryTurn with the conversation target', async () => {
    const m = setup({ getConversation: interrupted, retryTurn: () => null }, [meta('c2')]);
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c2"]')!).getByRole('button'));
    expect(await screen.findByText('Response interrupted.')).toBeTruthy();
    expect(turnEl('a1')!.dataset.status).toBe('interrupted');
    expect((screen.getByLabelText('Provider') as HTMLSelectElement).value).toBe('anthropic');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(m.callsOf('retryTurn')).toEqual([
        { conversationId: 'c2', target: { providerId: 'anthropic', model: 'claude-sonnet-4-5' } },
      ]),
    );
    // the background removed the failed answer; so does the view, and no user turn was added
    await waitFor(() => expect(turnEl('a1')).toBeNull());
    expect(m.callsOf('sendMessage')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('offers Retry for a stopped answer too', async () => {
    const m = setup(
      { getConversation: () => ({ ...interrupted(), turns: [user('u1', 'q'), assistant('a1', 'part', 'stopped')] }) },
      [meta('c2')],
    );
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c2"]')!).getByRole('button'));
    expect(await screen.findByText('Response interrupted: you stopped it.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('after a reconnect, reloads the open conversation: no spinner left, Retry offered', async () => {
    let view: ConversationView = {
      meta: meta('c3'),
      turns: [user('u1', 'q'), assistant('a1', 'so far', 'streaming')],
      busy: true,
    };
    const m = setup({ getConversation: () => view }, [meta('c3')]);
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c3"]')!).getByRole('button'));
    await screen.findByRole('button', { name: 'Stop' });
    expect(phase()).not.toBe('');
    // the worker restarted: the turn is interrupted now and nothing is in flight
    view = { ...view, turns: [user('u1', 'q'), assistant('a1', 'so far', 'interrupted')], busy: false };
    act(() => m.reconnect());
    expect(await screen.findByText('Response interrupted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(phase()).toBe('');
    expect(m.callsOf('getConversation')).toEqual([
      { id: 'c3', limit: 50 },
      { id: 'c3', limit: 50 },
    ]);
    expect(m.callsOf('getSettings')).toHaveLength(2);
  });
});

describe('provider and model picker', () => {
  it('lists providers with a key, fills the model list once per provider, and sends to the chosen target', async () => {
    const m: MockConnector = setup(withSend(() => m));
    await renderPanel(m);
    const select = screen.getByLabelText('Provider') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['OpenAI', 'Anthropic']);
    expect(select.value).toBe('openai');
    // docs/side-panel.md: the model is a combobox whose listbox holds the provider's models.
    const modelIds = () =>
      [...document.querySelectorAll('[role="listbox"] [role="option"]')].map((o) => o.getAttribute('data-model-id'));
    fireEvent.click(screen.getByRole('combobox', { name: 'Model' }));
    await waitFor(() => expect(modelIds()).toEqual(['gpt-5', 'gpt-5-mini']));

    fireEvent.change(select, { target: { value: 'anthropic' } });
    const modelInput = screen.getByRole('combobox', { name: 'Model' }) as HTMLInputElement;
    fireEvent.click(modelInput);
    await waitFor(() => expect(modelIds()).toEqual(['claude-sonnet-4-5']));
    fireEvent.input(modelInput, { target: { value: 'my-own-model' } }); // free text is allowed
    fireEvent.change(select, { target: { value: 'openai' } });
    fireEvent.change(select, { target: { value: 'anthropic' } });
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('my-own-model');
    fireEvent.focus(screen.getByLabelText('Model'));
    expect(m.callsOf('listModels')).toEqual([{ providerId: 'openai' }, { providerId: 'anthropic' }]);

    fireEvent.input(message(), { target: { value: 'hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]!.target).toEqual({ providerId: 'anthropic', model: 'my-own-model' });
  });

  it('without any configured provider, shows one call to action that opens the options page (docs/side-panel.md)', async () => {
    const m = setup({
      getSettings: () => ({ providers: sampleSettings().providers.map((p) => ({ ...p, hasKey: false })) }),
    });
    let opened = 0;
    render(<SidePanel connector={m.connector} openOptions={() => opened++} />);
    expect(await screen.findByRole('heading', { name: 'Add your first API key' })).toBeTruthy();
    // One call to action, not "Write a message below to start." above a picker notice.
    expect(screen.queryByText('Write a message below to start.')).toBeNull();
    expect(screen.queryByText(/No provider is set up yet/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Provider' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add an API key' }));
    expect(opened).toBe(1);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('without a provider but with imported conversations, the list stays (they can be read without a key) beside the one call to action', async () => {
    const m = setup(
      { getSettings: () => ({ providers: sampleSettings().providers.map((p) => ({ ...p, hasKey: false })) }) },
      [meta('imported')],
    );
    render(<SidePanel connector={m.connector} openOptions={() => undefined} />);
    await waitFor(() => expect(document.querySelector('[data-conversation-id="imported"]')).not.toBeNull());
    expect(screen.getByRole('heading', { name: 'Add your first API key' })).toBeTruthy();
  });

  it('lists conversations newest first', async () => {
    const m = setup({}, [
      meta('old', { updatedAt: '2026-01-01T00:00:00Z' }),
      meta('new', { updatedAt: '2026-03-01T00:00:00Z' }),
      meta('mid', { updatedAt: '2026-02-01T00:00:00Z' }),
    ]);
    await renderPanel(m);
    expect(
      [...document.querySelectorAll('[data-conversation-id]')].map((e) => e.getAttribute('data-conversation-id')),
    ).toEqual(['new', 'mid', 'old']);
  });
});
