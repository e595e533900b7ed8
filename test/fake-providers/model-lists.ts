/**
 * Model-list bodies in each provider's shape: OpenAI `{object:'list', data:[{id, object:'model', …}]}`
 * (https://platform.openai.com/docs/api-reference/models/list), Anthropic
 * `{data:[{type:'model', id, display_name, created_at}], has_more, first_id, last_id}`
 * (https://docs.anthropic.com/en/api/models-list), Gemini
 * `{models:[{name:'models/<id>', …}]}` (https://ai.google.dev/api/models#method:-models.list).
 */
import type { FakeApi, FakeSettings } from './types';

/** The list body for a model-list endpoint. */
export function modelList(api: FakeApi, models: FakeSettings['models']): Record<string, unknown> {
  switch (api) {
    case 'anthropic-models':
      return {
        data: models.anthropic.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' })),
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
      return { object: 'list', data: models.openai.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) };
  }
}
