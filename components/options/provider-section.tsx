import { useState } from 'preact/hooks';
import type { ProviderStatus } from '../../lib/messaging/protocol';
import { DEFAULT_API_ORIGINS } from '../../lib/messaging/endpoint-url';
import type { Note, OptionsModel } from '../../lib/ui/options-model';
import { NoteLine } from './note-line';

export interface ProviderSectionProps {
  provider: ProviderStatus;
  model: OptionsModel;
  note: Note | undefined;
}

/**
 * One provider: its key (masked once saved, S5), test and delete; the base URL for built-ins;
 * the address and a delete button for custom endpoints.
 */
export function ProviderSection({ provider: p, model, note }: ProviderSectionProps) {
  const [key, setKey] = useState('');
  const [base, setBase] = useState(p.baseUrl ?? '');
  const defaultOrigin = DEFAULT_API_ORIGINS[p.id];
  const headingId = `provider-${p.id}`;

  // One primary action (docs/side-panel.md, "Looks"): Save key while there is a key to save; once saved,
  // Test key until a test said the key works; then none.
  const tested = note?.persist === true && note.kind === 'ok';
  const primary = key.trim() || !p.hasKey ? 'save' : tested ? undefined : 'test';
  const saveKey = async () => {
    const typed = key;
    // S5: the full key leaves the page state at once; it comes back only if saving failed.
    setKey('');
    if (!(await model.saveKey(p.id, typed))) setKey(typed);
  };

  const keyField = (
    <>
      <label class="field-label" for={`${headingId}-key`}>
        API key
      </label>
      <div class="row">
        <input
          id={`${headingId}-key`}
          type="password"
          // A textbox named "API key" (docs/side-panel.md: what screen readers announce and tests find), still
          // masked; Preact's types allow no role on a password input, hence the spread.
          {...({ role: 'textbox' } as Record<string, string>)}
          autocomplete="off"
          spellcheck={false}
          placeholder={p.hasKey ? 'Enter a new key to replace it' : 'Paste the API key'}
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void saveKey();
            }
          }}
        />
        <button type="button" class={primary === 'save' ? 'primary' : undefined} onClick={() => void saveKey()}>
          Save key
        </button>
        <button
          type="button"
          class={primary === 'test' ? 'primary' : undefined}
          onClick={() => void model.testKey(p.id)}
        >
          Test key
        </button>
        <button type="button" class="ghost" onClick={() => void model.deleteKey(p.id)} disabled={!p.hasKey}>
          Delete key
        </button>
      </div>
    </>
  );

  return (
    <section class="provider" role="group" data-provider={p.id} aria-labelledby={headingId}>
      <div class="provider-head">
        <h3 id={headingId}>{p.name}</h3>
        {p.hasKey && !p.keyUnbound && !p.keyInvalid ? <span class="badge ok">Ready</span> : null}
      </div>
      <p class="key-status">
        {p.hasKey
          ? `Key saved: ${p.maskedKey ?? '••••'}`
          : p.baseUrl && !defaultOrigin
            ? 'No key saved (local servers may not need one).'
            : 'No key saved.'}
      </p>
      {p.keyInvalid ? (
        <p class="warn">The provider rejected this key the last time it was used. Enter a new one.</p>
      ) : null}
      {p.keyUnbound ? (
        <p class="warn">
          The saved key was entered for another address. Enter it again to use it with the current one.
        </p>
      ) : null}
      {defaultOrigin ? (
        // The address comes before the key (docs/side-panel.md, item 8): a key is bound to the address it was
        // saved for (N2), so saving an address after the key would ask for the key again.
        <>
          <label class="field-label" for={`${headingId}-base`}>
            Base URL
          </label>
          <div class="row">
            <input
              id={`${headingId}-base`}
              type="url"
              placeholder={`${defaultOrigin} (default)`}
              value={base}
              onInput={(e) => setBase(e.currentTarget.value)}
            />
            {/* N1: saveBaseUrl asks for the host permission before its first await, inside this click. */}
            <button type="button" onClick={() => void model.saveBaseUrl(p.id, base)}>
              Save base URL
            </button>
            <button
              type="button"
              class="ghost"
              onClick={() => {
                setBase('');
                void model.resetBaseUrl(p.id);
              }}
            >
              Reset
            </button>
          </div>
          <p class="hint">Address: {p.baseUrl ?? `${defaultOrigin} (default)`}</p>
          {keyField}
        </>
      ) : (
        <>
          {keyField}
          <p class="row">
            <span>
              {p.baseUrl} ({p.flavor ?? 'generic'}
              {p.defaultModel ? `, default model ${p.defaultModel}` : ''})
            </span>
            <button type="button" class="danger" onClick={() => void model.deleteEndpoint(p.id)}>
              Delete endpoint
            </button>
          </p>
        </>
      )}
      <NoteLine note={note} />
    </section>
  );
}
