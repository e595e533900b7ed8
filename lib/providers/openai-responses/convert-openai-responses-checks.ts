/**
 * Request-level checks of the Responses converter, run over the whole input list once every turn
 * is encoded: provider items the API would not take (marked `invalid` by the encoders, or a call
 * without its output and vice versa, R-T3) become labelled text or are dropped, and a reasoning item left
 * without a following item in its turn is dropped (R-K1). Every change is reported.
 *
 * With a prefix snapshot (docs/architecture.md#incremental-conversion) the list is split at a
 * prepared turn, the *boundary*: each check runs over the entries before it (the head), then over
 * the rest (the tail), exactly as over one list, and records the report range of the head. No
 * check reaches from the tail into the head except pairing, and pairing only through a shared
 * `call_id`; the pairing keys of both parts are returned so that the caller can prove there is none.
 */
import { STAGE, rangeEnd, rangeStart, type StageRange } from '../../transcript/prepare';
import type { ReportBuilder } from '../../transcript/report';
import { fallbackText, type Entry } from './convert-openai-responses-content';
import { CALL_OF, OUTPUT_OF, pairingKeys, type JsonObject } from './convert-openai-responses-native';
import type { ResponsesInputItem } from './convert-openai-responses-types';

/** Report stages of the checks ({@link ReportBuilder.stage}): after the encoding, before the request-level parameters. */
export const CHECK_STAGE = {
  fallback: STAGE.encode + 1,
  pairing: STAGE.encode + 2,
  reasoning: STAGE.encode + 3,
} as const;

/** The checked `input` list, split where the tail starts. */
export interface CheckedInput {
  items: ResponsesInputItem[];
  /** Index in `items` of the first item of the tail (`items.length` when there is none). */
  cut: number;
  /** Pairing keys (`call_id`s, R-T3) of the head's and the tail's call and output items; collected only when asked for. */
  headKeys: Set<string>;
  tailKeys: Set<string>;
}

/**
 * Applies the request-level checks and returns the final `input` list (before user messages merge).
 * @param entries every encoded item in request order (not mutated); `entry.turn` never decreases.
 * @param boundary index of the prepared turn the tail starts at: the entries of earlier turns are
 *   the head (default: no tail).
 * @param ranges receives, per check, the report range the head recorded (in stage order).
 * @param keys collect {@link CheckedInput.headKeys} and `tailKeys`.
 */
export function checkEntries(
  entries: readonly Entry[],
  report: ReportBuilder,
  boundary = Infinity,
  ranges: StageRange[] = [],
  keys = false,
): CheckedInput {
  report.stage = CHECK_STAGE.fallback;
  let range = rangeStart(report);
  // Entries are almost always all valid: the list is copied only at the first one that is not, and
  // then compacted in place (a fallback is never more than one entry).
  let valid: readonly Entry[] = entries;
  let copy: Entry[] | undefined;
  let n = 0;
  let cut = tailStart(entries, boundary);
  for (let i = 0; i < entries.length; i++) {
    if (i === cut) rangeEnd(range, report);
    const e = entries[i]!;
    if (e.invalid === undefined) {
      if (copy) copy[n] = e;
      n++;
    } else {
      copy ??= entries.slice();
      for (const f of fallback(e, e.item.type, e.invalid, report)) copy[n++] = f;
    }
  }
  if (copy) {
    copy.length = n;
    valid = copy;
  }
  if (cut >= entries.length) rangeEnd(range, report);
  ranges.push(range);

  report.stage = CHECK_STAGE.pairing;
  range = rangeStart(report);
  const headKeys = new Set<string>();
  const tailKeys = new Set<string>();
  const paired = pairCalls(valid, tailStart(valid, boundary), report, range, keys ? [headKeys, tailKeys] : undefined);
  ranges.push(range);

  report.stage = CHECK_STAGE.reasoning;
  range = rangeStart(report);
  cut = tailStart(paired, boundary);
  const items = dropTrailingReasoning(paired, cut, report, range);
  ranges.push(range);
  return { items: items.list, cut: items.cut, headKeys, tailKeys };
}

/** Index of the first entry of prepared turn `boundary` or later (entries are in turn order). */
function tailStart(list: readonly Entry[], boundary: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.turn < boundary) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Turns an entry into its text fallback (or removes it), reporting why: never more than one entry. */
function fallback(e: Entry, type: string, why: string, report: ReportBuilder): Entry[] {
  const item = fallbackText(e, type);
  const detail = item
    ? `${type} item cannot be replayed (${why}): its text was sent instead`
    : `${type} item cannot be replayed (${why}) and has no text`;
  if (e.refs.length === 0) report.warn(detail);
  for (const ref of e.refs) report.add(ref, item ? 'converted' : 'dropped', detail);
  return item ? [{ item, refs: e.refs, turn: e.turn, role: e.role }] : [];
}

/**
 * R-T3, X1: a client tool call must be answered in the same request, once, and an output needs its
 * call. What it decides for an item depends only on the items that share one of its pairing keys,
 * so two parts of the list that share no key are checked independently (`keys` collects them:
 * the entries before `cut`, then from it on). Ends `range` at `cut`.
 */
function pairCalls(
  list: readonly Entry[],
  cut: number,
  report: ReportBuilder,
  range: StageRange,
  keysOf: [Set<string>, Set<string>] | undefined,
): readonly Entry[] {
  // Pairing keys of every call and output type in the list, built on first need.
  const cache = new Map<string, Set<string>>();
  const present = (type: string): Set<string> => {
    let keys = cache.get(type);
    if (keys === undefined) {
      keys = new Set<string>();
      for (const e of list) if (e.item.type === type) for (const k of pairingKeys(e.item as JsonObject)) keys.add(k);
      cache.set(type, keys);
    }
    return keys;
  };
  const sent = new Map<string, Set<string>>(); // keys of the calls and outputs already in the list, by type
  // Almost every item pairs: the list is copied only at the first one that falls back, and then
  // compacted in place (a fallback is never more than one entry), never grown by `push`.
  let out: Entry[] | undefined;
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    if (i === cut) rangeEnd(range, report);
    const e = list[i]!;
    const type = e.item.type;
    const partner = OUTPUT_OF[type] ?? CALL_OF[type];
    const keys = partner === undefined ? NO_KEYS : pairingKeys(e.item as JsonObject);
    if (partner === undefined || keys.length === 0) {
      if (out) out[n] = e;
      n++;
      continue;
    }
    if (keysOf) for (const k of keys) keysOf[i < cut ? 0 : 1].add(k);
    let sentOfType = sent.get(type);
    if (sentOfType === undefined) sent.set(type, (sentOfType = new Set<string>()));
    const done = sentOfType;
    // X1: one call per call_id, answered by exactly one output.
    if (allIn(keys, done)) {
      out ??= list.slice();
      for (const f of fallback(e, type, `a second ${type} with call_id ${keys[0]!}, X1`, report)) out[n++] = f;
      continue;
    }
    const partners = present(partner);
    if (!anyIn(keys, partners)) {
      out ??= list.slice();
      for (const f of fallback(e, type, `no ${partner} with its call_id in this request, R-T3`, report)) out[n++] = f;
      continue;
    }
    for (let k = 0; k < keys.length; k++) done.add(keys[k]!);
    if (out) out[n] = e;
    n++;
  }
  if (cut >= list.length) rangeEnd(range, report);
  if (!out) return list;
  out.length = n;
  return out;
}

const NO_KEYS: readonly string[] = [];

/** True when every key is in `set` (no closure per item: this runs for every call and output). */
function allIn(keys: readonly string[], set: ReadonlySet<string>): boolean {
  for (let i = 0; i < keys.length; i++) if (!set.has(keys[i]!)) return false;
  return true;
}

/** True when some key is in `set`. */
function anyIn(keys: readonly string[], set: ReadonlySet<string>): boolean {
  for (let i = 0; i < keys.length; i++) if (set.has(keys[i]!)) return true;
  return false;
}

/**
 * R-K1: a reasoning item must be followed by the item it produced, in the same turn. Returns the
 * items and the index where the entries from `cut` on start among them; ends `range` at `cut`.
 * It looks no further than the entry after a reasoning item's turn, so the head's result never
 * depends on the tail.
 */
function dropTrailingReasoning(
  list: readonly Entry[],
  cut: number,
  report: ReportBuilder,
  range: StageRange,
): { list: ResponsesInputItem[]; cut: number } {
  const out: ResponsesInputItem[] = [];
  let at = -1;
  for (let i = 0; i < list.length; i++) {
    if (i === cut) {
      rangeEnd(range, report);
      at = out.length;
    }
    const e = list[i]!;
    if (e.item.type === 'reasoning') {
      let j = i + 1;
      while (j < list.length && list[j]!.turn === e.turn && list[j]!.item.type === 'reasoning') j++;
      if (j >= list.length || list[j]!.turn !== e.turn) {
        for (const ref of e.refs)
          report.add(ref, 'dropped', 'reasoning item without the item it produced after it (R-K1)');
        if (e.refs.length === 0) report.warn('a reasoning item without a following item was left out (R-K1)');
        continue;
      }
    }
    out.push(e.item);
  }
  if (at < 0) {
    rangeEnd(range, report);
    at = out.length;
  }
  return { list: out, cut: at };
}
