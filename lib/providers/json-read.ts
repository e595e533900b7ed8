/**
 * Small, strict readers of untrusted JSON shared by the per-API readers: each failure is a
 * {@link TranscriptError} that names the JSON path.
 */
import { TranscriptError, formatPath, type JsonPath } from '../transcript/codec';
import { isRecord as isObject, type JsonObject } from '../transcript/json';

/** Plain JSON object. */
export { isObject, type JsonObject };

/** Throws a {@link TranscriptError} at `path`. */
export function fail(path: JsonPath, problem: string): never {
  throw new TranscriptError(formatPath(path), problem);
}

/** Short description of a value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return typeof v === 'object' ? 'object' : String(v);
}

/** Reads a required string field. @throws TranscriptError naming `path.key`. */
export function str(obj: JsonObject, key: string, path: JsonPath): string {
  const v = obj[key];
  if (typeof v !== 'string')
    fail(
      [...path, key],
      v === undefined ? 'required field missing (expected string)' : `expected string, got ${describe(v)}`,
    );
  return v;
}
