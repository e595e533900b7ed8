// @vitest-environment happy-dom
/**
 * *Search conversations* in full text (docs/side-panel.md#search): the matches in messages under
 * the titles, their excerpts and accessible names, and the jump to a matched turn — older pages
 * loaded, another branch's version selected first.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { SearchHit } from '../../lib/messaging/search-protocol';
import type { Turn } from '../../lib/transcript/schema';
import { mockConnector, sampleSettings } from '../testing/mock-connector';
import { SidePanel } from './side-panel';

const T0 = '2026-01-01T10:00:00.000Z';
const meta = (id: string, title: string): ConversationMeta => ({
  id,
  title,
  createdAt: T0,
  updatedAt: T0,
  turnCount: 2,
  preview: '',
});
const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (id: string, text: string): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
  status: 'complete',
  blocks: [{ type: 'text', text }],
});
const LIST = [meta('c1', 'Trip to Zürich'), meta('c2', 'Cooking')];
const HIT: SearchHit = {
  conversationId: 'c2',
  title: 'Cooking',
  turnId: 'a1',
  role: 'assistant',
  snippet: [{ text: 'Add the ' }, { text: 'saffron', mark: true }, { text: ' last.' }],
};

afterEach(() => cleanup());

/** The panel over a mock background whose c2 shows `a1b` until version `a1` is selected. */
function setup() {
  let selected = 'a1b';
  const m = mockConnector({
    getSettings: () => sampleSettings(),
    listConversations: () => LIST,
    listModels: () => [],
    getModelInfo: () => ({ vision: true, pdf: true, contextWindow: 400_000, known: true }),
    // The background's answer depends on the query: only "saffron…" matches.
    searchConversations: ({ query }) => ('saffron'.startsWith(query.toLowerCase()) ? [HIT] : []),
    getConversation: ({ id }) => ({
      meta: LIST.find((c) => c.id === id)!,
      turns:
        id === 'c2'
          ? [user('u1', 'Risotto?'), answer(selected, selected === 'a1' ? 'Add the saffron last.' : 'Stir.')]
          : [],
      busy: false,
    }),
    selectVersion: ({ turnId }) => ((selected = turnId), LIST[1]!),
  });
  render(<SidePanel connector={m.connector} openOptions={() => undefined} />);
  return m;
}

describe('Search conversations, full text', () => {
  it('shows matches in messages with the excerpt, named for assistive technology', async () => {
    const m = setup();
    const box = await screen.findByRole('searchbox', { name: 'Search conversations' });
    fireEvent.input(box, { target: { value: 'saff' } });
    const region = await screen.findByRole('region', { name: 'Matches in messages' });
    const hit = await within(region).findByRole('button', { name: /Cooking.*Answer: Add the saffron last\./ });
    expect(hit.querySelector('mark')?.textContent).toBe('saffron');
    expect(m.callsOf('searchConversations')).toEqual([{ query: 'saff' }]);
    // Titles still filter at once; a query that matches nothing says so in both places.
    fireEvent.input(box, { target: { value: 'zzz' } });
    expect(await within(region).findByText('No message matches “zzz”.')).toBeTruthy();
    expect(screen.getByText('No title matches “zzz”.')).toBeTruthy();
    // One character is left to the title filter.
    fireEvent.input(box, { target: { value: 'z' } });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Matches in messages' })).toBeNull());
  });

  it('jumps to the matched turn, selecting its version when it is on another branch', async () => {
    const m = setup();
    fireEvent.input(await screen.findByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'saffron' },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Cooking/ }));
    await waitFor(() => expect(m.callsOf('selectVersion')).toEqual([{ conversationId: 'c2', turnId: 'a1' }]));
    const turn = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-turn-id="a1"]');
      expect(el?.hasAttribute('data-search-target')).toBe(true);
      return el!;
    });
    expect(turn.textContent).toContain('Add the saffron last.');
    expect(document.activeElement).toBe(turn);
  });
});
