/**
 * The bounded cold preview (docs/architecture.md#the-path-index): a counts-only `previewSend` of a
 * conversation that is not in the transcript cache plans over the conversation record, its path
 * index and, read in full, only the newest turns the budget could keep and the pinned ones; every
 * other turn is a stand-in (`ConversationStore.readBounded`) with the counts its record holds.
 *
 * The plan is the one a whole read gives as long as every stand-in is dropped and counted from its
 * stored counts, and the planner looks at nothing else of a dropped turn. That holds only without
 * the choices that look into turns (exclusions, `images: 'omit'`), without an active summary
 * (checked against the hashes of the turns it stands for) and without stateful delivery (its
 * receipt is checked against every turn): those previews read the whole path. The caller checks
 * the rest after planning (a stand-in sent, or counted without a stored count → a whole read).
 */
import { correctionRatio, type TokenCache } from '../../context/token-cache';
import type { SendTarget } from '../../messaging/protocol';
import { lookupModel } from '../../models/registry';
import type { BoundedRead, ConversationStore } from '../../store/conversations';
import type { PathEntry } from '../../store/path-index';
import { resolveTarget } from '../../transcript/target';
import type { DisclosureStore } from '../../store/disclosures';
import { convertTargetFor, type ResolvedProvider } from '../core/providers';
import type { Exclusions } from './sendable';

/** What {@link boundedStored} looks at of a `previewSend` input (engine.ts `PreviewSendInput`). */
export interface BoundedInput {
  conversationId?: string | undefined;
  target: SendTarget;
  exclusions?: Exclusions | undefined;
  resend?: unknown;
  countsOnly?: boolean | undefined;
}

/**
 * The bounded read for this preview, or undefined when it must read the whole path: not counts
 * only, a resend, exclusions, a policy that omits images, an active summary, stateful delivery,
 * the transcript already cached whole, or no current path index. While it is being read whole, only
 * the kept bounded read (`TranscriptCache.bounded`) may serve (no read of its own then).
 */
export async function boundedStored(
  store: ConversationStore,
  disclosures: DisclosureStore,
  cache: TokenCache,
  input: BoundedInput,
  provider: ResolvedProvider,
): Promise<BoundedRead | undefined> {
  const id = input.conversationId;
  if (id === undefined || input.countsOnly !== true || input.resend) return undefined;
  const x = input.exclusions ?? {};
  if ((x.excludeTurns?.length ?? 0) > 0 || (x.excludeBlocks?.length ?? 0) > 0) return undefined;
  // Cached whole: plan over that.
  if (store.transcripts.has(id)) return undefined;
  // Being read whole already (after the last bounded preview): the kept bounded read serves this
  // preview without waiting when it holds every turn the budget may keep; else wait for the whole
  // read rather than start a read of its own beside it.
  const cachedOnly = store.transcripts.reading(id);
  const global = await disclosures.getGlobalPolicy();
  const state = await disclosures.getConversationState(id);
  if ('summary' in state && state.summary !== undefined) return undefined;
  if (global.images === 'omit' || state.policy.images === 'omit') return undefined;
  if (global.delivery === 'stateful' || state.policy.delivery === 'stateful') return undefined;
  const resolved = resolveTarget(convertTargetFor(provider, input.target));
  const info = lookupModel(resolved.model, resolved.provider);
  // The budget is at most the context window and at most the larger `maxTokens` of the two
  // policies (however they merge), in corrected tokens; raw counts may be 1/ratio more.
  const limits = [global.maxTokens, state.policy.maxTokens].filter((n): n is number => n !== undefined);
  const budget = Math.min(info.contextWindow, limits.length > 0 ? Math.max(...limits) : Infinity);
  const ratio = correctionRatio(cache, resolved.provider);
  const bound = ratio < 1 ? budget / ratio : budget;
  return store.readBounded(id, (entries) => keptCandidates(entries, bound), cachedOnly);
}

/**
 * The path positions to read in full: the exchanges holding a pinned turn (the planner keeps them
 * whole), and the newest turns while the smallest of their stored counts sums to at most `bound`
 * (a lower bound of what any variant counts), then back to the start of that exchange (the planner
 * drops whole exchanges, oldest first). A superset of what a plan within `bound` keeps; the
 * planner refuses to send any other turn (`StoredTurnCounts.checkSent`).
 */
export function keptCandidates(entries: readonly PathEntry[], bound: number): Set<number> {
  const out = new Set<number>();
  // An exchange starts at the first turn and at every user turn (fit.ts `exchangeStarts`).
  let start = 0;
  let pinned = false;
  const close = (end: number) => {
    if (pinned) for (let k = start; k < end; k++) out.add(k);
  };
  entries.forEach((e, i) => {
    if (i > 0 && e.role === 'user') {
      close(i);
      start = i;
      pinned = false;
    }
    if (e.pinned) pinned = true;
  });
  close(entries.length);
  let sum = 0;
  let i = entries.length - 1;
  for (; i >= 0; i--) {
    out.add(i);
    sum += smallestCount(entries[i]!);
    if (sum > bound) break;
  }
  for (; i > 0 && entries[i]!.role !== 'user'; i--) out.add(i - 1);
  return out;
}

/** The smallest stored count of the entry's turn over all variants (0 when it has none). */
function smallestCount(e: PathEntry): number {
  let min = Infinity;
  for (const c of Object.values(e.counts ?? {})) if (c.tokens < min) min = c.tokens;
  return min === Infinity ? 0 : min;
}
