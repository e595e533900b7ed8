/**
 * The disclosure ledger's records and receipts (docs/disclosure.md, "A disclosure ledger" and "Snapshot or
 * delta"): what one finished send writes, and "who has seen this" per conversation and per turn.
 * Pure: the store writes what these functions return.
 */
import type { DeliveryReceipt } from '../../context/delivery';
import { turnContentHash } from '../../context/hash';
import type { SeenBy } from '../../messaging/disclosure-types';
import { estimateCostUsd, lookupModel } from '../../models/registry';
import type { LedgerRecord } from '../../store/disclosures';
import type { Turn, Usage } from '../../transcript/schema';
import { MAIN_BRANCH, type PlannedSend } from './sendable';
import type { ResolvedProvider } from '../core/providers';
import { lookupTable } from '../../transcript/lookup';
import { providerDropOf } from './provider-drops';
import { systemHash } from '../../context/prefix-binding';

export interface FinishInput {
  conversationId: string;
  /** ISO time of the send. */
  at: string;
  provider: ResolvedProvider;
  model: string;
  planned: PlannedSend;
  /** The final answer turn (complete, stopped, interrupted or error). */
  turn: Turn;
  /** The receipt the send was planned with (a delta builds on it). */
  previous?: DeliveryReceipt | undefined;
  sessionKey: string;
}

export interface FinishOutput {
  record: Omit<LedgerRecord, 'id'>;
  /** Stateful conversations: the new receipt, or `null` to clear it; undefined otherwise. */
  receipt?: DeliveryReceipt | null;
  /** All input tokens the provider reported (cached included), for `recordUsage`; snapshot sends only. */
  actualInputTokens?: number;
}

const RECEIPT_STATUS: Record<string, DeliveryReceipt['status']> = lookupTable({
  complete: 'completed',
  error: 'failed',
  interrupted: 'incomplete',
  stopped: 'cancelled',
});

/** The ledger record (and receipt change) of one finished send. */
export function finishRecord(input: FinishInput): FinishOutput {
  const { planned, turn, provider } = input;
  const completed = turn.status === undefined || turn.status === 'complete';
  const responseId = typeof turn.meta?.responseId === 'string' ? turn.meta.responseId : undefined;
  const usage = turn.usage;
  const cost = usage ? costOf(provider.api, input.model, provider.originProvider, usage) : undefined;
  // A-B5: what the provider reported it dropped from this request goes on the record of the send.
  const dropped = providerDropOf(provider.api, planned.body, planned.transcript, turn);
  const record: Omit<LedgerRecord, 'id'> = {
    conversationId: input.conversationId,
    at: input.at,
    providerId: provider.providerId,
    api: provider.api,
    model: input.model,
    endpoint: provider.origin,
    turns: planned.sent,
    estimatedInputTokens: planned.plan.estimatedInputTokens,
    ...(usage ? { usage } : {}),
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(responseId ? { responseId } : {}),
    status: completed ? 'completed' : 'failed',
    mode: planned.delivery.mode,
    ...(completed ? { answer: [turn.id, turnContentHash(turn)] as [string, string] } : {}),
    ...(dropped ? { dropped } : {}),
    // The provider keeps what a stateful send stored (docs/disclosure.md, "Who has seen this").
    ...(planned.stateful && planned.body.store === true ? { stored: true as const } : {}),
    // docs/disclosure.md#instructions: the next preview says when they changed since this send.
    system: systemHash(planned.transcript.system),
  };
  const out: FinishOutput = { record };
  if (usage && planned.delivery.mode === 'snapshot') {
    const actual = actualInput(provider.api, usage);
    if (actual !== undefined) out.actualInputTokens = actual;
  }
  if (planned.stateful) {
    if (!responseId) out.receipt = null;
    else {
      const prev = input.previous;
      // A delta's server state is the previous chain, its anchor, then the new turns.
      const delivered: [string, string][] =
        planned.delivery.mode === 'delta' && prev
          ? [
              ...prev.deliveredTurns.map(([a, b]): [string, string] => [a, b]),
              [prev.anchorTurnId, prev.anchorHash],
              ...planned.sent,
            ]
          : planned.sent;
      out.receipt = {
        providerSessionKey: input.sessionKey,
        branchId: MAIN_BRANCH,
        responseId,
        status: RECEIPT_STATUS[turn.status ?? 'complete'] ?? 'unknown',
        anchorTurnId: turn.id,
        anchorHash: turnContentHash(turn),
        deliveredTurns: delivered,
      };
    }
  }
  return out;
}

/** All input tokens reported: Anthropic reports cached tokens apart; the others include them in the input count. */
function actualInput(api: string, u: Usage): number | undefined {
  if (u.inputTokens === undefined) return undefined;
  return api === 'anthropic-messages'
    ? u.inputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0)
    : u.inputTokens;
}

/** US dollars at the registry's list price for `u` (tokens) of `model`; cached tokens at their price; undefined when the price is unknown. */
export function costOf(api: string, model: string, provider: string, u: Usage): number | undefined {
  const info = lookupModel(model, provider);
  const cached = u.cacheReadTokens ?? 0;
  const input = api === 'anthropic-messages' ? (u.inputTokens ?? 0) : Math.max(0, (u.inputTokens ?? 0) - cached);
  return estimateCostUsd(info, {
    inputTokens: input,
    outputTokens: u.outputTokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: u.cacheWriteTokens ?? 0,
  });
}

/** What each stateful API keeps of a stored request, in the provider's words. */
const KEPT_AS: Readonly<Record<string, string>> = lookupTable({
  'openai-responses': 'stored responses',
  'gemini-interactions': 'stored interactions',
});

/** "Who has seen this?": providers (id + endpoint origin) per conversation, and per turn. */
export function whoHasSeen(
  records: readonly (Pick<LedgerRecord, 'providerId' | 'endpoint' | 'model' | 'at' | 'turns'> &
    Partial<Pick<LedgerRecord, 'api' | 'stored'>>)[],
): { seenBy: SeenBy[]; turns: Record<string, number[]> } {
  const seenBy: SeenBy[] = [];
  const index = new Map<string, number>();
  const turns: Record<string, number[]> = {};
  for (const r of records) {
    const key = `${r.providerId}\u0000${r.endpoint}`;
    let i = index.get(key);
    if (i === undefined) {
      i = seenBy.length;
      index.set(key, i);
      seenBy.push({
        providerId: r.providerId,
        endpoint: r.endpoint,
        models: [],
        sends: 0,
        firstAt: r.at,
        lastAt: r.at,
      });
    }
    const s = seenBy[i]!;
    s.sends++;
    if (!s.models.includes(r.model)) s.models.push(r.model);
    const kept = r.stored && r.api ? KEPT_AS[r.api] : undefined;
    if (kept && !(s.keeps ??= []).includes(kept)) s.keeps.push(kept);
    if (r.at < s.firstAt) s.firstAt = r.at;
    if (r.at > s.lastAt) s.lastAt = r.at;
    for (const [turnId] of r.turns) {
      const list = (turns[turnId] ??= []);
      if (!list.includes(i)) list.push(i);
    }
  }
  return { seenBy, turns };
}
