import { useLayoutEffect, useRef } from 'preact/hooks';
import { copyText } from '../../lib/ui/clipboard';
import { appendLogOf, type AppendLog } from '../../lib/ui/turns';
import { IMAGE_SCHEMES, openInNewTab } from '../../lib/ui/safe-url';
import { enhanceBlock } from './enhance';
import { MarkdownStream } from './markdown-stream';
import './markdown.css';

export interface MarkdownViewProps {
  /** Markdown written by a model (untrusted: rendered through the R1–R3 pipeline). */
  text: string;
  /** More text may still arrive (the last block stays open). */
  streaming?: boolean;
  /**
   * The block `text` is from: when the side panel built it from streamed deltas (`applyTextDelta`),
   * only the chunks appended since the last render are read (docs/architecture.md#streaming-to-the-side-panel).
   */
  source?: object;
}

/** Handles clicks on image placeholders (open in a new tab, R3) and code Copy buttons. */
function onClick(e: MouseEvent): void {
  const target = e.target instanceof Element ? e.target : null;
  const image = target?.closest('[data-md-open]');
  if (image) {
    e.preventDefault();
    openInNewTab(image.getAttribute('data-md-open') ?? '', IMAGE_SCHEMES);
    return;
  }
  const copy = target?.closest('[data-md-copy]');
  if (copy) {
    const code = copy.closest('.md-code')?.querySelector('pre')?.textContent ?? '';
    void copyText(code).then((ok) => {
      copy.textContent = ok ? 'Copied' : 'Copy failed';
      setTimeout(() => (copy.textContent = 'Copy'), 1500);
    });
  }
}

/**
 * Model markdown, rendered safely and incrementally (`markdown-stream.ts`). Preact owns only the
 * container; its children are managed by {@link MarkdownStream}, so a settled block's nodes are
 * kept across chunks.
 */
export function MarkdownView({ text, streaming = false, source }: MarkdownViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  const stream = useRef<MarkdownStream | undefined>(undefined);
  const shown = useRef<AppendLog | undefined>(undefined);
  useLayoutEffect(() => {
    if (!ref.current) return;
    const s = (stream.current ??= new MarkdownStream(ref.current, enhanceBlock));
    const log = source ? appendLogOf(source) : undefined;
    const prev = shown.current;
    // Same log, further on: append just the new chunks (never reading the whole text, O(chunk)).
    if (streaming && log && prev && log.log === prev.log && log.end >= prev.end)
      for (let i = prev.end; i < log.end; i++) s.append(log.log[i]!);
    else s.update(text, !streaming);
    shown.current = log && { log: log.log, end: log.end };
  }, [text, streaming, source]);
  return <div ref={ref} class="block-text markdown" onClick={onClick} />;
}
