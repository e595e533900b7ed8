/** The one type guard for JSON objects, for every layer (readers, converters, importers, transports). */

/** A JSON object: string keys, values not yet checked. */
export type JsonObject = Record<string, unknown>;

/** True for a non-null, non-array object (a JSON object, as `JSON.parse` makes them). */
export function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
