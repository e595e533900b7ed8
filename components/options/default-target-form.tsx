import { useState } from 'preact/hooks';
import type { Settings } from '../../lib/messaging/protocol';
import type { Note, OptionsModel } from '../../lib/ui/options-model';
import { NoteLine } from './note-line';

/** The provider and model a new chat starts with. */
export function DefaultTargetForm({
  settings,
  model,
  note,
}: {
  settings: Settings;
  model: OptionsModel;
  note: Note | undefined;
}) {
  const [providerId, setProviderId] = useState(settings.defaultTarget?.providerId ?? settings.providers[0]?.id ?? '');
  const [modelId, setModelId] = useState(settings.defaultTarget?.model ?? '');
  return (
    <div class="row">
      <select aria-label="Default provider" value={providerId} onChange={(e) => setProviderId(e.currentTarget.value)}>
        {settings.providers.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <input
        aria-label="Default model"
        value={modelId}
        onInput={(e) => setModelId(e.currentTarget.value)}
        placeholder="model id"
        spellcheck={false}
      />
      <button type="button" onClick={() => void model.saveDefault(providerId, modelId)}>
        Save default
      </button>
      <NoteLine note={note} />
    </div>
  );
}
