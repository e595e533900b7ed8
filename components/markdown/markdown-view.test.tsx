// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { render, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';

describe('MarkdownView loads its renderer on demand (docs/side-panel.md, first-load budget)', () => {
  it('shows the text as plain, inert text until the renderer is in, then as rendered Markdown', async () => {
    // A fresh module graph: the renderer is not loaded yet (test/setup.ts preloads it for the others).
    vi.resetModules();
    const { MarkdownView } = await import('./markdown-view');
    const text = '# Title\n\n<img src=x onerror=alert(1)> **bold**';
    const { container } = render(<MarkdownView text={text} />);
    const pending = container.querySelector('.md-pending');
    // Plain text: the raw source, with no element made from it.
    expect(pending?.textContent).toBe(text);
    expect(pending?.children).toHaveLength(0);
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Title'));
    expect(container.querySelector('.md-pending')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('img')).toBeNull();
  });
});
