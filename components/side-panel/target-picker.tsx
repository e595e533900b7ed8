import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { GeminiApi, ModelOption, ProviderStatus } from '../../lib/messaging/protocol';
import { ageText, filterModels, modelBadges } from '../../lib/ui/model-picker';
import { Brain, Icon } from '../icons';
import { ApiPicker } from './api-picker';
import './compare.css';

export interface TargetPickerProps {
  providers: readonly ProviderStatus[];
  target: { providerId: string; model: string; thinking?: boolean | undefined; api?: GeminiApi | undefined };
  /** The provider's models: its own list merged with the registry (`listed: false`: registry only). */
  models: readonly ModelOption[];
  /** When `models` was fetched (ms since the epoch); undefined while none is known. */
  modelsAt?: number | undefined;
  /** Why the provider's list could not be fetched. */
  modelsError?: string | undefined;
  onProvider(id: string): void;
  /** A typed id (`chosen` false) or one chosen from the list (`chosen` true). */
  onModel(model: string, chosen: boolean): void;
  /** Asks for the provider's model list (cached by the model); `refresh`: fetch it again. */
  onWantModels(refresh?: boolean): void;
  /** The Model field gained (`true`) or lost focus (a list arriving then must not fill it). */
  onModelFocus?: ((focused: boolean) => void) | undefined;
  /** Asks the model to think (reason) before answering, or not; absent: no Thinking switch. */
  onThinking?: ((on: boolean) => void) | undefined;
  /** Chooses the Gemini API for a model both serve; absent: no API choice. */
  onApi?: ((api: GeminiApi) => void) | undefined;
  openOptions?: (() => void) | undefined;
  /**
   * Several models are asked (docs/side-panel.md#ask-several-models-at-once): this target's number
   * among them (the picker's is 1), shown as the same badge the added rows and the preview rows carry.
   */
  number?: number | undefined;
}

/**
 * Provider and model for the next send; both can change at any turn (docs/side-panel.md). The provider is a
 * `<select>` (role combobox, named "Provider"); the model is an ARIA combobox named "Model" whose
 * listbox holds the provider's models with their badges, filtered by what is typed. Any id can
 * still be typed (free text for models neither list knows).
 */
export function TargetPicker({
  providers,
  target,
  models,
  modelsAt,
  modelsError,
  onProvider,
  onModel,
  onWantModels,
  onModelFocus,
  onThinking,
  onApi,
  openOptions,
  number,
}: TargetPickerProps) {
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
  const providerName = providers.find((p) => p.id === target.providerId)?.name ?? target.providerId;
  return (
    <div class="picker">
      {number !== undefined ? (
        <span class="compare-number" aria-hidden="true">
          {number}
        </span>
      ) : null}
      <select
        class="provider-select"
        aria-label="Provider"
        title="Provider"
        value={target.providerId}
        onChange={(e) => onProvider(e.currentTarget.value)}
      >
        {providers.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <ModelCombobox
        key={target.providerId}
        value={target.model}
        models={models}
        modelsAt={modelsAt}
        modelsError={modelsError}
        providerName={providerName}
        onModel={onModel}
        onWantModels={onWantModels}
        onFocusChange={onModelFocus}
      />
      {onApi ? <ApiPicker model={models.find((m) => m.id === target.model)} api={target.api} onApi={onApi} /> : null}
      {onThinking && models.find((m) => m.id === target.model)?.thinking !== false ? (
        <button
          type="button"
          class="thinking-toggle"
          aria-pressed={target.thinking === true ? 'true' : 'false'}
          title={
            target.thinking === true
              ? 'Thinking on: the model reasons before answering (more tokens). Click to turn off.'
              : 'Thinking off. Click to let the model reason before answering.'
          }
          onClick={() => onThinking(target.thinking !== true)}
        >
          <Icon icon={Brain} />
          <span>Thinking</span>
        </button>
      ) : null}
    </div>
  );
}

interface ComboProps {
  value: string;
  models: readonly ModelOption[];
  modelsAt?: number | undefined;
  modelsError?: string | undefined;
  providerName: string;
  onModel(model: string, chosen: boolean): void;
  onWantModels(refresh?: boolean): void;
  onFocusChange?: ((focused: boolean) => void) | undefined;
}

function ModelCombobox({
  value,
  models,
  modelsAt,
  modelsError,
  providerName,
  onModel,
  onWantModels,
  onFocusChange,
}: ComboProps) {
  const id = useId();
  const listId = `${id}-models`;
  const [open, setOpen] = useState(false);
  // What was typed since the list opened (the list shows every model until the person types).
  const [query, setQuery] = useState<string | undefined>(undefined);
  const [active, setActive] = useState(-1);
  const box = useRef<HTMLDivElement>(null);
  // Removed while focused (another provider's field replaces it), the input gets no blur: say so here.
  const focused = useRef(false);
  useEffect(
    () => () => {
      if (focused.current) onFocusChange?.(false);
    },
    [],
  );
  const shown = filterModels(models, query ?? '');
  const listed = shown.filter((m) => m.listed !== false);
  const registryOnly = shown.filter((m) => m.listed === false);
  const flat = [...listed, ...registryOnly];
  const current = models.find((m) => m.id === value);

  useEffect(() => {
    if (!open) return;
    const close = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);
  useEffect(() => {
    if (open && active >= 0) document.getElementById(`${id}-opt-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active, id]);

  const show = () => {
    onWantModels();
    setQuery(undefined);
    setActive(
      Math.max(
        0,
        flat.findIndex((m) => m.id === value),
      ),
    );
    setOpen(true);
  };
  const choose = (m: ModelOption) => {
    onModel(m.id, true);
    setOpen(false);
    setQuery(undefined);
  };
  const option = (m: ModelOption, i: number) => (
    <li
      key={m.id}
      id={`${id}-opt-${i}`}
      role="option"
      data-model-id={m.id}
      aria-selected={m.id === value ? 'true' : 'false'}
      class={`model-option${i === active ? ' active' : ''}`}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => choose(m)}
    >
      <span class="model-option-name">{m.name ?? m.id}</span>
      {m.name ? <span class="model-option-id">{m.id}</span> : null}
      <span class="model-badges">
        {modelBadges(m).map((b) => (
          <span key={b.kind} class={`badge badge-${b.kind}`} title={b.title}>
            {b.text}
          </span>
        ))}
      </span>
    </li>
  );

  return (
    <div class="model-combo" ref={box}>
      <input
        role="combobox"
        aria-label="Model"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 && active < flat.length ? `${id}-opt-${active}` : undefined}
        autocomplete="off"
        spellcheck={false}
        placeholder="Choose or type a model id"
        title={current?.name ? `${current.name} (${value})` : value || 'Model'}
        value={value}
        onFocus={() => {
          focused.current = true;
          onFocusChange?.(true);
          onWantModels();
        }}
        onClick={() => (open ? undefined : show())}
        onInput={(e) => {
          const v = e.currentTarget.value;
          onModel(v, false);
          setQuery(v);
          setActive(0);
          setOpen(true);
        }}
        onBlur={() => {
          focused.current = false;
          onFocusChange?.(false);
          setOpen(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            if (!open) return show();
            const n = flat.length;
            if (n) setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
          } else if (e.key === 'Enter' && open) {
            e.preventDefault();
            const m = flat[active];
            if (m) choose(m);
            else setOpen(false);
          } else if (e.key === 'Escape' && open) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      <button
        type="button"
        class="model-toggle"
        tabIndex={-1}
        aria-label="Show the models"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls={listId}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => (open ? setOpen(false) : show())}
      >
        <span aria-hidden="true">▾</span>
      </button>
      <div class="model-popup" hidden={!open}>
        <ul id={listId} role="listbox" aria-label={`Models of ${providerName}`}>
          {listed.length ? (
            <li role="presentation" class="model-group">
              Listed by {providerName}
            </li>
          ) : null}
          {listed.map((m, i) => option(m, i))}
          {registryOnly.length ? (
            <li
              role="presentation"
              class="model-group"
              title="Models Baton knows for this provider that its model list did not include (your key may not reach them)"
            >
              Other {providerName} models Baton knows
            </li>
          ) : null}
          {registryOnly.map((m, i) => option(m, listed.length + i))}
        </ul>
        {flat.length === 0 ? (
          <p class="model-empty">
            {models.length === 0
              ? modelsError
                ? `Could not list the models: ${modelsError}`
                : modelsAt === undefined
                  ? 'Loading the models…'
                  : 'This provider listed no models.'
              : `No model matches “${query ?? ''}”.`}
            {value.trim() ? ` “${value.trim()}” is sent as typed.` : ''}
          </p>
        ) : null}
        <p class="model-meta">
          <span>
            {modelsAt !== undefined
              ? `${providerName}’s list, fetched ${ageText(modelsAt)}`
              : modelsError
                ? 'Model list unavailable'
                : 'Fetching the list…'}
          </span>
          <button type="button" class="mini" onMouseDown={(e) => e.preventDefault()} onClick={() => onWantModels(true)}>
            Refresh
          </button>
        </p>
      </div>
    </div>
  );
}
