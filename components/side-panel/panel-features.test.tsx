// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, ModelCapabilities } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { mockConnector, sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { conversationAction } from '../testing/open-conversation';
import { SidePanel } from './side-panel';

const T0 = '2026-01-01T10:00:00.000Z';
const meta = (id: string, over: Partial<ConversationMeta> = {}): ConversationMeta => ({
  id,
  title: `Chat ${id}`,
  createdAt: T0,
  updatedAt: T0,
  turnCount: 0,
  preview: '',
  ...over,
});
const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (id: string, text: string, over: Partial<Turn> = {}): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
  status: 'complete',
  blocks: text ? [{ type: 'text', text }] : [],
  ...over,
});
const VISION: ModelCapabilities = { vision: true, pdf: true, contextWindow: 400_000, known: true };

let clipboard: string[] = [];
beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: async (t: string) => void clipboard.push(t) },
    configurable: true,
  });
});
afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('data-theme');
  localStorage.clear();
});

function setup(
  extra: MockHandlers = {},
  convs: ConversationMeta[] = [],
  caps: ModelCapabilities = VISION,
): MockConnector {
  return mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => convs,
    listModels: () => [],
    getModelInfo: () => caps,
    ...extra,
  });
}

async function renderPanel(m: MockConnector) {
  render(<SidePanel connector={m.connector} openOptions={() => undefined} />);
  await screen.findByLabelText('Provider');
}

/** Renders the panel with conversation c1 open, holding `turns`. */
async function openWith(turns: Turn[], extra: MockHandlers = {}, list: ConversationMeta[] = [meta('c1')]) {
  const m = setup(
    { getConversation: ({ id }) => ({ meta: list.find((c) => c.id === id)!, turns, busy: false }), ...extra },
    list,
  );
  await renderPanel(m);
  fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
  await waitFor(() => expect(document.querySelector('.chat-title')).not.toBeNull());
  if (turns.length) await screen.findAllByRole('article');
  return m;
}

const png = (name = 'chart.png') => new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], name, { type: 'image/png' });
const pdf = () => new File([new TextEncoder().encode('%PDF-1.7')], 'spec.pdf', { type: 'application/pdf' });
const turnEl = (id: string) => document.querySelector(`[data-turn-id="${id}"]`) as HTMLElement;

describe('composer attachments', () => {
  it('attaches a picked image and a pasted PDF, and sends them as base64 with the text', async () => {
    const m: MockConnector = setup({
      createConversation: () => meta('c1'),
      sendMessage: ({ conversationId, text }) => (
        m.emit({ type: 'turnUpdated', conversationId, turn: user('u1', text) }),
        { userTurnId: 'u1' }
      ),
    });
    await renderPanel(m);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [png()], configurable: true });
    fireEvent.change(input);
    await screen.findByText('chart.png');
    fireEvent.paste(screen.getByLabelText('Message'), { clipboardData: { files: [pdf()] } });
    await screen.findByText('spec.pdf');
    expect([...document.querySelectorAll('.attachments li')].map((li) => li.textContent)).toEqual([
      'chart.pngimage, 7 B×',
      'spec.pdfPDF, 8 B×',
    ]);

    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'What is this?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]).toEqual({
      conversationId: 'c1',
      text: 'What is this?',
      target: { providerId: 'openai', model: 'gpt-5' },
      attachments: [
        { kind: 'image', mediaType: 'image/png', data: 'iVBORwECAw==', name: 'chart.png' },
        { kind: 'document', mediaType: 'application/pdf', data: 'JVBERi0xLjc=', name: 'spec.pdf' },
      ],
    });
    await waitFor(() => expect(document.querySelector('.attachments')).toBeNull());
  });

  it('a dropped image can be removed again; an image alone can be sent', async () => {
    const m = setup({
      createConversation: () => meta('c1'),
      sendMessage: () => ({ userTurnId: 'u1' }),
      getConversation: () => ({ meta: meta('c1'), turns: [], busy: false }),
    });
    await renderPanel(m);
    const composer = document.querySelector('.composer')!;
    fireEvent.drop(composer, { dataTransfer: { files: [png('a.png'), png('b.png')], types: ['Files'] } });
    await screen.findByText('b.png');
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.png' }));
    expect(screen.queryByText('a.png')).toBeNull();
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]!.attachments!.map((a) => a.name)).toEqual(['b.png']);
  });

  it('says when the chosen model does not accept images, and blocks the send until that changes', async () => {
    const m = setup({}, [], { vision: false, pdf: false, contextWindow: 16_000, known: true });
    await renderPanel(m);
    await screen.findByText('This model takes text only.');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [png()], configurable: true });
    fireEvent.change(input);
    const note = await screen.findByText(
      'gpt-5 does not accept images. Remove the attachment, or choose a model that accepts images.',
    );
    expect(note.getAttribute('role')).toBe('alert');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove chart.png' }));
    expect(screen.queryByText(/does not accept images/)).toBeNull();
  });

  it('warns only, for a model the registry does not know', async () => {
    const m = setup({}, [], { vision: false, pdf: false, contextWindow: 8_000, known: false });
    await renderPanel(m);
    fireEvent.paste(screen.getByLabelText('Message'), { clipboardData: { files: [png()] } });
    await screen.findByText('Baton does not know whether gpt-5 accepts images; the provider may refuse the message.');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('refuses other file types with a reason', async () => {
    const m = setup();
    await renderPanel(m);
    fireEvent.paste(screen.getByLabelText('Message'), {
      clipboardData: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'notes.txt cannot be attached: only images (PNG, JPEG, GIF, WebP) and PDF documents can.',
    );
    expect(document.querySelector('.attachments')).toBeNull();
  });
});

describe('message actions', () => {
  it('copies one message, and the whole conversation, as Markdown', async () => {
    await openWith([user('u1', 'Question?'), answer('a1', 'An **answer** with `code`.')], {
      getInstructions: () => ({ instructions: '' }),
    });
    fireEvent.click(within(turnEl('a1')).getByRole('button', { name: 'Copy message' }));
    await within(turnEl('a1')).findByText('Copied');
    expect(clipboard).toEqual(['An **answer** with `code`.']);
    fireEvent.click(conversationAction('Copy conversation as Markdown'));
    await waitFor(() => expect(clipboard).toHaveLength(2));
    expect(clipboard[1]).toBe(
      '# Chat c1\n\n## You\n\nQuestion?\n\n## Assistant (OpenAI · gpt-5)\n\nAn **answer** with `code`.\n',
    );
  });

  it('copying the conversation puts its instructions (the system prompt), labelled, at the top', async () => {
    const m = await openWith([user('u1', 'Question?'), answer('a1', 'Answer.')], {
      getInstructions: () => ({ instructions: 'Answer in French.\nBe brief.' }),
    });
    fireEvent.click(conversationAction('Copy conversation as Markdown'));
    await waitFor(() => expect(clipboard).toHaveLength(1));
    expect(clipboard[0]).toBe(
      '# Chat c1\n\n**Instructions** (system prompt)\n\n```text\nAnswer in French.\nBe brief.\n```\n\n' +
        '## You\n\nQuestion?\n\n## Assistant (OpenAI · gpt-5)\n\nAnswer.\n',
    );
    expect(m.callsOf('getInstructions')).toContainEqual({ id: 'c1' });
  });

  it('regenerates the last answer: regenerateTurn with the current target, the old answer removed', async () => {
    const m = await openWith([user('u1', 'q'), answer('a1', 'first try')], { regenerateTurn: () => null });
    expect(within(turnEl('u1')).queryByRole('button', { name: 'Regenerate answer' })).toBeNull();
    fireEvent.click(within(turnEl('a1')).getByRole('button', { name: 'Regenerate answer' }));
    await waitFor(() =>
      expect(m.callsOf('regenerateTurn')).toEqual([
        { conversationId: 'c1', target: { providerId: 'openai', model: 'gpt-5' } },
      ]),
    );
    await waitFor(() => expect(turnEl('a1')).toBeNull());
    expect(turnEl('u1')).not.toBeNull();
  });

  it('edits and resends any user message (docs/transcript.md#versions-and-branches); the shown path continues from the edit', async () => {
    const m = await openWith([user('u1', 'old question'), answer('a1', 'x'), user('u2', 'second'), answer('a2', 'y')], {
      editAndResend: () => ({ userTurnId: 'u3' }),
    });
    expect(within(turnEl('u1')).getByRole('button', { name: 'Edit and resend' })).toBeTruthy();
    fireEvent.click(within(turnEl('u2')).getByRole('button', { name: 'Edit and resend' }));
    const box = screen.getByLabelText('Edit message') as HTMLTextAreaElement;
    expect(box.value).toBe('second');
    fireEvent.input(box, { target: { value: 'second, better' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and resend' }));
    await waitFor(() =>
      expect(m.callsOf('editAndResend')).toEqual([
        {
          conversationId: 'c1',
          turnId: 'u2',
          text: 'second, better',
          target: { providerId: 'openai', model: 'gpt-5' },
        },
      ]),
    );
    await waitFor(() => expect(turnEl('u2')).toBeNull());
    expect([turnEl('u1'), turnEl('a1')].every(Boolean)).toBe(true);
    expect(turnEl('a2')).toBeNull();
  });

  it('Escape cancels an edit without sending', async () => {
    const m = await openWith([user('u1', 'q'), answer('a1', 'x')], { editAndResend: () => ({ userTurnId: 'u3' }) });
    fireEvent.click(within(turnEl('u1')).getByRole('button', { name: 'Edit and resend' }));
    fireEvent.keyDown(screen.getByLabelText('Edit message'), { key: 'Escape' });
    expect(screen.queryByLabelText('Edit message')).toBeNull();
    expect(turnEl('u1').textContent).toContain('q');
    expect(m.callsOf('editAndResend')).toEqual([]);
  });
});

describe('conversation list', () => {
  const list = [
    meta('c1', { title: 'Trip to Zürich', updatedAt: '2026-01-03T00:00:00Z' }),
    meta('c2', { title: 'Tax questions', updatedAt: '2026-01-02T00:00:00Z' }),
    meta('c3', { title: 'Old notes', updatedAt: '2026-01-01T00:00:00Z', pinned: true }),
  ];
  const order = () =>
    [...document.querySelectorAll('[data-conversation-id]')].map((e) => e.getAttribute('data-conversation-id'));

  it('shows pinned first, then newest first, and searches titles ignoring case and accents', async () => {
    await openWith([], {}, list);
    expect(order()).toEqual(['c3', 'c1', 'c2']);
    expect(document.querySelector('[data-conversation-id="c3"]')!.textContent).toContain('Pinned: Old notes');
    fireEvent.input(screen.getByLabelText('Search conversations'), { target: { value: 'zurich' } });
    expect(order()).toEqual(['c1']);
    fireEvent.input(screen.getByLabelText('Search conversations'), { target: { value: 'nothing like it' } });
    expect(order()).toEqual([]);
    expect(screen.getByText('No title matches “nothing like it”.')).toBeTruthy();
  });

  it('renames and pins the open conversation', async () => {
    const m = await openWith(
      [],
      {
        renameConversation: ({ id, title }) => ({ ...list.find((c) => c.id === id)!, title }),
        pinConversation: ({ id, pinned }) => ({ ...list.find((c) => c.id === id)!, pinned }),
      },
      list,
    );
    fireEvent.click(conversationAction('Rename conversation'));
    const title = screen.getByLabelText('Conversation title') as HTMLInputElement;
    expect(title.value).toBe('Trip to Zürich');
    fireEvent.input(title, { target: { value: '  Zürich   in May ' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    await waitFor(() => expect(m.callsOf('renameConversation')).toEqual([{ id: 'c1', title: 'Zürich in May' }]));
    await waitFor(() => expect(document.querySelector('.chat-title')!.textContent).toBe('Zürich in May'));
    fireEvent.click(conversationAction('Pin conversation'));
    await waitFor(() => expect(order()).toEqual(['c1', 'c3', 'c2']));
    expect(m.callsOf('pinConversation')).toEqual([{ id: 'c1', pinned: true }]);
    expect(conversationAction('Unpin conversation')).toBeTruthy();
  });

  it('deletes with undo: hidden at once, restored by Undo, deleted for real only when the window ends', async () => {
    const m = await openWith([user('u1', 'q')], { deleteConversation: () => null }, list);
    fireEvent.click(conversationAction('Delete conversation'));
    expect(order()).toEqual(['c3', 'c2']);
    expect(turnEl('u1')).toBeNull();
    expect(screen.getByText('Deleted “Trip to Zürich”.').closest('[role="status"]')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(order()).toEqual(['c3', 'c1', 'c2']);
    expect(m.callsOf('deleteConversation')).toEqual([]);

    fireEvent.click(within(document.querySelector('[data-conversation-id="c2"]')!).getByRole('button'));
    await waitFor(() => expect(document.querySelector('.chat-title')?.textContent).toBe('Tax questions'));
    fireEvent.click(conversationAction('Delete conversation'));
    act(() => void dispatchEvent(new Event('pagehide')));
    await waitFor(() => expect(m.callsOf('deleteConversation')).toEqual([{ id: 'c2' }]));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});

describe('keyboard', () => {
  it('New chat puts the focus in the message box; Escape there stops an answer in flight', async () => {
    const m = await openWith([user('u1', 'q'), answer('a1', 'so far', { status: 'streaming' })], {
      stopGeneration: () => null,
    });
    act(() => m.emit({ type: 'sendStateChanged', conversationId: 'c1', state: 'streaming' }));
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Escape' });
    await waitFor(() => expect(m.callsOf('stopGeneration')).toEqual([{ conversationId: 'c1' }]));
    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Message'));
  });
});

describe('themes', () => {
  it('the toggle cycles system, light and dark, and remembers the choice', async () => {
    await renderPanel(setup());
    const toggle = screen.getByRole('button', { name: 'Theme: Auto' });
    fireEvent.click(toggle);
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    fireEvent.click(screen.getByRole('button', { name: 'Theme: Light' }));
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem('baton.theme')).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: 'Theme: Dark' }));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem('baton.theme')).toBeNull();
  });
});

describe('streaming in the chat view', () => {
  it('keeps the DOM node of a settled markdown block while later chunks arrive', async () => {
    const m = await openWith([user('u1', 'q'), answer('a1', '', { status: 'streaming' })]);
    act(() =>
      m.emit({
        type: 'turnUpdated',
        conversationId: 'c1',
        turn: answer('a1', '# Plan\n\nFirst point.\n\nSec', { status: 'streaming' }),
      }),
    );
    const heading = turnEl('a1').querySelector('h1')!;
    const first = turnEl('a1').querySelector('p')!;
    let at = '# Plan\n\nFirst point.\n\nSec'.length;
    let seq = 1;
    for (const chunk of ['ond point', ' with **bold**.\n\n', '```js\nlet x = 1;\n```']) {
      const delta = {
        type: 'textDelta',
        conversationId: 'c1',
        turnId: 'a1',
        index: 0,
        kind: 'text',
        at,
        seq: ++seq,
      } as const;
      act(() => m.emit({ ...delta, text: chunk }));
      at += chunk.length;
    }
    act(() =>
      m.emit({
        type: 'turnUpdated',
        conversationId: 'c1',
        turn: answer('a1', '# Plan\n\nFirst point.\n\nSecond point with **bold**.\n\n```js\nlet x = 1;\n```'),
      }),
    );
    expect(turnEl('a1').querySelector('h1')).toBe(heading);
    expect(turnEl('a1').querySelector('p')).toBe(first);
    expect(turnEl('a1').querySelector('strong')!.textContent).toBe('bold');
    expect(turnEl('a1').querySelector('.md-code code')!.textContent).toBe('let x = 1;');
  });
});
