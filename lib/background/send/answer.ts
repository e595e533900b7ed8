/**
 * One answer of the send pipeline (`engine.ts`, DESIGN.md "Data flows one way on a send"): a
 * streaming placeholder turn → the context planner's request body (docs/disclosure.md, `lib/context/send-plan.ts`)
 * → the provider through the official SDK with the user's key → the stream assembled into the
 * answer turn, checkpointed at least every second or 500 characters (D1) → the finished turn
 * stored with its ledger record in one transaction.
 *
 * Stop keeps the partial text as `stopped` (L5). Retries follow Baton's own bounded policy (P1)
 * and never happen once content has arrived; a stream cut short keeps its text as `interrupted`
 * (P3). When a provider rejects opaque state it produced itself (an invalid signature), the send
 * is retried once without that state, and the turn says so (docs/architecture.md).
 */
import { WIRE_API_MODULES } from '../../providers';
import type { StreamAssembler } from '../../providers/types';
import type { SendTarget } from '../../messaging/protocol';
import type { Transcript, Turn } from '../../transcript/schema';
import { createCheckpointer } from './checkpoint';
import { type Discloser, type PreparedSend, assertSendable, type Exclusions } from '../disclosure';
import { toProtocolError } from '../../messaging/errors';
import type { InFlight } from './in-flight';
import { noteStripped, withoutOwnOpaqueState } from '../../context/opaque-state';
import { markKeyInvalid, type ResolvedProvider } from '../core/providers';
import type { SendDeps } from '../core/deps';

/** Provider messages that mean "this opaque state is not valid here" (A-K5, G-K5, R-K2). */
const OPAQUE_STATE_REJECTED = /signature|thought_signature|encrypted_content|reasoning item|redacted_thinking/i;

/** One accepted send to answer: the user turn (if any) is already stored. */
export interface AnswerJob {
  conversationId: string;
  target: SendTarget;
  connection: { provider: ResolvedProvider; key: string };
  /** Its entry among the requests in flight (`stopped` and `abort` come from Stop). */
  flight: InFlight;
  /** Turns and blocks the person left out (docs/disclosure.md). */
  exclusions: Exclusions;
  /**
   * One of several answers to one message (docs/side-panel.md#ask-several-models-at-once): the
   * answer turn's id, the history every answer is planned from (the path ending at the user turn),
   * and where the answer goes: a child of that user turn, the active one only with `activate`.
   */
  sibling?: { turnId: string; history: Transcript; parentId: string; activate: boolean };
}

/**
 * Streams the answer of `job` into a new assistant turn and stores it: `complete`, `stopped`,
 * `interrupted` or an error turn; a ledger record is written with it whenever a request was made
 * (docs/disclosure.md). Never throws for a provider or planning failure: the error is stored on the turn and
 * broadcast with `sendStateChanged: idle`; it rejects only when storage itself fails.
 */
export async function generateAnswer(deps: SendDeps, discloser: Discloser, job: AnswerJob): Promise<void> {
  const {
    conversationId,
    target,
    connection: { provider, key },
    flight,
    exclusions,
    sibling,
  } = job;
  const { store, clock, newId, broadcast, transport } = deps;
  const iso = () => new Date(clock.now()).toISOString();
  const module = WIRE_API_MODULES[provider.api];
  const turnId = sibling?.turnId ?? newId();
  const ctx = {
    provider: provider.originProvider,
    requestedModel: target.model,
    turnId,
    createdAt: iso(),
    ...(provider.endpoint ? { endpoint: provider.endpoint } : {}),
  };
  const placeholder: Turn = {
    id: turnId,
    role: 'assistant',
    origin: {
      provider: provider.originProvider,
      api: provider.api,
      model: target.model,
      ...(provider.endpoint ? { endpoint: provider.endpoint } : {}),
    },
    createdAt: ctx.createdAt,
    status: 'streaming',
    blocks: [],
  };
  if (sibling) await store.appendChild(conversationId, sibling.parentId, placeholder, iso(), sibling.activate);
  else await store.appendTurn(conversationId, placeholder, iso());
  broadcast({ type: 'turnUpdated', conversationId, turn: placeholder });
  broadcast({ type: 'sendStateChanged', conversationId, state: 'sending' });

  const transcript = sibling?.history ?? (await store.cachedTranscript(conversationId));
  const history: Transcript = { ...transcript, turns: transcript.turns.filter((t) => t.id !== turnId) };
  let stripOpaque = false;
  let assembler: StreamAssembler | undefined;
  const checkpoint = createCheckpointer(deps, conversationId, () => assembler?.snapshot());
  // A panel that missed deltas resumes from the last broadcast state (resumeStream).
  flight.live = () => checkpoint.live();
  let prepared: PreparedSend | undefined;
  // The ledger record is written with the final turn, in one transaction (docs/disclosure.md).
  const finish = (turn: Turn) =>
    prepared
      ? discloser.finish(conversationId, turn, iso(), provider, target.model, prepared)
      : store.putTurn(conversationId, turn, iso());
  for (let pass = 0; ; pass++) {
    const source = stripOpaque ? withoutOwnOpaqueState(history) : history;
    let body: Record<string, unknown>;
    let headers: Record<string, string> | undefined;
    try {
      // The active summary stays valid without the opaque state: its hashes are of the stored turns.
      prepared = await discloser.prepare({
        conversationId,
        transcript: source,
        target,
        provider,
        key,
        exclusions,
        summaryBasis: history,
      });
      assertSendable(prepared.planned);
      body = prepared.planned.body;
      // A-B3, A-P2: the headers the converter says this body needs (the beta endpoint for Anthropic).
      headers = prepared.planned.plan.headers;
    } catch (e) {
      // Nothing was sent: an error turn, no ledger record.
      prepared = undefined;
      const err = toProtocolError(e, [key]);
      await checkpoint.final({ ...placeholder, status: 'error', error: { type: err.code, message: err.message } });
      broadcast({ type: 'sendStateChanged', conversationId, state: 'idle', error: err });
      return;
    }
    let received = 0;
    try {
      await transport.withRetries(
        async () => {
          assembler = module.createStreamAssembler(ctx);
          await transport.streamRequest(
            {
              providerId: provider.providerId,
              api: provider.api,
              apiKey: key,
              ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
            },
            body,
            {
              model: target.model,
              signal: flight.abort.signal,
              ...(headers ? { headers } : {}),
              onEvent: (event) => {
                received++;
                assembler!.push(event);
                checkpoint.onEvent(event);
              },
            },
          );
        },
        {
          sleep: (ms, signal) =>
            (deps.retrySleep?.(conversationId, target) ?? clock.sleep)(ms, signal ?? flight.abort.signal),
          signal: flight.abort.signal,
          shouldRetry: () => received === 0 && !flight.stopped,
          onRetry: (info) =>
            broadcast({
              type: 'sendStateChanged',
              conversationId,
              state: 'retrying',
              retryInSec: Math.ceil(info.delayMs / 1000),
            }),
        },
      );
      const final = assembler!.finish();
      await checkpoint.final(stripOpaque ? noteStripped(final) : final, finish);
      return;
    } catch (e) {
      if (flight.stopped) {
        const partial = assembler?.snapshot() ?? placeholder;
        await checkpoint.final({ ...partial, status: 'stopped' }, finish);
        return;
      }
      const err = toProtocolError(e, [key]);
      // A provider rejecting its own opaque state: once, without it (docs/architecture.md).
      if (
        pass === 0 &&
        received === 0 &&
        OPAQUE_STATE_REJECTED.test(err.message) &&
        /400|invalid/i.test(`${(e as { status?: number }).status ?? ''} ${err.message}`)
      ) {
        stripOpaque = true;
        continue;
      }
      const partial = received > 0 && assembler ? assembler.finish() : placeholder;
      // A stream cut short keeps its text as `interrupted` (P3); anything else is an error turn.
      const ended: Turn =
        partial.status === 'error'
          ? partial
          : partial.status === 'interrupted' && received > 0
            ? { ...partial, meta: { ...partial.meta, interruptedBy: { type: err.code, message: err.message } } }
            : { ...partial, status: 'error', error: { type: err.code, message: err.message } };
      await checkpoint.final(ended, finish);
      // P1: a 401 marks the key invalid until it is saved again or passes "Test key".
      if (err.code === 'invalid_key') await markKeyInvalid(deps.settings, provider.providerId, true);
      broadcast({ type: 'sendStateChanged', conversationId, state: 'idle', error: err });
      return;
    }
  }
}
