/**
 * Protocol shapes of the disclosure preview, policies and ledger (issue 6). Payload schemas are
 * here so `protocol.ts` only names them. Units: tokens for every count, US dollars for costs.
 * Nothing here ever carries a key: keys live only in request headers (N5).
 */
import { z } from 'zod';
import type { Fate } from '../transcript/report';
import type { Role } from '../transcript/schema';

const turnId = z.string().min(1).max(200);

/** Turns and blocks the person leaves out of one send (toggles in the preview). */
export const exclusionFields = {
  excludeTurns: z.array(turnId).max(10_000).optional(),
  excludeBlocks: z
    .array(z.strictObject({ turn: turnId, index: z.number().int().nonnegative().max(100_000) }))
    .max(10_000)
    .optional(),
};

/**
 * A disclosure policy, global or per conversation (lib/context `Policy` without the per-send
 * exclusions, plus `delivery`). `delivery: 'stateful'` (off by default) lets an OpenAI Responses
 * target keep the conversation server-side and receive only new turns.
 */
export const disclosurePolicySchema = z.strictObject({
  maxTurns: z.number().int().positive().max(1_000_000).optional(),
  maxTokens: z.number().int().positive().max(100_000_000).optional(),
  foreignReasoning: z.enum(['drop', 'text']).optional(),
  images: z.enum(['send', 'omit']).optional(),
  lockedProvider: z.string().min(1).max(200).optional(),
  neverProviders: z.array(z.string().min(1).max(200)).max(50).optional(),
  delivery: z.enum(['snapshot', 'stateful']).optional(),
});
export type DisclosurePolicy = z.infer<typeof disclosurePolicySchema>;

/** One block of a turn in the preview, with what happens to it. */
export interface PreviewBlock {
  index: number;
  type: string;
  /** The last fate applied (`dropped` when the block is not sent). */
  fate: Fate;
  detail: string;
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
  imagesOmitted: number;
  blocksDropped: number;
  /** Dropped turns counted by reason (`excluded`, `over-budget`, …). */
  droppedByReason: Record<string, number>;
  /** Blocks of included turns converted (not sent as they are), and dropped. */
  convertedBlocks: number;
  perTurn: PreviewTurn[];
  /** `snapshot` (the bounded history) or `delta` (only new turns after a stored response). */
  delivery: { mode: 'snapshot' | 'delta'; detail: string };
  /** True when this provider (id and endpoint origin) has not received this conversation yet. */
  needsConfirmation: boolean;
  /** The exact JSON body that would be sent (never a key). */
  body: Record<string, unknown>;
  /** Asked with `summary` (issue 9): `perTurn` is empty and `body` is `{}`; every count above is complete. */
  summaryOnly?: true;
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
  usage?: { inputTokens?: number; outputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number; reasoningTokens?: number };
  costUsd?: number;
  responseId?: string;
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
}

/** `listDisclosures`: the ledger and "who has seen this", per conversation and per turn. */
export interface DisclosureLedger {
  entries: DisclosureEntry[];
  seenBy: SeenBy[];
  /** Turn id → indices into {@link seenBy} of the providers that received that turn. */
  turns: Record<string, number[]>;
}
