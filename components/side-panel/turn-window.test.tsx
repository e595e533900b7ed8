// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, RequestInput } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { joinTurns, TURN_WINDOW, windowLimit } from '../../lib/ui/turn-window';
import { mockConnector, sampleSettings, type MockConnector } from '../testing/mock-connector';
import { conversationAction } from '../testing/open-conversation';
import { SidePanel } from './side-panel';

const T0 = '2026-01-01T10:00:00.000Z';
const META: ConversationMeta = { id: 'c1', title: 'Long', createdAt: T0, updatedAt: T0, turnCount: 120, preview: '' };
const turn = (i: number): Turn => ({
  id: `t${i}`,
  role: i % 2 ? 'assistant' : 'user',
  createdAt: T0,
  blocks: [{ type: 'text', text: `text ${i}` }],
});
const ALL = Array.from({ length: 120 }, (_, i) => turn(i));
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `t${from + i}`);

/** getConversation as the background answers it (lib/background/conversations/window.ts), over `all`. */
function windowed(all: readonly Turn[]) {
  return ({ limit, before }: RequestInput<'getConversation'>) => {
    if (limit === undefined && before === undefined)
      return { meta: META, turns: [...all], busy: false, hasEarlier: false };
    const end = before === undefined ? all.length : all.findIndex((t) => t.id === before);
    const start = Math.max(0, end - (limit ?? 50));
    return {
      meta: META,
      turns: all.slice(start, end),
      busy: false,
      hasEarlier: start > 0,
      ...(start > 0 ? { first: all[0]! } : {}),
    };
  };
}

let clipboard: string[] = [];
beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: async (t: string) => void clipboard.push(t) },
    configurable: true,
  });
});
afterEach(cleanup);

const shownIds = () => [...document.querySelectorAll('[data-turn-id]')].map((e) => e.getAttribute('data-turn-id'));
const earlierButton = () => screen.queryByRole('button', { name: 'Show earlier turns' });

async function openLong(all: readonly Turn[] = ALL): Promise<MockConnector> {
  const m = mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => [META],
    listModels: () => [],
    getConversation: windowed(all),
    getInstructions: () => ({ instructions: '' }),
  });
  render(<SidePanel connector={m.connector} />);
  await screen.findByLabelText('Provider');
  fireEvent.click(within(document.querySelector('[data-conversation-id="c1"]')!).getByRole('button'));
  await waitFor(() => expect(document.querySelector('[data-turn-id="t119"]')).not.toBeNull());
  return m;
}

describe('a long conversation in the side panel (docs/architecture.md#long-conversations-and-speed)', () => {
  it('opens with only the newest 50 turns and offers the earlier ones', async () => {
    const m = await openLong();
    expect(shownIds()).toEqual(range(70, 120));
    expect(m.callsOf('getConversation')).toEqual([{ id: 'c1', limit: 50 }]);
    expect(earlierButton()).not.toBeNull();
  });

  it('"Show earlier turns" puts the previous 50 in front, keeps the place in view, and disappears at the start', async () => {
    const m = await openLong();
    const chat = document.querySelector('main.chat') as HTMLElement;
    chat.style.overflowY = 'auto';
    // 10 px per turn shown; the reader is 40 px down from the top.
    Object.defineProperty(chat, 'scrollHeight', {
      configurable: true,
      get: () => document.querySelectorAll('[data-turn-id]').length * 10,
    });
    chat.scrollTop = 40;
    fireEvent.click(earlierButton()!);
    await waitFor(() => expect(shownIds()).toEqual(range(20, 120)));
    // 500 px were added above: the same turn stays in view.
    expect(chat.scrollTop).toBe(540);
    fireEvent.click(earlierButton()!);
    await waitFor(() => expect(shownIds()).toEqual(range(0, 120)));
    expect(earlierButton()).toBeNull();
    expect(m.callsOf('getConversation')).toEqual([
      { id: 'c1', limit: 50 },
      { id: 'c1', limit: 50, before: 't70' },
      { id: 'c1', limit: 50, before: 't20' },
    ]);
  });

  it('copy as Markdown copies the whole conversation, not the window', async () => {
    const m = await openLong();
    fireEvent.click(conversationAction('Copy conversation as Markdown'));
    await waitFor(() => expect(clipboard).toHaveLength(1));
    const sections = clipboard[0]!.split('\n## ').slice(1);
    expect(sections.map((s) => s.split('\n\n')[1]!.trim())).toEqual(ALL.map((_, i) => `text ${i}`));
    expect(m.callsOf('getConversation').at(-1)).toEqual({ id: 'c1' });
    expect(shownIds()).toEqual(range(70, 120));
  });
});

describe('a long captured conversation (docs/architecture.md#the-background-by-feature notice, docs/architecture.md#long-conversations-and-speed window)', () => {
  it('still says the page showed only part of it: the stamp is on the first turn, outside the window', async () => {
    const stamped: Turn = {
      ...ALL[0]!,
      meta: { capture: { partial: true, partialReason: 'Kept the newest 2,000 messages.' } },
    };
    await openLong([stamped, ...ALL.slice(1)]);
    expect(document.querySelector('[data-turn-id="t0"]')).toBeNull();
    expect(document.querySelector('.capture-notice')?.textContent).toBe(
      'The page showed only part of this conversation. Kept the newest 2,000 messages.',
    );
  });
});

describe('turn window helpers', () => {
  it('windowLimit keeps the loaded pages when the same conversation reloads', () => {
    expect([
      windowLimit(undefined, 0, 'c1'),
      windowLimit('c2', 400, 'c1'),
      windowLimit('c1', 10, 'c1'),
      windowLimit('c1', 130, 'c1'),
    ]).toEqual([TURN_WINDOW, TURN_WINDOW, TURN_WINDOW, 130]);
  });

  it('joinTurns puts older turns in front once, the shown copy winning', () => {
    const streamed: Turn = { ...turn(3), blocks: [{ type: 'text', text: 'streamed further' }] };
    expect(joinTurns([turn(0), turn(1), turn(2), turn(3)], [turn(2), streamed])).toEqual([
      turn(0),
      turn(1),
      turn(2),
      streamed,
    ]);
    expect(joinTurns([], [turn(1)])).toEqual([turn(1)]);
  });
});
