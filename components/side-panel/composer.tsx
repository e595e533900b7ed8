export interface ComposerProps {
  draft: string;
  busy: boolean;
  /** Send is possible apart from the draft (a provider and model are chosen). */
  ready: boolean;
  onDraft(text: string): void;
  onSend(): void;
  onStop(): void;
}

/** The message box: Enter sends, Shift+Enter starts a new line; Stop while an answer is in flight. */
export function Composer({ draft, busy, ready, onDraft, onSend, onStop }: ComposerProps) {
  const canSend = ready && !busy && draft.trim().length > 0;
  return (
    <div class="composer">
      <textarea
        aria-label="Message"
        rows={3}
        placeholder="Message (Enter to send, Shift+Enter for a new line)"
        value={draft}
        onInput={(e) => onDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
          e.preventDefault();
          if (canSend) onSend();
        }}
      />
      <div class="composer-actions">
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
