/**
 * "Summarise them instead…" (docs/disclosure.md, "Fitting"): the person picks the model that writes the
 * summary and sees what that request discloses and costs before consenting. "Summarise" is the
 * consent (with the first-disclosure warning when the summariser's provider has not received this
 * conversation); Cancel or Escape sends nothing.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { ModelOption, ProviderStatus } from '../../lib/messaging/protocol';
import { summariserProviders, summaryDialogLines } from '../../lib/ui/summary';
import { ErrorNotice } from './error-notice';
import type { SummaryDialog as DialogState } from './summary-hooks';

export interface SummaryDialogProps {
  dialog: DialogState;
  providers: readonly ProviderStatus[];
  /** Suggestions for the summariser's model, per provider id. */
  models: Readonly<Record<string, readonly ModelOption[]>>;
  /** Asks for a provider's model list. */
  onWantModels(providerId: string): void;
}

/** The modal dialog of one summary: summariser picker, what the request discloses and costs, Summarise / Cancel. */
export function SummaryDialog({ dialog, providers, models, onWantModels }: SummaryDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The safe choice has the focus; closing gives it back to where it was ("Summarise them instead…").
    const before = document.activeElement as HTMLElement | null;
    cancel.current?.focus();
    return () => before?.focus?.();
  }, []);
  const usable = summariserProviders(providers);
  const s = dialog.summariser;
  const p = dialog.preview;
  const name = (id: string) => providers.find((x) => x.id === id)?.name ?? id;
  const ready = p !== undefined && p.allowed && p.fits && !dialog.loading && !dialog.busy;
  return (
    <div class="disclosure-backdrop">
      <div
        class="disclosure-dialog summary-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="baton-summary-title"
        aria-describedby="baton-summary-what"
        aria-busy={dialog.busy ? 'true' : 'false'}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            dialog.cancel();
          }
        }}
      >
        <h2 id="baton-summary-title">Summarise the earlier turns?</h2>
        {usable.length === 0 || !s ? (
          <p>No provider with a key can write the summary. Add a key in the options page.</p>
        ) : (
          <div class="picker summary-picker">
            <label>
              <span>Summariser provider</span>
              <select
                value={s.providerId}
                disabled={dialog.busy}
                onChange={(e) =>
                  dialog.setSummariser({
                    providerId: e.currentTarget.value,
                    model: usable.find((x) => x.id === e.currentTarget.value)?.defaultModel ?? '',
                  })
                }
              >
                {usable.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Summariser model</span>
              <input
                list="baton-summariser-models"
                autocomplete="off"
                spellcheck={false}
                placeholder="model id"
                value={s.model}
                disabled={dialog.busy}
                onFocus={() => onWantModels(s.providerId)}
                onInput={(e) => dialog.setSummariser({ providerId: s.providerId, model: e.currentTarget.value })}
              />
            </label>
            <datalist id="baton-summariser-models">
              {(models[s.providerId] ?? []).map((m) => (
                <option key={m.id} value={m.id} />
              ))}
            </datalist>
          </div>
        )}
        <div id="baton-summary-what" aria-live="polite">
          {p ? (
            <>
              <ul>
                {summaryDialogLines(p, name(p.summariser.providerId)).map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
              {p.needsConfirmation && p.allowed ? (
                <p class="summary-warning" data-summary-first-disclosure="">
                  {name(p.summariser.providerId)} has not received this conversation before: summarising discloses those
                  turns to it.
                </p>
              ) : null}
              {!p.allowed ? (
                <p class="summary-warning">
                  Not allowed: {p.forbidden ?? 'the disclosure policy forbids this provider'}.
                </p>
              ) : null}
              {p.allowed && !p.fits ? (
                <p class="summary-warning">
                  Too large for this model: {p.notFit ?? 'pick a model with a larger context window'}.
                </p>
              ) : null}
              <p class="hint">
                The summary then goes in their place as one labelled message. The turns stay stored, and you can stop
                using the summary at any time.
              </p>
            </>
          ) : dialog.loading ? (
            <p class="hint">Working out what the summary request would send…</p>
          ) : null}
        </div>
        {dialog.error ? <ErrorNotice error={dialog.error} live /> : null}
        <div class="composer-actions">
          <button type="button" ref={cancel} disabled={dialog.busy} onClick={dialog.cancel}>
            Cancel
          </button>
          <button type="button" class="primary" disabled={!ready} onClick={() => void dialog.submit()}>
            {dialog.busy ? 'Summarising…' : 'Summarise'}
          </button>
        </div>
      </div>
    </div>
  );
}
