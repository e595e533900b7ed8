/**
 * An image's pixel dimensions read from the header of its stored bytes (PNG, JPEG, GIF, WebP),
 * without decoding the image. Pure: used by token estimates (lib/context/tokens.ts, docs/side-panel.md)
 * and by the side panel to show only images whose bytes are what they claim to be.
 *
 * Header layouts: PNG IHDR (ISO/IEC 15948 §11.2.2), GIF logical screen descriptor (GIF89a §18),
 * JPEG start-of-frame segments SOF0–SOF15 except DHT/JPG/DAC (ITU T.81 §B.2.2), WebP `VP8 `,
 * `VP8L` and `VP8X` chunks (RFC 9649 §2.5–2.7).
 */

/** A raster format Baton shows and sends. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Width and height in pixels, and the format the bytes really are. */
export interface ImageSize {
  width: number;
  height: number;
  format: ImageFormat;
}

/** The media type of each format (what `image` blocks carry). */
export const IMAGE_MEDIA_TYPE: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const le16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const le24 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const ascii = (b: Uint8Array, i: number, s: string) => [...s].every((c, k) => b[i + k] === c.charCodeAt(0));

function valid(width: number, height: number, format: ImageFormat): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height, format } : undefined;
}

/**
 * Dimensions from the first bytes of an image file; undefined when the bytes are none of the four
 * formats or the header is cut short or malformed.
 */
export function imageSize(b: Uint8Array): ImageSize | undefined {
  if (b.length >= 24 && ascii(b, 0, '\x89PNG\r\n\x1a\n') && ascii(b, 12, 'IHDR'))
    return valid(be32(b, 16), be32(b, 20), 'png');
  if (b.length >= 10 && (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'))) return valid(le16(b, 6), le16(b, 8), 'gif');
  if (b.length >= 16 && ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return webpSize(b);
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  return undefined;
}

function webpSize(b: Uint8Array): ImageSize | undefined {
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return valid(le24(b, 24) + 1, le24(b, 27) + 1, 'webp');
  if (ascii(b, 12, 'VP8L') && b.length >= 25 && b[20] === 0x2f) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return valid((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 'webp');
  }
  if (ascii(b, 12, 'VP8 ') && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return valid(le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff, 'webp');
  return undefined;
}

function jpegSize(b: Uint8Array): ImageSize | undefined {
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0–7, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      i += 2;
      continue;
    }
    const length = be16(b, i + 2);
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return i + 8 < b.length ? valid(be16(b, i + 7), be16(b, i + 5), 'jpeg') : undefined;
    i += 2 + length;
  }
  return undefined;
}

/** Base64 characters decoded at each try: PNG, GIF and WebP headers fit in the first 30 bytes; a JPEG's frame header usually in the first few KB. */
const STEPS = [64, 65_536];

/**
 * {@link imageSize} of base64 image data (standard alphabet, padding optional). Decodes only a
 * prefix unless a JPEG's frame header lies further in (large EXIF or ICC segments). Undefined for
 * data that is not valid base64 or not one of the four formats.
 */
export function imageSizeOfBase64(data: string): ImageSize | undefined {
  for (const n of STEPS) {
    const head = decode(data.slice(0, n));
    const size = head ? imageSize(head) : undefined;
    if (size || data.length <= n) return size;
    // Only a JPEG (or data with line breaks) needs more than the first bytes.
    if (head && head.length >= 2 && !(head[0] === 0xff && head[1] === 0xd8)) return undefined;
  }
  const whole = decode(data.replace(/\s+/g, ''));
  return whole ? imageSize(whole) : undefined;
}

function decode(b64: string): Uint8Array | undefined {
  const usable = b64.length - (b64.length % 4);
  try {
    const bin = atob(b64.slice(0, usable));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}
