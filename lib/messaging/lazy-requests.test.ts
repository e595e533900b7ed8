/**
 * The request table builds no schema (docs/architecture.md#the-service-workers-start-up): the first
 * message after every wake reads `REQUESTS`, so each request's payload schema is built on its own
 * first use, and routing one request builds only the schemas that request names.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Counts zod schemas constructed while `run` runs: each one defines its `_zod` internals once. */
function schemasBuiltBy(run: () => void): number {
  const define = Object.defineProperty;
  let built = 0;
  Object.defineProperty = function <T>(o: T, key: PropertyKey, d: PropertyDescriptor & ThisType<unknown>): T {
    if (key === '_zod') built++;
    return define(o, key, d);
  };
  try {
    run();
  } finally {
    Object.defineProperty = define;
  }
  return built;
}

afterEach(() => vi.resetModules());

describe('the request table', () => {
  it('builds no schema when read, and one request builds only its own', async () => {
    const { REQUESTS } = await import('./protocol');
    expect(schemasBuiltBy(() => Object.keys(REQUESTS))).toBe(0);
    expect(Object.keys(REQUESTS).length).toBeGreaterThan(50);
    // `getConversation`: an object of an id, a limit and a `before` id (a handful of schemas).
    const one = schemasBuiltBy(() => {
      expect(REQUESTS.getConversation.input.safeParse({ id: 'c1', limit: 50 }).success).toBe(true);
    });
    expect(one).toBeGreaterThan(0);
    // Every request's schema, for scale: far more than the one request built.
    const all = schemasBuiltBy(() => {
      for (const spec of Object.values(REQUESTS)) spec.input.safeParse(undefined);
    });
    expect(one * 10).toBeLessThan(all);
  });

  it('reports the same validation error through the stand-in', async () => {
    const { REQUESTS } = await import('./protocol');
    const r = REQUESTS.getConversation.input.safeParse({ id: '', limit: 0 });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.code])).toEqual([
      ['id', 'too_small'],
      ['limit', 'too_small'],
    ]);
  });
});
