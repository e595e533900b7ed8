/**
 * The send pipeline (DESIGN.md, "Data flows one way on a send"): persist the user turn → convert
 * for the chosen target → call the provider through the official SDK with the user's key →
 * stream into an assistant turn, checkpointed at least every second or 500 characters (D1) →
 * store the finished turn with its native payload, usage and stop reason.
 *
 * This file accepts or refuses sends, retries and exclusive jobs before anything is written;
 * `answer.ts` streams and stores one answer (Stop keeps the partial text as `stopped`, L5;
 * Baton's own bounded retries, P1; one retry without rejected opaque state); `in-flight.ts` keeps
 * the one request in flight per conversation.
 *
 * Every request body is the context planner's (docs/disclosure.md, `lib/context/send-plan.ts`): bounded by the
 * policies, with the person's exclusions, and recorded in the disclosure ledger in the same
 * transaction as the answer turn it produced.
 */
import type { DisclosurePreview } from '../../messaging/disclosure-types';
import type { Attachment, ConversationMeta, ProtocolError, SendTarget } from '../../messaging/protocol';
import { DisclosureStore } from '../../store/disclosures';
import type { Transcript, Turn } from '../../transcript/schema';
import type { CompareOutcome } from '../../messaging/compare-protocol';
import {
  Discloser,
  previewSend,
  userBlocks,
  type PreviewSendInput,
  assertSendable,
  type Exclusions,
  planResend,
  refuseUnconfirmed,
  retryNewTurnId,
  type Confirmation,
} from '../disclosure';
import { InFlightRequests, type InFlight } from './in-flight';
import { generateAnswer } from './answer';
import { BatonError, toProtocolError } from '../../messaging/errors';
import { keyFor, resolveProvider, type ResolvedProvider } from '../core/providers';
import type { Clock } from '../core/clock';
import type { SendDeps } from '../core/deps';
import { assertReachable, busyError, existingConversation, titleFromFirstMessage } from '../core/guards';

export class SendEngine {
  /** The conversations with a request in flight (busy, stop, settled). */
  private readonly flights: InFlightRequests;
  /** Plans every request and keeps the ledger (docs/disclosure.md). */
  readonly discloser: Discloser;

  constructor(private readonly deps: SendDeps) {
    this.discloser = new Discloser(new DisclosureStore(deps.store.db));
    this.flights = new InFlightRequests({
      broadcast: (e) => deps.broadcast(e),
      keepalive: deps.keepalive,
      sleep: (ms, signal) => deps.clock.sleep(ms, signal),
    });
  }

  /** The answer streaming in `conversationId` as last broadcast, with its `seq` (docs/architecture.md#streaming-to-the-side-panel). */
  live(conversationId: string): { turn: Turn; seq: number } | undefined {
    return this.flights.live(conversationId);
  }

  isBusy(conversationId: string): boolean {
    return this.flights.isBusy(conversationId);
  }

  /** Resolves when the conversation's current send (if any) has finished and been stored. */
  async settled(conversationId: string): Promise<void> {
    await this.flights.settled(conversationId);
  }

  /**
   * Persists the user turn and starts the answer; resolves once the user turn is stored (the
   * answer streams on). The request is planned first (docs/disclosure.md): `exclusions` leave turns or blocks
   * out (ids that no longer exist are ignored); unless `confirmed` is `true` or names this provider
   * (see {@link Confirmation}), a first disclosure of the conversation's history to this provider
   * (id + origin) is refused with `confirmation_required` (undefined: not asked).
   * `replaceFrom` (edit-and-resend, any user turn): the new user turn is stored as a new version of
   * that turn — only once the send is accepted — and its branch becomes the active path; the
   * earlier version and every turn after it stay (docs/transcript.md#versions-and-branches).
   * @throws BatonError (`busy`, `no_key`, `endpoint_not_permitted`, `not_found`, `policy_forbidden`,
   * `context_too_long`, `confirmation_required`, …) before anything is written when the send cannot start.
   */
  async send(input: {
    conversationId: string;
    text: string;
    attachments?: Attachment[];
    target: SendTarget;
    confirmed?: Confirmation;
    exclusions?: Exclusions;
    replaceFrom?: string;
  }): Promise<{ userTurnId: string }> {
    const { store, clock, newId } = this.deps;
    if (this.isBusy(input.conversationId)) throw busyError();
    await existingConversation(store, input.conversationId);
    const blocks = userBlocks(input.text, input.attachments);
    if (blocks.length === 0) throw new BatonError('bad_request', 'Nothing to send.');
    const connection = await this.connect(input.target);
    const now = new Date(clock.now()).toISOString();
    const userTurn: Turn = { id: newId(), role: 'user', createdAt: now, blocks };
    const exclusions = input.exclusions ?? {};
    const stored = await store.cachedTranscript(input.conversationId);
    const kept = input.replaceFrom
      ? planResend(stored.turns, { kind: 'edit', turnId: input.replaceFrom }).kept
      : stored.turns;
    const prepared = await this.discloser.prepare({
      conversationId: input.conversationId,
      transcript: { ...stored, turns: [...kept, userTurn] },
      target: input.target,
      provider: connection.provider,
      key: connection.key,
      exclusions,
      newTurnId: userTurn.id,
    });
    assertSendable(prepared.planned);
    refuseUnconfirmed(prepared, connection.provider, input.confirmed);
    // Accepted: only now is anything removed or written, under the claimed slot (a summary that
    // started during the awaits above makes this send `busy` before it writes anything).
    const flight = this.flights.claim(input.conversationId, busyError);
    let meta: ConversationMeta;
    try {
      const title = kept.length === 0 ? titleFromFirstMessage(input.text) : undefined;
      meta = await store.appendTurn(
        input.conversationId,
        userTurn,
        now,
        { lastTarget: input.target, ...(title ? { title } : {}) },
        input.replaceFrom,
      );
    } catch (e) {
      this.flights.release(input.conversationId, flight);
      throw e;
    }
    this.deps.broadcast({ type: 'turnUpdated', conversationId: input.conversationId, turn: userTurn });
    this.deps.broadcast({ type: 'conversationUpdated', meta });
    this.start(input.conversationId, input.target, connection, exclusions, flight);
    return { userTurnId: userTurn.id };
  }

  /**
   * One message to several targets at once (docs/side-panel.md#ask-several-models-at-once): each
   * target is checked and planned like {@link send} checks it (reachable, key, policies, its own
   * first-disclosure confirmation); a target that fails drops out with its reason, and when at
   * least one can go the user turn is stored once and every remaining target answers it in
   * parallel through the same answer pipeline (native history, ledger record, checkpoints,
   * retries), all under the conversation's one request in flight (Stop stops them all). The
   * answers are children of the user turn — versions of one assistant turn — and the first
   * target's is the active one whatever order they finish in.
   * @throws BatonError `busy`, `not_found`, `bad_request`, or — when no target can go — the first target's reason.
   */
  async sendCompare(input: {
    conversationId: string;
    text: string;
    attachments?: Attachment[];
    targets: { target: SendTarget; confirmed: Confirmation }[];
    exclusions?: Exclusions;
  }): Promise<CompareOutcome<SendTarget, ProtocolError>> {
    const { store, clock, newId } = this.deps;
    if (this.isBusy(input.conversationId)) throw busyError();
    await existingConversation(store, input.conversationId);
    const blocks = userBlocks(input.text, input.attachments);
    if (blocks.length === 0) throw new BatonError('bad_request', 'Nothing to send.');
    const now = new Date(clock.now()).toISOString();
    const userTurn: Turn = { id: newId(), role: 'user', createdAt: now, blocks };
    // Parallel answers cannot share the conversation's one receipt: each goes stateless (docs/disclosure.md, "Snapshot or delta").
    const exclusions: Exclusions = { ...input.exclusions, stateless: true };
    const stored = await store.cachedTranscript(input.conversationId);
    const going: { target: SendTarget; connection: { provider: ResolvedProvider; key: string } }[] = [];
    const dropped: { target: SendTarget; error: ProtocolError; thrown: unknown }[] = [];
    for (const { target, confirmed } of input.targets) {
      try {
        const connection = await this.connect(target);
        const prepared = await this.discloser.prepare({
          conversationId: input.conversationId,
          transcript: { ...stored, turns: [...stored.turns, userTurn] },
          target,
          provider: connection.provider,
          key: connection.key,
          exclusions,
          newTurnId: userTurn.id,
        });
        assertSendable(prepared.planned);
        refuseUnconfirmed(prepared, connection.provider, confirmed);
        going.push({ target, connection });
      } catch (e) {
        dropped.push({ target, error: toProtocolError(e), thrown: e });
      }
    }
    if (going.length === 0) throw dropped[0]!.thrown;
    const flight = this.flights.claim(input.conversationId, busyError);
    let meta: ConversationMeta;
    let history: Transcript;
    try {
      const title = stored.turns.length === 0 ? titleFromFirstMessage(input.text) : undefined;
      // The answers are shown side by side until the person picks one, across a reload (compareOf).
      meta = await store.appendTurn(input.conversationId, userTurn, now, {
        lastTarget: going[0]!.target,
        compareOf: userTurn.id,
        ...(title ? { title } : {}),
      });
      // Every answer is planned from this path (it ends at the user turn), whatever the others have stored meanwhile.
      history = await store.cachedTranscript(input.conversationId);
    } catch (e) {
      this.flights.release(input.conversationId, flight);
      throw e;
    }
    this.deps.broadcast({ type: 'turnUpdated', conversationId: input.conversationId, turn: userTurn });
    this.deps.broadcast({ type: 'conversationUpdated', meta });
    const answers = going.map((g, i) => ({ ...g, turnId: newId(), activate: i === 0 }));
    this.startGroup(input.conversationId, flight, answers, history, userTurn.id, exclusions);
    return {
      userTurnId: userTurn.id,
      answers: answers.map((a) => ({ target: a.target, turnId: a.turnId })),
      dropped: dropped.map(({ target, error }) => ({ target, error })),
    };
  }

  /**
   * What a send of `text` (or of the conversation as it stands) to `target` would disclose, and
   * the exact body (docs/disclosure.md). Sends nothing, stores nothing. A provider without a saved key is
   * previewed with an empty account id. `resend`: the preview of a retry, regenerate or edit (see `previewSend`).
   * @throws BatonError `not_found` (conversation or endpoint), `bad_request` (invalid policy).
   */
  async preview(input: PreviewSendInput): Promise<DisclosurePreview> {
    return previewSend(this.deps, this.discloser, input);
  }

  /**
   * Answers again without a new user turn (L2): `retry` (the default) after a failed, interrupted
   * or stopped answer, which is removed; `regenerate` answers the last user turn again, and the new
   * answer is a new version beside the earlier one, which stays (docs/transcript.md#versions-and-branches).
   * Nothing changes before the send is accepted. A first disclosure of the conversation
   * to this provider is refused like {@link send} refuses it (docs/disclosure.md; a retry's unanswered last
   * user turn counts as new only for a provider that got it or was picked for it, see
   * `retryNewTurnId`); `confirmed` undefined: not asked.
   * @throws BatonError (`busy`, `not_found`, `bad_request`, `no_key`, `endpoint_not_permitted`,
   * `policy_forbidden`, `context_too_long`, `confirmation_required`, …) before anything is written.
   */
  async retry(input: {
    conversationId: string;
    target: SendTarget;
    kind?: 'retry' | 'regenerate';
    confirmed?: Confirmation;
  }): Promise<void> {
    const { store, clock } = this.deps;
    if (this.isBusy(input.conversationId)) throw busyError();
    const record = await existingConversation(store, input.conversationId);
    const stored = await store.cachedTranscript(input.conversationId);
    if (stored.turns.length === 0)
      throw new BatonError(
        'bad_request',
        input.kind === 'regenerate' ? 'There is no message to answer.' : 'Nothing to retry.',
      );
    const connection = await this.connect(input.target);
    const plan = planResend(stored.turns, { kind: input.kind ?? 'retry' });
    if (input.confirmed !== undefined) {
      const newTurnId = retryNewTurnId(
        plan,
        connection.provider,
        await this.discloser.store.list(input.conversationId),
        record,
      );
      const prepared = await this.discloser.prepare({
        conversationId: input.conversationId,
        transcript: { ...stored, turns: plan.kept },
        target: input.target,
        provider: connection.provider,
        key: connection.key,
        exclusions: {},
        newTurnId,
      });
      assertSendable(prepared.planned);
      refuseUnconfirmed(prepared, connection.provider, input.confirmed);
    }
    const flight = this.flights.claim(input.conversationId, busyError);
    try {
      const now = new Date(clock.now()).toISOString();
      const answered = plan.kept.at(-1);
      if (input.kind === 'regenerate' && plan.removeFrom && answered)
        // The path ends at the answered user turn again; the answer is appended as its new version.
        await store.selectTurn(input.conversationId, answered.id, now, true);
      else if (plan.removeFrom) await store.deleteTurnsFrom(input.conversationId, plan.removeFrom, now);
    } catch (e) {
      this.flights.release(input.conversationId, flight);
      throw e;
    }
    this.start(input.conversationId, input.target, connection, {}, flight);
  }

  /**
   * The retry of a send to several models after the worker stopped during retry waits (L2, L4,
   * docs/side-panel.md#ask-several-models-at-once): each listed answer that is still unfinished
   * (interrupted, stopped or an error, with nothing built on it) is removed and answered again by
   * its target as a new version of the same turn — the active one when the removed one was — all
   * at once under the conversation's one request in flight, like the compare itself. Like
   * {@link retry} from an alarm, no confirmation is asked (the person confirmed the compare). An
   * answer whose target can no longer be reached keeps its stored state. Resolves once started.
   * @throws BatonError `busy`, `not_found`, or the first answer's reason when none can go.
   */
  async retryAnswers(input: {
    conversationId: string;
    answers: { turnId: string; target: SendTarget }[];
  }): Promise<void> {
    const { store, clock, newId } = this.deps;
    if (this.isBusy(input.conversationId)) throw busyError();
    await existingConversation(store, input.conversationId);
    const { transcript, tree } = await store.toTranscriptTree(input.conversationId);
    const byId = new Map(tree.turns.map((t) => [t.turn.id, t] as const));
    const todo: {
      old: string;
      parentId: string;
      target: SendTarget;
      connection: { provider: ResolvedProvider; key: string };
      activate: boolean;
    }[] = [];
    let firstError: unknown;
    for (const a of input.answers) {
      const rec = byId.get(a.turnId);
      const unfinished = rec && rec.turn.role === 'assistant' && rec.turn.status && rec.turn.status !== 'complete';
      if (!rec || !unfinished || rec.parentId === null || tree.turns.some((t) => t.parentId === a.turnId)) continue;
      if (todo.length > 0 && todo[0]!.parentId !== rec.parentId) continue;
      try {
        const connection = await this.connect(a.target);
        todo.push({
          old: a.turnId,
          parentId: rec.parentId,
          target: a.target,
          connection,
          activate: tree.leaf === a.turnId,
        });
      } catch (e) {
        firstError ??= e;
      }
    }
    if (todo.length === 0) {
      if (firstError) throw firstError;
      return;
    }
    const parentId = todo[0]!.parentId;
    // The history every answer is planned from: the path from the first turn to the answered one.
    const path: Turn[] = [];
    for (let at = byId.get(parentId); at; at = at.parentId === null ? undefined : byId.get(at.parentId))
      path.unshift(at.turn);
    const history: Transcript = { ...transcript, turns: path };
    const flight = this.flights.claim(input.conversationId, busyError);
    try {
      const now = new Date(clock.now()).toISOString();
      for (const t of todo) await store.deleteTurnsFrom(input.conversationId, t.old, now);
    } catch (e) {
      this.flights.release(input.conversationId, flight);
      throw e;
    }
    const answers = todo.map((t) => ({ ...t, turnId: newId() }));
    this.startGroup(input.conversationId, flight, answers, history, parentId, { stateless: true });
  }

  /**
   * Starts the answers of one message to several targets (docs/side-panel.md#ask-several-models-at-once)
   * as the conversation's one request in flight: each a child of `parentId` planned from
   * `history`, through the ordinary answer pipeline; only the group's end says `idle`.
   */
  private startGroup(
    conversationId: string,
    flight: InFlight,
    answers: {
      target: SendTarget;
      connection: { provider: ResolvedProvider; key: string };
      turnId: string;
      activate: boolean;
    }[],
    history: Transcript,
    parentId: string,
    exclusions: Exclusions,
  ): void {
    this.flights.start(conversationId, flight, async (group) => {
      const children = answers.map((a) => {
        const child: InFlight = {
          get abort() {
            return group.abort;
          },
          get stopped() {
            return group.stopped;
          },
          done: group.done,
        };
        // One answer ending is not the compare ending: the group's end says `idle` (in-flight.ts);
        // each answer's own failure is stored on its turn. Every answer's long retry wait is kept
        // in the conversation's one pending record (L4, retry-alarm.ts), so each is retried after a worker stop.
        const { answerRetrySleep } = this.deps;
        const deps: SendDeps = {
          ...this.deps,
          broadcast: (e) => {
            if (e.type !== 'sendStateChanged' || e.state !== 'idle') this.deps.broadcast(e);
          },
          retrySleep: answerRetrySleep ? (c, t) => answerRetrySleep(c, a.turnId, t) : undefined,
        };
        return {
          child,
          run: () =>
            generateAnswer(deps, this.discloser, {
              conversationId,
              target: a.target,
              connection: a.connection,
              flight: child,
              exclusions,
              sibling: { turnId: a.turnId, history, parentId, activate: a.activate },
            }),
        };
      });
      // A panel that missed deltas resumes from the first answer still streaming.
      group.live = () => children.map((c) => c.child.live?.()).find((l) => l?.turn.status === 'streaming');
      await Promise.allSettled(children.map((c) => c.run()));
    });
  }

  /**
   * Runs `work` (a request that is not a send, e.g. a summary of earlier turns, docs/disclosure.md) as the
   * conversation's in-flight job: sends to it are refused as `busy` meanwhile, `stop` aborts its
   * `signal`, and the worker is kept alive (L3). `sleep` is the engine's clock, for retry waits.
   * @throws BatonError `busy` when a send or another job is in flight; otherwise whatever `work` throws.
   */
  async exclusive<T>(
    conversationId: string,
    work: (signal: AbortSignal, sleep: Clock['sleep']) => Promise<T>,
  ): Promise<T> {
    return this.flights.exclusive(conversationId, busyError, work);
  }

  /** Aborts the in-flight request; the partial answer is kept as `stopped` (L5). */
  stop(conversationId: string): void {
    this.flights.stop(conversationId);
  }

  private async connect(target: SendTarget): Promise<{ provider: ResolvedProvider; key: string }> {
    const provider = resolveProvider(target.providerId, await this.deps.settings.get(), target);
    await assertReachable(provider, (o) => this.deps.hasHostPermission(o));
    return { provider, key: await keyFor(provider, this.deps.vault) };
  }

  /** Starts the answer as the conversation's request in flight (`answer.ts`). */
  private start(
    conversationId: string,
    target: SendTarget,
    connection: { provider: ResolvedProvider; key: string },
    exclusions: Exclusions,
    flight: InFlight,
  ): void {
    this.flights.start(conversationId, flight, (flight) =>
      generateAnswer(this.deps, this.discloser, { conversationId, target, connection, flight, exclusions }),
    );
  }
}
