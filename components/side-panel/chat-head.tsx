import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ConversationMeta } from '../../lib/messaging/protocol';

export interface ChatHeadProps {
  meta: ConversationMeta;
  busy: boolean;
  onRename(title: string): Promise<boolean>;
  onPin(pinned: boolean): void;
  onDelete(): void;
  onCopyAll(): Promise<boolean>;
  /** More actions shown first (the export menu, transfer-actions.tsx). */
  extra?: ComponentChildren;
}

/** The open conversation's title and its actions: rename, pin, delete (with undo), copy as Markdown. */
export function ChatHead({ meta, busy, onRename, onPin, onDelete, onCopyAll, extra }: ChatHeadProps) {
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  if (editing !== undefined) {
    const save = () => void onRename(editing).then((ok) => ok && setEditing(undefined));
    return (
      <div class="chat-head editing">
        <input
          aria-label="Conversation title"
          value={editing}
          maxLength={500}
          ref={(el) => el?.focus()}
          onInput={(e) => setEditing(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') save();
            else if (e.key === 'Escape') setEditing(undefined);
          }}
        />
        <button type="button" class="mini primary" onClick={save} disabled={!editing.trim()}>
          Save
        </button>
        <button type="button" class="mini" onClick={() => setEditing(undefined)}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div class="chat-head">
      <h2 class="chat-title" title={meta.title}>
        {meta.title || 'Untitled'}
      </h2>
      <div class="chat-actions">
        {extra}
        {copied ? (
          <span class="turn-flash" role="status">
            {copied}
          </span>
        ) : null}
        <button type="button" class="mini" aria-label="Copy conversation as Markdown" title="Copy the whole conversation as Markdown" onClick={() => void onCopyAll().then((ok) => {
          setCopied(ok ? 'Copied' : 'Copy failed');
          setTimeout(() => setCopied(undefined), 1500);
        })}>
          Copy all
        </button>
        <button type="button" class="mini" aria-label="Rename conversation" onClick={() => setEditing(meta.title)}>
          Rename
        </button>
        <button type="button" class="mini" aria-label={meta.pinned ? 'Unpin conversation' : 'Pin conversation'} onClick={() => onPin(!meta.pinned)}>
          {meta.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" class="mini danger" aria-label="Delete conversation" disabled={busy} title={busy ? 'Stop the answer first' : undefined} onClick={onDelete}>
          Delete
        </button>
      </div>
    </div>
  );
}
