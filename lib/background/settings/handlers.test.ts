import { describe, expect, it } from 'vitest';
import { BatonError } from '../../messaging/errors';
import { endpointUrl } from './handlers';

describe("endpointUrl (N4): the background applies the options page's own check", () => {
  it('accepts https anywhere and http only on this machine', () => {
    expect(endpointUrl('https://openrouter.ai/api/v1').origin).toBe('https://openrouter.ai');
    expect(endpointUrl(' http://127.0.0.1:11434/v1 ').origin).toBe('http://127.0.0.1:11434');
  });

  it.each([
    ['http://example.com/v1', 'Endpoints must use https://'],
    ['https://user:secret@example.com', 'Put credentials in the key field'],
    ['example.com', 'That is not a complete URL'],
  ])('refuses %s as bad_request', (url, message) => {
    let thrown: unknown;
    try {
      endpointUrl(url);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(BatonError);
    expect((thrown as BatonError).code).toBe('bad_request');
    expect((thrown as BatonError).message).toContain(message);
  });
});
