import type { Note } from '../../lib/ui/options-model';

/** Feedback for one control, as text; announced politely. */
export function NoteLine({ note }: { note: Note | undefined }) {
  return (
    <p class={`note note-${note?.kind ?? 'none'}`} role="status">
      {note?.text ?? ''}
    </p>
  );
}
