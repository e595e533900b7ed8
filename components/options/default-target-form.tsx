import { useState } from 'preact/hooks';
import type { Settings } from '../../lib/messaging/protocol';
import type { Note, OptionsModel } from '../../lib/ui/options-model';
import { pickTarget } from '../../lib/ui/targets';
import { NoteLine } from './note-line';

/**
 * The provider and model a new chat starts with (docs/side-panel.md#the-options-page). It opens on
 * the effective default: the saved one, else the one the side panel picks (the first provider with
 * a key, and its default model), said in a line below. Left empty, the model field stands for the
 * chosen provider's default model (its placeholder), which *Save default* saves.
 */
export function DefaultTargetForm({
  settings,
  model,
  note,
}: {
  settings: Settings;
  model: OptionsModel;
  note: Note | undefined;
}) {
  const saved = settings.defaultTarget;
  const effective = pickTarget(settings);
  const [providerId, setProviderId] = useState(
    saved?.providerId ?? (effective.providerId || (settings.providers[0]?.id ?? '')),
  );
  const [modelId, setModelId] = useState(saved?.model ?? '');
  const provider = settings.providers.find((p) => p.id === providerId);
  const fallback = provider?.defaultModel;
  return (
    <>
      <div class="row">
        <select
          aria-label="Default provider"
          value={providerId}
          onChange={(e) => {
            const id = e.currentTarget.value;
            setProviderId(id);
            setModelId(saved?.providerId === id ? saved.model : '');
          }}
        >
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
          placeholder={fallback ? `${fallback} (${provider?.name ?? providerId}’s default)` : 'model id'}
          spellcheck={false}
        />
        <button type="button" onClick={() => void model.saveDefault(providerId, modelId.trim() || (fallback ?? ''))}>
          Save default
        </button>
        <NoteLine note={note} />
      </div>
      <p class="hint">{effectiveText(settings)}</p>
    </>
  );
}

/** What a new chat starts with now, and why (the saved default, or the side panel's pick when there is none usable). */
function effectiveText(settings: Settings): string {
  const { providerId, model } = pickTarget(settings);
  const name = (id: string) => settings.providers.find((p) => p.id === id)?.name ?? id;
  if (!providerId) return 'New chats start with the first provider that has a key; none has one yet.';
  const what = `New chats start with ${name(providerId)}${model ? ` · ${model}` : ''}`;
  const saved = settings.defaultTarget;
  if (saved?.providerId === providerId) return `${what}.`;
  if (saved) return `${what}: the saved default’s provider, ${name(saved.providerId)}, has no usable key.`;
  return `${what}: no default is saved, so the first provider with a key and its default model.`;
}
