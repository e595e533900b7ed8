/**
 * Reading one entry out of an export zip (security-requirements.md I3): every entry name is checked
 * for zip-slip paths before anything is decompressed, the entry count is bounded, and the entry is
 * decompressed into a buffer no larger than the decompressed-size cap (fflate's `unzipSync`
 * inflates into a buffer of the declared size, so a lying header cannot expand past it).
 */
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { TranscriptError } from '../transcript/codec';

/** Most entries an archive may list (a ChatGPT export holds one file per image; far fewer in practice). */
export const MAX_ZIP_ENTRIES = 200_000;

/** True when `bytes` start with a zip signature (`PK\x03\x04`, or `PK\x05\x06` for an empty archive). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/**
 * Why an entry name is unsafe (absolute, a drive letter, a backslash, a `..` segment, control
 * characters: the zip-slip checks of convoviz `io/loaders.py`), or undefined when it is fine.
 */
export function unsafeEntryName(name: string): string | undefined {
  if (name === '') return 'empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) return 'control characters in the name';
  if (name.startsWith('/') || name.startsWith('\\')) return 'absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'drive-letter path';
  if (name.includes('\\')) return 'backslash in the path';
  if (name.split('/').some((seg) => seg === '..')) return '".." path segment';
  return undefined;
}

const fail = (problem: string): never => {
  throw new TranscriptError('', problem);
};

/**
 * Returns the bytes of the top-level entry `name` (e.g. `conversations.json`).
 * @param maxUncompressed largest decompressed size accepted, in bytes.
 * @throws TranscriptError for an archive that is malformed, lists an unsafe entry name anywhere
 *   (zip-slip), lists more than {@link MAX_ZIP_ENTRIES} entries, has no or two `name` entries,
 *   declares more than `maxUncompressed` bytes for it (decompression bomb), or uses a compression
 *   other than stored/deflate.
 */
export function extractZipEntry(bytes: Uint8Array, name: string, maxUncompressed: number): Uint8Array {
  let count = 0;
  let target: UnzipFileInfo | undefined;
  try {
    unzipSync(bytes, {
      filter(file) {
        if (++count > MAX_ZIP_ENTRIES) fail(`zip archive lists more than ${MAX_ZIP_ENTRIES} entries (I3)`);
        const unsafe = unsafeEntryName(file.name);
        if (unsafe) fail(`zip entry ${JSON.stringify(file.name.slice(0, 200))} refused: ${unsafe} (zip-slip, I3)`);
        if (file.name === name) {
          if (target) fail(`zip archive holds "${name}" twice`);
          target = file;
        }
        return false;
      },
    });
  } catch (e) {
    if (e instanceof TranscriptError) throw e;
    fail(`invalid zip archive: ${(e as Error).message}`);
  }
  const entry = target as UnzipFileInfo | undefined;
  if (!entry) return fail(`zip archive has no top-level "${name}"`);
  if (entry.compression !== 0 && entry.compression !== 8) fail(`zip entry "${name}" uses unsupported compression method ${entry.compression}`);
  const declared = entry.compression === 0 ? entry.size : entry.originalSize;
  if (!(declared >= 0) || declared > maxUncompressed)
    fail(`zip entry "${name}" would decompress to ${declared} bytes, over the ${maxUncompressed}-byte limit (decompression bomb, I3)`);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => file.name === name });
  } catch (e) {
    return fail(`invalid zip archive: ${(e as Error).message}`);
  }
  const out = Object.prototype.hasOwnProperty.call(files, name) ? files[name] : undefined;
  if (!out) return fail(`zip archive has no top-level "${name}"`);
  if (out.length > maxUncompressed) fail(`zip entry "${name}" is over the ${maxUncompressed}-byte limit (I3)`);
  return out;
}
