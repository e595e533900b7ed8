/**
 * Storage-full detection (security-requirements.md D2). Browsers report a full origin as a
 * `QuotaExceededError`, either thrown by the write itself or — when the commit fails — as an
 * `AbortError` on the requests while the transaction's `error` is the `QuotaExceededError`.
 */
import { BatonError } from '../messaging/errors';

const named = (e: unknown, name: string): boolean =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === name;

/**
 * True when `e` means "storage is full": a `QuotaExceededError`, or an `AbortError` whose inner
 * error (its `cause`, its `error`, or the transaction's `error` passed as `txError`) is one.
 */
export function isQuotaExceeded(e: unknown, txError?: unknown): boolean {
  if (named(e, 'QuotaExceededError')) return true;
  if (!named(e, 'AbortError')) return false;
  const inner = [(e as { cause?: unknown }).cause, (e as { error?: unknown }).error, txError];
  return inner.some((x) => named(x, 'QuotaExceededError'));
}

/** The one error a full storage becomes: code `storage_full`, a sentence a person can act on. */
export function storageFullError(): BatonError {
  return new BatonError(
    'storage_full',
    'Browser storage is full, so nothing was saved. Delete old conversations and try again.',
  );
}
