/**
 * The conversation list's requests: list, open (a window of turns), create, rename, pin and
 * delete. `createHandlers` spreads them in; payloads arrive parsed and sender-checked by the router.
 */
import type { BackgroundEvent } from '../../messaging/protocol';
import type { ConversationStore } from '../../store/conversations';
import { BatonError } from '../../messaging/errors';
import { existingConversation, refuseBusy } from '../core/guards';
import type { Handlers } from '../core/router';
import { getConversationWindow } from './window';
import { defaultInstructions } from './instructions';
import type { SettingsStore } from '../../store/settings';

type ConversationHandlers = Pick<
  Handlers,
  | 'listConversations'
  | 'getConversation'
  | 'createConversation'
  | 'renameConversation'
  | 'deleteConversation'
  | 'pinConversation'
  | 'selectVersion'
  | 'deleteVersion'
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
  /** Tells every page of a change (here: a conversation's list metadata after a version switch or delete). */
  broadcast?: ((e: BackgroundEvent) => void) | undefined;
  /** Where a new conversation's default instructions come from (docs/side-panel.md#instructions); without it, none. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
}

/**
 * `listConversations`, `getConversation`, `createConversation`, `renameConversation`,
 * `deleteConversation`, `pinConversation`, and switching or deleting versions of a turn
 * (`selectVersion`, `deleteVersion`; docs/transcript.md#versions-and-branches).
 */
export function conversationHandlers(d: ConversationHandlerDeps): ConversationHandlers {
  return {
    listConversations: () => d.store.list(),
    getConversation: (p) => getConversationWindow(d.store, p, d.engine.isBusy(p.id)),
    createConversation: async ({ title, target, instructions }) => {
      // Its own instructions when given (blank: none), else the default for new conversations.
      const system = instructions ?? (d.settings ? await defaultInstructions(d.settings) : undefined);
      return d.store.create({
        id: d.newId(),
        now: d.now(),
        ...(title ? { title } : {}),
        ...(target ? { lastTarget: target } : {}),
        ...(system?.trim() ? { system } : {}),
      });
    },
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
    selectVersion: async ({ conversationId, turnId }) => {
      await existingConversation(d.store, conversationId);
      refuseBusy(d.engine.isBusy(conversationId));
      const meta = await d.store.selectTurn(conversationId, turnId, d.now()).catch(notHere);
      d.broadcast?.({ type: 'conversationUpdated', meta });
      return meta;
    },
    deleteVersion: async ({ conversationId, turnId }) => {
      await existingConversation(d.store, conversationId);
      refuseBusy(d.engine.isBusy(conversationId));
      if ((await d.store.versionCount(conversationId, turnId).catch(notHere)) < 2)
        throw new BatonError('bad_request', 'This is the only version of that message.');
      const { meta } = await d.store.deleteTurnsFrom(conversationId, turnId, d.now(), true);
      d.broadcast?.({ type: 'conversationUpdated', meta });
      return meta;
    },
  };
}

/** A store `NotFoundError` for a turn, as the protocol's `not_found`. */
function notHere(e: unknown): never {
  if (e instanceof Error && e.name === 'NotFoundError')
    throw new BatonError('not_found', 'That message is no longer in this conversation.');
  throw e;
}
