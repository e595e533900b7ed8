/**
 * Model-list bodies in each provider's shape: OpenAI `{object:'list', data:[{id, object:'model', …}]}`
 * (https://platform.openai.com/docs/api-reference/models/list), Anthropic
 * `{data:[{type:'model', id, display_name, created_at}], has_more, first_id, last_id}`
 * (https://docs.anthropic.com/en/api/models-list), Gemini
 * `{models:[{name:'models/<id>', …}]}` (https://ai.google.dev/api/models#method:-models.list).
 */
import type { FakeApi, FakeSettings } from './types';

/**
 * What the real models endpoints list (ids as each provider serves them, newest first; checked
 * against Baton's registry by rich.test.ts), for `npm run fake-providers` (docs/side-panel.md, item 7).
 * Tests keep the short default lists of server.ts.
 */
export const INTERACTIVE_MODELS: FakeSettings['models'] = {
  openai: ['gpt-6.2-sol', 'gpt-6.1-sol', 'gpt-6-luna', 'gpt-5.6-sol', 'gpt-5.5', 'gpt-5.4-mini', 'o4-mini'],
  anthropic: ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-sonnet-4-6', 'claude-haiku-4-5'],
  google: ['gemini-3.8-flash', 'gemini-3.1-pro-preview', 'gemini-3.1-flash-lite', 'gemini-2.5-pro', 'gemini-2.5-flash'],
};

/** The list body for a model-list endpoint. */
export function modelList(api: FakeApi, models: FakeSettings['models']): Record<string, unknown> {
  switch (api) {
    case 'anthropic-models':
      return {
        data: models.anthropic.map((id) => ({
          type: 'model',
          id,
          display_name: id,
          created_at: '2025-09-29T00:00:00Z',
        })),
        has_more: false,
        first_id: models.anthropic[0] ?? null,
        last_id: models.anthropic[models.anthropic.length - 1] ?? null,
      };
    case 'gemini-models':
      return {
        models: models.google.map((id) => ({
          name: `models/${id}`,
          version: '001',
          displayName: id,
          inputTokenLimit: 1048576,
          outputTokenLimit: 65536,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        })),
      };
    default:
      return {
        object: 'list',
        data: models.openai.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
      };
  }
}
