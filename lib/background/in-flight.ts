/**
 * The one in-flight job per conversation of the send engine: a send's answer, or a request that
 * is not a send (a summary of earlier turns, issue 6). A slot is checked and taken with no await
 * in between, so a send and a summary started at the same moment can never both run, and a job
 * that ends frees only its own slot.
 */
import { BatonError } from './errors';

/** One running job: `abort` stops its request, `stopped` says Stop was pressed, `done` settles when it has ended and been stored. */
export interface InFlight {
  abort: AbortController;
  stopped: boolean;
  done: Promise<void>;
}

export class InFlightSlots {
  private readonly slots = new Map<string, InFlight>();

  has(conversationId: string): boolean {
    return this.slots.has(conversationId);
  }

  get(conversationId: string): InFlight | undefined {
    return this.slots.get(conversationId);
  }

  /**
   * Takes the conversation's slot (synchronously).
   * @throws BatonError `busy` when a send or another job holds it.
   */
  claim(conversationId: string): InFlight {
    if (this.slots.has(conversationId)) throw new BatonError('busy', 'An answer is still streaming in this conversation.');
    const flight: InFlight = { abort: new AbortController(), stopped: false, done: Promise.resolve() };
    this.slots.set(conversationId, flight);
    return flight;
  }

  /** Frees the slot if `flight` still holds it. */
  release(conversationId: string, flight: InFlight): void {
    if (this.slots.get(conversationId) === flight) this.slots.delete(conversationId);
  }
}
