/**
 * Image dimensions from header bytes, each built here from its format's specification (PNG IHDR,
 * GIF logical screen descriptor, JPEG SOF after APPn segments, WebP VP8/VP8L/VP8X), not from the
 * reader's own constants.
 */
import { describe, expect, it } from 'vitest';
import { imageSize, imageSizeOfBase64 } from './image-size';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16be = (n: number) => [(n >>> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const u24le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

/** PNG signature, then the IHDR chunk: length 13, "IHDR", width, height, depth 8, colour type 6, … */
const png = (w: number, h: number) =>
  bytes([0x89], 'PNG\r\n\x1a\n', u32be(13), 'IHDR', u32be(w), u32be(h), [8, 6, 0, 0, 0], [0, 0, 0, 0]);
const gif = (w: number, h: number) => bytes('GIF89a', u16le(w), u16le(h), [0xf7, 0, 0]);
/** SOI, an APP0 (JFIF) segment of `pad` extra bytes, then SOF0: length 17, precision 8, height, width. */
const jpeg = (w: number, h: number, pad = 0, marker = 0xc0) =>
  bytes(
    [0xff, 0xd8],
    [0xff, 0xe0],
    u16be(16 + pad),
    'JFIF\0',
    [1, 1, 0, 0, 1, 0, 1, 0, 0],
    new Array<number>(pad).fill(0x20),
    [0xff, marker],
    u16be(17),
    [8],
    u16be(h),
    u16be(w),
    [3, 1, 0x22, 0],
  );
const riff = (chunk: string, body: number[]) =>
  bytes('RIFF', [0, 0, 0, 0], 'WEBP', chunk, [body.length, 0, 0, 0], body);
/** VP8 key frame: 3-byte frame tag, start code 9d 01 2a, 14-bit width and height (2 scale bits each). */
const vp8 = (w: number, h: number) =>
  riff('VP8 ', [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(w), ...u16le(h), 0, 0]);
/** VP8L: signature 0x2f, then (width − 1) and (height − 1) as 14-bit fields, little-endian bit order. */
const vp8l = (w: number, h: number) => {
  const bits = (w - 1) | ((h - 1) << 14);
  return riff('VP8L', [0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255]);
};
/** VP8X: flags, 3 reserved bytes, canvas width − 1 and height − 1 as 24-bit little-endian. */
const vp8x = (w: number, h: number) => riff('VP8X', [0x10, 0, 0, 0, ...u24le(w - 1), ...u24le(h - 1)]);

describe('imageSize', () => {
  it.each([
    ['PNG', png(1024, 768), { width: 1024, height: 768, format: 'png' }],
    ['PNG over 2^31 px wide', png(0x80000001, 1), { width: 0x80000001, height: 1, format: 'png' }],
    ['GIF', gif(320, 200), { width: 320, height: 200, format: 'gif' }],
    ['JPEG (SOF0 after APP0)', jpeg(4032, 3024), { width: 4032, height: 3024, format: 'jpeg' }],
    ['JPEG (progressive SOF2)', jpeg(640, 480, 0, 0xc2), { width: 640, height: 480, format: 'jpeg' }],
    ['WebP lossy (VP8)', vp8(1920, 1080), { width: 1920, height: 1080, format: 'webp' }],
    ['WebP lossless (VP8L)', vp8l(10, 16383), { width: 10, height: 16383, format: 'webp' }],
    ['WebP extended (VP8X)', vp8x(5000, 3), { width: 5000, height: 3, format: 'webp' }],
  ] as const)('%s', (_name, b, expected) => {
    expect(imageSize(b)).toEqual(expected);
  });

  it('is undefined for other bytes, cut-short headers and zero sizes', () => {
    expect(imageSize(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(imageSize(png(10, 10).slice(0, 20))).toBeUndefined();
    expect(imageSize(png(0, 10))).toBeUndefined();
    expect(imageSize(jpeg(10, 10).slice(0, 26))).toBeUndefined();
    expect(imageSize(bytes([0xff, 0xd8, 0x00, 0x00, 0x00]))).toBeUndefined();
    expect(imageSize(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBeUndefined();
    expect(imageSize(new Uint8Array())).toBeUndefined();
  });
});

describe('imageSizeOfBase64', () => {
  it('reads base64 data, including a JPEG whose frame header lies past the first 48 KB', () => {
    expect(imageSizeOfBase64(b64(png(800, 600)))).toEqual({ width: 800, height: 600, format: 'png' });
    expect(imageSizeOfBase64(b64(jpeg(1200, 900, 60_000)))).toEqual({ width: 1200, height: 900, format: 'jpeg' });
  });

  it('is undefined for data that is not base64 or not an image', () => {
    expect(imageSizeOfBase64('not base64 at all!')).toBeUndefined();
    expect(imageSizeOfBase64(btoa('%PDF-1.7\n'.repeat(20)))).toBeUndefined();
    expect(imageSizeOfBase64('')).toBeUndefined();
  });
});
