/**
 * "Summarise the earlier part" (docs/disclosure.md, "Fitting"): the request that asks a model of the
 * person's choice for a summary of the turns a plan dropped, with its estimated cost, and the
 * transcript in which that summary replaces them as one labelled user turn — never a system turn
 * (security-requirements.md N5: nothing imported or captured goes in a system role).
 */
import { estimateCostUsd, lookupModel } from '../models/registry';
import { TranscriptError } from '../transcript/codec';
import type { Origin, Transcript, Turn } from '../transcript/schema';
import { describeOrigin, resolveTarget, type ConvertTarget } from '../transcript/target';
import { fenced, isBlank } from '../transcript/text';
import { planTranscript } from './plan';
import type { TokenCache } from './token-cache';
import type { Plan, Policy } from './types';

/** Output reserve of a summary request when the target sets none (tokens). */
export const SUMMARY_OUTPUT_TOKENS = 2_048;

/** What the summarisation request asks for (the last user turn of that request). */
export const SUMMARY_INSTRUCTION =
  'Summarise the conversation above so that the summary can replace it as context for continuing the conversation. ' +
  'Keep facts, decisions, names, numbers, code identifiers, open questions and every instruction the user gave. ' +
  'Write only the summary, in the language of the conversation, without addressing anyone.';

export interface SummaryPlan {
  /** The request: the turns to summarise, in conversation order, then a user turn with {@link SUMMARY_INSTRUCTION}. No system prompt. */
  transcript: Transcript;
  /** The plan of that request to the summariser (nothing is dropped to fit: `fits` false when too large). */
  plan: Plan;
  /** Corrected input estimate (tokens). */
  estimatedInputTokens: number;
  /** Output reserve: the most the summary can cost in output (tokens). */
  maxOutputTokens: number;
  /** Input plus the whole output reserve at list price (US dollars, an upper bound); undefined when the price is unknown. */
  estimatedCostUsd?: number;
}

/**
 * Builds the summarisation request for the turns `droppedIds` (typically `plan.dropped`), for
 * the summariser the person picked, and plans it (same policy: exclusions, images, provider
 * locks apply; the policy's turn and token limits too).
 * @param summariser the model that writes the summary; `maxOutputTokens` defaults to {@link SUMMARY_OUTPUT_TOKENS}.
 * @throws TranscriptError (path `droppedIds[i]`) for an empty list or an id not in the transcript.
 */
export function planSummary(
  transcript: Transcript,
  droppedIds: readonly string[],
  summariser: ConvertTarget,
  policy: Policy = {},
  cache?: TokenCache,
): SummaryPlan {
  const turns = pickTurns(transcript, droppedIds);
  const request: Transcript = {
    format: transcript.format,
    version: transcript.version,
    id: `${transcript.id}-summary-request`,
    ...(transcript.tools ? { tools: transcript.tools } : {}),
    turns: [
      ...turns,
      {
        id: uniqueId(transcript, 'baton-summary-request'),
        role: 'user',
        blocks: [{ type: 'text', text: SUMMARY_INSTRUCTION }],
      },
    ],
  };
  const target: ConvertTarget = { ...summariser, maxOutputTokens: summariser.maxOutputTokens ?? SUMMARY_OUTPUT_TOKENS };
  const plan = planTranscript(request, target, policy, cache, { keepAll: true });
  const resolved = resolveTarget(target);
  const cost = plan.allowed
    ? estimateCostUsd(lookupModel(resolved.model, resolved.provider), {
        inputTokens: plan.estimatedInputTokens,
        outputTokens: plan.maxOutputTokens,
      })
    : undefined;
  return {
    transcript: request,
    plan,
    estimatedInputTokens: plan.estimatedInputTokens,
    maxOutputTokens: plan.maxOutputTokens,
    ...(cost !== undefined ? { estimatedCostUsd: cost } : {}),
  };
}

/**
 * The transcript with the turns `droppedIds` replaced by one user turn holding the summary,
 * fenced and labelled with who wrote it, at the place of the first of them. The new turn carries
 * `meta.summaryOf` (the replaced ids, in conversation order) and `meta.summaryOrigin`. Never a
 * system turn (N5). The input is not changed.
 * @param origin the model that wrote the summary.
 * @throws TranscriptError for an empty list, an unknown id, or a blank summary.
 */
export function applySummary(
  transcript: Transcript,
  droppedIds: readonly string[],
  summaryText: string,
  origin: Origin,
): Transcript {
  const replaced = pickTurns(transcript, droppedIds);
  if (typeof summaryText !== 'string' || isBlank(summaryText))
    throw new TranscriptError('summaryText', 'the summary is empty');
  const ids = new Set(replaced.map((t) => t.id));
  const label = `[Summary of ${replaced.length} earlier turn${replaced.length === 1 ? '' : 's'} of this conversation, written by ${describeOrigin(origin)}]`;
  const summary: Turn = {
    id: uniqueId(transcript, `summary-${replaced[0]!.id}`),
    role: 'user',
    blocks: [{ type: 'text', text: fenced(label, summaryText.trim()) }],
    meta: { summaryOf: replaced.map((t) => t.id), summaryOrigin: { ...origin } },
  };
  const turns: Turn[] = [];
  let placed = false;
  for (const turn of transcript.turns) {
    if (!ids.has(turn.id)) turns.push(turn);
    else if (!placed) {
      turns.push(summary);
      placed = true;
    }
  }
  return { ...transcript, turns };
}

/** The named turns in conversation order. @throws TranscriptError for an empty list or an unknown id. */
function pickTurns(transcript: Transcript, ids: readonly string[]): Turn[] {
  if (!Array.isArray(ids) || ids.length === 0) throw new TranscriptError('droppedIds', 'expected at least one turn id');
  const known = new Set(transcript.turns.map((t) => t.id));
  ids.forEach((id, i) => {
    if (!known.has(id))
      throw new TranscriptError(`droppedIds[${i}]`, `no turn ${JSON.stringify(id)} in the transcript`);
  });
  const wanted = new Set(ids);
  return transcript.turns.filter((t) => wanted.has(t.id));
}

/** `base`, or `base-2`, `base-3`… — the first id no turn of the transcript has. */
function uniqueId(transcript: Transcript, base: string): string {
  const taken = new Set(transcript.turns.map((t) => t.id));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
