/**
 * The side panel's chat state (`ChatModel`'s snapshot) and the disclosure choices a send may
 * carry (docs/disclosure.md). Types and constants only, so the model and its helpers share one definition.
 */
import type {
  Attachment,
  ConversationMeta,
  ConversationView,
  GeminiApi,
  ModelOption,
  ProtocolError,
  ProviderStatus,
  SendTarget,
  Settings,
} from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import type { PendingAttachment } from './attachments';
import type { PendingResend } from './resend-confirm';

export interface ChatState {
  conversations: ConversationMeta[];
  /** The open conversation; undefined for a new chat not yet sent. */
  currentId: string | undefined;
  /** The shown window of the open conversation's turns: its newest, plus older pages loaded on request (docs/architecture.md#long-conversations-and-speed). */
  turns: Turn[];
  /** Older turns exist before `turns[0]` ("Show earlier turns"). */
  hasEarlier: boolean;
  /** An older page is being loaded. */
  loadingEarlier: boolean;
  /** With `hasEarlier`: the conversation's first turn (not in `turns`), for its capture notice. */
  firstTurn?: Turn | undefined;
  /** The shown turns that have several versions, by turn id (docs/transcript.md#versions-and-branches). */
  versions: NonNullable<ConversationView['versions']>;
  /** An answer is in flight in the open conversation. */
  busy: boolean;
  phase: 'idle' | 'sending' | 'streaming' | 'retrying';
  /** Seconds until the background retries (while `phase === 'retrying'`). */
  retryInSec?: number;
  /** The last answer's failure as the background reported it (richer than `turn.error`); cleared by the next send. */
  answerError?: ProtocolError;
  /** A request that failed before anything was stored; the draft is kept (D2). */
  error?: ProtocolError;
  /** A Retry, Regenerate or Edit-and-resend waiting for the first-disclosure confirmation (docs/disclosure.md). */
  pendingResend?: PendingResend | undefined;
  settings?: Settings;
  /** Providers usable for a send: with a key bound to their origin, or a local endpoint. */
  providers: ProviderStatus[];
  /** Where the next send goes; `providerId` is '' when no provider is configured. */
  target: { providerId: string; model: string; thinking?: boolean; api?: GeminiApi };
  /** Model lists per provider (the provider's list merged with the registry), cached (lib/ui/model-memory.ts). */
  models: Record<string, ModelOption[]>;
  /** When each provider's list in `models` was fetched, in ms since the epoch (docs/side-panel.md: the picker shows its age). */
  modelsAt: Record<string, number>;
  /** Why a provider's list could not be fetched (the picker still takes any model id). */
  modelsError: Record<string, string>;
  draft: string;
  /** Files attached to the draft (sent with it). */
  attachments: PendingAttachment[];
  loading: boolean;
  /**
   * Counts `summaryUpdated` events of the open conversation (its active summary was stored or
   * cleared, possibly from another panel): the panel refreshes its preview and summary notice when it changes.
   */
  summaryVersion: number;
  /**
   * The streaming answer's last applied event number (`seq` of its `turnUpdated` / `textDelta`,
   * docs/architecture.md#streaming-to-the-side-panel); unset when the turns came from a store read.
   */
  streamSeq?: { turnId: string; seq: number } | undefined;
}

/** The state before anything is loaded. */
export const INITIAL_CHAT_STATE: ChatState = {
  conversations: [],
  currentId: undefined,
  turns: [],
  hasEarlier: false,
  versions: {},
  loadingEarlier: false,
  busy: false,
  phase: 'idle',
  providers: [],
  target: { providerId: '', model: '' },
  models: {},
  modelsAt: {},
  modelsError: {},
  draft: '',
  attachments: [],
  loading: true,
  summaryVersion: 0,
};

/** The disclosure choices a send may carry (docs/disclosure.md; see `sendMessage` in the protocol). */
export interface SendExtras {
  confirmedDisclosure?: boolean;
  /** With `confirmedDisclosure`: the provider id + endpoint origin the confirmation was shown for (it authorises that provider only). */
  confirmedFor?: { providerId: string; origin: string };
  excludeTurns?: string[];
  excludeBlocks?: { turn: string; index: number }[];
  /** The person chose "Send provider state from the imported file" in the preview (docs/security.md, "Hostile providers and files"). */
  replayImportedState?: boolean;
}

/** The disclosure choices of a Retry, Regenerate or Edit-and-resend: only the confirmation. */
export type ResendExtras = Pick<SendExtras, 'confirmedDisclosure' | 'confirmedFor'>;

/** Only the extras that say something, so a plain send's payload stays as it was. */
export function extrasOf(x: SendExtras): SendExtras {
  return {
    ...(x.confirmedDisclosure
      ? { confirmedDisclosure: true, ...(x.confirmedFor ? { confirmedFor: x.confirmedFor } : {}) }
      : {}),
    ...(x.excludeTurns?.length ? { excludeTurns: x.excludeTurns } : {}),
    ...(x.excludeBlocks?.length ? { excludeBlocks: x.excludeBlocks } : {}),
    ...(x.replayImportedState ? { replayImportedState: true } : {}),
  };
}

/**
 * A composer send the background refused with `confirmation_required` (docs/disclosure.md): exactly what was
 * asked, so the confirmation can show the preview of that send. `attachments` as sent (wire form).
 */
export interface RefusedSend {
  conversationId: string;
  target: SendTarget;
  text: string;
  attachments: Attachment[];
}
