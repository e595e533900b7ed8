import type { Block } from '../../lib/transcript/schema';
import { MarkdownView } from '../markdown/markdown-view';
import { base64Size, ImageThumb } from './image-view';
import { ToolResultContent } from './tool-group';

/** Safe JSON for display (tool inputs are arbitrary values). */
function pretty(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

export { base64Size };

export interface BlockViewProps {
  block: Block;
  /** Render text as markdown (through the R1–R3 pipeline); otherwise text stays literal. */
  markdown?: boolean;
  /** The turn is still streaming (its last text block stays open). */
  streaming?: boolean;
  /** Whose turn it is, for image names ("Attached image", "Image from the model"). */
  role?: 'user' | 'assistant' | 'tool' | undefined;
  /** For a tool result shown on its own: the called tool's name. */
  call?: { name: string } | undefined;
}

/**
 * One block of a turn. Text is markdown through the R1–R3 pipeline (`components/markdown`), for
 * the person's messages too; everything else from a model is a JSX text child (rendered as
 * `textContent`), never HTML. Images with stored bytes show as thumbnails (never fetched).
 * Thinking and tool calls of a turn are grouped by `turn-view.tsx`; these cases render one alone.
 */
export function BlockView({ block: b, markdown = false, streaming = false, role, call }: BlockViewProps) {
  switch (b.type) {
    case 'text':
      return markdown ? (
        <MarkdownView text={b.text} streaming={streaming} source={b} />
      ) : (
        <div class="block-text">{b.text}</div>
      );
    case 'thinking':
      return (
        <details class="block-thinking" data-block="thinking">
          <summary>{streaming ? 'Thinking…' : 'Thinking'}</summary>
          <div class="block-text">{b.text || '(the provider did not show this reasoning)'}</div>
        </details>
      );
    case 'redacted_thinking':
      return (
        <details class="block-thinking" data-block="redacted_thinking">
          <summary>Thinking, redacted</summary>
          <div class="block-text">The provider keeps this reasoning encrypted.</div>
        </details>
      );
    case 'tool_call':
      return (
        <details class="block-tool" data-block="tool_call">
          <summary>Tool call: {b.name}</summary>
          <pre class="block-code">{pretty(b.input)}</pre>
        </details>
      );
    case 'tool_result':
      return (
        <details class="block-tool" data-block="tool_result">
          <summary>
            {b.isError ? 'Tool error' : 'Tool result'}
            {call ? `: ${call.name}` : ''}
          </summary>
          <ToolResultContent result={b} />
          <p class="tool-id">Call id: {b.callId}</p>
        </details>
      );
    case 'image':
      return <ImageThumb image={b} what={role === 'user' ? 'Attached image' : 'Image'} />;
    case 'document':
      return (
        <div class="block-placeholder block-document">
          {b.url
            ? `[Document: ${b.url}]`
            : `[Document attached: ${b.title ?? b.mediaType}${b.data ? `, ${base64Size(b.data)}` : ''}]`}
        </div>
      );
    case 'provider_item': {
      const kind =
        typeof (b.item as { type?: unknown } | null)?.type === 'string' ? `: ${(b.item as { type: string }).type}` : '';
      return (
        <details class="block-tool" data-block="provider_item">
          <summary>
            Provider item ({b.api}
            {kind})
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
