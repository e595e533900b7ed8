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

// Component tests: the side panel loads the markdown renderer at start-up (entrypoints/sidepanel/main.tsx),
// so turns render as Markdown from their first paint; tests start with it loaded the same way.
if (typeof document !== 'undefined') {
  const { loadMarkdown } = await import('../components/markdown/markdown-view');
  await loadMarkdown();
}
