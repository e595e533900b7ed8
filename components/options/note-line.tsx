import { useEffect, useState } from 'preact/hooks';
import type { Note } from '../../lib/ui/options-model';

/** How long a success or progress note stays, in ms (docs/side-panel.md: transient status messages clear themselves). */
export const NOTE_MS = 6000;

/**
 * Feedback for one control, as text; announced politely. Success notes clear
 * themselves after {@link NOTE_MS}; errors and progress stay until the next note replaces them.
 */
export function NoteLine({ note }: { note: Note | undefined }) {
  const [shown, setShown] = useState(note);
  useEffect(() => {
    setShown(note);
    if (note?.kind !== 'ok') return;
    const t = setTimeout(() => setShown(undefined), NOTE_MS);
    return () => clearTimeout(t);
  }, [note]);
  return (
    <p class={`note note-${shown?.kind ?? 'none'}`} role="status">
      {shown?.text ?? ''}
    </p>
  );
}
