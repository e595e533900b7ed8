/**
 * Files a person attaches in the composer (paste, drop, pick): which ones Baton takes, how they
 * are read (base64, for `sendMessage.attachments`), and whether the chosen model accepts them.
 */
import type { Attachment, ModelCapabilities } from '../messaging/protocol';

/** Image types every built-in provider takes (OpenAI, Anthropic and Gemini vision inputs). */
export const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const PDF_TYPE = 'application/pdf';
/** Largest file read, in bytes (the protocol caps one attachment at 20,000,000 base64 characters). */
export const MAX_FILE_BYTES = 15_000_000;
/** At most this many attachments per message (protocol `LIMITS.attachments`). */
export const MAX_ATTACHMENTS = 20;

/** An attachment in the composer, before it is sent. */
export interface PendingAttachment extends Attachment {
  /** Local id for the list (not sent). */
  id: string;
  /** Size of the file in bytes. */
  bytes: number;
}

/** Why a file cannot be attached at all, or undefined. */
export function fileProblem(file: { name: string; type: string; size: number }): string | undefined {
  if (!IMAGE_TYPES.includes(file.type) && file.type !== PDF_TYPE)
    return `${file.name || 'This file'} cannot be attached: only images (PNG, JPEG, GIF, WebP) and PDF documents can.`;
  if (file.size > MAX_FILE_BYTES)
    return `${file.name || 'This file'} is too large (${formatBytes(file.size)}; at most ${formatBytes(MAX_FILE_BYTES)}).`;
  if (file.size === 0) return `${file.name || 'This file'} is empty.`;
  return undefined;
}

/** `1.2 MB`, `34 KB`, `512 B`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Standard base64 of `bytes` (no `data:` prefix), in chunks so large files do not overflow the stack. */
export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Reads a file into an attachment. @throws Error with a sentence for people when the file is refused. */
export async function readAttachment(file: File, id: string): Promise<PendingAttachment> {
  const problem = fileProblem(file);
  if (problem) throw new Error(problem);
  const data = toBase64(new Uint8Array(await file.arrayBuffer()));
  const kind = file.type === PDF_TYPE ? 'document' : 'image';
  return {
    id,
    kind,
    mediaType: file.type,
    data,
    bytes: file.size,
    ...(file.name ? { name: file.name.slice(0, 200) } : {}),
  };
}

/** What the composer says about attachments and the chosen model. */
export interface AttachmentVerdict {
  /** Sending is refused until the attachments or the model change. */
  blocked: boolean;
  /** A sentence for people, or undefined when all is well. */
  note?: string;
}

/**
 * Whether `model` (with capabilities `caps`, undefined while unknown) accepts `attachments`.
 * A model the registry knows without vision (or PDF input) blocks the send with a note; a model it
 * does not know gets a warning only (the provider decides).
 */
export function attachmentVerdict(
  attachments: readonly (Pick<Attachment, 'kind'> & { mediaType?: string })[],
  model: string,
  caps: ModelCapabilities | undefined,
): AttachmentVerdict {
  const images = attachments.filter((a) => a.kind === 'image').length;
  // Text documents (an added page) go to every model as text (docs/side-panel.md#add-this-page); only PDFs need `pdf`.
  const docs = attachments.filter((a) => a.kind === 'document' && !a.mediaType?.startsWith('text/')).length;
  if (attachments.length === 0 || !caps) return { blocked: false };
  const refused = [images && !caps.vision ? 'images' : '', docs && !caps.pdf ? 'PDF documents' : ''].filter(Boolean);
  if (refused.length === 0) return { blocked: false };
  const what = refused.join(' or ');
  if (!caps.known)
    return {
      blocked: false,
      note: `Baton does not know whether ${model || 'this model'} accepts ${what}; the provider may refuse the message.`,
    };
  return {
    blocked: true,
    note: `${model} does not accept ${what}. Remove the attachment, or choose a model that accepts ${what}.`,
  };
}
