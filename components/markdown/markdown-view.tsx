import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { copyText } from '../../lib/ui/clipboard';
import { appendLogOf, type AppendLog } from '../../lib/ui/turns';
import { IMAGE_SCHEMES, openInNewTab } from '../../lib/ui/safe-url';
import { enhanceBlock, enhanceBlockLater } from './enhance';
import { cancelNear, whenNear } from './near-render';
import type * as MarkdownEngine from './markdown-stream';
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

/**
 * The renderer (`markdown-stream.ts`: marked and DOMPurify, ~26 KB gzip) is loaded with `import()`
 * so it is not part of the side panel's first load (docs/side-panel.md, budget 80 KB gzip). The
 * side panel starts the load at start-up ({@link loadMarkdown}), in parallel with fetching the
 * conversation, so it is normally there before the first turn is shown.
 */
let engine: typeof MarkdownEngine | undefined;
let loading: Promise<void> | undefined;
const waiting = new Set<() => void>();

/**
 * Loads the markdown renderer once (later calls return the same promise). Resolves when it is
 * loaded, or when loading failed (text then stays plain: inert, never HTML).
 */
export function loadMarkdown(): Promise<void> {
  loading ??= import('./markdown-stream').then(
    (m) => {
      engine = m;
      for (const wake of [...waiting]) wake();
      waiting.clear();
    },
    () => undefined,
  );
  return loading;
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
 * container; its children are managed by `MarkdownStream`, so a settled block's nodes are
 * kept across chunks. Until the renderer is loaded the text shows as plain text (a JSX text
 * child, never HTML).
 */
export function MarkdownView({ text, streaming = false, source }: MarkdownViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  const stream = useRef<MarkdownEngine.MarkdownStream | undefined>(undefined);
  const shown = useRef<AppendLog | undefined>(undefined);
  /** Rendering a whole stored text that came near the screen: its blocks are typeset as they come near too (`near-render.ts`). */
  const lazy = useRef(false);
  const [ready, setReady] = useState(engine !== undefined);
  useEffect(() => {
    if (ready) return;
    const wake = () => setReady(true);
    waiting.add(wake);
    void loadMarkdown();
    return () => void waiting.delete(wake);
  }, [ready]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !engine) return;
    const first = stream.current === undefined;
    const s = (stream.current ??= new engine.MarkdownStream(el, (b) =>
      lazy.current ? enhanceBlockLater(b) : enhanceBlock(b),
    ));
    const log = source ? appendLogOf(source) : undefined;
    const show = () => {
      if (el.classList.contains('md-pending')) {
        el.classList.remove('md-pending');
        el.textContent = '';
      }
      const prev = shown.current;
      // Same log, further on: append just the new chunks (never reading the whole text, O(chunk)).
      if (streaming && log && prev && log.log === prev.log && log.end >= prev.end)
        for (let i = prev.end; i < log.end; i++) s.append(log.log[i]!);
      else s.update(text, !streaming);
      shown.current = log && { log: log.log, end: log.end };
    };
    // A whole stored text (a conversation opening, docs/side-panel.md#opening-a-long-conversation):
    // plain until it comes near the screen, then rendered, its code and math typeset as they come near.
    const later = () => {
      lazy.current = true;
      show();
      lazy.current = false;
    };
    if (first && !streaming && whenNear(el, later)) {
      el.textContent = text;
      el.classList.add('md-pending');
      return () => cancelNear(el);
    }
    show();
  }, [text, streaming, source, ready]);
  if (!ready)
    return (
      <div key="plain" class="block-text markdown md-pending">
        {text}
      </div>
    );
  return <div key="md" ref={ref} class="block-text markdown" onClick={onClick} />;
}
