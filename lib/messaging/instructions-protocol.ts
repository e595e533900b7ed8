/**
 * Conversation instructions (a system prompt; docs/side-panel.md#instructions): the part of the
 * background protocol that reads and writes them, spread into `REQUESTS` and `Responses` of
 * `protocol.ts`. Only extension pages may send these (M1). Stored as the conversation's
 * transcript `system` (docs/transcript.md), which every converter sends in its API's own field.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import { INSTRUCTIONS_MAX_CHARS } from './instructions-limits';

export { INSTRUCTIONS_MAX_CHARS };

const id = onFirstUse(() => z.string().min(1).max(200));
const instructions = onFirstUse(() => z.string().max(INSTRUCTIONS_MAX_CHARS));

export const INSTRUCTIONS_REQUESTS = onFirstUse(
  () =>
    ({
      /**
       * Replaces conversation `id`'s instructions; blank text removes them. A send already in flight
       * keeps what it was planned with; the next send carries the new text.
       */
      setInstructions: { input: onFirstUse(() => z.strictObject({ id, instructions })), from: ['extension'] },
      /** Conversation `id`'s instructions ('' when none): read from its record alone, no turn. */
      getInstructions: { input: onFirstUse(() => z.strictObject({ id })), from: ['extension'] },
      /** The instructions a new conversation starts with ('' when none), set in the options page. */
      getDefaultInstructions: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
      /** Replaces the default instructions for new conversations; blank text removes them. Existing conversations keep theirs. */
      setDefaultInstructions: { input: onFirstUse(() => z.strictObject({ instructions })), from: ['extension'] },
    }) as const,
);

/** The result type of each instructions request. */
export interface InstructionsResponses {
  /** The conversation's instructions as stored ('' when it has none). */
  setInstructions: { instructions: string };
  getInstructions: { instructions: string };
  getDefaultInstructions: { instructions: string };
  setDefaultInstructions: { instructions: string };
}
