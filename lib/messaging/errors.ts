/**
 * Typed errors of the background (`BatonError`, thrown by the background, the store and the vault), turned
 * into `{ok: false, error}` replies by the router (`toProtocolError`). Below store and vault, so they
 * can throw it without importing the background.
 */
import type { ErrorCode, ProtocolError } from './protocol';

export class BatonError extends Error {
  override readonly name = 'BatonError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}

const MAX_MESSAGE = 500;

/**
 * A reply-safe error: a known code, plain text of at most 500 characters with every secret
 * removed (P5, S4). Unknown exceptions become `internal` without their stack.
 */
export function toProtocolError(e: unknown, secrets: readonly string[] = []): ProtocolError {
  const code: ErrorCode = e instanceof BatonError || hasCode(e) ? (e as { code: ErrorCode }).code : 'internal';
  const raw = e instanceof Error ? e.message : String(e);
  const message = redact(raw, secrets).slice(0, MAX_MESSAGE);
  const retry = (e as { retryAfterSec?: number; retryAfterMs?: number }) ?? {};
  const retryAfterSec =
    retry.retryAfterSec ?? (retry.retryAfterMs !== undefined ? Math.ceil(retry.retryAfterMs / 1000) : undefined);
  return { code, message: message || code, ...(retryAfterSec !== undefined ? { retryAfterSec } : {}) };
}

function hasCode(e: unknown): boolean {
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof (e as { code?: unknown }).code === 'string' &&
    (e as { name?: string }).name === 'TransportError'
  );
}

/** Removes every secret and every 12-character piece of one from `text` (S4's definition of key material). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    out = out.split(s).join('[redacted]');
    if (s.length >= 12) for (let i = 0; i + 12 <= s.length; i++) out = out.split(s.slice(i, i + 12)).join('[redacted]');
  }
  return out;
}
