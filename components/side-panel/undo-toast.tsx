/** A short notice with an *Undo* button, read out as a status (a deletion that can still be taken back). */
export function UndoToast({ text, onUndo }: { text: string; onUndo(): void }) {
  return (
    <div class="toast" role="status">
      <span>{text}</span>
      <button type="button" class="mini" onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}
