/**
 * The conversation list's requests: list, open (a window of turns), create, rename, pin and
 * delete. `createHandlers` spreads them in; payloads arrive parsed and sender-checked by the router.
 */
import type { ConversationStore } from '../../store/conversations';
import { existingConversation } from '../core/guards';
import type { Handlers } from '../core/router';
import { getConversationWindow } from './window';

type ConversationHandlers = Pick<
  Handlers,
  | 'listConversations'
  | 'getConversation'
  | 'createConversation'
  | 'renameConversation'
  | 'deleteConversation'
  | 'pinConversation'
>;

/** What the conversation handlers use of the send engine: whether an answer streams, and stopping it before a delete. */
export interface ConversationEngine {
  isBusy(conversationId: string): boolean;
  stop(conversationId: string): void;
  settled(conversationId: string): Promise<void>;
}

export interface ConversationHandlerDeps {
  store: ConversationStore;
  engine: ConversationEngine;
  /** ISO time now. */
  now(): string;
  newId(): string;
}

/** `listConversations`, `getConversation`, `createConversation`, `renameConversation`, `deleteConversation`, `pinConversation`. */
export function conversationHandlers(d: ConversationHandlerDeps): ConversationHandlers {
  return {
    listConversations: () => d.store.list(),
    getConversation: (p) => getConversationWindow(d.store, p, d.engine.isBusy(p.id)),
    createConversation: async ({ title, target }) =>
      d.store.create({
        id: d.newId(),
        now: d.now(),
        ...(title ? { title } : {}),
        ...(target ? { lastTarget: target } : {}),
      }),
    renameConversation: ({ id, title }) => d.store.update(id, { title }),
    deleteConversation: async ({ id }) => {
      d.engine.stop(id);
      await d.engine.settled(id);
      await d.store.delete(id);
      return null;
    },
    pinConversation: async ({ id, pinned }) => {
      await existingConversation(d.store, id);
      return d.store.update(id, { pinned });
    },
  };
}
