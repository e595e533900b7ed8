/**
 * Settings of the hostile-input fuzz suite (docs/security.md). CI runs a fixed seed and modest run
 * counts (the suite stays well under a minute on two cores); a person can run it with a random
 * or chosen seed and more runs:
 *
 *   BATON_FUZZ_SEED=random BATON_FUZZ_RUNS=10 npx vitest run test/fuzz
 *   BATON_FUZZ_SEED=12345 npx vitest run test/fuzz
 *
 * `BATON_FUZZ_RUNS` multiplies every property's CI run count. The seed in use is printed once,
 * and fast-check prints it again with any counterexample, so every failure can be replayed.
 */
import type fc from 'fast-check';

/** The fixed CI seed. */
export const CI_SEED = 18_2026;

function seedFromEnv(): number {
  const raw = process.env.BATON_FUZZ_SEED;
  if (raw === undefined || raw === '') return CI_SEED;
  if (raw === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(raw);
  if (!Number.isSafeInteger(n))
    throw new Error(`BATON_FUZZ_SEED must be an integer or "random", got ${JSON.stringify(raw)}`);
  return n;
}

export const FUZZ_SEED = seedFromEnv();
const multiplier = Number(process.env.BATON_FUZZ_RUNS ?? '1');
if (!(multiplier > 0))
  throw new Error(`BATON_FUZZ_RUNS must be a positive number, got ${JSON.stringify(process.env.BATON_FUZZ_RUNS)}`);

let announced = false;

/** fast-check parameters for a property with `ciRuns` runs in CI. */
export function fuzzParams(ciRuns: number): fc.Parameters<unknown> {
  if (!announced && FUZZ_SEED !== CI_SEED) {
    announced = true;
    console.info(`[fuzz] BATON_FUZZ_SEED=${FUZZ_SEED} BATON_FUZZ_RUNS=${multiplier}`);
  }
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(ciRuns * multiplier)), endOnFailure: true };
}
