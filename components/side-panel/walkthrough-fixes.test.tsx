// @vitest-environment happy-dom
/** docs/side-panel.md, item 8: what the new-user walkthrough found in the side panel, one test each. */
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../lib/transcript/schema';
import { ChatView } from './chat-view';

afterEach(cleanup);

describe('"Continue selection in…" (docs/side-panel.md, item 8)', () => {
  const selection: Turn = {
    id: 'u1',
    role: 'user',
    createdAt: '2026-12-01T00:00:00Z',
    blocks: [{ type: 'text', text: 'Selected text:\n```\nhello\n```' }],
    meta: { capturedSelection: true },
  };

  it('a captured selection that was never sent does not say "No answer was received"; it offers to send it', () => {
    let sent = 0;
    const { container } = render(
      <ChatView turns={[selection]} busy={false} providers={[]} canRetry onRetry={() => sent++} />,
    );
    expect(container.textContent).not.toContain('No answer was received');
    expect(container.textContent).toContain('nothing has been sent yet');
    fireEvent.click(screen.getByRole('button', { name: 'Send selection' }));
    expect(sent).toBe(1);
  });

  it('a message Baton sent that got no answer still says so', () => {
    const sent: Turn = { ...selection, meta: undefined };
    delete (sent as { meta?: unknown }).meta;
    const { container } = render(
      <ChatView turns={[sent]} busy={false} providers={[]} canRetry onRetry={() => undefined} />,
    );
    expect(container.textContent).toContain('No answer was received.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe("the side panel's import error (docs/side-panel.md, item 8)", () => {
  it('opens below the header, offers the kind picker its error asks for, and imports the same file again as the chosen kind', async () => {
    const { ImportEntry } = await import('./transfer-actions');
    const { MockRequestError, mockConnector } = await import('../testing/mock-connector');
    const { waitFor } = await import('@testing-library/preact');
    let n = 0;
    const m = mockConnector({
      importFile: (p) => {
        if (n++ === 0)
          throw new MockRequestError({
            code: 'bad_request',
            message: 'could not tell what kind of file this is: choose its kind and import it again',
          });
        return { kind: p.kind!, file: p.name, imported: [{ id: 'pi:1', title: 'Refactor', turns: 3 }], skipped: [] };
      },
    });
    const got: string[] = [];
    const file = new File(['{"type":"session"}\n'], 'run.jsonl');
    const header = document.createElement('header');
    document.body.append(header);
    render(
      <ImportEntry
        connector={m.connector}
        onImported={(s) => got.push(s.imported[0]!.id)}
        pick={() => Promise.resolve(file)}
      />,
      { container: header },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Import…' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('choose its kind');
    // The outcome is its own panel (position: fixed in base.css), not a span stretching the header row.
    expect(alert.closest('.import-feedback')).not.toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind of file' }), { target: { value: 'pi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import again' }));
    await waitFor(() => expect(got).toEqual(['pi:1']));
    expect(m.callsOf('importFile').map((c) => [c.name, c.kind])).toEqual([
      ['run.jsonl', undefined],
      ['run.jsonl', 'pi'],
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(document.querySelector('.import-feedback')).toBeNull();
    header.remove();
  });
});

describe('rule ids in the disclosure lines (docs/side-panel.md, item 8)', () => {
  it('a block line names the reason without "(X4, A-E1)"', async () => {
    const { blockLine } = await import('./disclosure-format');
    expect(
      blockLine({ index: 0, type: 'text', fate: 'dropped', detail: 'empty or whitespace-only text (X4, A-E1)' }),
    ).toBe('text: not sent (empty or whitespace-only text)');
  });
});
