/**
 * Error codes (protocol.ts `ErrorCode`) → sentences a person understands and can act on. The
 * provider's own message is shown only as a short plain-text detail, with any JSON body reduced
 * to its message (P3: error JSON is never shown as is; P5: ≤ 500 characters).
 */
import { isErrorCode } from '../messaging/client';
import type { ErrorCode, ProtocolError } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import { withoutRuleIds } from './rule-ids';

/** What to show for an error. `action: 'options'` means "offer a link to the options page". */
export interface ErrorText {
  sentence: string;
  detail?: string;
  action?: 'options';
}

function wait(sec: number | undefined): string {
  if (sec === undefined || !Number.isFinite(sec) || sec <= 0) return 'Wait a minute, then try again.';
  if (sec < 90) return `Try again in ${Math.ceil(sec)} second${Math.ceil(sec) === 1 ? '' : 's'}.`;
  return `Try again in about ${Math.ceil(sec / 60)} minutes.`;
}

const SENTENCES: Record<ErrorCode, (e: ProtocolError) => string> = {
  no_key: () => 'There is no API key for this provider. Add one in the options page.',
  invalid_key: () => 'The provider rejected the API key. Check it, or enter a new one, in the options page.',
  locked: () => 'Your keys are locked. Unlock them in the options page.',
  rate_limited: (e) => `The provider is limiting how fast you can send requests. ${wait(e.retryAfterSec)}`,
  quota: () =>
    "Your account with this provider has run out of quota or credit. Check your plan and billing on the provider's website; retrying will not help until then.",
  overloaded: (e) => `The provider is overloaded right now. ${wait(e.retryAfterSec ?? 30)} Or pick another provider.`,
  context_too_long: () =>
    'This conversation is too long for the selected model. Pick a model with a larger context window, remove large attachments, or start a new chat (copy the conversation first to keep it).',
  endpoint_not_permitted: () =>
    'Baton has no permission to reach this address, so nothing was sent. Save the base URL again in the options page and allow access.',
  network: () =>
    isOffline()
      ? 'You are offline, so the provider could not be reached. Reconnect, then press Retry.'
      : 'Could not reach the provider. Check your internet connection (or that the local server is running) and try again.',
  timeout: () => 'The provider took too long to answer. Try again.',
  blocked: () => "The provider's safety filter blocked this request or its answer.",
  bad_request: () => 'The provider refused the request as invalid.',
  forbidden: () => 'Access was refused. The key may not have access to this model or feature.',
  not_found: () => 'Not found: check the model id, or the conversation may have been deleted.',
  provider_error: () => 'The provider had a problem answering. Try again in a moment.',
  storage_full: () =>
    'Browser storage is full, so Baton could not save. Your message is still in the box; delete old conversations and try again.',
  busy: () => 'An answer is still being written in this conversation. Wait for it, or press Stop.',
  confirmation_required: () =>
    'This provider has not received this conversation yet: confirm what will be disclosed, then send.',
  policy_forbidden: () =>
    "This conversation's disclosure policy does not allow this provider, so nothing was sent. Pick another provider.",
  not_received: () =>
    'This provider has not received any of this conversation, so Baton did not ask it to count the tokens: that would disclose the conversation. Nothing was sent.',
  internal: () => 'Something went wrong inside Baton. Try again; if it keeps happening, reopen the side panel.',
};

/** The browser says there is no network (`navigator.onLine === false`). */
function isOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;
}

const OPTIONS_ACTION: readonly ErrorCode[] = ['no_key', 'invalid_key', 'locked', 'endpoint_not_permitted'];
const MAX_DETAIL = 300;

/** The sentence, an optional plain-text detail and an optional action for `e`. */
export function describeError(e: ProtocolError): ErrorText {
  const code = isErrorCode(e.code) ? e.code : 'internal';
  const sentence = e.sentence ?? SENTENCES[code](e);
  const detail = cleanDetail(e.message);
  return {
    sentence,
    ...(detail && detail !== code && !sentence.includes(detail) ? { detail } : {}),
    ...(OPTIONS_ACTION.includes(code) ? { action: 'options' as const } : {}),
  };
}

/**
 * A provider or Baton message reduced to readable text: a JSON body is replaced by its
 * `message` field (or dropped), whitespace collapsed, at most 300 characters. Undefined when
 * nothing readable is left.
 */
export function cleanDetail(message: string | undefined): string | undefined {
  if (!message) return undefined;
  let text = message;
  const start = text.search(/\{|\[\s*[{"]/);
  if (start >= 0) {
    const end = text.lastIndexOf(text[start] === '{' ? '}' : ']');
    const inner = end > start ? messageOf(text.slice(start, end + 1)) : undefined;
    text = `${text.slice(0, start)} ${inner ?? ''} ${end > start ? text.slice(end + 1) : ''}`;
  }
  // Rule ids ("(N3)") are for the code, not for people (docs/side-panel.md).
  text = withoutRuleIds(text).replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

function messageOf(json: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 4 && v !== null && typeof v === 'object'; depth++) {
    if (Array.isArray(v)) v = v[0];
    else {
      const o = v as Record<string, unknown>;
      if (typeof o.message === 'string') return o.message;
      if (typeof o.error === 'string') return o.error;
      v = o.error;
    }
  }
  return undefined;
}

/**
 * The protocol error behind a failed turn (`turn.error.type` is a Baton code, or a provider's own
 * type like `overloaded_error` when the stream carried it).
 */
export function turnError(turn: Pick<Turn, 'error'>): ProtocolError {
  const type = turn.error?.type ?? 'provider_error';
  const message = turn.error?.message ?? '';
  if (isErrorCode(type)) return { code: type, message };
  const code: ErrorCode = /overload|unavailable|503|529/i.test(type)
    ? 'overloaded'
    : /quota|billing|insufficient/i.test(type)
      ? 'quota'
      : /rate|429/i.test(type)
        ? 'rate_limited'
        : /context|too_long|length/i.test(type)
          ? 'context_too_long'
          : /safety|block|filter|prohibited/i.test(type)
            ? 'blocked'
            : 'provider_error';
  return { code, message };
}

/**
 * Why a stream was cut short, when the background recorded it (`turn.meta.interruptedBy`, set
 * for P3 errors that arrive after some text); undefined otherwise.
 */
export function interruptionError(turn: Pick<Turn, 'meta'>): ProtocolError | undefined {
  const by = turn.meta?.interruptedBy;
  if (typeof by !== 'object' || by === null) return undefined;
  const { type, message } = by as { type?: unknown; message?: unknown };
  if (typeof type !== 'string' || !type) return undefined;
  return turnError({ error: { type, message: typeof message === 'string' ? message : '' } });
}
