import { useEffect, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { Note } from '../../lib/ui/options-model';
import { INSTRUCTIONS_MAX_CHARS } from '../../lib/messaging/instructions-limits';
import { NoteLine } from './note-line';
import './default-instructions.css';

export interface DefaultInstructionsFormProps {
  connector: Connector;
}

/**
 * The default instructions for new conversations (docs/side-panel.md#instructions): every
 * conversation started afterwards begins with them; existing conversations keep their own.
 * Blank removes the default.
 */
export function DefaultInstructionsForm({ connector }: DefaultInstructionsFormProps) {
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [text, setText] = useState('');
  const [note, setNote] = useState<Note | undefined>(undefined);

  useEffect(() => {
    connector.request('getDefaultInstructions', {}).then(
      (r) => {
        setSaved(r.instructions);
        setText(r.instructions);
      },
      (e: Error) => setNote({ kind: 'error', text: e.message }),
    );
  }, [connector]);

  const save = async () => {
    try {
      const r = await connector.request('setDefaultInstructions', { instructions: text });
      setSaved(r.instructions);
      setText(r.instructions);
      setNote({
        kind: 'ok',
        text: r.instructions
          ? 'Saved: new chats start with these instructions.'
          : 'New chats start without instructions.',
      });
    } catch (e) {
      setNote({ kind: 'error', text: (e as Error).message });
    }
  };

  return (
    <div class="default-instructions">
      <label for="baton-default-instructions">Instructions for new chats</label>
      <textarea
        id="baton-default-instructions"
        rows={4}
        maxLength={INSTRUCTIONS_MAX_CHARS}
        value={text}
        disabled={saved === undefined}
        placeholder="e.g. Answer in French. Keep answers short."
        aria-describedby="baton-default-instructions-hint"
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <p id="baton-default-instructions-hint" class="hint">
        The system prompt every new conversation starts with, sent to whichever provider answers. Each conversation can
        change its own in the side panel; conversations you already have keep theirs.
      </p>
      <button type="button" disabled={saved === undefined || text === saved} onClick={() => void save()}>
        Save instructions
      </button>
      <NoteLine note={note} />
    </div>
  );
}
