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
  const valid: Entry[] = [];
  for (const e of entries) {
    if (e.invalid === undefined) valid.push(e);
    else for (const f of fallback(e, e.item.type, e.invalid, report)) valid.push(f);
  }
  return dropTrailingReasoning(pairCalls(valid, report), report);
}

/** Turns an entry into its text fallback (or removes it), reporting why. */
function fallback(e: Entry, type: string, why: string, report: ReportBuilder): Entry[] {
  const item = fallbackText(e, type);
  const detail = item
    ? `${type} item cannot be replayed (${why}): its text was sent instead`
    : `${type} item cannot be replayed (${why}) and has no text`;
  if (e.refs.length === 0) report.warn(detail);
  for (const ref of e.refs) report.add(ref, item ? 'converted' : 'dropped', detail);
  return item ? [{ item, refs: e.refs, turn: e.turn, role: e.role }] : [];
}

/** R-T3, X1: a client tool call must be answered in the same request, once, and an output needs its call. */
function pairCalls(list: Entry[], report: ReportBuilder): Entry[] {
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
  const out: Entry[] = [];
  for (const e of list) {
    const type = e.item.type;
    const partner = OUTPUT_OF[type] ?? CALL_OF[type];
    const keys = partner === undefined ? [] : pairingKeys(e.item as JsonObject);
    if (partner === undefined || keys.length === 0) {
      out.push(e);
      continue;
    }
    let sentOfType = sent.get(type);
    if (sentOfType === undefined) sent.set(type, (sentOfType = new Set<string>()));
    const done = sentOfType;
    // X1: one call per call_id, answered by exactly one output.
    if (keys.every((k) => done.has(k))) {
      for (const f of fallback(e, type, `a second ${type} with call_id ${keys[0]!}, X1`, report)) out.push(f);
      continue;
    }
    const partners = present(partner);
    if (!keys.some((k) => partners.has(k))) {
      for (const f of fallback(e, type, `no ${partner} with its call_id in this request, R-T3`, report)) out.push(f);
      continue;
    }
    for (const k of keys) done.add(k);
    out.push(e);
  }
  return out;
}

/** R-K1: a reasoning item must be followed by the item it produced, in the same turn. Returns the items. */
function dropTrailingReasoning(list: Entry[], report: ReportBuilder): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  for (let i = 0; i < list.length; i++) {
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
  return out;
}
