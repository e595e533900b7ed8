/**
 * Conversation instructions (docs/side-panel.md#instructions): a conversation's own, stored as
 * its transcript `system`, and the default every new conversation starts with (a setting).
 * Payloads arrive parsed and sender-checked by the router.
 */
import type { ConversationStore } from '../../store/conversations';
import type { SettingsStore } from '../../store/settings';
import { BatonError } from '../../messaging/errors';
import { CONVERSATION_GONE, existingConversation } from '../core/guards';
import type { Handlers } from '../core/router';

type InstructionsHandlers = Pick<
  Handlers,
  'setInstructions' | 'getInstructions' | 'getDefaultInstructions' | 'setDefaultInstructions'
>;

export interface InstructionsHandlerDeps {
  store: ConversationStore;
  settings: SettingsStore;
}

/** The instructions a new conversation starts with: the setting, or undefined when blank or unset. */
export async function defaultInstructions(settings: Pick<SettingsStore, 'get'>): Promise<string | undefined> {
  const text = (await settings.get()).defaultInstructions;
  return text?.trim() ? text : undefined;
}

/** `setInstructions`, `getInstructions`, `getDefaultInstructions` and `setDefaultInstructions`. */
export function instructionsHandlers(d: InstructionsHandlerDeps): InstructionsHandlers {
  return {
    setInstructions: async ({ id, instructions }) => {
      try {
        return { instructions: await d.store.setSystem(id, instructions) };
      } catch (e) {
        if (e instanceof Error && e.name === 'NotFoundError') throw new BatonError('not_found', CONVERSATION_GONE);
        throw e;
      }
    },
    getInstructions: async ({ id }) => {
      const record = await existingConversation(d.store, id);
      return { instructions: record.system?.trim() ? record.system : '' };
    },
    getDefaultInstructions: async () => ({ instructions: (await defaultInstructions(d.settings)) ?? '' }),
    setDefaultInstructions: async ({ instructions }) => {
      const next = await d.settings.update((s) => {
        const { defaultInstructions: _old, ...rest } = s;
        return instructions.trim() ? { ...rest, defaultInstructions: instructions } : rest;
      });
      return { instructions: next.defaultInstructions ?? '' };
    },
  };
}
