/**
 * The conversation's instructions (docs/side-panel.md#instructions): one line under the
 * conversation's title that says whether it has instructions and opens a textbox named
 * **Instructions** to write, change or clear them. They are the conversation's system prompt,
 * sent with every message in each provider's own field. In a new chat the box starts with the
 * default instructions for new conversations (options page); saving there creates the
 * conversation with them.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import { INSTRUCTIONS_MAX_CHARS } from '../../lib/messaging/instructions-limits';
import { toProtocolError } from '../../lib/ui/targets';
import type { SendTarget } from '../../lib/messaging/protocol';
import './instructions.css';

export interface InstructionsProps {
  connector: Connector;
  /** The open conversation; undefined: a new chat, not created yet. */
  conversationId: string | undefined;
  /** What a conversation created here will be sent to first (its `lastTarget`). */
  target?: SendTarget | undefined;
  /** A new chat was created to hold the instructions saved in it. */
  onCreated(id: string): void;
  /** The stored instructions changed (the disclosure preview is asked again). */
  onSaved(): void;
}

/** How long "Instructions saved." stays, in ms. */
const FLASH_MS = 6000;

/** Characters of the instructions shown on the closed line. */
const LINE_CHARS = 90;

function firstWords(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}

/**
 * The instructions line and, opened, the textbox with *Save* and *Cancel* (docs/side-panel.md#instructions).
 * Escape cancels; Ctrl+Enter (⌘+Enter) saves. Blank text removes them.
 */
export function Instructions({ connector, conversationId, target, onCreated, onSaved }: InstructionsProps) {
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [flash, setFlash] = useState<string | undefined>(undefined);
  const toggle = useRef<HTMLButtonElement>(null);
  // The conversation created by a save in a new chat: it opens with the text just saved, so it is not read again.
  const created = useRef<{ id: string; text: string } | undefined>(undefined);

  useEffect(() => {
    let live = true;
    setError(undefined);
    setFlash(undefined);
    if (created.current && created.current.id === conversationId) {
      setSaved(created.current.text);
      created.current = undefined;
      return;
    }
    setOpen(false);
    setSaved(undefined);
    const read = conversationId
      ? connector.request('getInstructions', { id: conversationId })
      : connector.request('getDefaultInstructions', {});
    read.then(
      (r) => {
        if (live) setSaved(r.instructions);
      },
      () => {
        if (live) setSaved('');
      },
    );
    return () => {
      live = false;
    };
  }, [connector, conversationId]);

  useEffect(() => {
    if (!flash) return;
    // docs/side-panel.md: a transient status clears itself.
    const t = setTimeout(() => setFlash(undefined), FLASH_MS);
    return () => clearTimeout(t);
  }, [flash]);

  if (saved === undefined) return null;
  const has = saved.trim() !== '';
  const changed = text !== saved;

  const close = () => {
    setOpen(false);
    setError(undefined);
    toggle.current?.focus();
  };
  const save = async () => {
    if (saving || !changed) return;
    setSaving(true);
    setError(undefined);
    try {
      if (conversationId) {
        const r = await connector.request('setInstructions', { id: conversationId, instructions: text });
        setSaved(r.instructions);
        setText(r.instructions);
      } else {
        // A new chat: the conversation is created now, holding these instructions (blank: none at all).
        const meta = await connector.request('createConversation', {
          instructions: text,
          ...(target ? { target } : {}),
        });
        const kept = text.trim() ? text : '';
        created.current = { id: meta.id, text: kept };
        setSaved(kept);
        onCreated(meta.id);
      }
      setFlash(text.trim() ? 'Instructions saved.' : 'Instructions removed.');
      onSaved();
      close();
    } catch (e) {
      setError(toProtocolError(e).message || 'The instructions were not saved.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <section class={`instructions${has ? ' has' : ''}${open ? ' open' : ''}`} aria-label="Conversation instructions">
      <div class="instructions-line">
        <button
          ref={toggle}
          type="button"
          class="instructions-toggle"
          aria-expanded={open ? 'true' : 'false'}
          aria-controls="baton-instructions-editor"
          title={has ? saved : 'Instructions for every answer in this conversation'}
          onClick={() => {
            if (open) close();
            else {
              setText(saved);
              setFlash(undefined);
              setOpen(true);
            }
          }}
        >
          <span aria-hidden="true" class="instructions-caret">
            {open ? '▾' : '▸'}
          </span>
          <strong>Instructions</strong>
          {open ? null : (
            <span class="instructions-summary" data-instructions-summary="">
              {has ? firstWords(saved) : conversationId ? 'none' : 'none for this new chat'}
            </span>
          )}
        </button>
        {flash && !open ? (
          <span class="instructions-flash" role="status">
            {flash}
          </span>
        ) : null}
      </div>
      {open ? (
        <div id="baton-instructions-editor" class="instructions-editor">
          <textarea
            aria-label="Instructions"
            aria-describedby="baton-instructions-hint"
            value={text}
            maxLength={INSTRUCTIONS_MAX_CHARS}
            rows={4}
            placeholder="e.g. Answer in French. Keep answers short and show code in TypeScript."
            ref={(el) => {
              if (el && document.activeElement !== el && !el.dataset.focused) {
                el.dataset.focused = '1';
                el.focus();
              }
            }}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                close();
              } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                void save();
              }
            }}
          />
          <p id="baton-instructions-hint" class="hint">
            Sent with every message of this conversation as the model's system prompt, to whichever provider answers.
            {conversationId ? '' : ' Saving starts this chat with them.'}
          </p>
          {error ? (
            <p class="note note-error" role="alert">
              {error}
            </p>
          ) : null}
          <div class="instructions-actions">
            <button type="button" class="mini primary" disabled={!changed || saving} onClick={() => void save()}>
              {saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" class="mini" onClick={close}>
              Cancel
            </button>
            {text ? (
              <button type="button" class="mini" onClick={() => setText('')}>
                Clear
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}
