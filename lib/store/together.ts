/**
 * Requests of one transaction issued together (bench/README.md, "Append with the list pages"):
 * awaited one after another, every request of a write costs the transaction a round trip to the
 * database; issued together, the write waits for about one. IndexedDB still runs them in the
 * order they were issued, and any failed request aborts the transaction as a whole (D4).
 */

/**
 * Errors that only follow another failure: the transaction was aborted, a later request came after
 * that, or a later function asked the finished transaction for a store (`objectStore` throws
 * `InvalidStateError` once the transaction has finished, as an abort finishes it at once).
 */
const CONSEQUENCES = ['AbortError', 'TransactionInactiveError', 'InvalidStateError'];

/** How telling an error is: a request's own error first, then the abort it caused, then what came after the abort. */
function rank(e: unknown): number {
  const name = (e as { name?: unknown } | null)?.name;
  const i = typeof name === 'string' ? CONSEQUENCES.indexOf(name) : -1;
  return i < 0 ? 0 : i + 1;
}

/**
 * Starts every one of `work` (functions that issue requests of the caller's transaction and await
 * only those, D5) at once, waits until all have settled and gives their results in order. When any
 * failed, throws the most telling error — the failing request's own (a `QuotaExceededError`, a
 * `ConstraintError`) rather than the `AbortError`s, `TransactionInactiveError`s and
 * `InvalidStateError`s of the requests it took down with it — so the caller sees what it would
 * have seen had the requests run one after another. No rejection is left unobserved. A function
 * may return undefined (nothing to do).
 */
export async function together<const W extends readonly (() => unknown)[]>(
  work: W,
): Promise<{ -readonly [K in keyof W]: Awaited<ReturnType<W[K]>> }> {
  const started = work.map((f) => {
    try {
      return f();
    } catch (e) {
      // A request refused when issued (its transaction already aborted by an earlier one).
      return Promise.reject(e);
    }
  });
  const settled = await Promise.allSettled(started);
  let worst: { e: unknown; rank: number } | undefined;
  for (const s of settled) {
    if (s.status === 'fulfilled') continue;
    const r = rank(s.reason);
    if (worst === undefined || r < worst.rank) worst = { e: s.reason, rank: r };
  }
  if (worst !== undefined) throw worst.e;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof W]: Awaited<ReturnType<W[K]>>;
  };
}
