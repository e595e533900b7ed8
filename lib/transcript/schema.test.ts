import { describe, expect, it } from 'vitest';
import { WIRE_APIS, wireApiSchema } from './schema';

describe('WIRE_APIS', () => {
  it('lists exactly the options of wireApiSchema, in order', () => {
    expect([...WIRE_APIS]).toEqual([...wireApiSchema.options]);
  });

  it('is what the schema accepts, and nothing else', () => {
    for (const api of WIRE_APIS) expect(wireApiSchema.safeParse(api).success).toBe(true);
    expect(wireApiSchema.safeParse('chrome-prompt').success).toBe(false);
  });
});
