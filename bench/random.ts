/**
 * Seeded pseudo-random source for the benchmark generator: the same seed gives the same
 * transcript on every machine and every run (no `Math.random`).
 */

/** A deterministic random source (mulberry32; 32-bit state). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An index chosen with the given relative weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** `length` characters from `alphabet`. */
  chars(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

export const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const BASE64 = `${BASE62}+/`;

/** Base64 text (no `data:` prefix) of `bytes` pseudo-random bytes, padded as real base64 is. */
export function base64Of(rng: Rng, bytes: number): string {
  const body = rng.chars(Math.floor(bytes / 3) * 4, BASE64);
  const rest = bytes % 3;
  return rest === 0 ? body : `${body}${rng.chars(rest + 1, BASE64)}${'='.repeat(3 - rest)}`;
}
