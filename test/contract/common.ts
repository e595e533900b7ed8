/**
 * Helpers shared by the contract validators: JSON paths, the §0 cross-provider checks that work
 * on single values (X2 tool-call ids, X4 blank text, X5 tool names, X6 lone surrogates) and
 * small shape predicates. Written from ../shared/docs/provider-rules.md only.
 */
import type { Violation } from './types';

/** A JSON path as segments, e.g. `['messages', 3, 'content', 0]`. */
export type Path = readonly (string | number)[];

/** Formats path segments the way JavaScript would address them: `messages[3].content[0].text`. */
export function fmt(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Collects violations; `add` formats the path. */
export class Sink {
  readonly list: Violation[] = [];
  /** Records a violation; `apiMessage` is the real API's exact error text, when known. */
  add(rule: string, path: Path, message: string, apiMessage?: string): void {
    this.list.push({ rule, path: fmt(path), message, ...(apiMessage !== undefined ? { apiMessage } : {}) });
  }
}

/** A plain JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string with at least one character. */
export function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** Empty or whitespace-only text (X4, A-E1). */
export function isBlank(s: string): boolean {
  return s.trim().length === 0;
}

/** A positive safe integer (token counts). */
export function isPositiveInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

/**
 * Rule ids that encode Baton's converter contract and are stricter than what the live API is
 * known to reject: X2 (portable tool-call id set), X5 (portable tool name), A-R2 (merge
 * consecutive same-role turns client-side although Anthropic merges them). A fake provider
 * that must answer 400 only where the real API would can ignore violations with these ids.
 */
export const CONVERTER_CONTRACT_RULES: ReadonlySet<string> = new Set(['X2', 'X5', 'A-R2']);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` holds a UTF-16 surrogate that is not half of a pair (X6). */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/**
 * X6: reports every string value (and object key) in `body` holding a lone UTF-16 surrogate.
 * Iterative, so deep bodies cannot overflow the stack.
 */
export function checkLoneSurrogates(body: unknown, sink: Sink): void {
  const stack: [unknown, Path][] = [[body, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) sink.add('X6', path, 'string holds a lone UTF-16 surrogate; replace it with U+FFFD');
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (isRecord(v)) {
      for (const key of Object.keys(v).reverse()) {
        if (hasLoneSurrogate(key)) sink.add('X6', [...path, key], 'object key holds a lone UTF-16 surrogate');
        stack.push([v[key], [...path, key]]);
      }
    }
  }
}

/** X2: the id set that is safe on every target except Mistral. */
export const PORTABLE_TOOL_CALL_ID = /^[a-zA-Z0-9_-]{1,40}$/;
/** M-1: Mistral tool-call ids are exactly 9 characters `[a-zA-Z0-9]`. */
export const MISTRAL_TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

/** X2: reports a tool-call id outside the portable set `^[a-zA-Z0-9_-]{1,40}$`. */
export function checkPortableToolCallId(id: string, path: Path, sink: Sink): void {
  if (!PORTABLE_TOOL_CALL_ID.test(id)) {
    sink.add('X2', path, `tool-call id ${JSON.stringify(clip(id))} is outside the portable set ^[a-zA-Z0-9_-]{1,40}$`);
  }
}

/** X5: the portable tool name, valid on every target. */
export const PORTABLE_TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** X5: reports a tool name outside the portable pattern `^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`. */
export function checkPortableToolName(name: string, path: Path, sink: Sink): void {
  if (!PORTABLE_TOOL_NAME.test(name)) {
    sink.add(
      'X5',
      path,
      `tool name ${JSON.stringify(clip(name))} is outside the portable pattern ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`,
    );
  }
}

/** Standard base64 (optionally URL-safe), padding allowed only at the end. */
export function isBase64(s: string, urlSafe = false): boolean {
  return (urlSafe ? /^[A-Za-z0-9+/_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/).test(s);
}

/** Decoded byte length of a base64 string (approximate for malformed input). */
export function base64Bytes(s: string): number {
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

/** Parses `data:<mime>;base64,<data>`; undefined when `url` is not a base64 data URL. */
export function parseDataUrl(url: string): { mime: string; data: string } | undefined {
  const m = /^data:([^;,]*)(?:;[^;,]*)*;base64,(.*)$/s.exec(url);
  return m ? { mime: m[1]!.toLowerCase(), data: m[2]! } : undefined;
}

/** UTF-8 byte length of the body as JSON (A-R5 request-size cap). */
export function jsonByteLength(body: unknown): number {
  return Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
}

/** Shortens long values quoted in messages. */
export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Counts each value of `items`; used for pairing checks (X1). */
export function countBy<T>(items: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const it of items) m.set(it, (m.get(it) ?? 0) + 1);
  return m;
}
