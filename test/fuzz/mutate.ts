/**
 * Mutations of JSON values for the fuzz suite (docs/security.md): a mutation is plain data (a kind, a
 * number that picks a place, a number that picks a payload), applied deterministically, so
 * fast-check can generate and shrink lists of them.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Strings a hostile provider or file may put where a name or a type is expected. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
];
/** Numbers no counter can hold, or that are not counts at all. */
export const HUGE_NUMBERS = [1e20, 2 ** 53, 2 ** 53 + 2, Number.MAX_VALUE, -1, -0, 0.5, 1e308, -1e20];
/** Strings that break text handling: lone surrogates, controls, a huge delta. */
export const NASTY_STRINGS = ['\uD800', 'a\uDC00b', '😀'.slice(0, 1), '\u0000', '\u202e', '', ' ', 'x'.repeat(200_000)];

export type Mutation =
  | { kind: 'string'; at: number; pick: number } // a string leaf → a prototype name or a nasty string
  | { kind: 'number'; at: number; pick: number } // a number leaf (or any leaf) → a huge or odd number
  | { kind: 'delete'; at: number } // a key or array element removed
  | { kind: 'replace'; at: number; value: Json } // any node → junk
  | { kind: 'duplicate'; at: number } // an array element doubled
  | { kind: 'protoKey'; at: number; pick: number }; // an object gains a prototype-named key

const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    0,
    -1,
    1e20,
    '',
    '__proto__',
    'constructor',
    [],
    {},
    [null],
    { type: '__proto__' },
    { type: 'toString', index: 1e20 },
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('string' as const), at: fc.nat(), pick: fc.nat() }),
  fc.record({ kind: fc.constant('number' as const), at: fc.nat(), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: junk }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('protoKey' as const), at: fc.nat(), pick: fc.nat() }),
);

interface Place {
  parent: Json[] | { [k: string]: Json };
  key: string | number;
  value: Json;
}

function places(root: Json): Place[] {
  const out: Place[] = [];
  const holder = { root };
  const stack: Place[] = [{ parent: holder as { [k: string]: Json }, key: 'root', value: root }];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    const v = p.value;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ parent: v, key: i, value: x }));
    else if (v !== null && typeof v === 'object')
      for (const k of Object.keys(v)) stack.push({ parent: v, key: k, value: v[k]! });
  }
  return out;
}

/** A deep copy of `value` with `mutations` applied in order (each picks its place modulo the places there are). */
export function applyMutations(value: Json, mutations: readonly Mutation[]): Json {
  const holder: { root: Json } = { root: structuredClone(value) };
  for (const m of mutations) {
    const all = places(holder.root);
    let list = all;
    if (m.kind === 'string') list = all.filter((p) => typeof p.value === 'string');
    else if (m.kind === 'number') list = all.filter((p) => typeof p.value === 'number' || typeof p.value === 'string');
    else if (m.kind === 'duplicate') list = all.filter((p) => Array.isArray(p.value) && p.value.length > 0);
    else if (m.kind === 'protoKey')
      list = all.filter((p) => p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value));
    if (list.length === 0) continue;
    const p = list[m.at % list.length]!;
    const set = (v: Json) => {
      if (p.key === 'root' && p.parent === (holder as unknown)) holder.root = v;
      else (p.parent as Record<string | number, Json>)[p.key] = v;
    };
    switch (m.kind) {
      case 'string': {
        const pool = [...PROTOTYPE_NAMES, ...NASTY_STRINGS];
        set(pool[m.pick % pool.length]!);
        break;
      }
      case 'number':
        set(HUGE_NUMBERS[m.pick % HUGE_NUMBERS.length]!);
        break;
      case 'delete':
        if (Array.isArray(p.parent)) p.parent.splice(p.key as number, 1);
        else if (p.parent !== (holder as unknown)) delete (p.parent as Record<string, Json>)[p.key as string];
        break;
      case 'replace':
        set(structuredClone(m.value));
        break;
      case 'duplicate': {
        const arr = p.value as Json[];
        arr.splice(m.at % arr.length, 0, structuredClone(arr[m.at % arr.length]!));
        break;
      }
      case 'protoKey': {
        const obj = p.value as Record<string, Json>;
        // Defined as an own property, as JSON.parse would make it.
        Object.defineProperty(obj, PROTOTYPE_NAMES[m.pick % PROTOTYPE_NAMES.length]!, {
          value: { polluted: true },
          enumerable: true,
          writable: true,
          configurable: true,
        });
        break;
      }
    }
  }
  return holder.root;
}

/** Sequence-level mutations of an event list: cut, duplicate, reorder, insert junk. */
export type SequenceEdit =
  | { kind: 'cut'; at: number }
  | { kind: 'dup'; at: number }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'insert'; at: number; value: Json }
  | { kind: 'mutate'; at: number; mutations: Mutation[] };

export const sequenceEditArb: fc.Arbitrary<SequenceEdit> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('dup' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: junk }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('mutate' as const),
      at: fc.nat(),
      mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
    }),
  },
);

/** `events` with `edits` applied in order. */
export function applyEdits(events: readonly Json[], edits: readonly SequenceEdit[]): Json[] {
  let out = events.map((e) => structuredClone(e));
  for (const e of edits) {
    const n = out.length;
    switch (e.kind) {
      case 'cut':
        out = out.slice(0, n === 0 ? 0 : e.at % (n + 1));
        break;
      case 'dup':
        if (n) out.splice(e.at % n, 0, structuredClone(out[e.at % n]!));
        break;
      case 'swap':
        if (n) [out[e.a % n], out[e.b % n]] = [out[e.b % n]!, out[e.a % n]!];
        break;
      case 'insert':
        out.splice(e.at % (n + 1), 0, structuredClone(e.value));
        break;
      case 'mutate':
        if (n) out[e.at % n] = applyMutations(out[e.at % n]!, e.mutations);
        break;
    }
  }
  return out;
}
