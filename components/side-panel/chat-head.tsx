import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import { Ellipsis, Icon, Pin } from '../icons';

export interface ChatHeadProps {
  meta: ConversationMeta;
  busy: boolean;
  onRename(title: string): Promise<boolean>;
  onPin(pinned: boolean): void;
  onDelete(): void;
  onCopyAll(): Promise<boolean>;
  /** Saves the conversation as a download (undefined: export not offered). */
  onExport?: ((format: 'baton' | 'markdown') => void) | undefined;
  /** An export is running. */
  exporting?: boolean | undefined;
  /** Why the last export failed. */
  exportError?: string | undefined;
}

/**
 * The open conversation's title and one menu of its actions (docs/side-panel.md): export as Baton JSON or
 * Markdown, copy as Markdown, rename, pin, delete (with undo). The menu follows the ARIA menu
 * button pattern: arrows move between items, Escape closes it and gives focus back.
 */
export function ChatHead({
  meta,
  busy,
  onRename,
  onPin,
  onDelete,
  onCopyAll,
  onExport,
  exporting,
  exportError,
}: ChatHeadProps) {
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);
  useEffect(() => {
    if (!menuOpen) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus();
    const close = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !menuButton.current?.contains(t)) setMenuOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [menuOpen]);

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
  /** Runs a menu item: closes the menu and gives focus back to its button first. */
  const run = (action: () => void) => () => {
    setMenuOpen(false);
    menuButton.current?.focus();
    action();
  };
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [])];
  return (
    <div class="chat-head">
      <h2 class="chat-title" title={meta.title}>
        {meta.pinned ? (
          <span class="pin-mark" title="Pinned">
            <Icon icon={Pin} label="Pinned" />
          </span>
        ) : null}
        {meta.title || 'Untitled'}
      </h2>
      {copied || exporting ? (
        <span class="turn-flash" role="status">
          {exporting ? 'Exporting…' : copied}
        </span>
      ) : null}
      {exportError ? (
        <span class="note note-error" role="alert">
          {exportError}
        </span>
      ) : null}
      <div class="chat-menu">
        <button
          ref={menuButton}
          type="button"
          class="icon-button"
          aria-label="Conversation actions"
          title="Conversation actions"
          aria-haspopup="menu"
          aria-expanded={menuOpen ? 'true' : 'false'}
          aria-controls="baton-conversation-menu"
          onClick={() => setMenuOpen(!menuOpen)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && !menuOpen) {
              e.preventDefault();
              setMenuOpen(true);
            }
          }}
        >
          <Icon icon={Ellipsis} />
        </button>
        <div
          id="baton-conversation-menu"
          ref={menu}
          role="menu"
          aria-label="Conversation actions"
          class="menu-popup"
          hidden={!menuOpen}
          onKeyDown={(e) => {
            const list = items();
            const at = list.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'Escape' || e.key === 'Tab') {
              if (e.key === 'Escape') e.preventDefault();
              setMenuOpen(false);
              menuButton.current?.focus();
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              list[(at + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
            } else if (e.key === 'Home' || e.key === 'End') {
              e.preventDefault();
              (e.key === 'Home' ? list[0] : list[list.length - 1])?.focus();
            }
          }}
        >
          {onExport ? (
            <>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                disabled={exporting}
                onClick={run(() => onExport('baton'))}
              >
                Export as Baton JSON
              </button>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                disabled={exporting}
                onClick={run(() => onExport('markdown'))}
              >
                Export as Markdown
              </button>
            </>
          ) : null}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            aria-label="Copy conversation as Markdown"
            onClick={run(
              () =>
                void onCopyAll().then((ok) => {
                  setCopied(ok ? 'Copied' : 'Copy failed');
                  clearTimeout(copiedTimer.current);
                  copiedTimer.current = setTimeout(() => setCopied(undefined), 1500);
                }),
            )}
          >
            Copy all
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            aria-label="Rename conversation"
            onClick={run(() => setEditing(meta.title))}
          >
            Rename
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            aria-label={meta.pinned ? 'Unpin conversation' : 'Pin conversation'}
            onClick={run(() => onPin(!meta.pinned))}
          >
            {meta.pinned ? 'Unpin' : 'Pin'}
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            class="danger"
            aria-label="Delete conversation"
            disabled={busy}
            title={busy ? 'Stop the answer first' : undefined}
            onClick={run(onDelete)}
          >
            Delete
          </button>
        </div>
      </div>
    </div>
  );
}
