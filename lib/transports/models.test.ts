/** listModels against the fake providers: each provider's list, and the key test (401 → invalid_key). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProviders, type FakeProviders } from '../../test/fake-providers';
import { listModels } from './models';
import { APIS, connectionFor } from './transports.test-helper';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders({
    models: {
      openai: ['gpt-5.5', 'gpt-4.1-mini'],
      anthropic: ['claude-sonnet-4-6'],
      google: ['gemini-2.5-flash', 'gemini-3-pro-preview'],
    },
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('listModels', () => {
  it.each([
    [
      'anthropic-messages',
      [{ id: 'claude-sonnet-4-6', displayName: 'claude-sonnet-4-6' }],
      '/v1/models',
      'anthropic-models',
    ],
    ['openai-responses', [{ id: 'gpt-5.5' }, { id: 'gpt-4.1-mini' }], '/v1/models', 'openai-models'],
    ['openai-chat', [{ id: 'gpt-5.5' }, { id: 'gpt-4.1-mini' }], '/compat/v1/models', 'openai-models'],
    [
      'gemini-generate-content',
      [
        { id: 'gemini-2.5-flash', displayName: 'gemini-2.5-flash' },
        { id: 'gemini-3-pro-preview', displayName: 'gemini-3-pro-preview' },
      ],
      '/v1beta/models',
      'gemini-models',
    ],
  ] as const)('%s', async (api, expected, path, fakeApi) => {
    expect(await listModels(connectionFor(fake, api))).toEqual(expected);
    expect(fake.requests.map((r) => [r.path, r.api, r.keyViolations])).toEqual([[path, fakeApi, []]]);
  });

  it.each(APIS)('%s: a wrong key is invalid_key, in one request', async (api) => {
    await expect(listModels(connectionFor(fake, api, 'sk-wrong-0123456789abcdef'))).rejects.toMatchObject({
      code: 'invalid_key',
      status: 401,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('times out after timeoutMs', async () => {
    fake.enqueue('anthropic-models', { kind: 'stall', ms: 2000 });
    await expect(listModels(connectionFor(fake, 'anthropic-messages'), { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'timeout',
    });
    await fake.waitForDisconnects(1, 1000);
  });
});
