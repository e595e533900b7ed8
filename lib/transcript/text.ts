/** String helpers shared by the pre-pass and the converters. */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

type WellFormedString = string & { isWellFormed?: () => boolean; toWellFormed?: () => string };

/** The native `String.prototype.isWellFormed` (Node 20, current browsers), looked up once. */
const nativeIsWellFormed = (String.prototype as WellFormedString).isWellFormed;

/** True when `s` holds no lone UTF-16 surrogate. */
export function isWellFormed(s: string): boolean {
  if (nativeIsWellFormed !== undefined) return nativeIsWellFormed.call(s);
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(s);
}

/** X6: replaces lone UTF-16 surrogates with U+FFFD (`JSON.stringify` lets them through; Anthropic rejects them). */
export function toWellFormed(s: string): string {
  if (isWellFormed(s)) return s;
  const w = s as WellFormedString;
  if (typeof w.toWellFormed === 'function') return w.toWellFormed();
  return s.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * True when no string in a JSON value, keys included, holds a lone surrogate: exactly when
 * {@link repairSurrogatesDeep} would return the value itself. Allocates nothing, so the pre-pass
 * can check every block and copy only the rare one that needs repair (X6).
 */
export function isWellFormedDeep(value: unknown): boolean {
  if (typeof value === 'string') return isWellFormed(value);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isWellFormedDeep(value[i])) return false;
    return true;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
    if (!isWellFormed(key) || !isWellFormedDeep(obj[key])) return false;
  }
  return true;
}

/**
 * X6 over any JSON value: returns the same value (same reference) when no string in it, keys
 * included, holds a lone surrogate, else a repaired copy. Iterative per level, so shared
 * sub-objects are only copied on the path to a change.
 */
export function repairSurrogatesDeep<T>(value: T): T {
  if (typeof value === 'string') return toWellFormed(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const r = repairSurrogatesDeep(v);
      if (r !== v) (out ??= value.slice())[i] = r;
    }
    return (out ?? value) as T;
  }
  let out: Record<string, unknown> | undefined;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    const r = repairSurrogatesDeep(v);
    const k = toWellFormed(key);
    if (r !== v || k !== key) {
      out ??= { ...obj };
      if (k !== key) delete out[key];
      out[k] = r;
    }
  }
  return (out ?? value) as T;
}

/**
 * `s` cut to at most `max` code points (never inside a surrogate pair), the last one replaced by
 * `ellipsis` when anything was cut; well-formed whenever `s` is (docs/security.md: titles cut at a UTF-16
 * unit split emoji into lone surrogates).
 */
export function truncateCodePoints(s: string, max: number, ellipsis = '\u2026'): string {
  if (s.length <= max) return s;
  const points = Array.from(s);
  if (points.length <= max) return s;
  return points.slice(0, Math.max(0, max - Array.from(ellipsis).length)).join('') + ellipsis;
}

/** True for an empty or whitespace-only string (X4, A-E1). */
export function isBlank(s: string): boolean {
  // Fast path: a printable ASCII first or last character is not whitespace (no trimmed copy made).
  if (s.length === 0) return true;
  const first = s.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  const last = s.charCodeAt(s.length - 1);
  if (last > 32 && last < 127) return false;
  return s.trim().length === 0;
}

/**
 * `body` fenced in backticks (longer than any backtick run inside it) under a one-line label, so
 * flattened content stays visibly separate from the conversation's own words.
 */
export function fenced(label: string, body: string, info = ''): string {
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${label}\n${fence}${info}\n${body}\n${fence}`;
}
