/**
 * Which turns "summarise the earlier part" replaces and what the summary request discloses
 * (docs/disclosure.md, "Fitting"). One definition for `previewSummary` and `summariseEarlier`, so the turns
 * the person consented to are exactly the turns summarised, and the body previewed is the body sent.
 *
 * The turns: those the send being previewed (stored turns plus the draft, with the person's
 * exclusions) drops to fit — `over-budget` / `over-max-turns` — never the person's own exclusions
 * and never pinned turns (the planner never drops them). When the active summary's own turn is
 * dropped too, the new summary replaces the union of its turns and the newly dropped ones (its
 * request then carries the old summary turn, not the turns it stands for).
 */
import { turnContentHash } from '../../context/hash';
import { mergePolicies } from '../../context/policy';
import { ensureTokenizer } from '../../context/tokens';
import { planSummary, type SummaryPlan } from '../../context/summary';
import type { Policy } from '../../context/types';
import type { DisclosurePolicy } from '../../messaging/disclosure-types';
import type { Attachment, SendTarget } from '../../messaging/protocol';
import type { SummaryPreview } from '../../messaging/summary-types';
import type { ConversationStore } from '../../store/conversations';
import type { SettingsStore } from '../../store/settings';
import { TranscriptError } from '../../transcript/codec';
import type { Transcript, Turn } from '../../transcript/schema';
import type { Vault } from '../../vault/vault';
import { userBlocks, type Discloser, type Exclusions } from '../disclosure';
import { BatonError } from '../../messaging/errors';
import { convertTargetFor, keyFor, resolveProvider, type ResolvedProvider } from '../core/providers';
import { existingConversation } from '../core/guards';

export interface SummaryRequestInput {
  conversationId: string;
  /** Where the conversation is being sent (the send whose drops are summarised). */
  target: SendTarget;
  /** The model the person picked to write the summary. */
  summariser: SendTarget;
  /** The draft being written (its send is what drops turns); empty or absent: none. */
  text?: string | undefined;
  /** The draft's attachments, as the send carries them (`userBlocks`), so the turns picked are those the bar counts as dropped. */
  attachments?: readonly Attachment[] | undefined;
  exclusions: Exclusions;
}

export interface PlannedSummary {
  /** Stored turn ids the summary will replace, in conversation order. */
  turnIds: string[];
  /** `[turnId, contentHash]` of those stored turns now (the summary's staleness check). */
  hashes: [string, string][];
  /** `[turnId, contentHash]` of the turns the request carries (the ledger's format; an old summary turn counts as one). */
  sent: [string, string][];
  /** How many of `turnIds` the request carries as an older summary turn rather than as themselves. */
  viaSummary: number;
  request: SummaryPlan;
  provider: ResolvedProvider;
  /** The summariser's provider (id + origin) has not received this conversation. */
  firstDisclosure: boolean;
}

const FIT_REASONS = new Set(['over-budget', 'over-max-turns']);

/**
 * Plans the summary request. Sends nothing, stores nothing.
 * @throws BatonError `not_found` (conversation, provider), `bad_request` (nothing is dropped to
 * fit, so there is nothing to summarise; an invalid policy).
 */
export async function planSummaryRequest(
  deps: { store: ConversationStore; settings: SettingsStore; vault: Vault; discloser: Discloser },
  input: SummaryRequestInput,
): Promise<PlannedSummary> {
  const { store, discloser } = deps;
  await existingConversation(store, input.conversationId);
  // The request and the summariser's are planned with their tokenizers loaded (tokenizer-ranks.ts).
  await Promise.all([ensureTokenizer(input.target.model), ensureTokenizer(input.summariser.model)]);
  const settings = await deps.settings.get();
  const stored = await store.cachedTranscript(input.conversationId);
  // The same draft turn the send builds (text and attachments), so its size drops the same turns.
  const blocks = userBlocks(input.text ?? '', input.attachments);
  const draftId = unusedId(stored.turns);
  const transcript: Transcript = blocks.length
    ? { ...stored, turns: [...stored.turns, { id: draftId, role: 'user', blocks }] }
    : stored;
  const targetProvider = resolveProvider(input.target.providerId, settings, input.target);
  const key = await keyFor(targetProvider, deps.vault).catch(() => '');
  const prepared = await discloser.prepare({
    conversationId: input.conversationId,
    transcript,
    target: input.target,
    provider: targetProvider,
    key,
    exclusions: input.exclusions,
    newTurnId: blocks.length ? draftId : undefined,
  });
  const planned = prepared.planned;

  const requestIds = planned.plan.dropped
    .filter((d) => FIT_REASONS.has(d.reason) && d.turn !== draftId)
    .map((d) => d.turn);
  if (requestIds.length === 0)
    throw new BatonError('bad_request', 'Nothing to summarise: this send drops no earlier turns to fit.');
  const applied = planned.summary?.state === 'applied' ? planned.summary : undefined;
  const order = new Map(stored.turns.map((t, i) => [t.id, i] as const));
  const turnIds = requestIds
    .flatMap((id) => (applied && id === applied.turnId ? applied.summary.replaces : [id]))
    .sort((a, b) => order.get(a)! - order.get(b)!);
  const byId = new Map<string, Turn>([...stored.turns, ...planned.transcript.turns].map((t) => [t.id, t] as const));
  const hashOf = (id: string): [string, string] => [id, turnContentHash(byId.get(id)!)];

  const provider = resolveProvider(input.summariser.providerId, settings, input.summariser);
  const { policy } = await discloser.store.getConversationState(input.conversationId);
  const global = await discloser.store.getGlobalPolicy();
  let request: SummaryPlan;
  try {
    request = planSummary(
      planned.transcript,
      requestIds,
      convertTargetFor(provider, input.summariser),
      summariserPolicy(global, policy, input.exclusions),
      discloser.cache,
    );
  } catch (e) {
    if (e instanceof TranscriptError) throw new BatonError('bad_request', `Cannot plan the summary: ${e.message}`);
    throw e;
  }
  return {
    turnIds,
    hashes: turnIds.map(hashOf),
    sent: requestIds.map(hashOf),
    viaSummary: applied && requestIds.includes(applied.turnId) ? applied.summary.replaces.length : 0,
    request,
    provider,
    firstDisclosure: !(await discloser.store.hasReceived(input.conversationId, provider.providerId, provider.origin)),
  };
}

/**
 * The policy of the summary request: the provider rules (`lockedProvider`, `neverProviders`),
 * images, foreign reasoning and the person's exclusions apply; the turn and token limits do not,
 * since they bound each send to the target (the summary request's own size and cost are shown to
 * the person, who consents to it, and it must fit the summariser's window).
 * @throws TranscriptError for an invalid policy.
 */
export function summariserPolicy(
  global: DisclosurePolicy,
  conversation: DisclosurePolicy,
  exclusions: Exclusions,
): Policy {
  const strip = ({ delivery: _d, maxTurns: _t, maxTokens: _k, ...rest }: DisclosurePolicy): Policy => rest;
  return mergePolicies(strip(global), {
    ...strip(conversation),
    ...(exclusions.excludeTurns?.length ? { excludeTurns: exclusions.excludeTurns } : {}),
    ...(exclusions.excludeBlocks?.length ? { excludeBlocks: exclusions.excludeBlocks } : {}),
  });
}

/** The protocol's view of a planned summary. */
export function toSummaryPreview(s: PlannedSummary, model: string): SummaryPreview {
  const p = s.request.plan;
  return {
    turnIds: s.turnIds,
    viaSummary: s.viaSummary,
    summariser: { providerId: s.provider.providerId, api: s.provider.api, model, origin: s.provider.origin },
    estimatedInputTokens: s.request.estimatedInputTokens,
    maxOutputTokens: s.request.maxOutputTokens,
    ...(s.request.estimatedCostUsd !== undefined ? { estimatedCostUsd: s.request.estimatedCostUsd } : {}),
    needsConfirmation: s.firstDisclosure,
    allowed: p.allowed,
    ...(p.forbidden ? { forbidden: p.forbidden.message } : {}),
    fits: p.fits,
    ...(p.notFit ? { notFit: p.notFit.message } : {}),
    body: p.body ?? {},
  };
}

/** `draft`, or `draft-2`, … : an id no stored turn has. */
function unusedId(turns: readonly Turn[]): string {
  const ids = new Set(turns.map((t) => t.id));
  let id = 'draft';
  for (let i = 2; ids.has(id); i++) id = `draft-${i}`;
  return id;
}
