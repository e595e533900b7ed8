/**
 * Property tests run with a fixed seed by default, so CI is deterministic; set FC_SEED to explore
 * other cases (`FC_SEED=random` for a fresh seed each run, printed on failure by fast-check).
 */
import fc from 'fast-check';

const env = process.env.FC_SEED;
if (env !== 'random') fc.configureGlobal({ seed: env ? Number(env) : 20261130 });

// Component tests: the side panel remembers models and their lists in localStorage (docs/side-panel.md);
// each test starts from an empty store, as a fresh profile would.
if (typeof globalThis.localStorage !== 'undefined') {
  const { beforeEach } = await import('vitest');
  beforeEach(() => globalThis.localStorage.clear());
}
