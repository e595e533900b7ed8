// @vitest-environment happy-dom
/** Issue 14, item 8: what the new-user walkthrough found in the side panel, one test each. */
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../lib/transcript/schema';
import { ChatView } from './chat-view';

afterEach(cleanup);

describe('"Continue selection in…" (issue 14, item 8)', () => {
  const selection: Turn = { id: 'u1', role: 'user', createdAt: '2026-12-01T00:00:00Z', blocks: [{ type: 'text', text: 'Selected text:\n```\nhello\n```' }], meta: { capturedSelection: true } };

  it('a captured selection that was never sent does not say "No answer was received"; it offers to send it', () => {
    let sent = 0;
    const { container } = render(<ChatView turns={[selection]} busy={false} providers={[]} canRetry onRetry={() => sent++} />);
    expect(container.textContent).not.toContain('No answer was received');
    expect(container.textContent).toContain('nothing has been sent yet');
    fireEvent.click(screen.getByRole('button', { name: 'Send selection' }));
    expect(sent).toBe(1);
  });

  it('a message Baton sent that got no answer still says so', () => {
    const sent: Turn = { ...selection, meta: undefined };
    delete (sent as { meta?: unknown }).meta;
    const { container } = render(<ChatView turns={[sent]} busy={false} providers={[]} canRetry onRetry={() => undefined} />);
    expect(container.textContent).toContain('No answer was received.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
