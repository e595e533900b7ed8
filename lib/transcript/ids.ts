/**
 * Per-request maps for tool-call ids (X2) and tool names (X5): deterministic, collision-free and
 * reversible. History is never rewritten; a converter maps ids and names for one request only.
 */

/** What a target accepts as a tool-call id (provider-rules.md §8). */
export interface IdPolicy {
  /** Longest id the target takes, in characters. */
  maxLength: number;
  /** Exact length required (Mistral: 9, M-1). */
  exactLength?: number;
  /** Characters allowed: `alnum` = `[a-zA-Z0-9]` (Mistral), `alnum_-` = `[a-zA-Z0-9_-]` (all others). */
  alphabet: 'alnum' | 'alnum_-';
}

/** X2: the safe set for every target but Mistral, `^[a-zA-Z0-9_-]{1,40}$`. */
export const PORTABLE_ID_POLICY: IdPolicy = { maxLength: 40, alphabet: 'alnum_-' };
/** A-T1: `^[a-zA-Z0-9_-]+$`, kept at 64 or fewer. */
export const ANTHROPIC_ID_POLICY: IdPolicy = { maxLength: 64, alphabet: 'alnum_-' };
/** C-T1: at most 40 characters. */
export const OPENAI_CHAT_ID_POLICY: IdPolicy = { maxLength: 40, alphabet: 'alnum_-' };
/** R-T1: `call_id` at most 64 characters. */
export const OPENAI_RESPONSES_ID_POLICY: IdPolicy = { maxLength: 64, alphabet: 'alnum_-' };
/** M-1: exactly 9 characters `[a-zA-Z0-9]`. */
export const MISTRAL_ID_POLICY: IdPolicy = { maxLength: 9, exactLength: 9, alphabet: 'alnum' };

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** cyrb53: a fast, deterministic 53-bit string hash (not cryptographic; collisions are checked). */
export function hash53(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** `length` base-62 characters derived from `str` (and `seed`), deterministic. */
export function hashBase62(str: string, length: number, seed = 0): string {
  let out = '';
  let round = 0;
  while (out.length < length) {
    let n = hash53(str, seed + round * 7919);
    for (let i = 0; i < 8 && out.length < length; i++) {
      out += BASE62[n % 62];
      n = Math.floor(n / 62);
    }
    round++;
  }
  return out;
}

function fits(id: string, policy: IdPolicy): boolean {
  if (id.length === 0 || id.length > policy.maxLength) return false;
  if (policy.exactLength !== undefined && id.length !== policy.exactLength) return false;
  return policy.alphabet === 'alnum' ? /^[a-zA-Z0-9]+$/.test(id) : /^[a-zA-Z0-9_-]+$/.test(id);
}

/**
 * Maps the tool-call ids of one request (X2). An id that already fits the target and is not yet
 * taken maps to itself; anything else (too long, illegal characters, a second call with the same
 * id) gets a readable prefix plus a hash suffix, re-hashed until unique. Call {@link IdMap.assign}
 * once per call occurrence, in conversation order, and use the returned id for the call and its
 * result alike.
 */
export class IdMap {
  /** Target id → original; its keys are the ids taken so far (one table, not a set beside it). */
  private readonly reverse = new Map<string, string>();
  private readonly occurrences = new Map<string, number>();

  constructor(readonly policy: IdPolicy) {}

  /** An independent copy: the same answers from here on (docs/architecture.md#incremental-conversion). */
  clone(): IdMap {
    const copy = new IdMap(this.policy);
    for (const [k, v] of this.reverse) copy.reverse.set(k, v);
    for (const [k, v] of this.occurrences) copy.occurrences.set(k, v);
    return copy;
  }

  /** The target id for the next occurrence of `original`. */
  assign(original: string): string {
    const n = this.occurrences.get(original) ?? 0;
    this.occurrences.set(original, n + 1);
    let candidate = n === 0 && fits(original, this.policy) && !this.reverse.has(original) ? original : undefined;
    for (let attempt = 0; candidate === undefined || this.reverse.has(candidate); attempt++)
      candidate = this.derive(original, n, attempt);
    this.reverse.set(candidate, original);
    return candidate;
  }

  /** The original id behind a mapped one (undefined when this request never produced it). */
  toOriginal(mapped: string): string | undefined {
    return this.reverse.get(mapped);
  }

  private derive(original: string, occurrence: number, attempt: number): string {
    const seed = occurrence * 131 + attempt;
    if (this.policy.alphabet === 'alnum')
      return hashBase62(original, this.policy.exactLength ?? this.policy.maxLength, seed);
    const suffix = hashBase62(original, 8, seed);
    const room = this.policy.maxLength - suffix.length - 1;
    const prefix = original.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, Math.max(0, room));
    return prefix ? `${prefix}_${suffix}` : suffix;
  }
}

/** X5: the portable tool name, `^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`. */
export const PORTABLE_TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * Maps tool names to the portable form (X5, C-T5, R-T4, G-T4, A-T8): legal names stay; others are
 * sanitised and truncated with a deterministic hash suffix. The same original always gets the same
 * name within a request; {@link NameMap.toOriginal} decodes results and later calls.
 */
export class NameMap {
  private readonly forward = new Map<string, string>();
  private readonly reverse = new Map<string, string>();

  /** An independent copy: the same answers from here on (docs/architecture.md#incremental-conversion). */
  clone(): NameMap {
    const copy = new NameMap();
    for (const [k, v] of this.forward) copy.forward.set(k, v);
    for (const [k, v] of this.reverse) copy.reverse.set(k, v);
    return copy;
  }

  /** The target name for `original` (stable within this map). */
  map(original: string): string {
    const known = this.forward.get(original);
    if (known !== undefined) return known;
    let name = PORTABLE_TOOL_NAME.test(original) && !this.reverse.has(original) ? original : undefined;
    for (let attempt = 0; name === undefined || this.reverse.has(name); attempt++) {
      const suffix = hashBase62(original, 8, attempt);
      let base = original.replace(/[^a-zA-Z0-9_-]/g, '_');
      if (!/^[a-zA-Z]/.test(base)) base = `t_${base}`;
      name = `${base.slice(0, 64 - suffix.length - 1)}_${suffix}`;
    }
    this.forward.set(original, name);
    this.reverse.set(name, original);
    return name;
  }

  toOriginal(mapped: string): string | undefined {
    return this.reverse.get(mapped);
  }
}
