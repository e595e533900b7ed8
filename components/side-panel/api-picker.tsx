/**
 * Which Gemini API a send goes over (docs/side-panel.md, "Provider and model"): shown beside the
 * model when the model is served by both `generateContent` and the Interactions API. The choice
 * is the send target's `api`; the background uses it only where it serves the model.
 */
import type { GeminiApi, ModelOption } from '../../lib/messaging/protocol';

/** Each API as the picker names it (Google's own words). */
export const API_LABEL: Readonly<Record<GeminiApi, string>> = {
  'gemini-interactions': 'Interactions API',
  'gemini-generate-content': 'generateContent API',
};

export interface ApiPickerProps {
  /** The chosen model's entry; no picker unless it lists two Gemini APIs. */
  model: ModelOption | undefined;
  /** The target's `api`; absent: the model's default (its first API). */
  api: GeminiApi | undefined;
  onApi(api: GeminiApi): void;
}

/** A `<select>` named "Gemini API", or nothing when the model has no choice. */
export function ApiPicker({ model, api, onApi }: ApiPickerProps) {
  const apis = (model?.apis ?? []).filter((a): a is GeminiApi => a in API_LABEL);
  if (apis.length < 2) return null;
  const value = api && apis.includes(api) ? api : apis[0]!;
  return (
    <select
      class="api-select"
      aria-label="Gemini API"
      title={`Gemini API: ${API_LABEL[value]}${value === apis[0] ? ' (the default for this model)' : ''}`}
      value={value}
      onChange={(e) => onApi(e.currentTarget.value as GeminiApi)}
    >
      {apis.map((a) => (
        <option key={a} value={a}>
          {API_LABEL[a]}
          {a === apis[0] ? ' (default)' : ''}
        </option>
      ))}
    </select>
  );
}
