/**
 * From raw bytes to text, with the checks that come before any parsing (security-requirements.md
 * I3): the size cap, zip detection by magic bytes (export archives only) and strict UTF-8.
 */
import { TranscriptError } from '../transcript/codec';
import { stripBom } from './safe-json';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_UNCOMPRESSED_BYTES, type ImportKind, type ImportOptions } from './types';
import { extractZipEntry, isZip } from './zip';

/** Kinds whose input may be the provider's export zip; the conversations are in its top-level `conversations.json`. */
const ZIP_KINDS: ReadonlySet<ImportKind> = new Set(['chatgpt-export', 'claude-export']);

/**
 * Checks the size cap before anything else, unpacks `conversations.json` from an export zip
 * (chatgpt-export, claude-export), and decodes strict UTF-8 (a byte-order mark is dropped).
 * @throws TranscriptError for a file over `opts.maxBytes`, a zip for another kind, an unsafe or
 *   oversized archive (see `extractZipEntry`), or bytes that are not UTF-8.
 */
export function decodeInput(kind: ImportKind, bytes: Uint8Array, opts: ImportOptions = {}): string {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes)
    throw new TranscriptError(
      '',
      `file is ${bytes.length} bytes, over the ${maxBytes}-byte import limit (I3); nothing was parsed`,
    );
  let data = bytes;
  if (isZip(bytes)) {
    if (!ZIP_KINDS.has(kind))
      throw new TranscriptError('', `a zip archive is accepted only for chatgpt-export and claude-export, not ${kind}`);
    data = extractZipEntry(bytes, 'conversations.json', opts.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES);
  }
  try {
    return stripBom(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    throw new TranscriptError('', 'file is not valid UTF-8 text');
  }
}
