import { useEffect, useState } from 'preact/hooks';
import type { Note } from '../../lib/ui/options-model';

/** How long a success or progress note stays, in ms (docs/side-panel.md: transient status messages clear themselves). */
export const NOTE_MS = 6000;

/**
 * Feedback for one control, as text; announced politely. Success notes clear
 * themselves after {@link NOTE_MS}; errors, progress and states (`persist`, e.g. "The key works") stay
 * until the next note for the same control replaces them.
 */
export function NoteLine({ note }: { note: Note | undefined }) {
  const [shown, setShown] = useState(note);
  useEffect(() => {
    setShown(note);
    if (note?.kind !== 'ok' || note.persist) return;
    const t = setTimeout(() => setShown(undefined), NOTE_MS);
    return () => clearTimeout(t);
  }, [note]);
  return (
    <p class={`note note-${shown?.kind ?? 'none'}`} role="status">
      {shown?.text ?? ''}
    </p>
  );
}
