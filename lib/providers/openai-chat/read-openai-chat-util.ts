/**
 * Small validation helpers shared by the OpenAI Chat Completions readers: type checks that throw
 * {@link TranscriptError} naming the JSON path of the offending value, data-URL parsing and
 * tolerant JSON parsing of tool-call arguments.
 */
import { TranscriptError, assertNoPrototypeKeys, formatPath, type JsonPath } from '../../transcript/codec';
import { isRecord } from '../../transcript/json';
import { lookupTable } from '../../transcript/lookup';

export { isRecord };

/** Short description of a JSON value for error messages (`null`, `array`, `object`, `"text"`, `3`). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return String(v);
}

/** Throws a {@link TranscriptError} at `path`. */
export function fail(path: JsonPath, problem: string): never {
  throw new TranscriptError(formatPath(path), problem);
}

/** `v` as an object, or a TranscriptError at `path` (`required field missing` when absent). */
export function expectRecord(v: unknown, path: JsonPath): Record<string, unknown> {
  if (isRecord(v)) return v;
  if (v === undefined) fail(path, 'required field missing (expected object)');
  return fail(path, `expected object, got ${describeValue(v)}`);
}

/** `v` as an array, or a TranscriptError at `path`. */
export function expectArray(v: unknown, path: JsonPath): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined) fail(path, 'required field missing (expected array)');
  return fail(path, `expected array, got ${describeValue(v)}`);
}

/** `v` as a string (non-empty when `nonEmpty`), or a TranscriptError at `path`. */
export function expectString(v: unknown, path: JsonPath, nonEmpty = false): string {
  if (typeof v === 'string') {
    if (nonEmpty && v.length === 0) fail(path, 'must not be empty');
    return v;
  }
  if (v === undefined) fail(path, 'required field missing (expected string)');
  return fail(path, `expected string, got ${describeValue(v)}`);
}

/** `v` as a string when it is one, `undefined` when absent or null; a TranscriptError otherwise. */
export function optionalString(v: unknown, path: JsonPath): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  return fail(path, `expected string or null, got ${describeValue(v)}`);
}

/** The keys of `obj` not in `known`, with their values; `undefined` when there are none. */
export function extraFields(
  obj: Record<string, unknown>,
  known: readonly string[],
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (known.includes(k)) continue;
    (out ??= {})[k] = v;
  }
  return out;
}

/** A base64 `data:` URL split into media type and data (no prefix); `undefined` for anything else. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+)((?:;[^;,]*)*?);base64,(.*)$/s.exec(url);
  if (!m) return undefined;
  return { mediaType: m[1]!.trim().toLowerCase(), data: m[3]! };
}

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = lookupTable({
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
});

/** Media type of an image URL guessed from its file extension; `image/*` when unknown. */
export function imageTypeFromUrl(url: string): string {
  const m = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url);
  return (m && IMAGE_EXTENSIONS[m[1]!.toLowerCase()]) || 'image/*';
}

/** Result of parsing tool-call arguments text. */
export type ParsedArguments = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Parses tool-call arguments as sent on the wire (JSON text). Empty text means "no arguments"
 * (`{}`). Text that is not JSON, or whose value holds a `__proto__`/`constructor`/`prototype` key
 * (security-requirements.md I2), is not accepted. Never throws.
 */
export function parseArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return { ok: false, reason: `invalid JSON: ${(e as Error).message}` };
  }
  try {
    assertNoPrototypeKeys(value);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  return { ok: true, value };
}

/** `v` when it is a non-negative integer, else `undefined`. */
export function tokenCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/**
 * System or developer content: a string, or text parts of type `partType` (`text` in Chat,
 * `input_text` in Responses) joined with a blank line; empty parts are left out.
 * @throws TranscriptError naming the path of a part of another type.
 */
export function joinTextParts(content: unknown, path: JsonPath, partType: string): string {
  if (typeof content === 'string') return content;
  return expectArray(content, path)
    .map((raw, j) => {
      const part = expectRecord(raw, [...path, j]);
      const type = expectString(part.type, [...path, j, 'type']);
      if (type !== partType) fail([...path, j, 'type'], `expected "${partType}", got ${JSON.stringify(type)}`);
      return expectString(part.text, [...path, j, 'text']);
    })
    .filter((t) => t !== '')
    .join('\n\n');
}
