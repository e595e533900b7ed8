import type { ComponentChildren, Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { ModelCapabilities } from '../../lib/messaging/protocol';
import { formatBytes, IMAGE_TYPES, PDF_TYPE, type PendingAttachment } from '../../lib/ui/attachments';
import { isPageAttachment } from '../../lib/ui/page-context';
import { Icon, Paperclip } from '../icons';

export interface ComposerProps {
  draft: string;
  busy: boolean;
  /** Send is possible apart from the draft (a provider and model are chosen). */
  ready: boolean;
  onDraft(text: string): void;
  onSend(): void;
  onStop(): void;
  /** Files attached to the draft. */
  attachments?: readonly PendingAttachment[];
  /** Takes pasted, dropped or picked files (undefined: attaching is not offered). */
  onFiles?: ((files: File[]) => void) | undefined;
  onRemoveAttachment?: ((id: string) => void) | undefined;
  /** What the chosen model accepts, when known. */
  caps?: ModelCapabilities | undefined;
  /** About the attachments and the model (a refusal blocks the send). */
  attachVerdict?: { blocked: boolean; note?: string | undefined } | undefined;
  /** Why picked files were not attached. */
  attachNote?: string | undefined;
  /** More attach controls beside Attach (e.g. Add this page). */
  attachExtras?: ComponentChildren;
  /** The message box, for focusing it from outside (e.g. after "New chat"). */
  inputRef?: Ref<HTMLTextAreaElement> | undefined;
}

const ACCEPT = [...IMAGE_TYPES, PDF_TYPE].join(',');

function filesOf(list: FileList | null | undefined): File[] {
  return list ? [...list] : [];
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line; Stop while an answer is in flight.
 * Images and PDFs can be pasted, dropped or picked; a note says when the chosen model does not
 * accept them. Escape stops an answer in flight.
 */
export function Composer(p: ComposerProps) {
  const { draft, busy, ready, onDraft, onSend, onStop, attachments = [], onFiles, caps, attachVerdict } = p;
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const blocked = attachVerdict?.blocked === true;
  const canSend = ready && !busy && !blocked && (draft.trim().length > 0 || attachments.length > 0);
  const textOnly = caps?.known === true && !caps.vision && !caps.pdf;

  return (
    <div
      class={`composer${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        if (!onFiles || !e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        const files = filesOf(e.dataTransfer?.files);
        if (!onFiles || files.length === 0) return;
        e.preventDefault();
        onFiles(files);
      }}
    >
      <textarea
        ref={p.inputRef}
        aria-label="Message"
        rows={3}
        placeholder="Message (Enter to send, Shift+Enter for a new line)"
        value={draft}
        onInput={(e) => onDraft(e.currentTarget.value)}
        onPaste={(e) => {
          const files = filesOf(e.clipboardData?.files);
          if (!onFiles || files.length === 0) return;
          e.preventDefault();
          onFiles(files);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && busy) {
            e.preventDefault();
            onStop();
            return;
          }
          if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
          e.preventDefault();
          if (canSend) onSend();
        }}
      />
      {attachments.length ? (
        <ul class="attachments" aria-label="Attachments">
          {attachments.map((a) => (
            <li key={a.id} data-attachment-kind={a.kind}>
              <span class="attachment-name">{a.name ?? (a.kind === 'image' ? 'Pasted image' : 'Document')}</span>
              <span class="attachment-size">
                {a.kind === 'image' ? 'image' : isPageAttachment(a) ? 'page text' : 'PDF'}, {formatBytes(a.bytes)}
              </span>
              <button
                type="button"
                class="mini"
                aria-label={`Remove ${a.name ?? a.kind}`}
                onClick={() => p.onRemoveAttachment?.(a.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {attachVerdict?.note ? (
        <p class={blocked ? 'attach-note warn' : 'attach-note hint'} role={blocked ? 'alert' : 'status'}>
          {attachVerdict.note}
        </p>
      ) : null}
      {p.attachNote ? (
        <p class="attach-note warn" role="alert">
          {p.attachNote}
        </p>
      ) : null}
      <div class="composer-actions">
        {onFiles ? (
          <>
            <input
              ref={picker}
              type="file"
              multiple
              accept={ACCEPT}
              class="visually-hidden"
              tabIndex={-1}
              aria-hidden="true"
              onChange={(e) => {
                const files = filesOf(e.currentTarget.files);
                e.currentTarget.value = '';
                if (files.length) onFiles(files);
              }}
            />
            <button
              type="button"
              class="attach"
              aria-label="Attach images or PDFs"
              title={textOnly ? 'This model takes text only' : 'Attach images or PDFs (or paste, or drop them here)'}
              onClick={() => picker.current?.click()}
            >
              <Icon icon={Paperclip} />
              <span class="action-label">Attach</span>
            </button>
            {textOnly && attachments.length === 0 ? (
              <span class="hint attach-hint">This model takes text only.</span>
            ) : null}
          </>
        ) : null}
        {p.attachExtras}
        <span class="spacer" />
        {busy ? (
          <button type="button" onClick={onStop}>
            Stop
          </button>
        ) : null}
        <button type="button" class="primary" onClick={onSend} disabled={!canSend}>
          Send
        </button>
      </div>
    </div>
  );
}
