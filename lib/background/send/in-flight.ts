/**
 * The conversations with a request in flight, for the send engine (`engine.ts`): a send's answer or
 * an exclusive job such as a summary of earlier turns (docs/disclosure.md). At most one per conversation; while
 * one runs, the worker is kept alive (L3), `stop` aborts it (L5), and when it ends every open page
 * hears `sendStateChanged: idle`. A slot is checked and taken with no await in between
 * ({@link InFlightRequests.claim}), so a send and a summary started at the same moment can never
 * both run, and a request that ends frees only its own slot.
 */
import type { BackgroundEvent } from '../../messaging/protocol';
import type { Turn } from '../../transcript/schema';

/** One request in flight. */
export interface InFlight {
  abort: AbortController;
  /** Set by `stop` (L5): the person stopped it, as opposed to a failure. */
  stopped: boolean;
  /** Resolves when the request has ended and been stored. */
  done: Promise<void>;
  /** The answer's last broadcast state and `seq`, while it streams (`checkpoint.ts`). */
  live?: () => { turn: Turn; seq: number } | undefined;
}

/** What the bookkeeping needs of the engine's dependencies (`SendDeps` provides it). */
export interface InFlightDeps {
  broadcast(event: BackgroundEvent): void;
  /** Counted, so overlapping requests nest (L3). */
  keepalive: { start(): void; stop(): void };
  /** Resolves after `ms`, or rejects when `signal` aborts (the engine's clock, so tests run fast). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class InFlightRequests {
  private readonly flights = new Map<string, InFlight>();

  constructor(private readonly deps: InFlightDeps) {}

  /** The streaming answer of `conversationId` as last broadcast, with its `seq`; `undefined` when none. */
  live(conversationId: string): { turn: Turn; seq: number } | undefined {
    return this.flights.get(conversationId)?.live?.();
  }

  isBusy(conversationId: string): boolean {
    return this.flights.has(conversationId);
  }

  /** Resolves when the conversation's current request (if any) has finished and been stored. */
  async settled(conversationId: string): Promise<void> {
    await this.flights.get(conversationId)?.done;
  }

  /** Aborts the conversation's request in flight, marked `stopped` (L5); nothing when there is none. */
  stop(conversationId: string): void {
    const f = this.flights.get(conversationId);
    if (!f) return;
    f.stopped = true;
    f.abort.abort();
  }

  /**
   * Takes the conversation's slot, synchronously: call it with no await between the decision to
   * send and the first write, then {@link start} the request or {@link release} the slot.
   * @throws the error `busy()` makes when a send or another job holds the slot.
   */
  claim(conversationId: string, busy: () => Error): InFlight {
    if (this.flights.has(conversationId)) throw busy();
    const flight: InFlight = { abort: new AbortController(), stopped: false, done: Promise.resolve() };
    this.flights.set(conversationId, flight);
    return flight;
  }

  /** Frees the slot if `flight` still holds it (a request never frees another's). */
  release(conversationId: string, flight: InFlight): void {
    if (this.flights.get(conversationId) === flight) this.flights.delete(conversationId);
  }

  /**
   * Starts `run` in the slot `flight` (from {@link claim}) and returns at once (a send's answer
   * streams on). Whatever `run` throws is swallowed: it reports its own errors.
   */
  start(conversationId: string, flight: InFlight, run: (flight: InFlight) => Promise<void>): void {
    this.deps.keepalive.start();
    flight.done = run(flight)
      .catch(() => undefined)
      .finally(() => {
        this.release(conversationId, flight);
        this.deps.keepalive.stop();
        this.deps.broadcast({ type: 'sendStateChanged', conversationId, state: 'idle' });
      });
  }

  /**
   * Runs `work` as the conversation's request in flight and resolves with its result (see
   * `SendEngine.exclusive`). `sleep` waits on the engine's clock and aborts with the job.
   * @throws BatonError `busy` (from `busy()`) when a request is in flight; otherwise whatever `work` throws.
   */
  async exclusive<T>(
    conversationId: string,
    busy: () => Error,
    work: (signal: AbortSignal, sleep: InFlightDeps['sleep']) => Promise<T>,
  ): Promise<T> {
    const flight = this.claim(conversationId, busy);
    const abort = flight.abort;
    let release = () => undefined as void;
    flight.done = new Promise<void>((r) => (release = r));
    this.deps.keepalive.start();
    try {
      return await work(abort.signal, (ms, signal) => this.deps.sleep(ms, signal ?? abort.signal));
    } finally {
      this.release(conversationId, flight);
      this.deps.keepalive.stop();
      release();
      // A panel that opened the conversation meanwhile saw it busy.
      this.deps.broadcast({ type: 'sendStateChanged', conversationId, state: 'idle' });
    }
  }
}
