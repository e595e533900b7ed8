import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { zodWithoutEval } from './zod-no-eval';

describe('zodWithoutEval', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    z.config({ jitless: false });
  });

  it('sets jitless, and object parsing then never calls the Function constructor (no CSP probe)', () => {
    const calls: unknown[][] = [];
    const RealFunction = globalThis.Function;
    vi.stubGlobal(
      'Function',
      new Proxy(RealFunction, {
        apply: (_t, _this, args: unknown[]) => void calls.push(args),
        construct: (_t, args: unknown[]) => (calls.push(args), () => undefined),
      }),
    );
    zodWithoutEval();
    expect(z.config().jitless).toBe(true);
    const schema = z.strictObject({ id: z.string(), n: z.number().int(), tags: z.array(z.object({ k: z.string() })) });
    for (let i = 0; i < 3; i++)
      expect(schema.parse({ id: 'a', n: i, tags: [{ k: 'x' }] })).toEqual({ id: 'a', n: i, tags: [{ k: 'x' }] });
    expect(() => schema.parse({ id: 'a', n: 1.5, tags: [] })).toThrow();
    expect(calls).toEqual([]);
  });
});
