/**
 * The conversation's active summary in what is sent (docs/disclosure.md, "Fitting": the summary becomes a
 * labelled turn). It replaces its turns only while every one of them still exists with the
 * content hash it had when summarised; an edited or deleted turn makes it stale, and a stale
 * summary is not sent (the preview says so, so the person can summarise again). The stored
 * turns are never changed. Pure.
 */
import { turnContentHash } from './hash';
import { applySummary } from './summary';
import type { Origin, Transcript } from '../transcript/schema';

/** What the plan reads of a conversation's active summary (the protocol's `ActiveSummary` carries more). */
export interface AppliedSummary {
  /** Stored turn ids it replaces, in conversation order. */
  replaces: string[];
  /** `[turnId, contentHash]` of each replaced turn when it was summarised. */
  hashes: [string, string][];
  /** The summary as the summariser wrote it. */
  text: string;
  /** Who wrote it. */
  origin: Origin;
}

/** What became of the active summary in one plan. */
export type SummaryState<S extends AppliedSummary = AppliedSummary> =
  /** Sent: `turnId` is the summary turn that stands for `summary.replaces`. */
  | { state: 'applied'; summary: S; turnId: string }
  /** Not sent: `reason` says which replaced turn changed or is gone. */
  | { state: 'stale'; summary: S; reason: string };

/** Why `summary` no longer matches `transcript` (the first replaced turn edited or deleted), or undefined when it matches. */
export function staleReason(transcript: Transcript, summary: AppliedSummary): string | undefined {
  const byId = new Map(transcript.turns.map((t) => [t.id, t] as const));
  if (summary.hashes.length === 0 || summary.hashes.length !== summary.replaces.length)
    return 'the summary names no turns';
  for (const [id, hash] of summary.hashes) {
    const turn = byId.get(id);
    if (!turn) return `turn ${id} was deleted after it was summarised`;
    if (turnContentHash(turn) !== hash) return `turn ${id} was edited after it was summarised`;
  }
  return undefined;
}

/**
 * `transcript` with the active summary in place of its turns (`applySummary`: one labelled user
 * turn, never a system turn, N5), or unchanged with the reason when the summary is stale.
 * @param basis the stored turns to check the hashes against, when `transcript` is a changed copy of them (same ids).
 */
export function withActiveSummary<S extends AppliedSummary>(
  transcript: Transcript,
  summary: S,
  basis: Transcript = transcript,
): { transcript: Transcript; state: SummaryState<S> } {
  const reason = staleReason(basis, summary);
  if (reason) return { transcript, state: { state: 'stale', summary, reason } };
  const applied = applySummary(transcript, summary.replaces, summary.text, summary.origin);
  const before = new Set(transcript.turns.map((t) => t.id));
  const turn = applied.turns.find((t) => !before.has(t.id));
  return { transcript: applied, state: { state: 'applied', summary, turnId: turn!.id } };
}
