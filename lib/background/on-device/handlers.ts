/**
 * Answers from the browser's own model (Chrome's Prompt API): the side panel runs the model, the
 * background stores the turns. `startOnDevice` stores the user turn and a streaming placeholder and
 * returns the Prompt API input; `saveOnDeviceAnswer` stores what the model wrote.
 */
import { BatonError } from '../../messaging/errors';
import {
  CHROME_PROMPT_API,
  CHROME_PROMPT_MODEL,
  CHROME_PROMPT_PROVIDER,
  convertToChromePrompt,
} from '../../providers/chrome-prompt/convert-to-chrome-prompt';
import type { ConversationStore } from '../../store/conversations';
import type { Turn } from '../../transcript/schema';
import { existingConversation, refuseBusy, titleFromFirstMessage } from '../core/guards';
import type { Handlers } from '../core/router';

type OnDeviceHandlers = Pick<Handlers, 'startOnDevice' | 'saveOnDeviceAnswer'>;

export interface OnDeviceHandlerDeps {
  store: ConversationStore;
  /** Whether a provider's answer streams in the conversation (an on-device answer waits for it). */
  engine: { isBusy(conversationId: string): boolean };
  /** ISO time now. */
  now(): string;
  newId(): string;
}

/** `startOnDevice`, `saveOnDeviceAnswer`. */
export function onDeviceHandlers(d: OnDeviceHandlerDeps): OnDeviceHandlers {
  return {
    startOnDevice: async ({ conversationId, text }) => {
      refuseBusy(d.engine.isBusy(conversationId));
      const record = await existingConversation(d.store, conversationId);
      if (!text.trim()) throw new BatonError('bad_request', 'Nothing to send.');
      const now = d.now();
      const userTurn: Turn = { id: d.newId(), role: 'user', createdAt: now, blocks: [{ type: 'text', text }] };
      const title = record.turnCount === 0 ? titleFromFirstMessage(text) : undefined;
      await d.store.appendTurn(conversationId, userTurn, now, title ? { title } : {});
      const { body, report } = convertToChromePrompt(await d.store.toTranscript(conversationId));
      const answerTurn: Turn = {
        id: d.newId(),
        role: 'assistant',
        origin: { provider: CHROME_PROMPT_PROVIDER, api: CHROME_PROMPT_API, model: CHROME_PROMPT_MODEL },
        createdAt: now,
        status: 'streaming',
        blocks: [],
      };
      const meta = await d.store.appendTurn(conversationId, answerTurn, now);
      return { userTurn, answerTurn, meta, body, warnings: report.warnings };
    },
    saveOnDeviceAnswer: async ({ conversationId, turnId, text, status, error }) => {
      await existingConversation(d.store, conversationId);
      const turns = (await d.store.get(conversationId)).turns;
      const t = turns.find((x) => x.id === turnId);
      // Only an on-device answer can be written this way: never a provider's turn or a user's.
      if (!t || t.role !== 'assistant' || t.origin?.api !== CHROME_PROMPT_API)
        throw new BatonError('not_found', 'No on-device answer with this id.');
      const turn: Turn = {
        ...t,
        status,
        blocks: text ? [{ type: 'text', text }] : [],
        ...(status === 'error'
          ? { error: { type: 'provider_error', message: (error ?? 'The on-device model failed.').slice(0, 500) } }
          : {}),
      };
      return d.store.putTurn(conversationId, turn, d.now());
    },
  };
}
