// @vitest-environment happy-dom
/**
 * The side panel's shell (docs/side-panel.md): the chat follows its end (and stops when the person scrolls
 * up while an answer streams, offering "Jump to latest"); the conversation list is a drawer
 * toggled by *Conversations*; the conversation's actions are one menu; the disclosure line
 * expands into a tabbed sheet; the model is a searchable combobox that remembers per provider.
 */
import '../testing/happy-dom-compat';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, ModelOption, ProviderStatus, Settings } from '../../lib/messaging/protocol';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { Turn } from '../../lib/transcript/schema';
import { LAST_MODEL_KEY, MODEL_LIST_KEY } from '../../lib/ui/model-memory';
import { mockConnector, sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { conversationMeta as meta, T0, conversationAction } from '../testing/open-conversation';
import { samplePreview } from '../testing/preview-fixture';
import { SidePanel } from './side-panel';

const user = (id: string, text: string): Turn => ({
  id,
  role: 'user',
  createdAt: T0,
  blocks: [{ type: 'text', text }],
});
const answer = (id: string, text: string, status: Turn['status'] = 'complete'): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
  status,
  blocks: text ? [{ type: 'text', text }] : [],
});

/** A panel `width` px wide, as `matchMedia` reports it. */
function panelWidth(width: number): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (q: string) => {
      const min = Number(/min-width:\s*(\d+)px/.exec(q)?.[1] ?? 0);
      return {
        matches: width >= min,
        media: q,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      };
    },
  });
}

beforeEach(() => panelWidth(1024));
afterEach(cleanup);

const GPT: ModelOption[] = [
  {
    id: 'gpt-5.5',
    name: 'GPT-5.5',
    contextWindow: 1_050_000,
    vision: true,
    thinking: true,
    price: { input: 5, output: 30 },
    listed: true,
  },
  {
    id: 'gpt-4.1-mini',
    name: 'GPT-4.1 mini',
    contextWindow: 1_047_576,
    vision: true,
    price: { input: 0.4, output: 1.6 },
    deprecated: true,
    listed: true,
  },
  { id: 'ft:my-tune', listed: true },
  { id: 'gpt-6.2-sol', name: 'GPT-6.2 Sol', contextWindow: 1_050_000, thinking: true, listed: false },
];
const CLAUDE: ModelOption[] = [
  {
    id: 'claude-sonnet-4-6',
    name: 'Claude Sonnet 4.6',
    contextWindow: 1_000_000,
    vision: true,
    thinking: true,
    listed: true,
  },
  { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', contextWindow: 200_000, vision: true, listed: true },
];

function settings(): Settings {
  const s = sampleSettings();
  // Built-in providers carry the registry's recommended model as their default (docs/side-panel.md).
  return {
    ...s,
    providers: s.providers.map((p): ProviderStatus =>
      p.id === 'anthropic' ? { ...p, defaultModel: 'claude-sonnet-4-6' } : p,
    ),
  };
}

function setup(extra: MockHandlers = {}, convs: ConversationMeta[] = []): MockConnector {
  return mockConnector({
    getSettings: () => settings(),
    listConversations: () => convs,
    listModels: ({ providerId }) => (providerId === 'openai' ? GPT : CLAUDE),
    ...extra,
  });
}

async function renderPanel(m: MockConnector): Promise<void> {
  render(<SidePanel connector={m.connector} />);
  await screen.findByLabelText('Provider');
}

const modelBox = () => screen.getByRole('combobox', { name: 'Model' }) as HTMLInputElement;
const providerBox = () => screen.getByRole('combobox', { name: 'Provider' }) as HTMLSelectElement;
const optionIds = () =>
  within(screen.getByRole('listbox'))
    .queryAllByRole('option')
    .map((o) => o.getAttribute('data-model-id'));

describe('the chat follows the person', () => {
  /** Gives main.chat a 300 px box whose content is 120 px per turn plus 1 px per character of the last one. */
  function layout(): HTMLElement {
    const chat = document.querySelector('main.chat') as HTMLElement;
    let top = 0;
    const height = () => {
      const turns = [...document.querySelectorAll('[data-turn-id]')];
      return turns.length * 120 + (turns.at(-1)?.textContent?.length ?? 0);
    };
    Object.defineProperty(chat, 'clientHeight', { configurable: true, get: () => 300 });
    Object.defineProperty(chat, 'scrollHeight', { configurable: true, get: height });
    Object.defineProperty(chat, 'scrollTop', {
      configurable: true,
      get: () => top,
      set: (v: number) => void (top = Math.max(0, Math.min(v, height() - 300))),
    });
    return chat;
  }
  const atEnd = (chat: HTMLElement) => chat.scrollTop === chat.scrollHeight - chat.clientHeight;
  const scrollTo = (chat: HTMLElement, top: number) => {
    chat.scrollTop = top;
    fireEvent.scroll(chat);
  };
  const jump = () => screen.queryByRole('button', { name: /Jump to latest/ });

  it('opens a conversation at its newest turn, follows a send and its streaming answer; scrolling up stops the follow and offers Jump to latest', async () => {
    const turns = Array.from({ length: 20 }, (_, i) =>
      i % 2 ? answer(`t${i}`, `answer ${i}`) : user(`t${i}`, `question ${i}`),
    );
    const c1 = meta('c1', { turnCount: 20 });
    const m: MockConnector = setup(
      {
        getConversation: () => ({ meta: c1, turns, busy: false }),
        sendMessage: ({ text }) => {
          m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: user('u-new', text) });
          return { userTurnId: 'u-new' };
        },
      },
      [c1],
    );
    await renderPanel(m);
    const chat = layout();
    fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
    await waitFor(() => expect(document.querySelectorAll('[data-turn-id]')).toHaveLength(20));
    expect(chat.scrollTop).toBeGreaterThan(0);
    expect(atEnd(chat)).toBe(true);
    expect(jump()).toBeNull();

    // Send: the new message comes into view, then the answer as it streams.
    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'One more question' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(document.querySelector('[data-turn-id="u-new"]')).not.toBeNull());
    expect(atEnd(chat)).toBe(true);
    let text = 'Streaming';
    act(() => m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('a-new', text, 'streaming') }));
    for (let i = 0; i < 5; i++) {
      text += ' more words of the answer';
      act(() => m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('a-new', text, 'streaming') }));
      expect(atEnd(chat)).toBe(true);
    }

    // The person scrolls up while it streams: the view stays where they put it.
    scrollTo(chat, chat.scrollTop - 400);
    const readingAt = chat.scrollTop;
    await waitFor(() => expect(jump()).not.toBeNull());
    for (let i = 0; i < 3; i++) {
      text += ' and still more words';
      act(() => m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('a-new', text, 'streaming') }));
    }
    expect(chat.scrollTop).toBe(readingAt);
    expect(atEnd(chat)).toBe(false);

    // Jump to latest: at the end again, and following.
    fireEvent.click(jump()!);
    expect(atEnd(chat)).toBe(true);
    await waitFor(() => expect(jump()).toBeNull());
    act(() =>
      m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('a-new', `${text} to the end.`, 'complete') }),
    );
    expect(atEnd(chat)).toBe(true);

    // Scrolling back down to the end by hand follows again too.
    scrollTo(chat, 0);
    await waitFor(() => expect(jump()).not.toBeNull());
    scrollTo(chat, chat.scrollHeight);
    await waitFor(() => expect(jump()).toBeNull());
  });
});

describe('layout: the conversation drawer and the actions menu', () => {
  const list = [meta('c1', { title: 'Trip to Zürich' }), meta('c2', { title: 'Tax questions' })];
  const drawer = () => document.getElementById('baton-conversations')!;

  it('narrow (360 px): the list is closed, Conversations opens it as a drawer with a search box, and opening a conversation closes it', async () => {
    panelWidth(360);
    const m = setup(
      {
        getConversation: ({ id }) => ({
          meta: list.find((c) => c.id === id)!,
          turns: [user('u1', 'hello')],
          busy: false,
        }),
      },
      list,
    );
    await renderPanel(m);
    const toggle = screen.getByRole('button', { name: 'Conversations' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(drawer().hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(drawer().hidden).toBe(false);
    // The drawer takes the focus: its search box.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search conversations' })),
    );
    fireEvent.click(within(document.querySelector('[data-conversation-id="c2"]')!).getByRole('button'));
    await waitFor(() => expect(document.querySelector('.chat-title')?.textContent).toBe('Tax questions'));
    expect(drawer().hidden).toBe(true);
    // Escape closes an open drawer too.
    fireEvent.click(toggle);
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search conversations' }), { key: 'Escape' });
    expect(drawer().hidden).toBe(true);
  });

  it('wide (800 px): the list is open beside the chat and stays open when a conversation opens', async () => {
    panelWidth(800);
    const m = setup(
      {
        getConversation: ({ id }) => ({
          meta: list.find((c) => c.id === id)!,
          turns: [user('u1', 'hello')],
          busy: false,
        }),
      },
      list,
    );
    await renderPanel(m);
    expect(screen.getByRole('button', { name: 'Conversations' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
    await waitFor(() => expect(document.querySelector('.chat-title')?.textContent).toBe('Trip to Zürich'));
    expect(drawer().hidden).toBe(false);
  });

  it('the conversation actions are one menu: its items keep their names, Escape closes it, Export saves through the background', async () => {
    const m = setup(
      {
        getConversation: () => ({ meta: list[0]!, turns: [user('u1', 'hello')], busy: false }),
        exportConversation: () => ({
          filename: 'x.md',
          mimeType: 'text/markdown',
          content: '# x\n',
          count: 1,
          failed: [],
        }),
      },
      list,
    );
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
    await screen.findByText('Trip to Zürich', { selector: '.chat-title' });
    const button = screen.getByRole('button', { name: 'Conversation actions' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    const menu = screen.getByRole('menu', { name: 'Conversation actions' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.getAttribute('aria-label') ?? i.textContent),
    ).toEqual([
      'Export as Baton JSON',
      'Export as Markdown',
      'Copy conversation as Markdown',
      'Rename conversation',
      'Pin conversation',
      'Delete conversation',
    ]);
    expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(conversationAction('Export as Markdown'));
    await waitFor(() => expect(m.callsOf('exportConversation')).toEqual([{ id: 'c1', format: 'markdown' }]));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('the disclosure sheet', () => {
  it('has the tabs Turns, Request, Who has seen this and Policy; shows the one clicked; Escape and Close fold it', async () => {
    const c1 = meta('c1');
    const p: DisclosurePreview = samplePreview();
    const m = setup(
      {
        getConversation: () => ({
          meta: c1,
          turns: [user('u1', 'First question'), answer('a1', 'First answer')],
          busy: false,
        }),
        previewSend: () => p,
        listDisclosures: () => ({ entries: [], seenBy: [], turns: {} }),
        getDisclosurePolicy: () => ({ global: {} }),
      },
      [c1],
    );
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Next' } });
    const line = await screen.findByRole('button', { name: /of \d+ turns/ });
    fireEvent.click(line);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Turns', 'Request', 'Who has seen this', 'Policy']);
    expect(screen.getByRole('tab', { name: 'Turns' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Who has seen this' }));
    expect(await screen.findByText('No provider has received this conversation yet.')).toBeTruthy();
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
      screen.getByRole('tab', { name: 'Who has seen this' }).id,
    );
    // Arrow keys move between tabs (the ARIA tabs pattern).
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Who has seen this' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Policy' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('form', { name: 'This conversation’s policy' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('tabpanel'), { key: 'Escape' });
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(line.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(line);
    fireEvent.click(screen.getByRole('button', { name: 'Close the details' }));
    expect(screen.queryByRole('tablist')).toBeNull();
    // The message box is still there, untouched.
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Next');
  });
});

describe('the model picker', () => {
  it("lists the provider's models with names and badges, filters as you type, chooses with the keyboard, and still takes any id", async () => {
    const m = setup();
    await renderPanel(m);
    expect(modelBox().value).toBe('gpt-5');
    fireEvent.click(modelBox());
    await waitFor(() => expect(optionIds()).toEqual(['gpt-5.5', 'gpt-4.1-mini', 'ft:my-tune', 'gpt-6.2-sol']));
    expect(modelBox().getAttribute('aria-expanded')).toBe('true');
    const first = screen.getByRole('option', { name: /GPT-5\.5/ });
    expect([...first.querySelectorAll('.badge')].map((b) => b.textContent)).toEqual([
      '1.1M',
      '$5/$30',
      'Vision',
      'Thinking',
    ]);
    expect(screen.getByRole('option', { name: /GPT-4\.1 mini/ }).textContent).toContain('Deprecated');
    expect(screen.getByText('Listed by OpenAI')).toBeTruthy();
    expect(screen.getByText('Other OpenAI models Baton knows')).toBeTruthy();
    expect(screen.getByText(/OpenAI’s list, fetched just now/)).toBeTruthy();

    fireEvent.input(modelBox(), { target: { value: 'mini' } });
    expect(optionIds()).toEqual(['gpt-4.1-mini']);
    fireEvent.keyDown(modelBox(), { key: 'Enter' });
    expect(modelBox().value).toBe('gpt-4.1-mini');
    expect(modelBox().getAttribute('aria-expanded')).toBe('false');

    fireEvent.keyDown(modelBox(), { key: 'ArrowDown' });
    expect(optionIds()).toHaveLength(4);
    fireEvent.keyDown(modelBox(), { key: 'ArrowDown' });
    fireEvent.keyDown(modelBox(), { key: 'Enter' });
    expect(modelBox().value).toBe('ft:my-tune');

    // An id neither list knows is kept as typed.
    fireEvent.input(modelBox(), { target: { value: 'gpt-7-preview' } });
    expect(optionIds()).toEqual([]);
    expect(screen.getByText(/No model matches “gpt-7-preview”/)).toBeTruthy();
    fireEvent.keyDown(modelBox(), { key: 'Escape' });
    expect(modelBox().value).toBe('gpt-7-preview');

    fireEvent.click(modelBox());
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(m.callsOf('listModels')).toContainEqual({ providerId: 'openai', refresh: true }));
  });

  it('switching provider selects its remembered or recommended model, never an empty field; each provider keeps its last model, across openings; a new chat starts on the default target', async () => {
    const m = setup();
    await renderPanel(m);
    fireEvent.change(providerBox(), { target: { value: 'anthropic' } });
    expect(modelBox().value).toBe('claude-sonnet-4-6'); // the provider's recommended model
    fireEvent.click(modelBox());
    await waitFor(() => expect(optionIds()).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5']));
    fireEvent.click(screen.getByRole('option', { name: /Claude Haiku 4\.5/ }));
    expect(modelBox().value).toBe('claude-haiku-4-5');
    fireEvent.change(providerBox(), { target: { value: 'openai' } });
    expect(modelBox().value).toBe('gpt-5');
    fireEvent.change(providerBox(), { target: { value: 'anthropic' } });
    expect(modelBox().value).toBe('claude-haiku-4-5');

    // A new chat starts on the default target.
    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    expect(providerBox().value).toBe('openai');
    expect(modelBox().value).toBe('gpt-5');

    // Another opening of the panel: the choice and the list (with its age) are remembered.
    expect(JSON.parse(localStorage.getItem(LAST_MODEL_KEY)!)).toEqual({ anthropic: 'claude-haiku-4-5' });
    const cached = JSON.parse(localStorage.getItem(`${MODEL_LIST_KEY}anthropic`)!) as {
      at: number;
      models: ModelOption[];
    };
    expect(cached.models.map((x) => x.id)).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5']);
    localStorage.setItem(
      `${MODEL_LIST_KEY}anthropic`,
      JSON.stringify({ ...cached, at: Date.now() - 3 * 60 * 60 * 1000 }),
    );
    cleanup();
    const again = setup();
    await renderPanel(again);
    fireEvent.change(providerBox(), { target: { value: 'anthropic' } });
    expect(modelBox().value).toBe('claude-haiku-4-5');
    fireEvent.click(modelBox());
    expect(optionIds()).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5']);
    expect(screen.getByText(/Anthropic’s list, fetched 3 h ago/)).toBeTruthy();
    // Both lists came from the cache (younger than a day): nothing was fetched again.
    expect(again.callsOf('listModels')).toEqual([]);
  });

  it('a provider with no default and no list yet gets its first listed model when the list arrives', async () => {
    let answerList: (l: ModelOption[]) => void = () => undefined;
    const m = setup({
      getSettings: () => ({
        providers: [
          ...settings().providers,
          { id: 'custom-x', name: 'Local', api: 'openai-chat', hasKey: true, flavor: 'generic' },
        ],
        defaultTarget: { providerId: 'openai', model: 'gpt-5' },
      }),
      listModels: ({ providerId }) =>
        providerId === 'custom-x' ? new Promise<ModelOption[]>((r) => (answerList = r)) : GPT,
    });
    await renderPanel(m);
    fireEvent.change(providerBox(), { target: { value: 'custom-x' } });
    expect(providerBox().value).toBe('custom-x');
    expect(modelBox().value).toBe('');
    await act(async () => answerList([{ id: 'llama-4', listed: true }]));
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(modelBox().value).toBe('llama-4');
  });

  it('a list arriving while the person has the empty Model field in hand never fills it: what they type stays as typed', async () => {
    const answers: ((l: ModelOption[]) => void)[] = [];
    const m = setup({
      getSettings: () => ({
        providers: [
          ...settings().providers,
          { id: 'custom-x', name: 'Local', api: 'openai-chat', hasKey: true, flavor: 'generic' },
          { id: 'custom-y', name: 'Other', api: 'openai-chat', hasKey: true, flavor: 'generic' },
        ],
        defaultTarget: { providerId: 'openai', model: 'gpt-5' },
      }),
      listModels: ({ providerId }) =>
        providerId.startsWith('custom-') ? new Promise<ModelOption[]>((r) => answers.push(r)) : GPT,
    });
    await renderPanel(m);
    const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

    // Focused and typing when the list lands: the typed id stays, nothing is put in front of it.
    fireEvent.change(providerBox(), { target: { value: 'custom-x' } });
    expect(modelBox().value).toBe('');
    fireEvent.focus(modelBox());
    fireEvent.input(modelBox(), { target: { value: 'gpt-5.5' } });
    await act(async () => answers[0]!([{ id: 'gpt-4o', listed: true }]));
    await settle();
    expect(modelBox().value).toBe('gpt-5.5');

    // Focused and left empty before the list lands: not filled either (the person had it in hand).
    fireEvent.blur(modelBox());
    fireEvent.change(providerBox(), { target: { value: 'custom-y' } });
    expect(modelBox().value).toBe('');
    fireEvent.focus(modelBox());
    fireEvent.blur(modelBox());
    await act(async () => answers[1]!([{ id: 'llama-4', listed: true }]));
    await settle();
    expect(modelBox().value).toBe('');
  });
});

describe('thinking', () => {
  const thinkingSwitch = () => screen.queryByRole('button', { name: 'Thinking' });

  it('the Thinking switch asks the model to reason: pressed, it goes with the preview and the send, and stays across a provider switch', async () => {
    const c1 = meta('c1', { turnCount: 2 });
    const m: MockConnector = setup(
      {
        getConversation: () => ({ meta: c1, turns: [user('t0', 'Hi'), answer('t1', 'Hello')], busy: false }),
        sendMessage: () => ({ userTurnId: 'u-new' }),
      },
      [c1],
    );
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
    await waitFor(() => expect(document.querySelectorAll('[data-turn-id]')).toHaveLength(2));
    fireEvent.input(modelBox(), { target: { value: 'gpt-5.5' } });
    expect(thinkingSwitch()!.getAttribute('aria-pressed')).toBe('false');
    // A visible word beside the icon, which is also its name (not an icon alone).
    expect(thinkingSwitch()!.textContent).toBe('Thinking');
    expect(thinkingSwitch()!.querySelector('.visually-hidden')).toBeNull();
    fireEvent.click(thinkingSwitch()!);
    expect(thinkingSwitch()!.getAttribute('aria-pressed')).toBe('true');

    fireEvent.change(providerBox(), { target: { value: 'anthropic' } });
    expect(modelBox().value).toBe('claude-sonnet-4-6');
    expect(thinkingSwitch()!.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(m.callsOf('previewSend').at(-1)).toMatchObject({
        target: { providerId: 'anthropic', model: 'claude-sonnet-4-6', thinking: true },
      }),
    );

    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Think about it' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]).toMatchObject({
      target: { providerId: 'anthropic', model: 'claude-sonnet-4-6', thinking: true },
    });

    // Off again: the next request says so.
    fireEvent.click(thinkingSwitch()!);
    expect(thinkingSwitch()!.getAttribute('aria-pressed')).toBe('false');
  });

  it('is not offered for a model the lists know cannot think', async () => {
    const m = setup({
      listModels: ({ providerId }) =>
        providerId === 'openai' ? [...GPT, { id: 'gpt-4o-mini', name: 'GPT-4o mini', thinking: false }] : CLAUDE,
    });
    await renderPanel(m);
    fireEvent.click(modelBox());
    await waitFor(() => expect(optionIds()).toContain('gpt-4o-mini'));
    fireEvent.input(modelBox(), { target: { value: 'gpt-4o-mini' } });
    expect(thinkingSwitch()).toBeNull();
    fireEvent.input(modelBox(), { target: { value: 'gpt-5.5' } });
    expect(thinkingSwitch()).not.toBeNull();
  });
});

describe('the Gemini API choice', () => {
  const GEMINI: ModelOption[] = [
    {
      id: 'gemini-3.8-flash',
      name: 'Gemini 3.8 Flash',
      listed: true,
      apis: ['gemini-generate-content', 'gemini-interactions'],
    },
    { id: 'gemini-4.2-flash', listed: true, apis: ['gemini-interactions', 'gemini-generate-content'] },
    { id: 'gemini-2.0-flash', listed: true },
  ];
  const apiBox = () => screen.queryByRole('combobox', { name: 'Gemini API' }) as HTMLSelectElement | null;

  it('offers both APIs for a model both serve (its default preselected), goes with the preview and the send, and is not offered without a choice', async () => {
    const c1 = meta('c1', { turnCount: 2 });
    const m = setup(
      {
        getSettings: () => ({
          providers: [
            ...settings().providers.filter((p) => p.id !== 'google'),
            { id: 'google', name: 'Google Gemini', api: 'gemini-generate-content', hasKey: true },
          ],
          defaultTarget: { providerId: 'google', model: 'gemini-3.8-flash' },
        }),
        listModels: ({ providerId }) => (providerId === 'google' ? GEMINI : GPT),
        getConversation: () => ({ meta: c1, turns: [user('t0', 'Hi'), answer('t1', 'Hello')], busy: false }),
        sendMessage: () => ({ userTurnId: 'u-new' }),
      },
      [c1],
    );
    await renderPanel(m);
    fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
    await waitFor(() => expect(document.querySelectorAll('[data-turn-id]')).toHaveLength(2));
    await waitFor(() => expect(apiBox()).not.toBeNull());
    expect(apiBox()!.value).toBe('gemini-generate-content');
    expect([...apiBox()!.options].map((o) => o.textContent)).toEqual([
      'generateContent API (default)',
      'Interactions API',
    ]);
    fireEvent.change(apiBox()!, { target: { value: 'gemini-interactions' } });
    expect(apiBox()!.value).toBe('gemini-interactions');
    await waitFor(() =>
      expect(m.callsOf('previewSend').at(-1)).toMatchObject({
        target: { providerId: 'google', model: 'gemini-3.8-flash', api: 'gemini-interactions' },
      }),
    );
    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]).toMatchObject({
      target: { providerId: 'google', model: 'gemini-3.8-flash', api: 'gemini-interactions' },
    });

    // A new model whose default is Interactions: the default is named as such.
    fireEvent.input(modelBox(), { target: { value: 'gemini-4.2-flash' } });
    expect(apiBox()!.value).toBe('gemini-interactions');
    expect(apiBox()!.options[0]!.textContent).toBe('Interactions API (default)');
    // A model served by one API only: no choice.
    fireEvent.input(modelBox(), { target: { value: 'gemini-2.0-flash' } });
    expect(apiBox()).toBeNull();
  });
});
