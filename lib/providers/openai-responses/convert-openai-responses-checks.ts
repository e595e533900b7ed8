/**
 * Request-level checks of the Responses converter, run over the whole input list once every turn
 * is encoded: provider items the API would not take (marked `invalid` by the encoders, or a call
 * without its output and vice versa, R-T3) become labelled text or are dropped, and a reasoning item left
 * without a following item in its turn is dropped (R-K1). Every change is reported.
 */
import type { ReportBuilder } from '../../transcript/report';
import { fallbackText, type Entry } from './convert-openai-responses-content';
import { CALL_OF, OUTPUT_OF, pairingKeys, type JsonObject } from './convert-openai-responses-native';
import type { ResponsesInputItem } from './convert-openai-responses-types';

/**
 * Applies the request-level checks and returns the final `input` list.
 * @param entries every encoded item in request order (not mutated).
 */
export function checkEntries(entries: readonly Entry[], report: ReportBuilder): ResponsesInputItem[] {
  const valid = entries.flatMap((e) => replaceInvalid(e, report));
  return dropTrailingReasoning(pairCalls(valid, report), report).map((e) => e.item);
}

/** Turns an entry into its text fallback (or removes it), reporting why. */
function fallback(e: Entry, type: string, why: string, report: ReportBuilder): Entry[] {
  const item = fallbackText(e, type);
  const detail = item ? `${type} item cannot be replayed (${why}): its text was sent instead` : `${type} item cannot be replayed (${why}) and has no text`;
  if (e.refs.length === 0) report.warn(detail);
  for (const ref of e.refs) report.add(ref, item ? 'converted' : 'dropped', detail);
  return item ? [{ item, refs: e.refs, turn: e.turn, role: e.role }] : [];
}

function replaceInvalid(e: Entry, report: ReportBuilder): Entry[] {
  return e.invalid === undefined ? [e] : fallback(e, e.item.type, e.invalid, report);
}

/** R-T3, X1: a client tool call must be answered in the same request, once, and an output needs its call. */
function pairCalls(list: Entry[], report: ReportBuilder): Entry[] {
  const keysOf = (type: string): Set<string> => {
    const s = new Set<string>();
    for (const e of list) if (e.item.type === type) for (const k of pairingKeys(e.item as JsonObject)) s.add(k);
    return s;
  };
  const cache = new Map<string, Set<string>>();
  const present = (type: string): Set<string> => {
    if (!cache.has(type)) cache.set(type, keysOf(type));
    return cache.get(type)!;
  };
  const sent = new Set<string>(); // `type\0key` of the calls and outputs already in the list
  return list.flatMap((e) => {
    const type = e.item.type;
    const partner = OUTPUT_OF[type] ?? CALL_OF[type];
    if (partner === undefined) return [e];
    const keys = pairingKeys(e.item as JsonObject);
    if (keys.length === 0) return [e];
    // X1: one call per call_id, answered by exactly one output.
    if (keys.every((k) => sent.has(`${type}\u0000${k}`))) return fallback(e, type, `a second ${type} with call_id ${keys[0]!}, X1`, report);
    if (!keys.some((k) => present(partner).has(k))) return fallback(e, type, `no ${partner} with its call_id in this request, R-T3`, report);
    for (const k of keys) sent.add(`${type}\u0000${k}`);
    return [e];
  });
}

/** R-K1: a reasoning item must be followed by the item it produced, in the same turn. */
function dropTrailingReasoning(list: Entry[], report: ReportBuilder): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < list.length; i++) {
    const e = list[i]!;
    if (e.item.type === 'reasoning') {
      let j = i + 1;
      while (j < list.length && list[j]!.turn === e.turn && list[j]!.item.type === 'reasoning') j++;
      if (j >= list.length || list[j]!.turn !== e.turn) {
        for (const ref of e.refs) report.add(ref, 'dropped', 'reasoning item without the item it produced after it (R-K1)');
        if (e.refs.length === 0) report.warn('a reasoning item without a following item was left out (R-K1)');
        continue;
      }
    }
    out.push(e);
  }
  return out;
}
