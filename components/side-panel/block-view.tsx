import type { Block } from '../../lib/transcript/schema';
import { MarkdownView } from '../markdown/markdown-view';

/** Safe JSON for display (tool inputs are arbitrary values). */
function pretty(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Approximate size of base64 data, e.g. `34 KB`. */
export function base64Size(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function imageText(b: { mediaType: string; url?: string | undefined; data?: string | undefined }, what: string): string {
  // R3: a remote image is never fetched; its full URL is shown as text instead.
  return b.url ? `[${what}: ${b.url}]` : `[${what} attached: ${b.mediaType}${b.data ? `, ${base64Size(b.data)}` : ''}]`;
}

export interface BlockViewProps {
  block: Block;
  /** Who produced it (`Anthropic · claude-…`), shown on collapsed blocks. */
  from: string | undefined;
  /** Render text as markdown (assistant answers); otherwise text stays literal (what the person typed). */
  markdown?: boolean;
  /** The turn is still streaming (its last text block stays open). */
  streaming?: boolean;
  /** For a tool result: the called tool's name and who called it. */
  call?: { name: string; from?: string | undefined } | undefined;
}

/**
 * One block of a turn. Assistant text is markdown through the R1–R3 pipeline
 * (`components/markdown`); everything else from a model is a JSX text child (rendered as
 * `textContent`, `white-space: pre-wrap`), never HTML. Thinking, tool calls, tool results and
 * provider items are collapsed, labelled with who produced them.
 */
export function BlockView({ block: b, from, markdown = false, streaming = false, call }: BlockViewProps) {
  const by = from ? ` · ${from}` : '';
  switch (b.type) {
    case 'text':
      return markdown ? <MarkdownView text={b.text} streaming={streaming} /> : <div class="block-text">{b.text}</div>;
    case 'thinking':
      return (
        <details class="block-thinking" data-block="thinking">
          <summary>{streaming ? 'Thinking…' : 'Thinking'}{by}</summary>
          <div class="block-text">{b.text || '(the provider did not show this reasoning)'}</div>
        </details>
      );
    case 'redacted_thinking':
      return (
        <details class="block-thinking" data-block="redacted_thinking">
          <summary>Thinking, redacted{by}</summary>
          <div class="block-text">The provider keeps this reasoning encrypted.</div>
        </details>
      );
    case 'tool_call':
      return (
        <details class="block-tool" data-block="tool_call">
          <summary>
            Tool call: {b.name}
            {by}
          </summary>
          <pre class="block-code">{pretty(b.input)}</pre>
        </details>
      );
    case 'tool_result': {
      const byCall = call?.from ? ` · called by ${call.from}` : '';
      return (
        <details class="block-tool" data-block="tool_result">
          <summary>
            Tool result{b.isError ? ' (error)' : ''}{call ? `: ${call.name}` : ''} for {b.callId}
            {byCall}
          </summary>
          <div class="block-text">
            {typeof b.content === 'string' ? b.content : b.content.map((c) => (c.type === 'text' ? c.text : imageText(c, 'Image'))).join('\n')}
          </div>
        </details>
      );
    }
    case 'image':
      return <div class="block-placeholder">{imageText(b, 'Image')}</div>;
    case 'document':
      return <div class="block-placeholder">{b.url ? `[Document: ${b.url}]` : `[Document attached: ${b.title ?? b.mediaType}${b.data ? `, ${base64Size(b.data)}` : ''}]`}</div>;
    case 'provider_item': {
      const kind = typeof (b.item as { type?: unknown } | null)?.type === 'string' ? `: ${(b.item as { type: string }).type}` : '';
      return (
        <details class="block-tool" data-block="provider_item">
          <summary>
            Provider item ({b.api}{kind}){by}
          </summary>
          <pre class="block-code">{b.text ?? pretty(b.item)}</pre>
        </details>
      );
    }
    default: {
      const _exhaustive: never = b;
      return _exhaustive;
    }
  }
}
