/**
 * The send pipeline's disclosure step (docs/disclosure.md): loads the policies and the receipt, plans the
 * request, decides whether the person must confirm a first disclosure, and writes the ledger
 * record with the answer turn. One per {@link SendEngine}; holds the token cache, so estimates
 * learn from reported usage (`recordUsage`) for the life of the worker.
 */
import { contentHash, turnContentHash } from '../../context/hash';
import { ensureTokenizer } from '../../context/tokens';
import { sentBlockReports } from '../../context/plan';
import { providerSessionKey, type DeliveryReceipt } from '../../context/delivery';
import { createTokenCache, recordUsage, type TokenCache } from '../../context/token-cache';
import type { DisclosurePreview } from '../../messaging/disclosure-types';
import type { Attachment, RequestInput, SendTarget } from '../../messaging/protocol';
import type { DisclosureStore } from '../../store/disclosures';
import { StandInNeededError, standInInfo, storedCountsFor } from '../../store/turn-counts';
import type { ConversationRecord } from '../../store/db';
import { boundedStored } from './bounded';
import type { ConversationStore } from '../../store/conversations';
import type { SettingsStore } from '../../store/settings';
import { TRANSCRIPT_FORMAT, type Block, type Transcript, type Turn } from '../../transcript/schema';
import type { Vault } from '../../vault/vault';
import { countInfo, countKey, receivedTurns, type CountInfo, type CountMemory } from '../../context/count-state';
import { buildPreview } from './preview';
import { finishRecord } from './ledger';
import { droppedThinkingRefs } from './provider-drops';
import {
  instructionsChange,
  prefixChangedThinking,
  systemHash,
  type InstructionsChange,
} from '../../context/prefix-binding';
import { planSend, type Exclusions, type PlannedSend } from './sendable';
import { BatonError } from '../../messaging/errors';
import { convertTargetFor, keyFor, resolveProvider, type ResolvedProvider } from '../core/providers';
import { planResend, retryNewTurnId, turnAttachments, type Resend } from './resend';
import { existingConversation } from '../core/guards';

/** A planned send with what is needed to record it afterwards. */
export interface PreparedSend {
  planned: PlannedSend;
  receipt?: DeliveryReceipt | undefined;
  sessionKey: string;
  /** True when this provider (id + origin) has not received this conversation and the body carries stored turns. */
  firstDisclosure: boolean;
  /** How the instructions differ from those of the last send to this provider (docs/disclosure.md#instructions); absent when they do not. */
  instructionsChange?: InstructionsChange | undefined;
}

/** What {@link Discloser.prepare} plans: a send of `transcript` to `provider` for `target`. */
export interface PrepareInput {
  /** undefined: a new chat (no policy of its own, nothing received yet). */
  conversationId: string | undefined;
  /** The stored turns plus the new user turn or draft. */
  transcript: Transcript;
  target: SendTarget;
  provider: ResolvedProvider;
  /** The key of the send ('' when previewed without one); only its hash is kept, as the provider session's account id. */
  key: string;
  exclusions: Exclusions;
  /** The turn not stored yet (it alone never needs a confirmation). */
  newTurnId?: string | undefined;
  /** The stored turns, when `transcript` is a changed copy (the active summary's staleness is judged on them). */
  summaryBasis?: Transcript | undefined;
}

/** What {@link Discloser.preview} shows: a prepared send of `transcript`. */
export interface PreviewInput {
  prepared: PreparedSend;
  transcript: Transcript;
  provider: ResolvedProvider;
  target: SendTarget;
  /** The id of the unsent draft turn in `transcript`, if any. */
  draftId?: string | undefined;
  /** From {@link Discloser.countInfo}. */
  count?: CountInfo | undefined;
  exclusions?: Exclusions | undefined;
  /** Without the per-turn list and the body (docs/architecture.md#long-conversations-and-speed). */
  countsOnly?: boolean | undefined;
}

export class Discloser {
  /** Token counts: the stored turns' own first (docs/architecture.md#token-counts-with-the-turn). */
  readonly cache: TokenCache;
  /** The last provider count per conversation and provider (`countTokens`), for the life of the worker like {@link cache}. */
  readonly counts: CountMemory = new Map();
  /**
   * What the last {@link previewSend} planned over: a bounded read (docs/architecture.md#the-path-index,
   * with `standIns` turns not read; `reused`: the kept one, no read) or the whole path. For tests and the bench.
   */
  lastRead: { read: 'bounded' | 'whole'; standIns: number; reused?: boolean } | undefined;

  constructor(readonly store: DisclosureStore) {
    this.cache = createTokenCache({ stored: storedCountsFor(store.db) });
  }

  /**
   * Plans the send of `transcript` (stored turns plus the new user turn or draft) to `provider`.
   * @throws BatonError `bad_request` for an invalid stored policy.
   */
  async prepare(input: PrepareInput): Promise<PreparedSend> {
    const { conversationId, transcript, target, provider, key, exclusions, newTurnId, summaryBasis } = input;
    const global = await this.store.getGlobalPolicy();
    const state = conversationId ? await this.store.getConversationState(conversationId) : { policy: {} };
    const convertTarget = convertTargetFor(provider, target);
    // An OpenAI model's rank table is fetched on first use (docs/architecture.md#the-service-workers-start-up).
    await ensureTokenizer(convertTarget.model);
    // An opaque account id (never the key): a new key is a new provider session.
    const sessionKey = providerSessionKey(convertTarget, contentHash(key));
    const summary = 'summary' in state ? state.summary : undefined;
    const planned = planSend({
      transcript,
      target: convertTarget,
      global,
      conversation: state.policy,
      exclusions,
      cache: this.cache,
      receipt: state.receipt,
      sessionKey,
      summary,
      summaryBasis,
    });
    // Counts made for this plan go onto the stored turns once the worker is quiet (never rejects).
    storedCountsFor(this.store.db).scheduleFlush();
    // A-B2, A-B3: thinking the API will drop because the history before it changed is said before the send.
    const records = conversationId ? await this.store.list(conversationId) : [];
    const binding = (planned.body.thinking as { block_binding?: unknown } | undefined)?.block_binding;
    if (conversationId && binding !== undefined) {
      const changed = prefixChangedThinking({
        records,
        system: systemHash(planned.transcript.system),
        sent: planned.sent,
        transcript: planned.transcript,
        // Only sent blocks can be replayed thinking: the included turns' entries are enough.
        blocks: sentBlockReports(planned.plan),
      });
      if (changed) planned.plan.stats.reasoningUnused = [...(planned.plan.stats.reasoningUnused ?? []), changed];
    }
    const carriesHistory = planned.plan.included.some((id) => id !== newTurnId);
    const firstDisclosure =
      carriesHistory &&
      (!conversationId || !records.some((r) => r.providerId === provider.providerId && r.endpoint === provider.origin));
    // docs/disclosure.md#instructions: said in the preview of the first send after a change.
    const instructions = instructionsChange(records, provider, planned.transcript.system);
    return {
      planned,
      receipt: state.receipt,
      sessionKey,
      firstDisclosure,
      ...(instructions ? { instructionsChange: instructions } : {}),
    };
  }

  /**
   * Whether the target may be asked for an exact count of this conversation (it has received some
   * of the stored turns as they are now, and its API has a count endpoint) and where the
   * estimate of `prepared` comes from (docs/disclosure.md, token-count endpoints).
   */
  async countInfo(
    conversationId: string | undefined,
    storedTurns: readonly Turn[],
    provider: ResolvedProvider,
    prepared: PreparedSend,
    hashOf?: (turn: Turn) => string,
  ): Promise<CountInfo> {
    const records = conversationId ? await this.store.list(conversationId) : [];
    const received = receivedTurns(records, provider, storedTurns, hashOf).length;
    const count = conversationId ? this.counts.get(countKey(conversationId, provider)) : undefined;
    const corrected = this.cache.correction[provider.originProvider] !== undefined;
    return countInfo({
      api: provider.api,
      tokenizer: prepared.planned.plan.tokenizer,
      allowed: prepared.planned.plan.allowed,
      received,
      corrected,
      count,
    });
  }

  /**
   * The preview of a prepared send (`count`: from {@link countInfo}); `exclusions` naming nothing
   * in `transcript` are reported (`unknownExclusions`); with `countsOnly`, without the per-turn
   * list and the body (see `buildPreview`).
   */
  preview(input: PreviewInput): DisclosurePreview {
    const { prepared, transcript, provider, target, draftId, count, exclusions, countsOnly = false } = input;
    return buildPreview({
      count,
      exclusions,
      planned: prepared.planned,
      transcript,
      draftId,
      target: { providerId: provider.providerId, api: provider.api, model: target.model, origin: provider.origin },
      needsConfirmation: prepared.firstDisclosure,
      instructionsChange: prepared.instructionsChange,
      countsOnly,
    });
  }

  /**
   * Stores the final turn with its ledger record (and receipt) in one transaction, then corrects
   * future estimates with the usage the provider reported (`recordUsage`).
   */
  async finish(
    conversationId: string,
    turn: Turn,
    now: string,
    provider: ResolvedProvider,
    model: string,
    prepared: PreparedSend,
  ): Promise<void> {
    // A-B5: the blocks the provider dropped are placed now, against the body actually sent, so a
    // later conversion keeps them out whatever turns this send left out (a path would not).
    const refs = droppedThinkingRefs(provider.api, prepared.planned.body, prepared.planned.transcript, turn);
    if (refs.length > 0) turn = { ...turn, meta: { ...turn.meta, droppedThinking: refs } };
    const out = finishRecord({
      conversationId,
      at: now,
      provider,
      model,
      planned: prepared.planned,
      turn,
      previous: prepared.receipt,
      sessionKey: prepared.sessionKey,
    });
    await this.store.finishSend(conversationId, turn, now, {
      record: out.record,
      ...(out.receipt !== undefined ? { receipt: out.receipt } : {}),
    });
    if (out.actualInputTokens !== undefined)
      recordUsage(
        this.cache,
        provider.originProvider,
        prepared.planned.plan.uncorrectedInputTokens,
        out.actualInputTokens,
      );
  }
}

/** What {@link previewSend} previews: a send of `text` and `attachments` (or a `resend`) to `target`, with this send's exclusions. */
export interface PreviewSendInput {
  conversationId?: string | undefined;
  target: SendTarget;
  text?: string | undefined;
  attachments?: Attachment[] | undefined;
  exclusions?: Exclusions | undefined;
  resend?: Resend | undefined;
  /** docs/architecture.md#long-conversations-and-speed: without the per-turn list and the body. */
  countsOnly?: boolean | undefined;
}

/**
 * What a send of `text` (or of the conversation as it stands) to `target` would disclose, and
 * the exact body (docs/disclosure.md). Sends nothing, stores nothing. A provider without a saved key is
 * previewed with an empty account id. The draft is planned exactly as `SendEngine.send` plans
 * the stored user turn, so the body is the one then sent. With `resend`, the preview of a retry or
 * regenerate (no draft) or of an edit of `resend.turnId` (the draft is `text` plus that turn's
 * files), planned over the turns that action keeps (`planResend`), exactly as the engine plans it.
 * With `countsOnly` (docs/architecture.md#long-conversations-and-speed), the same plan without the per-turn list and the body.
 * The stored turns come from the background's transcript cache (`store.cachedTranscript`).
 * @throws BatonError `not_found` (conversation, endpoint, edited turn), `bad_request` (invalid
 * policy, nothing to retry or regenerate, a draft with a retry or regenerate). Exclusions naming
 * nothing in the conversation are reported in `unknownExclusions` (the send ignores them too).
 */
export async function previewSend(
  deps: { store: ConversationStore; settings: SettingsStore; vault: Vault; bounded?: boolean },
  discloser: Discloser,
  input: PreviewSendInput,
): Promise<DisclosurePreview> {
  const { store, settings, vault } = deps;
  const provider = resolveProvider(input.target.providerId, await settings.get(), input.target);
  const key = await keyFor(provider, vault).catch(() => '');
  const record = input.conversationId ? await existingConversation(store, input.conversationId) : undefined;
  const context: PreviewContext = { store, discloser, input, provider, key, record };
  if (input.conversationId && deps.bounded !== false) {
    const done = await store.servingBounded(() => boundedPreview(context, input.conversationId!));
    if (done) return done;
  }
  let stored: Transcript;
  if (input.conversationId) {
    stored = await store.cachedTranscript(input.conversationId);
  } else {
    // A new chat is created with the default instructions (docs/side-panel.md#instructions): preview them too.
    const system = (await settings.get()).defaultInstructions;
    stored = { format: TRANSCRIPT_FORMAT, version: 1, id: 'draft', ...(system?.trim() ? { system } : {}), turns: [] };
  }
  discloser.lastRead = { read: 'whole', standIns: 0 };
  return (await previewOf(context, stored)).preview;
}

/**
 * What one {@link previewSend} call plans from, whichever read it plans over (bounded or whole):
 * the store, the discloser, the input, the resolved provider and its key (empty without a saved
 * one), and the conversation's record (undefined for a new chat).
 */
interface PreviewContext {
  readonly store: ConversationStore;
  readonly discloser: Discloser;
  readonly input: PreviewSendInput;
  readonly provider: ResolvedProvider;
  readonly key: string;
  readonly record: ConversationRecord | undefined;
}

/**
 * {@link previewSend} over a bounded read (docs/architecture.md#the-path-index: a cold counts-only
 * preview reads the kept turns only, a later one reuses that read), or undefined when it must plan
 * over the whole path (no bounded read for this input, or the plan needs a turn not read).
 */
async function boundedPreview(context: PreviewContext, conversationId: string): Promise<DisclosurePreview | undefined> {
  const { store, discloser, input, provider } = context;
  const bounded = await boundedStored(store, discloser.store, discloser.cache, input, provider);
  if (!bounded) return undefined;
  const hashOf = (t: Turn) => standInInfo(t)?.hash ?? turnContentHash(t);
  try {
    const p = await previewOf(context, bounded.transcript, hashOf);
    // A plan that sends a turn not read cannot be shown: plan again from a whole read (the
    // planner's `checkSent` refuses it before converting; this holds for any other way too).
    const included = new Set(p.included);
    if (bounded.transcript.turns.some((t) => included.has(t.id) && standInInfo(t) !== undefined)) return undefined;
    discloser.lastRead = {
      read: 'bounded',
      standIns: bounded.standIns,
      ...(bounded.reused ? { reused: true } : {}),
    };
    // The send plans over the whole path: read it now, after this preview, so it finds it cached.
    // Started in a later task, once this reply is on its way (`prefetchTranscript`); the previews
    // meanwhile reuse this bounded read.
    store.prefetchTranscript(conversationId);
    return p.preview;
  } catch (e) {
    // The plan needed a stand-in's content or a count it lacks: plan again from a whole read.
    if (!(e instanceof StandInNeededError)) throw e;
    return undefined;
  }
}

/** {@link previewSend} over the stored turns `stored` (whole, or a bounded read with stand-ins and their hashes). */
async function previewOf(
  context: PreviewContext,
  stored: Transcript,
  hashOf?: (turn: Turn) => string,
): Promise<{ preview: DisclosurePreview; included: readonly string[] }> {
  const { discloser, input, provider, key, record } = context;
  let attachments = input.attachments ?? [];
  let newTurnId: string | undefined;
  if (input.resend) {
    if (!input.conversationId) throw new BatonError('bad_request', 'Only a stored conversation can be sent again.');
    const resend = input.resend;
    const plan = planResend(stored.turns, resend);
    if (resend.kind === 'edit')
      attachments = [...turnAttachments(stored.turns.find((t) => t.id === resend.turnId)!), ...attachments];
    else if (input.text?.trim() || attachments.length)
      throw new BatonError('bad_request', `A ${resend.kind} sends no new message.`);
    // As `SendEngine.retry` decides it, so the preview asks exactly when the retry would be refused.
    newTurnId = retryNewTurnId(plan, provider, await discloser.store.list(input.conversationId), record!);
    stored = { ...stored, turns: plan.kept };
  }
  const blocks = userBlocks(input.text ?? '', attachments);
  // The draft's id must not name a stored turn (an imported turn may be called "draft").
  const draftId = unusedId('draft', stored.turns);
  const draft: Turn | undefined = blocks.length ? { id: draftId, role: 'user', blocks } : undefined;
  const transcript: Transcript = draft ? { ...stored, turns: [...stored.turns, draft] } : stored;
  // The send gives the new turn a fresh id, so an exclusion naming the draft cannot apply there:
  // the preview ignores it too, so it shows the body the send makes.
  const exclusions = withoutTurn(input.exclusions ?? {}, draftId);
  const prepared = await discloser.prepare({
    conversationId: input.conversationId,
    transcript,
    target: input.target,
    provider,
    key,
    exclusions,
    newTurnId: draft?.id ?? newTurnId,
  });
  const count = await discloser.countInfo(input.conversationId, stored.turns, provider, prepared, hashOf);
  const preview = discloser.preview({
    prepared,
    transcript,
    provider,
    target: input.target,
    draftId: draft?.id,
    count,
    exclusions,
    countsOnly: input.countsOnly === true,
  });
  return { preview, included: prepared.planned.plan.included };
}

/** The inputs of {@link previewSend} from a `previewSend` or `countTokens` payload (the same schema). */
export function previewInputOf(p: RequestInput<'previewSend'>): PreviewSendInput {
  return {
    conversationId: p.conversationId,
    target: p.target,
    text: p.text,
    attachments: p.attachments,
    exclusions: {
      excludeTurns: p.excludeTurns,
      excludeBlocks: p.excludeBlocks,
      // Retry, regenerate and edit-and-resend never carry this choice, so their previews must not
      // either: the body shown is the body sent.
      ...(p.replayImportedState && !p.resend ? { replayImportedState: true } : {}),
      ...(p.compare && !p.resend ? { stateless: true } : {}),
    },
    ...(p.resend ? { resend: p.resend } : {}),
    ...(p.countsOnly ? { countsOnly: true } : {}),
  };
}

/** `base`, or `base-2`, `base-3`, … : the first that no turn of `turns` has as its id. */
function unusedId(base: string, turns: readonly Turn[]): string {
  // The usual case, without a set of every id of a long conversation.
  if (!turns.some((t) => t.id === base)) return base;
  const ids = new Set(turns.map((t) => t.id));
  let id = base;
  for (let i = 2; ids.has(id); i++) id = `${base}-${i}`;
  return id;
}

/** `x` without exclusions of the turn `id` (its own or its blocks'). */
function withoutTurn(x: Exclusions, id: string): Exclusions {
  return {
    ...(x.excludeTurns ? { excludeTurns: x.excludeTurns.filter((t) => t !== id) } : {}),
    ...(x.excludeBlocks ? { excludeBlocks: x.excludeBlocks.filter((b) => b.turn !== id) } : {}),
    ...(x.replayImportedState ? { replayImportedState: true } : {}),
    ...(x.stateless ? { stateless: true } : {}),
  };
}

/** The blocks of a new user turn: attachments first, then the text (the same for the send and its preview). */
export function userBlocks(text: string, attachments: readonly Attachment[] = []): Block[] {
  return [
    ...attachments.map((a): Block =>
      a.kind === 'image'
        ? { type: 'image', mediaType: a.mediaType, data: a.data }
        : { type: 'document', mediaType: a.mediaType, data: a.data, ...(a.name ? { title: a.name } : {}) },
    ),
    ...(text.trim() ? [{ type: 'text' as const, text }] : []),
  ];
}
