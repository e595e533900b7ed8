/**
 * "Summarise the earlier part" over the protocol (docs/disclosure.md, "Fitting"): when the history does not
 * fit, the person may have the turns a send drops summarised by a model they pick (with its
 * estimated cost, only with their consent); the summary then goes in their place as one labelled
 * user turn. Request schemas are built by {@link summaryRequests} (spread into `REQUESTS` of
 * `protocol.ts`, which passes its send-target and attachments schemas, so there is no import cycle). Units: tokens
 * for counts, US dollars for costs.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import type { Origin, Usage } from '../transcript/schema';
import { confirmationFields, exclusionFields } from './disclosure-types';

const id = onFirstUse(() => z.string().min(1).max(200));
/** The draft the person is writing (1,000,000 characters, `LIMITS.messageText`): the turns picked are those the send of it would drop. */
const draftText = onFirstUse(() => z.string().max(1_000_000).optional());

/**
 * The conversation's active summary, stored in its record's `meta` (at most one). The stored
 * turns are never changed: the summary replaces `replaces` only in what is sent, and only while
 * each of them still has the hash in `hashes` (an edited or deleted turn makes it stale).
 */
export interface ActiveSummary {
  id: string;
  /** Stored turn ids it replaces, in conversation order. */
  replaces: string[];
  /** `[turnId, contentHash]` of each replaced turn when it was summarised. */
  hashes: [string, string][];
  /** The summary as the summariser wrote it (the sent turn adds a label naming the writer). */
  text: string;
  /** Who wrote it: provider, API, model and endpoint origin (when not the default). */
  origin: Origin;
  /** ISO time it was made. */
  at: string;
  /** What the summary request cost at list price (US dollars), when the price and usage are known. */
  costUsd?: number;
  usage?: Usage;
}

/** The active summary as the panel shows it: `stale` when a replaced turn was edited or deleted (then it is not sent). */
export interface SummaryView extends ActiveSummary {
  stale: boolean;
}

/** What a summary would cost and disclose (`previewSummary`); nothing is sent. */
export interface SummaryPreview {
  /** Stored turn ids to summarise, in conversation order (the turns the send drops to fit, plus an active summary's turns when its turn is dropped too). */
  turnIds: string[];
  /** How many of `turnIds` are not in the request itself because an active summary stands for them. */
  viaSummary: number;
  summariser: { providerId: string; api: string; model: string; origin: string };
  estimatedInputTokens: number;
  /** Most output tokens the summary may use. */
  maxOutputTokens: number;
  /** Input plus the whole output reserve at list price (an upper bound); absent when the price is unknown. */
  estimatedCostUsd?: number;
  /** The summariser's provider (id + origin) has not received this conversation yet. */
  needsConfirmation: boolean;
  /** false when a policy forbids the summariser (`lockedProvider`, `neverProviders`). */
  allowed: boolean;
  forbidden?: string;
  /** The request fits the summariser's context window. */
  fits: boolean;
  notFit?: string;
  /** The exact JSON body of the summary request (never a key). */
  body: Record<string, unknown>;
}

/**
 * The summary requests, over the protocol's send-target schema and its draft-attachments schema
 * (`attachments` as on `previewSend`: the draft's files, part of the send whose drops are summarised).
 */
export function summaryRequests<T extends z.ZodType, A extends z.ZodType>(target: T, attachments: A) {
  // A function, not a value: spreading `exclusionFields` builds its schemas, which this table's
  // construction must not do (each request's schema is built on its first use).
  const common = () => ({
    conversationId: id,
    target,
    summariser: target,
    text: draftText,
    attachments,
    ...exclusionFields,
  });
  return {
    /** Which turns a summary would replace, and what the summary request would disclose and cost (docs/disclosure.md). */
    previewSummary: { input: onFirstUse(() => z.strictObject(common())), from: ['extension'] as const },
    /**
     * Asks `summariser` for the summary of `turnIds` (which must be exactly what `previewSummary`
     * picks now) and stores it as the conversation's active summary, with its ledger record.
     * A first disclosure to the summariser's provider needs `confirmedDisclosure: true`; with
     * `confirmedFor` (the summariser's provider id + origin the dialog showed, `SummaryPreview.summariser`)
     * it authorises that provider only, exactly as on `sendMessage` (`confirmationFields`).
     */
    summariseEarlier: {
      input: onFirstUse(() =>
        z.strictObject({ ...common(), turnIds: z.array(id).min(1).max(100_000), ...confirmationFields }),
      ),
      from: ['extension'] as const,
    },
    /** The active summary (absent when none). */
    getSummary: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] as const },
    /** Stops using the active summary: sends drop the oldest turns again. */
    clearSummary: { input: onFirstUse(() => z.strictObject({ conversationId: id })), from: ['extension'] as const },
  };
}

export interface SummaryResponses {
  previewSummary: SummaryPreview;
  summariseEarlier: SummaryView;
  getSummary: { summary?: SummaryView };
  clearSummary: null;
}
