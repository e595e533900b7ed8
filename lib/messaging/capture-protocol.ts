/**
 * Capture from the chat sites (docs/architecture.md#the-background-by-feature): the one request a content script may send
 * (`captureSubmit`, M2), the side panel's `takePendingCapture`, and the two messages the
 * background sends to a tab (M5: a capture request; nothing else ever goes to a tab).
 *
 * `captureSubmit` is untrusted input from a page (security-requirements.md I1, I2, M3): size-capped
 * before its fields are read (≤ `LIMITS.captureBytes` bytes of UTF-8 JSON, ≤ `LIMITS.captureMessages`
 * messages), strict objects only (unknown fields, `__proto__` / `constructor` / `prototype` keys
 * included, are rejected), roles `user` / `assistant` only, text always a string.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import { CAPTURE_LIMITS, jsonBytes } from './capture-tab';

export { CAPTURE_LIMITS, jsonBytes };

/** Sites a capture may come from (`lib/capture` readers; router.ts CAPTURE_ORIGINS). */
export const CAPTURE_SITES = ['chatgpt', 'claude', 'gemini'] as const;

const requestId = onFirstUse(() => z.string().regex(/^[A-Za-z0-9-]{8,64}$/));

const partSchema = onFirstUse(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('text'), text: z.string().max(CAPTURE_LIMITS.bytes) }),
    z.strictObject({
      type: z.literal('image'),
      url: z
        .string()
        .max(CAPTURE_LIMITS.url)
        .regex(/^https?:\/\//i, 'an http(s) URL'),
    }),
  ]),
);

const messageSchema = onFirstUse(() =>
  z.strictObject({
    role: z.enum(['user', 'assistant']),
    parts: z.array(partSchema).max(CAPTURE_LIMITS.partsPerMessage),
    model: z.string().min(1).max(CAPTURE_LIMITS.model).optional(),
  }),
);

/** The fields of a capture, checked after the size cap. */
export const captureBodySchema = onFirstUse(() =>
  z.strictObject({
    /** Set when the background asked for this capture (it names the chosen target). */
    requestId: requestId.optional(),
    site: z.enum(CAPTURE_SITES),
    url: z.string().max(CAPTURE_LIMITS.url),
    title: z.string().max(CAPTURE_LIMITS.title).optional(),
    partial: z.boolean(),
    partialReason: z.string().max(CAPTURE_LIMITS.reason),
    messages: z.array(messageSchema).max(CAPTURE_LIMITS.messages),
  }),
);
export type CaptureSubmit = z.infer<typeof captureBodySchema>;

/** The `captureSubmit` payload: the total size is checked first (I1: > 2 MB rejected), then the fields. */
export const captureSubmitSchema = onFirstUse(() =>
  z
    .unknown()
    .refine((v) => jsonBytes(v) <= CAPTURE_LIMITS.bytes, {
      message: `capture larger than ${CAPTURE_LIMITS.bytes} bytes`,
      abort: true,
    })
    .pipe(captureBodySchema),
);

/** Requests of this area, spread into `REQUESTS` (protocol.ts). */
export const CAPTURE_REQUESTS = onFirstUse(
  () =>
    ({
      /** A content script's capture of its page: stored as a new conversation (I1, M2; only `content` senders). */
      captureSubmit: { input: captureSubmitSchema, from: ['content'] },
      /** The side panel, on load: the capture a context-menu click started, if any (taken once). */
      takePendingCapture: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
    }) as const,
);

/** What a finished (or failed) context-menu capture tells the side panel. */
export interface CaptureOutcome {
  /** The new conversation, opened with the chosen target preselected as its `lastTarget`. */
  conversationId?: string;
  /** Why nothing was captured (no content script on the page, nothing to read…). */
  error?: { code: 'bad_request' | 'not_found' | 'forbidden' | 'internal'; message: string };
}

/** Results of this area's requests (`Responses` in protocol.ts extends it). */
export interface CaptureResponses {
  captureSubmit: { conversationId: string; turns: number };
  takePendingCapture: CaptureOutcome | null;
}
