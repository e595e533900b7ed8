/**
 * Decoder and encoder for Baton transcript v1 (docs/transcript.md).
 *
 * The decoder is strict: unknown fields outside `meta` are rejected, and every error names its
 * JSON path (`turns[3].blocks[0].sigature: unknown field`). It also enforces the role rules of
 * the "Blocks" table, `origin` on assistant turns and unique turn ids.
 */
import type { z } from 'zod';
import {
  BLOCKS_ALLOWED_IN,
  BLOCK_TYPES,
  TRANSCRIPT_FORMAT,
  transcriptSchema,
  turnSchema,
  type Transcript,
  type Turn,
} from './schema';

/** A JSON path as segments, e.g. `['turns', 3, 'blocks', 0]`. */
export type JsonPath = readonly (string | number)[];

/**
 * Thrown for invalid input. `path` is the JSON path of the offending value (`turns[3].blocks[0]`),
 * `problem` what is wrong there; `message` is `"<path>: <problem>"` (or the problem alone at the
 * root).
 */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(path ? `${path}: ${problem}` : problem);
  }
}

/** Segments shown before a very deep path is shortened with `…`. */
const PATH_SEGMENTS_SHOWN = 12;

/**
 * Formats path segments the way JavaScript would address them: `turns[3].blocks[0].text`.
 * Paths deeper than 12 segments are cut after the 12th with `…(N more levels)`.
 */
export function formatPath(path: JsonPath): string {
  let out = '';
  const shown = path.length > PATH_SEGMENTS_SHOWN + 2 ? path.slice(0, PATH_SEGMENTS_SHOWN) : path;
  if (shown !== path) return `${formatPath(shown)}…(${path.length - shown.length} more levels)`;
  for (const seg of shown) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Keys that would reach an object's prototype when assigned (security-requirements.md I2). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Deepest JSON nesting a transcript may hold (levels below its root). Real tool inputs and
 * provider payloads are a few dozen levels deep; this bound keeps every later step (the pre-pass,
 * the converters, `JSON.stringify`) well inside the call stack.
 */
export const MAX_JSON_DEPTH = 1000;

interface PathNode {
  parent: PathNode | undefined;
  key: string | number;
}

function pathOf(node: PathNode | undefined, root: JsonPath): JsonPath {
  const out: (string | number)[] = [];
  for (let n = node; n; n = n.parent) out.push(n.key);
  return [...root, ...out.reverse()];
}

/**
 * Throws a {@link TranscriptError} when `value` holds a `__proto__`, `constructor` or `prototype`
 * key at any depth (security-requirements.md I2), or nests deeper than {@link MAX_JSON_DEPTH}.
 * Iterative and linear in the size of the value, so deep input can neither overflow the stack
 * nor take quadratic time.
 */
export function assertNoPrototypeKeys(value: unknown, root: JsonPath = []): void {
  const stack: [unknown, PathNode | undefined, number][] = [[value, undefined, 0]];
  while (stack.length > 0) {
    const [v, node, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH)
      throw new TranscriptError(formatPath(pathOf(node, root)), `nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], { parent: node, key: i }, depth + 1]);
      continue;
    }
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key))
        throw new TranscriptError(formatPath(pathOf({ parent: node, key }, root)), 'forbidden key');
      stack.push([(v as Record<string, unknown>)[key], { parent: node, key }, depth + 1]);
    }
  }
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): TranscriptError {
  const at = (extra: JsonPath = []) =>
    formatPath([...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), ...extra]);
  switch (issue.code) {
    case 'unrecognized_keys':
      return new TranscriptError(at([issue.keys[0]!]), 'unknown field');
    case 'invalid_union': {
      const last = issue.path[issue.path.length - 1];
      const holder = last === 'type' ? valueAt(input, issue.path.slice(0, -1)) : valueAt(input, issue.path);
      if (holder && typeof holder === 'object' && !Array.isArray(holder)) {
        const t = (holder as { type?: unknown }).type;
        if (typeof t !== 'string' || !(BLOCK_TYPES as readonly string[]).includes(t))
          return new TranscriptError(
            formatPath([...issue.path.slice(0, last === 'type' ? -1 : undefined).map(String2), 'type']),
            `unknown block type ${describeValue(t)}`,
          );
      }
      // A union of shapes (e.g. tool_result.content: string | blocks): explain the branch that got furthest.
      const branches = issue.errors.flat();
      if (branches.length > 0) {
        const deepest = branches.reduce((a, b) => (b.path.length > a.path.length ? b : a));
        return describeIssue({ ...deepest, path: [...issue.path, ...deepest.path] } as z.core.$ZodIssue, input);
      }
      return new TranscriptError(at(), issue.message);
    }
    case 'invalid_type': {
      const actual = valueAt(input, issue.path);
      if (actual === undefined) return new TranscriptError(at(), `required field missing (expected ${issue.expected})`);
      return new TranscriptError(at(), `expected ${issue.expected}, got ${describeValue(actual)}`);
    }
    case 'invalid_value':
      return new TranscriptError(
        at(),
        `expected ${issue.values.map((v) => JSON.stringify(v)).join(' | ')}, got ${describeValue(valueAt(input, issue.path))}`,
      );
    default:
      return new TranscriptError(at(), issue.message);
  }
}

const String2 = (p: PropertyKey): string | number => (typeof p === 'symbol' ? String(p) : p);

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return String(v);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/**
 * Checks the rules the schema alone cannot: which blocks each role may hold, `origin` on every
 * assistant turn, unique turn ids. Throws {@link TranscriptError} naming the path.
 */
export function checkTurnRules(turns: readonly Turn[], root: JsonPath = ['turns']): void {
  const seen = new Map<string, number>();
  turns.forEach((turn, i) => {
    const prev = seen.get(turn.id);
    if (prev !== undefined)
      throw new TranscriptError(
        formatPath([...root, i, 'id']),
        `duplicate turn id ${JSON.stringify(turn.id)} (also turns[${prev}])`,
      );
    seen.set(turn.id, i);
    if (turn.role === 'assistant' && !turn.origin)
      throw new TranscriptError(formatPath([...root, i, 'origin']), 'required on assistant turns');
    const allowed = BLOCKS_ALLOWED_IN[turn.role];
    turn.blocks.forEach((block, j) => {
      if (!allowed.includes(block.type))
        throw new TranscriptError(
          formatPath([...root, i, 'blocks', j, 'type']),
          `block type "${block.type}" is not allowed in a ${turn.role} turn (allowed: ${allowed.join(', ')})`,
        );
    });
  });
}

/**
 * Decodes an already-parsed JSON value into a {@link Transcript}.
 * @throws TranscriptError naming the JSON path of the first problem (unknown field, wrong type,
 *   wrong version, unknown block type, block in a role that can't hold it, missing origin, …).
 */
export function decodeTranscript(value: unknown): Transcript {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TranscriptError('', `expected a Baton transcript object, got ${describeValue(value)}`);
  const v = value as Record<string, unknown>;
  if (v.format !== TRANSCRIPT_FORMAT)
    throw new TranscriptError('format', `expected "${TRANSCRIPT_FORMAT}", got ${describeValue(v.format)}`);
  if (v.version !== 1)
    throw new TranscriptError('version', `unsupported version ${describeValue(v.version)} (expected 1)`);
  assertNoPrototypeKeys(value);
  const parsed = transcriptSchema.safeParse(value);
  if (!parsed.success) throw describeIssue(parsed.error.issues[0]!, value);
  checkTurnRules(parsed.data.turns);
  return parsed.data;
}

/**
 * Decodes one turn (e.g. a reader's output) and checks its role rules.
 * @throws TranscriptError with paths relative to `root`.
 */
export function decodeTurn(value: unknown, root: JsonPath = []): Turn {
  assertNoPrototypeKeys(value, root);
  const parsed = turnSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw describeIssue({ ...issue, path: [...root, ...issue.path] } as z.core.$ZodIssue, wrapAt(root, value));
  }
  checkTurnRules([parsed.data], root.length ? root.slice(0, -1) : []);
  return parsed.data;
}

function wrapAt(root: JsonPath, value: unknown): unknown {
  let out = value;
  for (let i = root.length - 1; i >= 0; i--) {
    const seg = root[i]!;
    if (typeof seg === 'number') {
      const arr: unknown[] = [];
      arr[seg] = out;
      out = arr;
    } else out = { [seg]: out };
  }
  return out;
}

/**
 * Parses JSON text and decodes it as a transcript.
 * @throws TranscriptError for invalid JSON (with the parser's position) or an invalid transcript.
 */
export function parseTranscriptJson(text: string): Transcript {
  return decodeTranscript(parseJson(text));
}

/**
 * `JSON.parse` whose failure is a {@link TranscriptError} ("invalid JSON: …") instead of a SyntaxError.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new TranscriptError('', `invalid JSON: ${(e as Error).message}`);
  }
}

/**
 * Encodes a transcript as JSON text after validating it, so nothing invalid is ever written.
 * @param indent spaces of indentation (0: one line).
 * @throws TranscriptError when `transcript` is not valid.
 */
export function encodeTranscript(transcript: Transcript, indent = 0): string {
  decodeTranscript(transcript);
  return JSON.stringify(transcript, null, indent || undefined);
}
