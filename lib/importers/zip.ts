/**
 * Reading one entry out of an export zip (security-requirements.md I3): every entry name is checked
 * for zip-slip paths before anything is decompressed, the entry count is bounded, and the entry is
 * decompressed into a buffer no larger than the decompressed-size cap (fflate's `unzipSync`
 * inflates into a buffer of the declared size, so a lying header cannot expand past it).
 */
import type { UnzipFileInfo } from 'fflate';
import { TranscriptError } from '../transcript/codec';
import { loadUnzipSync } from './fflate-loader';

/** Most entries an archive may list (a ChatGPT export holds one file per image; far fewer in practice). */
export const MAX_ZIP_ENTRIES = 200_000;

/** True when `bytes` start with a zip signature (`PK\x03\x04`, or `PK\x05\x06` for an empty archive). */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
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
 *   declares more than `maxUncompressed` bytes for it (decompression bomb), uses a compression
 *   other than stored/deflate, or whose bytes fail the CRC-32 its central directory records
 *   (docs/security.md: the message names the entry).
 */
export function extractZipEntry(bytes: Uint8Array, name: string, maxUncompressed: number): Uint8Array {
  let count = 0;
  let target: UnzipFileInfo | undefined;
  try {
    loadUnzipSync()(bytes, {
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
  if (entry.compression !== 0 && entry.compression !== 8)
    fail(`zip entry "${name}" uses unsupported compression method ${entry.compression}`);
  const declared = entry.compression === 0 ? entry.size : entry.originalSize;
  if (!(declared >= 0) || declared > maxUncompressed)
    fail(
      `zip entry "${name}" would decompress to ${declared} bytes, over the ${maxUncompressed}-byte limit (decompression bomb, I3)`,
    );
  let files: Record<string, Uint8Array>;
  try {
    files = loadUnzipSync()(bytes, { filter: (file) => file.name === name });
  } catch (e) {
    return fail(`invalid zip archive: ${(e as Error).message}`);
  }
  const out = Object.prototype.hasOwnProperty.call(files, name) ? files[name] : undefined;
  if (!out) return fail(`zip archive has no top-level "${name}"`);
  if (out.length > maxUncompressed) fail(`zip entry "${name}" is over the ${maxUncompressed}-byte limit (I3)`);
  // fflate does not check CRCs: an entry altered after zipping would otherwise import silently.
  const expected = centralDirectoryCrc(bytes, name);
  if (expected === undefined) fail(`zip entry "${name}" has no central-directory record to check its CRC-32 against`);
  const actual = crc32(out);
  if (actual !== expected)
    fail(
      `zip entry "${name}" fails its CRC-32 check (stored ${hex(expected!)}, computed ${hex(actual)}): the file was altered or damaged after zipping; nothing was imported`,
    );
  return out;
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

let CRC_TABLE: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, the zip and PNG polynomial 0xEDB88320) of `data`. fflate computes it internally but does not export it. */
export function crc32(data: Uint8Array): number {
  const table = (CRC_TABLE ??= (() => {
    const t = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    return t;
  })());
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * The CRC-32 the archive's central directory records for the entry `name` (APPNOTE.TXT 4.3.12,
 * 4.3.16; zip64 end records 4.3.14–15), or undefined when it lists no such entry. Names are
 * decoded as fflate decodes them (UTF-8 when flag bit 11 is set, else Latin-1), so the entry
 * checked is the one that was extracted.
 */
function centralDirectoryCrc(bytes: Uint8Array, name: string): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  let entries = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if ((offset === 0xffffffff || entries === 0xffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === 0x07064b50) {
    const z64 = Number(view.getBigUint64(eocd - 12, true));
    if (z64 + 56 <= bytes.length && view.getUint32(z64, true) === 0x06064b50) {
      entries = Number(view.getBigUint64(z64 + 32, true));
      offset = Number(view.getBigUint64(z64 + 48, true));
    }
  }
  const utf8 = new TextDecoder('utf-8');
  const latin1 = (b: Uint8Array) => {
    let out = '';
    for (let i = 0; i < b.length; i++) out += String.fromCharCode(b[i]!);
    return out;
  };
  for (let i = 0, p = offset; i < entries && p + 46 <= bytes.length; i++) {
    if (view.getUint32(p, true) !== 0x02014b50) return undefined;
    const flags = view.getUint16(p + 8, true);
    const crc = view.getUint32(p + 16, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const raw = bytes.subarray(p + 46, p + 46 + nameLen);
    const entryName = flags & 0x800 ? utf8.decode(raw) : latin1(raw);
    if (entryName === name) return crc;
    p += 46 + nameLen + extraLen + commentLen;
  }
  return undefined;
}
