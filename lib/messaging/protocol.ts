/**
 * The background protocol, defined once (DESIGN.md, "Style to follow" 2): every request type with
 * its zod payload schema and who may send it, every response shape, and the events the background
 * broadcasts on the stream port. The background implements it as one object of handlers
 * (`lib/background/handlers.ts`); the UI calls it through `lib/messaging/client.ts`.
 *
 * Senders (security-requirements.md M1, M2): `extension` = a page of this extension (side panel,
 * options); `content` = the content script in the top frame of one of the three chat sites. Only
 * `captureSubmit` accepts `content`.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import { type turnSchema, type WireApi, type wireApiSchema } from '../transcript/schema';
import {
  confirmationFields,
  disclosurePolicySchema,
  exclusionFields,
  type CountTokensResult,
  type DisclosureLedger,
  type DisclosurePolicy,
  type DisclosurePreview,
} from './disclosure-types';
import { VAULT_REQUESTS, type VaultResponses } from './vault-protocol';
import { SYNC_REQUESTS, type SyncResponses } from './sync-protocol';
import { TRANSFER_REQUESTS, type TransferResponses } from './transfer-protocol';
import { CAPTURE_REQUESTS, type CaptureOutcome, type CaptureResponses } from './capture-protocol';
import { summaryRequests, type SummaryResponses } from './summary-types';
import { SEARCH_REQUESTS, type SearchResponses } from './search-protocol';
import { INSTRUCTIONS_MAX_CHARS, INSTRUCTIONS_REQUESTS, type InstructionsResponses } from './instructions-protocol';
import { compareRequests, type CompareGroup, type CompareOutcome } from './compare-protocol';

/** Caps on untrusted sizes (M3, I1), in characters of JSON text unless named otherwise. */
export const LIMITS = {
  /** One user message's text. */
  messageText: 1_000_000,
  /** One attachment's base64 data (≈ 15 MB of bytes). */
  attachmentData: 20_000_000,
  attachments: 20,
  /** A capture payload in total (I1: 2 MB). */
  captureBytes: 2_000_000,
  captureMessages: 2_000,
  key: 500,
  id: 200,
  title: 500,
  model: 200,
  url: 2_000,
} as const;

const id = onFirstUse(() => z.string().min(1).max(LIMITS.id));
const modelId = onFirstUse(() => z.string().min(1).max(LIMITS.model));

/** Built-in providers and the wire API Baton uses for each (issue: OpenAI over Responses, the rest native). */
export const BUILTIN_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
export type BuiltinProvider = (typeof BUILTIN_PROVIDERS)[number];
export const builtinProviderSchema = onFirstUse(() => z.enum(BUILTIN_PROVIDERS));

/** A provider id: a built-in one or a custom endpoint's id (`custom-…`). */
export const providerIdSchema = onFirstUse(() =>
  z.union([builtinProviderSchema, z.string().regex(/^custom-[a-z0-9-]{1,40}$/)]),
);
export type ProviderId = z.infer<typeof providerIdSchema>;

/**
 * Where a send goes: a configured provider and a model id. `api`: the wire API, for a provider
 * whose model is served by more than one (Google: `gemini-generate-content` or
 * `gemini-interactions`); absent, or one that does not serve the model: the model's default
 * (`apiForModel` in lib/models/registry.ts).
 */
export const sendTargetSchema = onFirstUse(() =>
  z.strictObject({
    providerId: providerIdSchema,
    model: modelId,
    thinking: z.boolean().optional(),
    api: z.enum(['gemini-generate-content', 'gemini-interactions']).optional(),
  }),
);
export type SendTarget = z.infer<typeof sendTargetSchema>;
/** The Gemini wire APIs a send target may name (`SendTarget.api`). */
export type GeminiApi = NonNullable<SendTarget['api']>;

export const attachmentSchema = onFirstUse(() =>
  z.strictObject({
    kind: z.enum(['image', 'document']),
    mediaType: z.string().min(1).max(100),
    /** base64, no `data:` prefix. */
    data: z.string().min(1).max(LIMITS.attachmentData),
    name: z.string().max(LIMITS.title).optional(),
  }),
);
export type Attachment = z.infer<typeof attachmentSchema>;

/** A custom OpenAI-compatible endpoint (OpenRouter, Ollama, LM Studio, any base URL). */
export const endpointInputSchema = onFirstUse(() =>
  z.strictObject({
    /** Omit to create a new one. */
    id: providerIdSchema.optional(),
    name: z.string().min(1).max(100),
    baseUrl: z.string().url().max(LIMITS.url),
    /** §5 rules to apply (`openrouter`, `ollama`, `mistral`, `deepseek`, `groq`, or `generic`). */
    flavor: z.enum(['generic', 'openrouter', 'ollama', 'mistral', 'deepseek', 'groq']).default('generic'),
    defaultModel: modelId.optional(),
  }),
);

const empty = onFirstUse(() => z.strictObject({}));

/** The inputs of a preview (`previewSend`) and of an exact count (`countTokens`). */
const previewInput = onFirstUse(() =>
  z.strictObject({
    conversationId: id.optional(),
    target: sendTargetSchema,
    text: z.string().max(LIMITS.messageText).optional(),
    attachments: z.array(attachmentSchema).max(LIMITS.attachments).optional(),
    ...exclusionFields,
    /**
     * Preview a `retryTurn` or `regenerateTurn` (no text), or an `editAndResend` of `turnId` with
     * `text` (the turn's files are sent again): the turns the action replaces are left out.
     */
    resend: z
      .discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('retry') }),
        z.strictObject({ kind: z.literal('regenerate') }),
        z.strictObject({ kind: z.literal('edit'), turnId: id }),
      ])
      .optional(),
    /**
     * docs/architecture.md#long-conversations-and-speed: leave out `perTurn` and `body` (the answer says `countsOnly`). The line above the
     * composer needs only the counts; the expanded list and "View request" ask without it.
     */
    countsOnly: z.boolean().optional(),
    /** The preview of one target of a send to several models (docs/side-panel.md#ask-several-models-at-once): planned stateless, as that send is. */
    compare: z.literal(true).optional(),
  }),
);

/**
 * Every request: its payload schema and the senders it accepts. Each schema is built on its first
 * use, not with the table: the router reads the table for the first message after every wake.
 */
export const REQUESTS = onFirstUse(
  () =>
    ({
      listConversations: { input: empty, from: ['extension'] },
      /**
       * The conversation, or with `limit` only its newest `limit` turns, or with `limit` and `before`
       * (a turn id) the `limit` turns just before that turn (docs/architecture.md#long-conversations-and-speed: open fast, page back on request).
       * Without `limit`, every turn.
       */
      getConversation: {
        input: onFirstUse(() =>
          z.strictObject({ id, limit: z.number().int().min(1).max(100_000).optional(), before: id.optional() }),
        ),
        from: ['extension'],
      },
      createConversation: {
        input: onFirstUse(() =>
          z.strictObject({
            title: z.string().max(LIMITS.title).optional(),
            target: sendTargetSchema.optional(),
            /** Its instructions (docs/side-panel.md#instructions); absent: the default instructions for new conversations. */
            instructions: z.string().max(INSTRUCTIONS_MAX_CHARS).optional(),
          }),
        ),
        from: ['extension'],
      },
      renameConversation: {
        input: onFirstUse(() => z.strictObject({ id, title: z.string().min(1).max(LIMITS.title) })),
        from: ['extension'],
      },
      deleteConversation: { input: onFirstUse(() => z.strictObject({ id })), from: ['extension'] },
      sendMessage: {
        input: onFirstUse(() =>
          z.strictObject({
            conversationId: id,
            text: z.string().max(LIMITS.messageText),
            attachments: z.array(attachmentSchema).max(LIMITS.attachments).optional(),
            target: sendTargetSchema,
            /** The person confirmed disclosing this conversation to a provider that has not received it (docs/disclosure.md). */
            ...confirmationFields,
            ...exclusionFields,
          }),
        ),
        from: ['extension'],
      },
      /** What a send would disclose (plan summary, per-turn fates) and the exact JSON body, without sending (docs/disclosure.md). */
      previewSend: { input: previewInput, from: ['extension'] },
      /**
       * Asks the target provider's token-count endpoint (Anthropic `count_tokens`, Gemini
       * `countTokens`) to count the turns of this conversation it has already received — never the
       * draft, never a turn only another provider received — and calibrates the estimates with it
       * (docs/disclosure.md). Same inputs as `previewSend`; returns that preview, recomputed. Refused with
       * `not_received` (no request) when the provider has received none of it.
       */
      countTokens: { input: previewInput, from: ['extension'] },
      /** The disclosure ledger of a conversation and who has seen it, per conversation and per turn (docs/disclosure.md). */
      listDisclosures: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] },
      /** The global disclosure policy and, with `conversationId`, that conversation's. */
      getDisclosurePolicy: {
        input: onFirstUse(() => z.strictObject({ conversationId: id.optional() })),
        from: ['extension'],
      },
      /** Replaces the global policy, or with `conversationId` that conversation's. */
      setDisclosurePolicy: {
        input: onFirstUse(() => z.strictObject({ conversationId: id.optional(), policy: disclosurePolicySchema })),
        from: ['extension'],
      },
      /** Sends the conversation again after a failed, interrupted or stopped answer, without a new user turn (L2). */
      retryTurn: {
        input: onFirstUse(() =>
          z.strictObject({ conversationId: id, target: sendTargetSchema, ...confirmationFields }),
        ),
        from: ['extension'],
      },
      stopGeneration: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] },
      /**
       * The answer streaming in a conversation as last broadcast, with its `seq`, or `null` when none is
       * in flight: for a panel that missed deltas (docs/architecture.md#streaming-to-the-side-panel).
       */
      resumeStream: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] },
      getSettings: { input: empty, from: ['extension'] },
      setDefaultTarget: { input: onFirstUse(() => z.strictObject({ target: sendTargetSchema })), from: ['extension'] },
      /** Saves a built-in provider's key, bound to the provider's current origin (N2). */
      setKey: {
        input: onFirstUse(() =>
          z.strictObject({ providerId: providerIdSchema, key: z.string().min(1).max(LIMITS.key) }),
        ),
        from: ['extension'],
      },
      deleteKey: { input: onFirstUse(() => z.strictObject({ providerId: providerIdSchema })), from: ['extension'] },
      /** Calls a cheap endpoint (the model list) with the saved key and says whether it works. */
      testKey: { input: onFirstUse(() => z.strictObject({ providerId: providerIdSchema })), from: ['extension'] },
      /** Sets (or clears, with `null`) a built-in provider's base URL; only after its host permission is granted (N1). */
      setBaseUrl: {
        input: onFirstUse(() =>
          z.strictObject({
            providerId: builtinProviderSchema,
            baseUrl: z.string().url().max(LIMITS.url).nullable(),
          }),
        ),
        from: ['extension'],
      },
      saveEndpoint: { input: endpointInputSchema, from: ['extension'] },
      deleteEndpoint: { input: onFirstUse(() => z.strictObject({ id: providerIdSchema })), from: ['extension'] },
      listModels: {
        input: onFirstUse(() => z.strictObject({ providerId: providerIdSchema, refresh: z.boolean().optional() })),
        from: ['extension'],
      },
      deleteAllData: { input: onFirstUse(() => z.strictObject({ confirm: z.literal(true) })), from: ['extension'] },
      /**
       * Answers the last user turn again; the new answer is a new version beside the earlier one, which
       * stays reachable (docs/transcript.md#versions-and-branches).
       * Like `sendMessage`, `retryTurn`, `regenerateTurn` and `editAndResend` refuse a first disclosure
       * to a provider with `confirmation_required` unless `confirmedDisclosure` is true (docs/disclosure.md).
       */
      regenerateTurn: {
        input: onFirstUse(() =>
          z.strictObject({ conversationId: id, target: sendTargetSchema, ...confirmationFields }),
        ),
        from: ['extension'],
      },
      /**
       * Adds `text` as a new version of user turn `turnId` (any user turn) and sends it: a new branch
       * starts there; the earlier version and its later turns stay (docs/transcript.md#versions-and-branches).
       * The original turn's attached images and documents are sent again.
       */
      editAndResend: {
        input: onFirstUse(() =>
          z.strictObject({
            conversationId: id,
            turnId: id,
            text: z.string().max(LIMITS.messageText),
            target: sendTargetSchema,
            ...confirmationFields,
          }),
        ),
        from: ['extension'],
      },
      pinConversation: { input: onFirstUse(() => z.strictObject({ id, pinned: z.boolean() })), from: ['extension'] },
      /**
       * Makes the path through turn `turnId` (a version of a turn) the active one: the conversation
       * continues from that version's newest continuation (docs/transcript.md#versions-and-branches).
       * Refused with `busy` while an answer streams.
       */
      selectVersion: {
        input: onFirstUse(() => z.strictObject({ conversationId: id, turnId: id })),
        from: ['extension'],
      },
      /**
       * Deletes one version — turn `turnId` and every turn after it on its branch — when the turn has
       * other versions (the panel sends it when the undo window ends; docs/transcript.md#versions-and-branches).
       * Refused with `busy` while an answer streams, `bad_request` for a turn's only version.
       */
      deleteVersion: {
        input: onFirstUse(() => z.strictObject({ conversationId: id, turnId: id })),
        from: ['extension'],
      },
      /** What a model accepts, from the model registry (the UI may not import `lib/models`). */
      getModelInfo: {
        input: onFirstUse(() => z.strictObject({ providerId: providerIdSchema, model: modelId })),
        from: ['extension'],
      },
      /**
       * On-device answers (Chrome's Prompt API runs in the page, not the worker): stores the user
       * turn and an empty `streaming` assistant turn of origin `chrome/chrome-prompt`, and returns
       * the conversation converted for the Prompt API. Nothing leaves the device.
       */
      startOnDevice: {
        input: onFirstUse(() =>
          z.strictObject({ conversationId: id, text: z.string().min(1).max(LIMITS.messageText) }),
        ),
        from: ['extension'],
      },
      /** Checkpoints or finishes an on-device answer started by `startOnDevice` (only such a turn can be written). */
      saveOnDeviceAnswer: {
        input: onFirstUse(() =>
          z.strictObject({
            conversationId: id,
            turnId: id,
            text: z.string().max(LIMITS.messageText),
            status: z.enum(['streaming', 'complete', 'stopped', 'interrupted', 'error']),
            error: z.string().max(500).optional(),
          }),
        ),
        from: ['extension'],
      },
      /** Import and export (docs/architecture.md#the-background-by-feature): `importFile`, `exportConversation`, `exportAll` (transfer-protocol.ts). */
      ...TRANSFER_REQUESTS,
      /** Passphrase mode (S2, S3): `vaultStatus`, `setPassphrase`, `unlockVault`, `lockVault`, `removePassphrase` (vault-protocol.ts). */
      ...VAULT_REQUESTS,
      /** End-to-end encrypted sync (docs/security.md#sync): `syncStatus`, `syncCreate`, `syncJoin`, `syncNow`, `syncStop`, `syncRemoveRemote` (sync-protocol.ts). */
      ...SYNC_REQUESTS,
      /** Conversation instructions (docs/side-panel.md#instructions): `setInstructions`, `getInstructions`, `getDefaultInstructions`, `setDefaultInstructions`. */
      ...INSTRUCTIONS_REQUESTS,
      /** Capture from chat pages (docs/architecture.md#the-background-by-feature): `captureSubmit` (content scripts only, M2), `takePendingCapture` (capture-protocol.ts). */
      ...CAPTURE_REQUESTS,
      /** Summarise the earlier part (docs/disclosure.md): `previewSummary`, `summariseEarlier`, `getSummary`, `clearSummary` (summary-types.ts). */
      ...summaryRequests(
        sendTargetSchema,
        onFirstUse(() => z.array(attachmentSchema).max(LIMITS.attachments).optional()),
      ),
      /** Full-text search (docs/side-panel.md#search): `searchConversations` (search-protocol.ts). */
      ...SEARCH_REQUESTS,
      /** Ask several models at once (docs/side-panel.md#ask-several-models-at-once): `sendCompare` (compare-protocol.ts). */
      ...compareRequests(
        sendTargetSchema,
        onFirstUse(() => z.array(attachmentSchema).max(LIMITS.attachments).optional()),
      ),
    }) as const satisfies Record<string, { input: z.ZodType; from: readonly ('extension' | 'content')[] }>,
);

export type RequestType = keyof typeof REQUESTS;
export type RequestInput<T extends RequestType> = z.input<(typeof REQUESTS)[T]['input']>;
export type RequestPayload<T extends RequestType> = z.output<(typeof REQUESTS)[T]['input']>;

/** What travels over `runtime.sendMessage`. */
export const envelopeSchema = onFirstUse(() =>
  z.strictObject({ type: z.string().min(1).max(64), payload: z.unknown() }),
);
export type Envelope = z.infer<typeof envelopeSchema>;

/** Error codes a UI can act on (P1, P2, P5, S3, N1). */
export const errorCodeSchema = onFirstUse(() =>
  z.enum([
    'bad_request',
    'forbidden',
    'not_found',
    'no_key',
    'invalid_key',
    'locked',
    'rate_limited',
    'quota',
    'overloaded',
    'context_too_long',
    'blocked',
    'network',
    'timeout',
    'endpoint_not_permitted',
    'provider_error',
    'storage_full',
    'busy',
    'internal',
    /** A first send of this conversation to a provider needs `confirmedDisclosure: true` (docs/disclosure.md). */
    'confirmation_required',
    /** A disclosure policy forbids this provider for this conversation (docs/disclosure.md). */
    'policy_forbidden',
    /** The provider has received none of this conversation, so it may not be asked to count it (docs/disclosure.md). */
    'not_received',
  ]),
);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export interface ProtocolError {
  code: ErrorCode;
  /** Text for people: escaped on render, ≤ 500 characters, never key material (P5). */
  message: string;
  /** Seconds until a retry makes sense (rate limits). */
  retryAfterSec?: number;
  /**
   * A sentence Baton wrote itself (a capture outcome such as "Nothing was captured: …"), shown
   * instead of the code's generic sentence, which speaks of a provider (docs/side-panel.md, item 8).
   */
  sentence?: string;
}

export type Reply<T> = { ok: true; data: T } | { ok: false; error: ProtocolError };

/** Metadata of a conversation, as listed (never its turns). */
export const conversationMetaSchema = onFirstUse(() =>
  z.strictObject({
    id,
    title: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    turnCount: z.number().int().nonnegative(),
    preview: z.string(),
    pinned: z.boolean().optional(),
    lastTarget: sendTargetSchema.optional(),
    source: z.strictObject({ kind: z.string(), id: z.string().optional(), url: z.string().optional() }).optional(),
  }),
);
export type ConversationMeta = z.infer<typeof conversationMetaSchema>;

export interface ConversationView {
  meta: ConversationMeta;
  turns: z.infer<typeof turnSchema>[];
  /** True while a send is in flight for it. */
  busy: boolean;
  /** Older turns exist before `turns[0]` (a windowed read, `getConversation` with `limit`); absent means none. */
  hasEarlier?: boolean;
  /** With `hasEarlier`: the conversation's first turn, which is not in `turns` (its capture stamp, docs/architecture.md#the-background-by-feature). */
  first?: z.infer<typeof turnSchema>;
  /**
   * The turns of `turns` that have several versions, by turn id: this one's 1-based `index`, the
   * `count`, and the ids of the versions either side (docs/transcript.md#versions-and-branches).
   */
  versions?: Record<string, { index: number; count: number; previous?: string; next?: string }>;
  /** The conversation's instructions (its transcript `system`, docs/side-panel.md#instructions); absent when none. */
  instructions?: string;
}

export interface ProviderStatus {
  id: ProviderId;
  name: string;
  api: z.infer<typeof wireApiSchema>;
  /** Base URL when not the default. */
  baseUrl?: string;
  /** At most the last 4 characters of the key (S5). */
  maskedKey?: string;
  hasKey: boolean;
  /** The key is bound to another origin than the current base URL (N2): re-enter it to use it here. */
  keyUnbound?: boolean;
  flavor?: string;
  defaultModel?: string;
  keyInvalid?: boolean;
}

export interface Settings {
  providers: ProviderStatus[];
  defaultTarget?: SendTarget;
}

/**
 * One model of a provider, for the model picker (docs/side-panel.md): from the provider's own list,
 * with what the model registry knows of it (lib/models/picker.ts).
 */
export interface ModelOption {
  id: string;
  /** Display name from the registry ("Claude Sonnet 4.6"). */
  name?: string;
  /** Context window in tokens. */
  contextWindow?: number;
  vision?: boolean;
  /** Can reason before answering. */
  thinking?: boolean;
  /** List price in USD per 1M tokens. */
  price?: { input: number; output: number };
  /** The provider has announced its end. */
  deprecated?: boolean;
  /** false: known to the registry but not in the provider's own list; absent: listed. */
  listed?: boolean;
  /** The wire APIs that serve it, the default first; only when there is a choice (Gemini: generateContent, Interactions). */
  apis?: WireApi[];
}

/** The result type of each request. */
export interface Responses
  extends
    TransferResponses,
    VaultResponses,
    CaptureResponses,
    SummaryResponses,
    SearchResponses,
    SyncResponses,
    InstructionsResponses {
  listConversations: ConversationMeta[];
  getConversation: ConversationView;
  createConversation: ConversationMeta;
  renameConversation: ConversationMeta;
  deleteConversation: null;
  sendMessage: { userTurnId: string };
  sendCompare: CompareOutcome<SendTarget, ProtocolError>;
  getCompare: CompareGroup<z.infer<typeof turnSchema>> | null;
  endCompare: null;
  retryTurn: null;
  stopGeneration: null;
  resumeStream: { turn: z.infer<typeof turnSchema>; seq: number } | null;
  getSettings: Settings;
  setDefaultTarget: null;
  setKey: ProviderStatus;
  deleteKey: null;
  testKey: { ok: boolean; message: string };
  setBaseUrl: ProviderStatus;
  saveEndpoint: ProviderStatus;
  deleteEndpoint: null;
  listModels: ModelOption[];
  deleteAllData: null;
  regenerateTurn: null;
  editAndResend: { userTurnId: string };
  pinConversation: ConversationMeta;
  selectVersion: ConversationMeta;
  deleteVersion: ConversationMeta;
  getModelInfo: ModelCapabilities;
  startOnDevice: OnDeviceStart;
  saveOnDeviceAnswer: ConversationMeta;
  previewSend: DisclosurePreview;
  countTokens: CountTokensResult;
  listDisclosures: DisclosureLedger;
  getDisclosurePolicy: { global: DisclosurePolicy; conversation?: DisclosurePolicy };
  setDisclosurePolicy: null;
}

/** What `startOnDevice` returns: the stored turns and the Prompt API input. */
export interface OnDeviceStart {
  userTurn: z.infer<typeof turnSchema>;
  /** The empty assistant turn the answer goes into (status `streaming`). */
  answerTurn: z.infer<typeof turnSchema>;
  meta: ConversationMeta;
  /** For `LanguageModel.create({ initialPrompts })` and `session.promptStreaming(prompt)`. */
  body: { initialPrompts: { role: 'system' | 'user' | 'assistant'; content: string }[]; prompt: string };
  /** Conversion warnings (e.g. tools the on-device model cannot call). */
  warnings: string[];
}

/** What a model accepts (from the registry; `known: false` means conservative defaults were used). */
export interface ModelCapabilities {
  /** Accepts image input. */
  vision: boolean;
  /** Accepts PDF documents. */
  pdf: boolean;
  /** Context window in tokens. */
  contextWindow: number;
  known: boolean;
}

/** Port names the background accepts (M4: others are disconnected at once). */
export const PORTS = { events: 'baton-events' } as const;

/** Events broadcast to connected extension pages, named in the past tense. */
export type BackgroundEvent =
  /**
   * A whole turn changed (new turn, a new non-text block, final state). `seq`: set on the events of
   * an answer in flight, numbering them with its `textDelta`s (docs/architecture.md#streaming-to-the-side-panel).
   */
  | { type: 'turnUpdated'; conversationId: string; turn: z.infer<typeof turnSchema>; seq?: number }
  /**
   * Text appended to block `index` of a streaming turn: cost proportional to the chunk, not the
   * message. `at`: the block's text length before it; `seq`: one more than the answer's previous
   * event (a panel that sees a gap asks `resumeStream` for the state once, then goes on).
   */
  | {
      type: 'textDelta';
      conversationId: string;
      turnId: string;
      index: number;
      kind: 'text' | 'thinking';
      at: number;
      seq: number;
      text: string;
    }
  | { type: 'conversationUpdated'; meta: ConversationMeta }
  | { type: 'conversationDeleted'; id: string }
  /**
   * The conversation's active summary was stored (`summariseEarlier`) or cleared (`clearSummary`),
   * docs/disclosure.md "Fitting": every open panel of it refreshes its preview and summary notice.
   */
  | { type: 'summaryUpdated'; conversationId: string }
  /** A context-menu capture finished: open `conversationId` (its `lastTarget` is the chosen target), or show `error`. */
  | ({ type: 'captureReady' } & CaptureOutcome)
  | {
      type: 'sendStateChanged';
      conversationId: string;
      state: 'sending' | 'streaming' | 'retrying' | 'idle';
      error?: ProtocolError;
      retryInSec?: number;
    };
