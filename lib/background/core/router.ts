/**
 * The message router: checks the sender before anything else (security-requirements.md M1, M2),
 * parses the envelope and the payload with their zod schemas (M3), then calls the one handler for
 * the type. Every failure is a structured `{ok: false, error}` reply; nothing throws out of it.
 */
import {
  envelopeSchema,
  REQUESTS,
  type Reply,
  type RequestPayload,
  type RequestType,
  type Responses,
} from '../../messaging/protocol';
import { formatPath } from '../../transcript/codec';
import { BatonError, toProtocolError } from '../../messaging/errors';

/** The fields of `runtime.MessageSender` the router looks at. */
export interface Sender {
  id?: string;
  url?: string;
  origin?: string;
  tab?: unknown;
  frameId?: number;
}

export type SenderKind = 'extension' | 'content';

/** The three chat sites whose top frame may submit a capture (M2). */
export const CAPTURE_ORIGINS = ['https://chatgpt.com', 'https://claude.ai', 'https://gemini.google.com'] as const;

/**
 * Classifies a sender, or undefined when it is neither one of our pages nor our content script in
 * the top frame of a chat site (M1, M2). `extensionOrigin` is `chrome-extension://<id>` (exactly).
 */
export function classifySender(sender: Sender, ownId: string, extensionOrigin: string): SenderKind | undefined {
  if (sender.id !== ownId) return undefined;
  const origin = sender.origin ?? originOf(sender.url);
  if (origin === extensionOrigin && (sender.url === undefined || sender.url.startsWith(`${extensionOrigin}/`)))
    return 'extension';
  if (sender.tab !== undefined && sender.frameId === 0 && (CAPTURE_ORIGINS as readonly string[]).includes(origin ?? ''))
    return 'content';
  return undefined;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** One handler per request type; `from` is the raw sender (the capture handler checks the page it names against it, M2). */
export type Handlers = {
  [T in RequestType]: (payload: RequestPayload<T>, sender: SenderKind, from?: Sender) => Promise<Responses[T]>;
};

/**
 * Routes one message. Sender first: a request from a sender the type does not accept is refused
 * before its payload is even parsed, so it causes no read, write or request (M1).
 */
export async function route(
  message: unknown,
  sender: Sender,
  env: { ownId: string; extensionOrigin: string; handlers: Handlers; secrets?: () => readonly string[] },
): Promise<Reply<unknown>> {
  try {
    const kind = classifySender(sender, env.ownId, env.extensionOrigin);
    if (!kind) throw new BatonError('forbidden', 'sender not allowed');
    const envelope = envelopeSchema.safeParse(message);
    if (!envelope.success) throw new BatonError('bad_request', 'malformed message');
    const type = envelope.data.type;
    if (!Object.hasOwn(REQUESTS, type))
      throw new BatonError('bad_request', `unknown request type "${type.slice(0, 64)}"`);
    const spec = REQUESTS[type as RequestType];
    if (!(spec.from as readonly SenderKind[]).includes(kind))
      throw new BatonError('forbidden', `${type} is not allowed from this sender`);
    const parsed = spec.input.safeParse(envelope.data.payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BatonError(
        'bad_request',
        `${type}: ${formatPath(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))) || 'payload'}: ${issue.message}`,
      );
    }
    const handler = env.handlers[type as RequestType] as (p: unknown, s: SenderKind, from: Sender) => Promise<unknown>;
    return { ok: true, data: await handler(parsed.data, kind, sender) };
  } catch (e) {
    return { ok: false, error: toProtocolError(e, env.secrets?.() ?? []) };
  }
}
