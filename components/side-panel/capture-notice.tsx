/**
 * What the side panel says about a conversation captured from a chat page (docs/architecture.md#the-background-by-feature): that the
 * page showed only part of it, when the reader detected that (`turns[0].meta.capture.partial`,
 * set by lib/capture/to-turns.ts), and that the page's images were not sent.
 */
import type { Turn } from '../../lib/transcript/schema';

interface CaptureStampView {
  partial?: unknown;
  partialReason?: unknown;
}

/** The notes for a captured conversation, or nothing for any other. */
export function CaptureNotice({ turns }: { turns: readonly Turn[] }) {
  const stamp = turns[0]?.meta?.capture as CaptureStampView | undefined;
  if (!stamp || typeof stamp !== 'object') return null;
  const images = turns.some((t) => t.blocks.some((b) => b.type === 'text' && typeof b.meta?.pageImage === 'string'));
  if (stamp.partial !== true && !images) return null;
  return (
    <div class="capture-notice" role="note">
      {stamp.partial === true ? (
        <p class="hint">
          The page showed only part of this conversation.
          {typeof stamp.partialReason === 'string' && stamp.partialReason ? ` ${stamp.partialReason}` : ''}
        </p>
      ) : null}
      {images ? <p class="hint">Images from the page are kept as references and are not sent to the model.</p> : null}
    </div>
  );
}
