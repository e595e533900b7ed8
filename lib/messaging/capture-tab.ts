/**
 * The messages between the background and a chat site's content script (M5): the background
 * sends only {@link CaptureTabRequest}; the content script answers only with {@link CaptureTabAck}
 * and submits the capture itself as a `captureSubmit` request. No zod here: the content script
 * bundle stays small.
 */

/** Caps on capture payloads (I1). `bytes`: UTF-8 bytes of the payload's JSON text. */
export const CAPTURE_LIMITS = {
  bytes: 2_000_000,
  messages: 2_000,
  partsPerMessage: 500,
  url: 2_000,
  title: 500,
  model: 200,
  reason: 500,
} as const;

/** UTF-8 bytes of `v`'s JSON text (Infinity when it has none: a cycle, a BigInt). */
export function jsonBytes(v: unknown): number {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? 0 : new TextEncoder().encode(s).length;
  } catch {
    return Infinity;
  }
}

/** The only message the background sends to a tab (M5): "read your page and submit it". */
export const CAPTURE_TAB_REQUEST = 'baton.captureRequest' as const;
export interface CaptureTabRequest {
  type: typeof CAPTURE_TAB_REQUEST;
  requestId: string;
}
/** The content script's acknowledgement (its reply to {@link CaptureTabRequest}). */
export interface CaptureTabAck {
  type: 'baton.captureAck';
  requestId: string;
  ok: boolean;
  /** Short reason when `ok` is false. */
  message?: string;
}

/** True when `m` is exactly a {@link CaptureTabRequest} (no other key, a well-formed id). */
export function isCaptureTabRequest(m: unknown): m is CaptureTabRequest {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const keys = Object.keys(m);
  const o = m as Record<string, unknown>;
  return (
    keys.length === 2 &&
    o.type === CAPTURE_TAB_REQUEST &&
    typeof o.requestId === 'string' &&
    /^[A-Za-z0-9-]{8,64}$/.test(o.requestId)
  );
}
