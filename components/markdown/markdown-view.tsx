import { useLayoutEffect, useRef } from 'preact/hooks';
import { copyText } from '../../lib/ui/clipboard';
import { IMAGE_SCHEMES, openInNewTab } from '../../lib/ui/safe-url';
import { enhanceBlock } from './enhance';
import { MarkdownStream } from './markdown-stream';
import './markdown.css';

export interface MarkdownViewProps {
  /** Markdown written by a model (untrusted: rendered through the R1–R3 pipeline). */
  text: string;
  /** More text may still arrive (the last block stays open). */
  streaming?: boolean;
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
export function MarkdownView({ text, streaming = false }: MarkdownViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  const stream = useRef<MarkdownStream | undefined>(undefined);
  useLayoutEffect(() => {
    if (!ref.current) return;
    stream.current ??= new MarkdownStream(ref.current, enhanceBlock);
    stream.current.update(text, !streaming);
  }, [text, streaming]);
  return <div ref={ref} class="block-text markdown" onClick={onClick} />;
}
