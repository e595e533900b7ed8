/**
 * How one background event changes the side panel's chat state (`ChatModel.onEvent`): a pure
 * reducer, so the model only applies what it returns.
 */
import type { BackgroundEvent } from '../messaging/protocol';
import type { ChatState } from './chat-state';
import { applyTextDelta, deltaFit, upsertMeta, upsertTurn } from './turns';

/**
 * What the model does for one event: apply `patch` to the state, then, when set, start a new chat
 * (`newChat`: the open conversation was deleted) or open a conversation (`open`: a capture finished).
 */
export interface EventEffect {
  patch?: Partial<ChatState>;
  newChat?: boolean;
  open?: string;
  /** Deltas of this conversation's answer were missed: ask for its state once (`resumeStream`). */
  resync?: string;
}

/** The last applied `seq` of `turnId`'s stream, when known. */
function knownSeq(s: ChatState, turnId: string): number | undefined {
  return s.streamSeq?.turnId === turnId ? s.streamSeq.seq : undefined;
}

/** The effect of background event `e` on state `s` (events of another conversation than the open one change only the list). */
export function reduceEvent(s: ChatState, e: BackgroundEvent): EventEffect {
  switch (e.type) {
    case 'turnUpdated': {
      if (e.conversationId !== s.currentId) return {};
      const known = knownSeq(s, e.turn.id);
      // Older than what the panel already applied (a resumed state can arrive after newer deltas).
      if (e.seq !== undefined && known !== undefined && e.seq <= known) return {};
      const streaming = e.turn.role === 'assistant' && e.turn.status === 'streaming';
      return {
        patch: {
          streamSeq:
            e.seq !== undefined ? { turnId: e.turn.id, seq: e.seq } : known !== undefined ? undefined : s.streamSeq,
          turns: upsertTurn(s.turns, e.turn),
          ...(streaming
            ? { busy: true, phase: e.turn.blocks.length ? 'streaming' : s.phase === 'idle' ? 'sending' : s.phase }
            : {}),
        },
      };
    }
    case 'textDelta': {
      // docs/architecture.md#streaming-to-the-side-panel: deltas in `seq` order; a gap asks for the state once.
      if (e.conversationId !== s.currentId) return {};
      const known = knownSeq(s, e.turnId);
      if (known !== undefined && e.seq <= known) return {};
      const fit = deltaFit(s.turns, e);
      if ((known !== undefined && e.seq !== known + 1) || fit === 'gap') return { resync: e.conversationId };
      const streamSeq = { turnId: e.turnId, seq: e.seq };
      if (fit === 'have') return { patch: { streamSeq } };
      return { patch: { turns: applyTextDelta(s.turns, e), phase: 'streaming', streamSeq } };
    }
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
