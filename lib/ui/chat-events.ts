/**
 * How one background event changes the side panel's chat state (`ChatModel.onEvent`): a pure
 * reducer, so the model only applies what it returns.
 */
import type { BackgroundEvent } from '../messaging/protocol';
import type { ChatState } from './chat-state';
import { applyTextDelta, upsertMeta, upsertTurn } from './turns';

/**
 * What the model does for one event: apply `patch` to the state, then, when set, start a new chat
 * (`newChat`: the open conversation was deleted) or open a conversation (`open`: a capture finished).
 */
export interface EventEffect {
  patch?: Partial<ChatState>;
  newChat?: boolean;
  open?: string;
}

/** The effect of background event `e` on state `s` (events of another conversation than the open one change only the list). */
export function reduceEvent(s: ChatState, e: BackgroundEvent): EventEffect {
  switch (e.type) {
    case 'turnUpdated': {
      if (e.conversationId !== s.currentId) return {};
      const streaming = e.turn.role === 'assistant' && e.turn.status === 'streaming';
      return {
        patch: {
          turns: upsertTurn(s.turns, e.turn),
          ...(streaming
            ? { busy: true, phase: e.turn.blocks.length ? 'streaming' : s.phase === 'idle' ? 'sending' : s.phase }
            : {}),
        },
      };
    }
    case 'textDelta':
      if (e.conversationId !== s.currentId) return {};
      return { patch: { turns: applyTextDelta(s.turns, e), phase: 'streaming' } };
    case 'conversationUpdated':
      return { patch: { conversations: upsertMeta(s.conversations, e.meta) } };
    case 'conversationDeleted':
      return {
        patch: { conversations: s.conversations.filter((c) => c.id !== e.id) },
        ...(s.currentId === e.id ? { newChat: true } : {}),
      };
    case 'sendStateChanged':
      if (e.conversationId !== s.currentId) return {};
      return {
        patch: {
          busy: e.state !== 'idle',
          phase: e.state,
          retryInSec: e.retryInSec,
          ...(e.error ? { answerError: e.error } : {}),
        },
      };
    case 'summaryUpdated':
      if (e.conversationId !== s.currentId) return {};
      return { patch: { summaryVersion: s.summaryVersion + 1 } };
    case 'captureReady':
      if (e.conversationId) return { open: e.conversationId };
      // Baton's own words about the capture ("Nothing was captured: …"), never a provider's refusal (docs/side-panel.md).
      return e.error ? { patch: { error: { ...e.error, sentence: e.error.message } } } : {};
    default: {
      const _exhaustive: never = e;
      return _exhaustive;
    }
  }
}
