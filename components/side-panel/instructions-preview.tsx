/**
 * The instructions in the disclosure preview (docs/disclosure.md#instructions): their own row with
 * their tokens in the *Turns* tab, and one sentence on the first send after they changed.
 */
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import './instructions.css';

const CHANGE_WORD = { added: 'added', changed: 'changed', removed: 'removed' } as const;

/**
 * "Instructions changed since the last send to Anthropic: its prompt cache starts again." — on
 * the first send after the instructions were added, changed or removed; undefined otherwise.
 * The system prompt opens every request, so a provider's cached start of this conversation no
 * longer matches (and Anthropic may drop reasoning bound to the old prompt, A-B2, said apart).
 */
export function instructionsChangeLine(preview: DisclosurePreview, providerName: string): string | undefined {
  const change = preview.instructions?.change;
  if (!change) return undefined;
  return `Instructions ${CHANGE_WORD[change]} since the last send to ${providerName}: its prompt cache starts again.`;
}

/** The instructions' row: sent with their tokens (never left out to fit), or none. Nothing when there is nothing to say. */
export function InstructionsRow({ preview }: { preview: DisclosurePreview }) {
  const i = preview.instructions;
  if (!i) return null;
  return (
    <p class="disclosure-instructions" data-disclosure-instructions={i.sent ? 'sent' : 'none'}>
      <strong>Instructions</strong>{' '}
      <span class="hint">
        {i.sent
          ? `~${i.tokens.toLocaleString('en')} tokens, sent with every message (edit or clear them under the title)`
          : 'none in this send'}
      </span>
      {i.sent ? <span class="disclosure-preview-text">{i.preview}</span> : null}
    </p>
  );
}
