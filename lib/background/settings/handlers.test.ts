import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { BatonError } from '../../messaging/errors';
import type { BatonDb } from '../../store/db';
import { createTestBackground } from '../background.test-helper';
import { endpointUrl } from './handlers';

let db: BatonDb | undefined;
afterEach(() => db?.close());

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

describe('saving an address asks for its host permission first (N1)', () => {
  it('setBaseUrl off the default origin and saveEndpoint are refused without the permission, and nothing is saved', async () => {
    const asked: string[] = [];
    const bg = await createTestBackground(undefined, {
      name: 'settings-host',
      hasHostPermission: async (origin) => (asked.push(origin), origin === 'https://granted.example'),
    });
    db = bg.db;
    const before = await bg.settings.get();
    const refused = {
      code: 'endpoint_not_permitted',
      message: 'Permission to reach https://proxy.example was not granted.',
    };
    await expect(
      bg.h.setBaseUrl({ providerId: 'openai', baseUrl: 'https://proxy.example/v1' }, 'extension'),
    ).rejects.toMatchObject(refused);
    await expect(
      bg.h.saveEndpoint({ name: 'Proxy', baseUrl: 'https://proxy.example/v1', flavor: 'generic' }, 'extension'),
    ).rejects.toMatchObject(refused);
    expect(await bg.settings.get()).toEqual(before);
    // The provider's own origin needs no grant; a granted host is saved.
    await bg.h.setBaseUrl({ providerId: 'openai', baseUrl: 'https://api.openai.com/v1' }, 'extension');
    await bg.h.saveEndpoint({ name: 'Granted', baseUrl: 'https://granted.example/v1', flavor: 'generic' }, 'extension');
    expect(asked).toEqual(['https://proxy.example', 'https://proxy.example', 'https://granted.example']);
    expect((await bg.settings.get()).endpoints.map((e) => e.name)).toEqual(['Granted']);
  });
});
