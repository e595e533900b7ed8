// @vitest-environment happy-dom
/**
 * The side panel renders streamed deltas by appending (docs/architecture.md#streaming-to-the-side-panel):
 * a block built by `applyTextDelta` is shown by appending only the new chunks (`MarkdownStream.append`,
 * never reading the whole text), and the result is the same DOM as rendering the whole text.
 */
import '../testing/happy-dom-compat';
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackgroundEvent } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { applyTextDelta } from '../../lib/ui/turns';
import { MarkdownStream } from './markdown-stream';
import { MarkdownView } from './markdown-view';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const TEXT =
  '# Title\n\nSome *prose* with `code`.\n\n- one\n- two\n\n```ts\nconst x = 1;\n```\n\nA [link](https://example.com) and more text.\n\n> quoted\n\nEnd.';

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe('MarkdownView with streamed deltas', () => {
  it('appends only the new chunks, and ends with the DOM of a whole render', () => {
    const update = vi.spyOn(MarkdownStream.prototype, 'update');
    const append = vi.spyOn(MarkdownStream.prototype, 'append');
    let turns: Turn[] = [{ id: 'a', role: 'assistant', status: 'streaming', blocks: [{ type: 'text', text: '' }] }];
    const block = () => turns[0]!.blocks[0] as { type: 'text'; text: string };
    const { container, rerender } = render(<MarkdownView text="" streaming source={block()} />);
    const parts = chunks(TEXT, 7);
    let at = 0;
    let seq = 0;
    for (const [i, text] of parts.entries()) {
      const d: BackgroundEvent = {
        type: 'textDelta',
        conversationId: 'c',
        turnId: 'a',
        index: 0,
        kind: 'text',
        at,
        seq: ++seq,
        text,
      };
      turns = applyTextDelta(turns, d);
      at += text.length;
      // Two deltas between renders now and then (state updates batched before a paint).
      if (i % 5 === 3) continue;
      rerender(<MarkdownView text={block().text} streaming source={block()} />);
    }
    rerender(<MarkdownView text={block().text} streaming source={block()} />);
    // One whole read for the first block (it had no append log yet), appends afterwards.
    expect(update.mock.calls.length).toBe(2);
    expect(append.mock.calls.map((c) => c[0]).join('')).toBe(TEXT.slice(parts[0]!.length));
    rerender(<MarkdownView text={TEXT} streaming={false} source={{ type: 'text', text: TEXT }} />);
    const streamed = container.innerHTML;

    cleanup();
    const whole = render(<MarkdownView text={TEXT} />);
    expect(streamed).toBe(whole.container.innerHTML);
  });

  it('falls back to a whole render when the block is not a continuation of what it showed', () => {
    const update = vi.spyOn(MarkdownStream.prototype, 'update');
    const { container, rerender } = render(<MarkdownView text="Hello" streaming source={{}} />);
    rerender(<MarkdownView text="Goodbye" streaming source={{}} />);
    expect(update).toHaveBeenCalledTimes(2);
    expect(container.textContent?.trim()).toBe('Goodbye');
  });
});
