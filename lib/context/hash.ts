/**
 * Cheap, allocation-light content hashes (64-bit, cyrb53-style mixing of two 32-bit lanes) for
 * the token cache, the delivery receipts and the disclosure ledger (`[turnId, contentHash]`).
 * Not cryptographic: they detect changes, they do not resist forgery.
 */
import type { Turn } from '../transcript/schema';

// One shared state; every public function resets it first (JavaScript runs it synchronously).
let h1 = 0;
let h2 = 0;

function reset(): void {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
}

function mix(c: number): void {
  h1 = Math.imul(h1 ^ c, 2654435761);
  h2 = Math.imul(h2 ^ c, 1597334677);
}

function mixString(s: string): void {
  mix(0x110001);
  for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i));
  mix(0x110000 + s.length);
}

/** Walks a JSON value in insertion order; `undefined` members are skipped as JSON does. */
function mixValue(v: unknown): void {
  switch (typeof v) {
    case 'string':
      mixString(v);
      return;
    case 'number':
      mix(0x110002);
      mixString(String(v));
      return;
    case 'boolean':
      mix(v ? 0x110003 : 0x110004);
      return;
    case 'undefined':
      mix(0x110005);
      return;
    default:
      break;
  }
  if (v === null || typeof v !== 'object') {
    mix(0x110006);
    return;
  }
  if (Array.isArray(v)) {
    mix(0x110007);
    for (let i = 0; i < v.length; i++) mixValue(v[i]);
    mix(0x110008 + v.length);
    return;
  }
  mix(0x110009);
  const obj = v as Record<string, unknown>;
  for (const key in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
    const member = obj[key];
    if (member === undefined) continue;
    mixString(key);
    mixValue(member);
  }
  mix(0x11000a);
}

function digest(): string {
  let a = h1;
  let b = h2;
  a = Math.imul(a ^ (a >>> 16), 2246822507);
  a ^= Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507);
  b ^= Math.imul(a ^ (a >>> 13), 3266489909);
  return (b >>> 0).toString(16).padStart(8, '0') + (a >>> 0).toString(16).padStart(8, '0');
}

/** 16 hex digits identifying a JSON value (object keys in insertion order). */
export function contentHash(value: unknown): string {
  reset();
  mixValue(value);
  return digest();
}

/**
 * 16 hex digits identifying what a turn says: `role`, `origin`, `status`, `stopReason`, `error`,
 * `blocks` (with their `meta`) and `native`. The id, `createdAt`, `usage` and the turn's own
 * `meta` (pins, response ids, notes) are left out, so pinning a turn or recording usage does
 * not count as an edit. Used for the ledger's `[turnId, contentHash]` and delivery receipts.
 */
export function turnContentHash(turn: Turn): string {
  reset();
  mixString(turn.role);
  mixValue(turn.origin);
  mixValue(turn.status);
  mixValue(turn.stopReason);
  mixValue(turn.error);
  mixValue(turn.blocks);
  mixValue(turn.native);
  return digest();
}
