/**
 * Ask several models at once (docs/side-panel.md#ask-several-models-at-once): the targets added
 * beside the picker's. *Ask several models* adds one (up to three more: four in all); each row
 * picks a provider and a model and can be removed. The picker's own target is the first.
 */
import { useId } from 'preact/hooks';
import type { ModelOption, ProviderStatus } from '../../lib/messaging/protocol';
import { COMPARE_TARGETS } from '../../lib/messaging/compare-limits';
import './compare.css';

export interface CompareTargetsProps {
  providers: readonly ProviderStatus[];
  /** The added targets (the picker's is not among them). */
  extra: readonly { providerId: string; model: string }[];
  models: Readonly<Record<string, readonly ModelOption[]>>;
  /** A send is in flight: nothing can change. */
  busy: boolean;
  onAdd(): void;
  onProvider(i: number, providerId: string): void;
  onModel(i: number, model: string): void;
  onRemove(i: number): void;
}

/** Focuses a model field and opens its suggestions, where the browser can (`showPicker` on a datalist input). */
function showList(field: Element | null): void {
  if (!(field instanceof HTMLInputElement)) return;
  field.focus();
  try {
    field.showPicker?.();
  } catch {
    // Not allowed or not supported here: the focused field still lists its models as the person types.
  }
}

export function CompareTargets({
  providers,
  extra,
  models,
  busy,
  onAdd,
  onProvider,
  onModel,
  onRemove,
}: CompareTargetsProps) {
  const base = useId();
  const full = extra.length >= COMPARE_TARGETS.max - 1;
  return (
    <div class="compare-targets" role="group" aria-label="Ask several models">
      {extra.map((t, i) => {
        const n = i + 2;
        const list = `${base}-models-${i}`;
        return (
          <div class="compare-target" key={i} data-compare-target={n}>
            <span class="compare-number" aria-hidden="true">
              {n}
            </span>
            <select
              class="provider-select"
              aria-label={`Provider ${n}`}
              title={`Provider ${n}`}
              value={t.providerId}
              disabled={busy}
              onChange={(e) => onProvider(i, e.currentTarget.value)}
            >
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            {/* The browser's own list (a datalist) with the picker's arrow: its native arrow is hidden
                (compare.css), so every model field shows the same "▾". */}
            <span class="model-combo compare-model">
              <input
                aria-label={`Model ${n}`}
                title={`Model ${n}`}
                list={list}
                value={t.model}
                disabled={busy}
                spellcheck={false}
                autocomplete="off"
                onInput={(e) => onModel(i, e.currentTarget.value)}
              />
              <button
                type="button"
                class="model-toggle"
                tabIndex={-1}
                aria-label={`Show the models for model ${n}`}
                disabled={busy}
                onMouseDown={(e) => e.preventDefault()}
                onClick={(e) => showList(e.currentTarget.previousElementSibling)}
              >
                <span aria-hidden="true">▾</span>
              </button>
            </span>
            <datalist id={list}>
              {(models[t.providerId] ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name ?? m.id}
                </option>
              ))}
            </datalist>
            <button
              type="button"
              class="icon-button mini"
              aria-label={`Remove model ${n}`}
              title={`Remove model ${n}`}
              disabled={busy}
              onClick={() => onRemove(i)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        );
      })}
      {extra.length ? (
        <p class="hint compare-hint">
          Each model's request is previewed below; one that has not seen this chat asks you to confirm it on Send.
        </p>
      ) : null}
      {full ? null : (
        <button
          type="button"
          class="link-button compare-add"
          disabled={busy || providers.length === 0}
          title="Send the next message to several models and compare their answers side by side"
          onClick={onAdd}
        >
          {extra.length === 0 ? '+ Ask several models' : '+ Add a model'}
        </button>
      )}
    </div>
  );
}
