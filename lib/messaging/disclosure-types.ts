/**
 * Protocol shapes of the disclosure preview, policies and ledger (docs/disclosure.md). Payload schemas are
 * here so `protocol.ts` only names them. Units: tokens for every count, US dollars for costs.
 * Nothing here ever carries a key: keys live only in request headers (N5).
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import type { EstimateSource, ProviderCount } from '../context/count-state';
import type { Fate } from '../transcript/report';
import type { Role } from '../transcript/schema';

const turnId = onFirstUse(() => z.string().min(1).max(200));

/** Turns and blocks the person leaves out of one send (toggles in the preview). */
export const exclusionFields = onFirstUse(() => ({
  excludeTurns: z.array(turnId).max(10_000).optional(),
  excludeBlocks: z
    .array(z.strictObject({ turn: turnId, index: z.number().int().nonnegative().max(100_000) }))
    .max(10_000)
    .optional(),
  /**
   * docs/security.md ("Hostile providers and files"): the person chose "Send provider state from the
   * imported file" in the preview, so this send (and its preview) replays the imported file's opaque
   * provider state (`importedState: 'replay'`); without it that state is dropped and reported.
   */
  replayImportedState: z.boolean().optional(),
}));

/**
 * The person's answer to the first-disclosure confirmation, on `sendMessage`, `retryTurn`,
 * `regenerateTurn` and `editAndResend` (docs/disclosure.md). `confirmedDisclosure: true` alone confirms for
 * whatever provider the request goes to (older panels); with `confirmedFor` — the provider id and
 * endpoint origin the dialog was shown for (`DisclosurePreview.target`) — it authorises only that
 * provider, so a confirmation shown for A cannot send the conversation to B.
 */
export const confirmationFields = onFirstUse(() => ({
  confirmedDisclosure: z.boolean().optional(),
  confirmedFor: z
    .strictObject({ providerId: z.string().min(1).max(200), origin: z.string().min(1).max(2_000) })
    .optional(),
}));

/**
 * A disclosure policy, global or per conversation (lib/context `Policy` without the per-send
 * exclusions, plus `delivery`). `delivery: 'stateful'` (off by default) lets an OpenAI Responses
 * target keep the conversation server-side and receive only new turns.
 */
export const disclosurePolicySchema = onFirstUse(() =>
  z.strictObject({
    maxTurns: z.number().int().positive().max(1_000_000).optional(),
    maxTokens: z.number().int().positive().max(100_000_000).optional(),
    foreignReasoning: z.enum(['drop', 'text']).optional(),
    /** A-B3: Anthropic thinking that fails its conversation check is dropped (default) or refused. */
    prefixMismatchBehavior: z.enum(['drop_block', 'error']).optional(),
    images: z.enum(['send', 'omit']).optional(),
    lockedProvider: z.string().min(1).max(200).optional(),
    neverProviders: z.array(z.string().min(1).max(200)).max(50).optional(),
    delivery: z.enum(['snapshot', 'stateful']).optional(),
  }),
);
export type DisclosurePolicy = z.infer<typeof disclosurePolicySchema>;

/** One block of a turn in the preview, with what happens to it. */
export interface PreviewBlock {
  index: number;
  type: string;
  /** The last fate applied (`dropped` when the block is not sent). */
  fate: Fate;
  detail: string;
  /** For a tool call, the tool's name; for a tool result, the name of the tool it answers (when known). */
  name?: string;
  /** For a document: its title (an added page's is "title — URL", docs/side-panel.md#add-this-page). */
  title?: string;
  /** For a document that is sent: its estimated tokens (its own row in the preview). */
  tokens?: number;
}

/** One turn of the conversation in the preview. */
export interface PreviewTurn {
  id: string;
  role: Role;
  /** The unsent draft (not stored yet). */
  draft?: boolean;
  included: boolean;
  pinned: boolean;
  /** Estimated tokens of the turn as it would be sent. */
  tokens: number;
  /** Why it is not sent. */
  droppedReason?: string;
  /** The first words of its text, for the list. */
  preview: string;
  blocks: PreviewBlock[];
  /** The active summary's turn (a labelled user turn sent in place of `replaces` earlier turns), with who wrote it. */
  summary?: { by: { provider: string; model: string }; replaces: number };
  /** A stored turn the active summary stands for (not sent itself). */
  summarised?: boolean;
}

/** The conversation's active summary in this send (docs/disclosure.md, "Fitting"). */
export interface PreviewSummary {
  /** `applied`: sent in place of its turns; `stale`: a replaced turn was edited or deleted, so it is not sent. */
  state: 'applied' | 'stale';
  /** The summary turn's id in `perTurn` (applied only). */
  turnId?: string;
  /** How many stored turns it stands for. */
  replaces: number;
  by: { provider: string; model: string };
  /** Why it is stale. */
  reason?: string;
}

/** What a send would disclose, to whom and at what cost (`previewSend`). */
export interface DisclosurePreview {
  target: { providerId: string; api: string; model: string; origin: string };
  /** false when a policy forbids this provider (nothing would be sent). */
  allowed: boolean;
  forbidden?: string;
  turns: number;
  includedTurns: number;
  estimatedInputTokens: number;
  estimatedCostUsd?: number;
  contextWindow: number;
  maxOutputTokens: number;
  inputBudget: number;
  fits: boolean;
  notFit?: string;
  thinkingDropped: number;
  /**
   * Earlier reasoning the target will not see, by why, with the turns and the reasoning tokens they
   * cost (docs/provider-rules.md; A-B1, A-B2, A-B4, A-B5, A-P1, X3). Absent when none.
   */
  reasoningUnused?: {
    reason: 'other-model' | 'other-account' | 'dropped-earlier' | 'summarised' | 'prefix-changed';
    turns: number;
    reasoningTokens: number;
  }[];
  /**
   * C-T9 (docs/provider-rules.md): how a Chat Completions request to one of OpenAI's 2026 models
   * was changed so the API does not refuse function tools with a reasoning effort —
   * `effort-none` (reasoning off, tools kept), `tools-left-out` (the model takes tools only on
   * Responses; reasoning kept) or `stub-tools-left-out` (the history's stub definitions left out,
   * reasoning kept). Absent when nothing changed.
   */
  toolsWithReasoning?: { outcome: 'effort-none' | 'tools-left-out' | 'stub-tools-left-out'; model: string };
  imagesOmitted: number;
  blocksDropped: number;
  /** Dropped turns counted by reason (`excluded`, `over-budget`, …). */
  droppedByReason: Record<string, number>;
  /** Blocks of included turns converted (not sent as they are), and dropped. */
  convertedBlocks: number;
  perTurn: PreviewTurn[];
  /** `snapshot` (the bounded history) or `delta` (only new turns after a stored response). */
  /**
   * Snapshot (the whole bounded history) or delta (only the new turns after a stored response or
   * interaction), and why. `stateful`: the conversation lets the target keep it server-side, so a
   * snapshot's `detail` is the reason this send cannot be a delta (shown in the preview).
   */
  delivery: { mode: 'snapshot' | 'delta'; detail: string; stateful?: true };
  /** True when this provider (id and endpoint origin) has not received this conversation yet. */
  needsConfirmation: boolean;
  /**
   * The conversation's instructions (transcript `system`) in this request, as their own row
   * (docs/disclosure.md#instructions): `sent` with their estimated `tokens` (part of
   * `estimatedInputTokens`; they are never left out to fit — clear them to stop sending them) and
   * their first words; `change` on the first send after they were `added`, `changed` or `removed`
   * since the last completed send to this provider (id and endpoint origin): its prompt cache
   * starts again from them. Absent when there are none and nothing changed.
   */
  instructions?: {
    sent: boolean;
    tokens: number;
    preview: string;
    change?: 'added' | 'changed' | 'removed';
  };
  /**
   * Exclusions of this request that name a turn, or a block index of a turn, that does not exist
   * in the conversation (any more): they change nothing and a send ignores them too. Absent when
   * every exclusion names something that exists.
   */
  unknownExclusions?: UnknownExclusions;
  /**
   * Turns holding opaque provider state from an imported Baton file that this target would
   * otherwise replay (docs/security.md, "Hostile providers and files"): `replayed` false — not sent
   * unless the person chooses to; true — sent, because the request asked `replayImportedState`.
   * Absent when there are none.
   */
  importedState?: { turns: number; replayed: boolean };
  /** The exact JSON body that would be sent (never a key). */
  body: Record<string, unknown>;
  /**
   * An exact count may be asked for (`countTokens`): the target's API has a token-count endpoint
   * (Anthropic, Gemini; never OpenAI or an OpenAI-compatible endpoint) and this provider (id and
   * endpoint origin) has already received some of this conversation as it is now.
   */
  exactCountAvailable: boolean;
  /** Where {@link estimatedInputTokens} comes from. */
  estimateSource: EstimateSource;
  /** With `estimateSource: 'provider-count'`: the provider's count it was calibrated by. */
  providerCount?: ProviderCount;
  /** The active summary, when the conversation has one. */
  summary?: PreviewSummary;
  /** Asked with `countsOnly` (docs/architecture.md#long-conversations-and-speed): `perTurn` is empty and `body` is `{}`; every count above is complete. */
  countsOnly?: true;
}

// Defined with the count planning (layer 2, lib/context/count-state.ts), which reads and writes them.
export type { EstimateSource, ProviderCount };

/** `countTokens`: the provider's count and the preview recomputed with it. */
export interface CountTokensResult {
  /** Input tokens the provider counted (tokens). */
  countedTokens: number;
  /** Turns the count request carried (only turns the provider had received). */
  countedTurns: number;
  /** The preview for the same inputs, now calibrated (`estimateSource: 'provider-count'`). */
  preview: DisclosurePreview;
}

/** Left-out turn ids and block refs that name nothing in the conversation (see {@link DisclosurePreview}). */
export interface UnknownExclusions {
  turns: string[];
  blocks: { turn: string; index: number }[];
}

/**
 * What a provider reported it dropped from one request (docs/disclosure.md, "What the provider
 * dropped"). Today only Anthropic reports it: under the thinking-binding beta every answer lists in
 * `input_transformations` the thinking blocks the API left out (A-B5).
 */
export interface ProviderDrop {
  /** What was dropped: the model's earlier reasoning (thinking blocks). */
  what: 'reasoning';
  /** How many blocks the provider dropped. */
  blocks: number;
  /** Ids of the earlier turns those blocks came from (the ones Baton could place), in conversation order. */
  turns: string[];
  /** The provider's own reason codes, each once, in the order given (e.g. `prefix_binding_mismatch`). */
  reasons: string[];
}

/** One ledger entry as listed (delivery receipts are internal and never listed). */
export interface DisclosureEntry {
  id: number;
  at: string;
  providerId: string;
  api: string;
  model: string;
  /** The endpoint origin the request went to. */
  endpoint: string;
  status: 'completed' | 'failed';
  mode: 'snapshot' | 'delta';
  /** `[turnId, contentHash]` of every turn sent. */
  turns: [string, string][];
  estimatedInputTokens?: number;
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
    reasoningTokens?: number;
  };
  costUsd?: number;
  responseId?: string;
  /** `summary`: a request for a summary of earlier turns (docs/disclosure.md, "Fitting"), not a send. */
  purpose?: 'summary';
  /** What the provider reported it dropped from this request; absent when it reported nothing (and on older records). */
  dropped?: ProviderDrop;
  /** The provider was asked to keep this request server-side (`store: true`, stateful delivery). */
  stored?: true;
}

/** One provider (id + endpoint origin) that received some of a conversation. */
export interface SeenBy {
  providerId: string;
  endpoint: string;
  /** Models it went to, in first-seen order. */
  models: string[];
  sends: number;
  firstAt: string;
  lastAt: string;
  /**
   * What the provider keeps of the conversation server-side, in its own words, when a send asked it
   * to (`stored responses` for OpenAI Responses, `stored interactions` for Gemini Interactions).
   */
  keeps?: string[];
}

/** `listDisclosures`: the ledger and "who has seen this", per conversation and per turn. */
export interface DisclosureLedger {
  entries: DisclosureEntry[];
  seenBy: SeenBy[];
  /** Turn id → indices into {@link seenBy} of the providers that received that turn. */
  turns: Record<string, number[]>;
}
