/**
 * The send pipeline (DESIGN.md, "Data flows one way on a send"): persist the user turn → convert
 * for the chosen target → call the provider through the official SDK with the user's key →
 * stream into an assistant turn, checkpointed at least every second or 500 characters (D1) →
 * store the finished turn with its native payload, usage and stop reason.
 *
 * Stop aborts the request and keeps the partial text as `stopped` (L5). Retries follow Baton's
 * own bounded policy (P1) and never happen once content has arrived. When a provider rejects
 * opaque state it produced itself (an invalid signature), the send is retried once without that
 * state, and the turn says so.
 */
import type { Attachment, BackgroundEvent, SendTarget } from '../messaging/protocol';
import { WIRE_API_MODULES } from '../providers';
import type { StreamAssembler } from '../providers/types';
import { metaOf, type ConversationStore } from '../store/conversations';
import type { SettingsStore } from '../store/settings';
import type { Block, Transcript, Turn } from '../transcript/schema';
import type { Vault } from '../vault/vault';
import { BatonError, toProtocolError } from './errors';
import { convertTargetFor, keyFor, resolveProvider, type ResolvedProvider } from './providers';
import type { Transport } from './transport';

/** Time, injectable so tests run in milliseconds (issue: "Timers and intervals are injectable"). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export interface SendDeps {
  store: ConversationStore;
  settings: SettingsStore;
  vault: Vault;
  transport: Transport;
  /** Whether the extension holds a host permission for `origin` (N1). */
  hasHostPermission(origin: string): Promise<boolean>;
  clock: Clock;
  newId(): string;
  broadcast(event: BackgroundEvent): void;
  /** Keeps the service worker alive while a request is in flight (L3); counted, so overlapping sends nest. */
  keepalive: { start(): void; stop(): void };
  /** Checkpoint cadence (D1): defaults 1,000 ms and 500 characters. */
  checkpointMs?: number;
  checkpointChars?: number;
  /** Throttle for `turnUpdated` broadcasts while streaming, in ms (default 100). */
  broadcastMs?: number;
}

interface InFlight {
  abort: AbortController;
  stopped: boolean;
  done: Promise<void>;
}

const TITLE_CHARS = 60;
/** Provider messages that mean "this opaque state is not valid here" (A-K5, G-K5, R-K2). */
const OPAQUE_STATE_REJECTED = /signature|thought_signature|encrypted_content|reasoning item|redacted_thinking/i;

export class SendEngine {
  private readonly inflight = new Map<string, InFlight>();

  constructor(private readonly deps: SendDeps) {}

  isBusy(conversationId: string): boolean {
    return this.inflight.has(conversationId);
  }

  /** Resolves when the conversation's current send (if any) has finished and been stored. */
  async settled(conversationId: string): Promise<void> {
    await this.inflight.get(conversationId)?.done;
  }

  /**
   * Persists the user turn and starts the answer; resolves once the user turn is stored (the
   * answer streams on). @throws BatonError (`busy`, `no_key`, `endpoint_not_permitted`, `not_found`, …)
   * before anything is written when the send cannot start.
   */
  async send(input: { conversationId: string; text: string; attachments?: Attachment[]; target: SendTarget }): Promise<{ userTurnId: string }> {
    const { store, clock, newId } = this.deps;
    if (this.isBusy(input.conversationId)) throw new BatonError('busy', 'An answer is still streaming in this conversation.');
    const record = await store.getRecord(input.conversationId);
    if (!record) throw new BatonError('not_found', 'This conversation no longer exists.');
    const blocks: Block[] = [
      ...(input.attachments ?? []).map((a): Block => (a.kind === 'image' ? { type: 'image', mediaType: a.mediaType, data: a.data } : { type: 'document', mediaType: a.mediaType, data: a.data, ...(a.name ? { title: a.name } : {}) })),
      ...(input.text.trim() ? [{ type: 'text' as const, text: input.text }] : []),
    ];
    if (blocks.length === 0) throw new BatonError('bad_request', 'Nothing to send.');
    const connection = await this.connect(input.target);
    const now = new Date(clock.now()).toISOString();
    const userTurn: Turn = { id: newId(), role: 'user', createdAt: now, blocks };
    const title = record.turnCount === 0 && input.text.trim() ? input.text.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS) : undefined;
    const meta = await store.appendTurn(input.conversationId, userTurn, now, { lastTarget: input.target, ...(title ? { title } : {}) });
    this.deps.broadcast({ type: 'turnUpdated', conversationId: input.conversationId, turn: userTurn });
    this.deps.broadcast({ type: 'conversationUpdated', meta });
    this.start(input.conversationId, input.target, connection);
    return { userTurnId: userTurn.id };
  }

  /**
   * Answers again after a failed, interrupted or stopped answer: that answer is removed and the
   * conversation is sent as it stands, so no user turn is duplicated (L2).
   */
  async retry(input: { conversationId: string; target: SendTarget }): Promise<void> {
    const { store, clock } = this.deps;
    if (this.isBusy(input.conversationId)) throw new BatonError('busy', 'An answer is still streaming in this conversation.');
    const { turns } = await store.get(input.conversationId, 1);
    const last = turns[0];
    if (!last) throw new BatonError('bad_request', 'Nothing to retry.');
    const connection = await this.connect(input.target);
    if (last.role === 'assistant') {
      if (last.status === undefined || last.status === 'complete') throw new BatonError('bad_request', 'The last answer completed; send a new message instead.');
      await store.deleteTurn(input.conversationId, last.id, new Date(clock.now()).toISOString());
    }
    this.start(input.conversationId, input.target, connection);
  }

  /** Aborts the in-flight request; the partial answer is kept as `stopped` (L5). */
  stop(conversationId: string): void {
    const f = this.inflight.get(conversationId);
    if (!f) return;
    f.stopped = true;
    f.abort.abort();
  }

  private async connect(target: SendTarget): Promise<{ provider: ResolvedProvider; key: string }> {
    const provider = resolveProvider(target.providerId, await this.deps.settings.get());
    if (provider.baseUrl && !(await this.deps.hasHostPermission(provider.origin)))
      throw new BatonError('endpoint_not_permitted', `Baton has no permission to reach ${provider.origin}. Grant it in the options page.`);
    return { provider, key: await keyFor(provider, this.deps.vault) };
  }

  private start(conversationId: string, target: SendTarget, connection: { provider: ResolvedProvider; key: string }): void {
    const abort = new AbortController();
    const flight: InFlight = { abort, stopped: false, done: Promise.resolve() };
    this.inflight.set(conversationId, flight);
    this.deps.keepalive.start();
    flight.done = this.generate(conversationId, target, connection, flight)
      .catch(() => undefined)
      .finally(() => {
        this.inflight.delete(conversationId);
        this.deps.keepalive.stop();
        this.deps.broadcast({ type: 'sendStateChanged', conversationId, state: 'idle' });
      });
  }

  private async generate(conversationId: string, target: SendTarget, { provider, key }: { provider: ResolvedProvider; key: string }, flight: InFlight): Promise<void> {
    const { store, clock, newId, broadcast, transport } = this.deps;
    const iso = () => new Date(clock.now()).toISOString();
    const module = WIRE_API_MODULES[provider.api];
    const turnId = newId();
    const ctx = { provider: provider.originProvider, requestedModel: target.model, turnId, createdAt: iso(), ...(provider.endpoint ? { endpoint: provider.endpoint } : {}) };
    const placeholder: Turn = {
      id: turnId,
      role: 'assistant',
      origin: { provider: provider.originProvider, api: provider.api, model: target.model, ...(provider.endpoint ? { endpoint: provider.endpoint } : {}) },
      createdAt: ctx.createdAt,
      status: 'streaming',
      blocks: [],
    };
    await store.appendTurn(conversationId, placeholder, iso());
    broadcast({ type: 'turnUpdated', conversationId, turn: placeholder });
    broadcast({ type: 'sendStateChanged', conversationId, state: 'sending' });

    const transcript = await store.toTranscript(conversationId);
    const history: Transcript = { ...transcript, turns: transcript.turns.filter((t) => t.id !== turnId) };
    let stripOpaque = false;
    let assembler: StreamAssembler | undefined;
    const checkpoint = this.checkpointer(conversationId, () => assembler?.snapshot());
    for (let pass = 0; ; pass++) {
      const convertTarget = convertTargetFor(provider, target);
      const source = stripOpaque ? withoutOwnOpaqueState(history) : history;
      const { body } = module.convert(source, convertTarget);
      let received = 0;
      try {
        await transport.withRetries(
          async () => {
            assembler = module.createStreamAssembler(ctx);
            await transport.streamRequest(
              { providerId: provider.providerId, api: provider.api, apiKey: key, ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}) },
              body,
              {
                model: target.model,
                signal: flight.abort.signal,
                onEvent: (event) => {
                  received++;
                  assembler!.push(event);
                  checkpoint.onEvent(event);
                },
              },
            );
          },
          {
            sleep: (ms, signal) => clock.sleep(ms, signal ?? flight.abort.signal),
            signal: flight.abort.signal,
            shouldRetry: () => received === 0 && !flight.stopped,
            onRetry: (info) => broadcast({ type: 'sendStateChanged', conversationId, state: 'retrying', retryInSec: Math.ceil(info.delayMs / 1000) }),
          },
        );
        const final = assembler!.finish();
        await checkpoint.final(stripOpaque ? noteStripped(final) : final);
        return;
      } catch (e) {
        if (flight.stopped) {
          const partial = assembler?.snapshot() ?? placeholder;
          await checkpoint.final({ ...partial, status: 'stopped' });
          return;
        }
        const err = toProtocolError(e, [key]);
        // A provider rejecting its own opaque state: once, without it (issue 4).
        if (pass === 0 && received === 0 && OPAQUE_STATE_REJECTED.test(err.message) && /400|invalid/i.test(`${(e as { status?: number }).status ?? ''} ${err.message}`)) {
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
        await checkpoint.final(ended);
        // P1: a 401 marks the key invalid until it is saved again or passes "Test key".
        if (err.code === 'invalid_key')
          await this.deps.settings.update((s) => ({ ...s, invalidKeys: [...new Set([...s.invalidKeys, provider.providerId])] }));
        broadcast({ type: 'sendStateChanged', conversationId, state: 'idle', error: err });
        return;
      }
    }
  }

  /**
   * Persists snapshots at least every `checkpointMs` or `checkpointChars` (D1): a change that
   * arrives inside the window is saved when the window ends (a timer), so a stream that stalls
   * after a burst still has its latest text on disk. Broadcasts are throttled the same way.
   */
  private checkpointer(conversationId: string, snapshot: () => Turn | undefined) {
    const { store, clock, broadcast } = this.deps;
    const everyMs = this.deps.checkpointMs ?? 1000;
    const everyChars = this.deps.checkpointChars ?? 500;
    const broadcastMs = this.deps.broadcastMs ?? 100;
    let lastSave = clock.now();
    let lastBroadcast = 0;
    let chars = 0;
    let dirty = false;
    let finished = false;
    let timer: (() => void) | undefined;
    let saving: Promise<unknown> = Promise.resolve();
    const save = (turn: Turn) => {
      saving = saving.then(() => store.putTurn(conversationId, turn, new Date(clock.now()).toISOString())).catch(() => undefined);
      return saving;
    };
    const flush = () => {
      timer = undefined;
      if (!dirty || finished) return;
      const s = snapshot();
      if (!s) return;
      dirty = false;
      chars = 0;
      lastSave = clock.now();
      void save(s);
      broadcast({ type: 'turnUpdated', conversationId, turn: s });
      lastBroadcast = lastSave;
    };
    return {
      onEvent(event: unknown) {
        dirty = true;
        chars += JSON.stringify(event).length;
        const now = clock.now();
        if (now - lastSave >= everyMs || chars >= everyChars) {
          timer?.();
          flush();
          return;
        }
        if (now - lastBroadcast >= broadcastMs) {
          const s = snapshot();
          if (s) broadcast({ type: 'turnUpdated', conversationId, turn: s });
          lastBroadcast = now;
        }
        timer ??= clock.setTimer(flush, Math.max(0, everyMs - (now - lastSave)));
      },
      async final(turn: Turn) {
        finished = true;
        timer?.();
        await save(turn);
        broadcast({ type: 'turnUpdated', conversationId, turn });
        const rec = await store.getRecord(conversationId);
        if (rec) broadcast({ type: 'conversationUpdated', meta: metaOf(rec) });
      },
    };
  }
}

/** The history without any opaque state (signatures, redacted thinking, native payloads) — for the one retry. */
function withoutOwnOpaqueState(t: Transcript): Transcript {
  return {
    ...t,
    turns: t.turns.map((turn) => {
      if (turn.role !== 'assistant') return turn;
      const { native: _n, ...rest } = turn;
      return {
        ...rest,
        blocks: turn.blocks
          .filter((b) => b.type !== 'redacted_thinking' && !(b.type === 'thinking'))
          .map((b) => ('signature' in b && b.signature !== undefined ? (({ signature: _s, ...x }) => x)(b) : b) as Block),
      };
    }),
  };
}

function noteStripped(turn: Turn): Turn {
  return { ...turn, meta: { ...turn.meta, opaqueStateStripped: 'the provider rejected earlier reasoning state; it was sent without it' } };
}
