import { useState } from 'preact/hooks';
import {
  ENDPOINT_FLAVORS,
  type EndpointDraft,
  type EndpointFlavor,
  type Note,
  type OptionsModel,
} from '../../lib/ui/options-model';
import { NoteLine } from './note-line';

const EMPTY: EndpointDraft = { name: '', baseUrl: '', flavor: 'generic', defaultModel: '' };

/** Adds an OpenAI-compatible endpoint (OpenRouter, Ollama, LM Studio, …); https only, except on this machine (N4). */
export function EndpointForm({ model, note }: { model: OptionsModel; note: Note | undefined }) {
  const [d, setD] = useState<EndpointDraft>(EMPTY);
  const field = (k: keyof EndpointDraft) => (e: { currentTarget: { value: string } }) =>
    setD({ ...d, [k]: e.currentTarget.value });
  return (
    <div class="endpoint-form">
      <label>
        <span>Name</span>
        <input aria-label="Endpoint name" value={d.name} onInput={field('name')} placeholder="My OpenRouter" />
      </label>
      <label>
        <span>Base URL</span>
        <input
          type="url"
          aria-label="Endpoint base URL"
          value={d.baseUrl}
          onInput={field('baseUrl')}
          placeholder="https://openrouter.ai/api/v1"
        />
      </label>
      <label>
        <span>Flavour</span>
        <select
          aria-label="Endpoint flavour"
          value={d.flavor}
          onChange={(e) => setD({ ...d, flavor: e.currentTarget.value as EndpointFlavor })}
        >
          {ENDPOINT_FLAVORS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Model (optional)</span>
        <input
          aria-label="Endpoint model"
          value={d.defaultModel}
          onInput={field('defaultModel')}
          placeholder="optional"
        />
      </label>
      {/* N1/N4: the URL is checked, then the permission asked, inside this click, before saving. */}
      <button type="button" onClick={() => void model.addEndpoint(d).then((ok) => ok && setD(EMPTY))}>
        Add endpoint
      </button>
      <NoteLine note={note} />
    </div>
  );
}
