// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import { ConversationList } from './conversation-list';

afterEach(cleanup);

const meta = (id: string, title: string, minute: number, extra: Partial<ConversationMeta> = {}): ConversationMeta => {
  const at = new Date(Date.UTC(2026, 0, 1, 8, minute)).toISOString();
  return { id, title, createdAt: at, updatedAt: at, turnCount: 2, preview: `preview of ${title}`, ...extra };
};

const titles = (c: Element) =>
  [...c.querySelectorAll('li[data-conversation-id] .conversation-title')].map((e) => e.textContent);
const current = (c: Element) =>
  [...c.querySelectorAll('button[aria-current="true"]')].map((b) =>
    b.closest('li')?.getAttribute('data-conversation-id'),
  );

// docs/architecture.md#long-conversations-and-speed: the list and its rows are memoised; these check that no memo ever shows a stale row.
describe('ConversationList (memoised rows)', () => {
  it('shows a changed conversation, the moved current mark, a new order and the latest onOpen after re-renders', () => {
    const a = meta('a', 'Alpha', 1);
    const b = meta('b', 'Beta', 2);
    const c = meta('c', 'Gamma', 3);
    const opened: string[] = [];
    const { container, rerender } = render(
      <ConversationList conversations={[a, b, c]} currentId="a" onOpen={(id) => opened.push(`first:${id}`)} />,
    );
    expect(titles(container)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(current(container)).toEqual(['a']);

    // Same list, a new callback (the panel passes a new arrow on every render): the new one is called.
    rerender(<ConversationList conversations={[a, b, c]} currentId="a" onOpen={(id) => opened.push(`second:${id}`)} />);
    fireEvent.click(container.querySelector('li[data-conversation-id="b"] button')!);
    expect(opened).toEqual(['second:b']);

    // Only the current conversation changes (the same list object).
    const same = [a, b, c];
    rerender(<ConversationList conversations={same} currentId="a" onOpen={() => undefined} />);
    rerender(<ConversationList conversations={same} currentId="c" onOpen={() => undefined} />);
    expect(current(container)).toEqual(['c']);

    // Another conversation opened, one renamed (a new meta object) and touched (moves to the top).
    const b2 = { ...b, title: 'Beta renamed', preview: 'new **words**', updatedAt: meta('x', '', 9).updatedAt };
    rerender(<ConversationList conversations={[a, b2, c]} currentId="b" onOpen={() => undefined} />);
    expect(titles(container)).toEqual(['Beta renamed', 'Gamma', 'Alpha']);
    expect(current(container)).toEqual(['b']);
    expect(container.querySelector('li[data-conversation-id="b"] .conversation-preview')?.textContent).toBe(
      'new words',
    );

    // Pinned and removed.
    rerender(
      <ConversationList conversations={[{ ...a, pinned: true }, c]} currentId={undefined} onOpen={() => undefined} />,
    );
    expect(titles(container)).toEqual(['Pinned: Alpha', 'Gamma']);
    expect(current(container)).toEqual([]);
  });

  it('filters by the search words and keeps the rows right when the list changes under a query', () => {
    const list = [meta('a', 'Trip to Lisbon', 1), meta('b', 'Budget', 2)];
    const { container, rerender } = render(
      <ConversationList conversations={list} currentId={undefined} onOpen={() => undefined} />,
    );
    fireEvent.input(container.querySelector('input[type="search"]')!, { target: { value: 'lisbon' } });
    expect(titles(container)).toEqual(['Trip to Lisbon']);
    rerender(
      <ConversationList
        conversations={[...list, meta('c', 'Lisbon again', 5)]}
        currentId={undefined}
        onOpen={() => undefined}
      />,
    );
    expect(titles(container)).toEqual(['Lisbon again', 'Trip to Lisbon']);
  });
});
