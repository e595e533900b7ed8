import { describe, expect, it } from 'vitest';
import { convertTargetFor, resolveProvider } from './providers';
import type { ProviderSettings } from '../../store/settings';

const settings: ProviderSettings = {
  baseUrls: { google: 'http://127.0.0.1:9999' },
  endpoints: [{ id: 'custom-local', name: 'Local', baseUrl: 'http://127.0.0.1:11434/v1', flavor: 'generic' }],
  invalidKeys: [],
};

describe('resolveProvider: the wire API of a send (docs/provider-rules.md, Gemini Interactions)', () => {
  it('Google: the target’s API when it serves the model, else the model’s default; the usual API without a target', () => {
    const api = (model: string, requested?: 'gemini-interactions' | 'gemini-generate-content') =>
      resolveProvider('google', settings, { model, ...(requested ? { api: requested } : {}) }).api;
    expect(api('gemini-3.8-flash')).toBe('gemini-generate-content');
    expect(api('gemini-3.8-flash', 'gemini-interactions')).toBe('gemini-interactions');
    expect(api('gemini-4.2-flash')).toBe('gemini-interactions');
    expect(api('gemini-4.2-flash', 'gemini-generate-content')).toBe('gemini-generate-content');
    expect(api('gemini-2.0-flash', 'gemini-interactions')).toBe('gemini-generate-content');
    expect(resolveProvider('google', settings).api).toBe('gemini-generate-content');
    // The same host and key either way: only the API differs.
    const p = resolveProvider('google', settings, { model: 'gemini-3.8-flash', api: 'gemini-interactions' });
    expect(p).toMatchObject({ providerId: 'google', origin: 'http://127.0.0.1:9999', originProvider: 'google' });
    expect(convertTargetFor(p, { providerId: 'google', model: 'gemini-3.8-flash' })).toMatchObject({
      api: 'gemini-interactions',
      provider: 'google',
    });
  });
  it('other providers ignore a Gemini API in the target', () => {
    expect(resolveProvider('openai', settings, { model: 'gpt-5.5', api: 'gemini-interactions' }).api).toBe(
      'openai-responses',
    );
    expect(resolveProvider('custom-local', settings, { model: 'llama3', api: 'gemini-interactions' }).api).toBe(
      'openai-chat',
    );
  });
});
