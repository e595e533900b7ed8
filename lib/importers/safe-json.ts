/**
 * JSON parsing for imported files that cannot pollute prototypes (security-requirements.md I2):
 * every `__proto__`, `constructor` and `prototype` key is dropped, at any depth, while the text is
 * parsed, so no object built later ever sees one. `JSON.parse` itself stores such keys as plain own
 * properties; the reviver deletes them before the value is handed out.
 */
import { TranscriptError } from '../transcript/codec';

/** Keys dropped from imported JSON (I2). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A parsed document and how many forbidden keys were dropped from it. */
export interface SafeJson {
  value: unknown;
  droppedKeys: number;
}

/** One line of a JSONL file: its 1-based number and either the value or the parse error. */
export type JsonLine = { line: number; value: unknown; droppedKeys: number } | { line: number; error: string };

/** Strips a UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses JSON text, dropping `__proto__` / `constructor` / `prototype` keys at any depth (I2).
 * @throws TranscriptError (`invalid JSON: …`) for malformed or too deeply nested text.
 */
export function parseJsonSafe(text: string): SafeJson {
  let droppedKeys = 0;
  try {
    const value: unknown = JSON.parse(text, (key, v: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) {
        droppedKeys++;
        return undefined;
      }
      return v;
    });
    return { value, droppedKeys };
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    throw new TranscriptError('', `invalid JSON: ${why}`);
  }
}

/** Parses every non-blank line of a JSONL text on its own; a bad line is reported, not thrown. */
export function parseJsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    try {
      out.push({ line: i + 1, ...parseJsonSafe(raw) });
    } catch (e) {
      out.push({ line: i + 1, error: (e as Error).message });
    }
  }
  return out;
}

/**
 * A file that is one JSON document, or JSONL (one document per line): the whole text is tried as
 * one document first; when that fails and the text has several lines of which at least one
 * parses, it is read as JSONL.
 * @throws TranscriptError when the text is neither.
 */
export function parseJsonOrLines(text: string): { kind: 'json'; doc: SafeJson } | { kind: 'jsonl'; lines: JsonLine[] } {
  try {
    return { kind: 'json', doc: parseJsonSafe(text) };
  } catch (e) {
    const lines = parseJsonLines(text);
    // A broken pretty-printed document is not JSONL: report the document's own error.
    if (lines.length < 2 || lines.every((l) => 'error' in l)) throw e;
    return { kind: 'jsonl', lines };
  }
}

/** The file-level warning for dropped prototype keys (I2), or none. */
export function droppedKeysWarning(droppedKeys: number): string[] {
  return droppedKeys > 0
    ? [`${droppedKeys} "__proto__" / "constructor" / "prototype" key(s) dropped from the file (I2)`]
    : [];
}
