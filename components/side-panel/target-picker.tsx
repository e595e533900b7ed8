import type { ModelOption, ProviderStatus } from '../../lib/messaging/protocol';

export interface TargetPickerProps {
  providers: readonly ProviderStatus[];
  target: { providerId: string; model: string };
  models: readonly ModelOption[];
  onProvider(id: string): void;
  onModel(model: string): void;
  /** Asks for the provider's model list (cached by the model). */
  onWantModels(): void;
  openOptions?: (() => void) | undefined;
}

/** Provider and model for the next send; can change at any turn. The model is free text with suggestions. */
export function TargetPicker({ providers, target, models, onProvider, onModel, onWantModels, openOptions }: TargetPickerProps) {
  if (providers.length === 0)
    return (
      <div class="picker-empty">
        <p>No provider is set up yet. Add an API key in the options page.</p>
        {openOptions ? (
          <button type="button" class="link-button" onClick={() => openOptions()}>
            Open options
          </button>
        ) : null}
      </div>
    );
  return (
    <div class="picker">
      <label>
        <span>Provider</span>
        <select aria-label="Provider" value={target.providerId} onChange={(e) => onProvider(e.currentTarget.value)}>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Model</span>
        <input
          aria-label="Model"
          list="baton-model-options"
          autocomplete="off"
          spellcheck={false}
          placeholder="model id"
          value={target.model}
          onFocus={onWantModels}
          onInput={(e) => onModel(e.currentTarget.value)}
        />
      </label>
      <datalist id="baton-model-options">
        {models.map((m) => (
          <option key={m.id} value={m.id} />
        ))}
      </datalist>
    </div>
  );
}
