import { useEffect, useMemo } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import { describeError } from '../../lib/ui/error-text';
import { OptionsModel, type PermissionsLike } from '../../lib/ui/options-model';
import { useStore } from '../../lib/ui/store';
import { configuredProviders } from '../../lib/ui/targets';
import { DefaultTargetForm } from './default-target-form';
import { DefaultInstructionsForm } from './default-instructions-form';
import { DisclosurePolicySection } from './disclosure-policy-section';
import { EndpointForm } from './endpoint-form';
import { NoteLine } from './note-line';
import { OnDeviceNote } from './on-device-note';
import { PassphraseSection } from './passphrase-section';
import { ProviderSection } from './provider-section';
import { TransferSection } from './transfer-section';
import { SyncSection } from './sync-section';
import { FirstKey } from './first-key';

export interface OptionsPageProps {
  connector: Connector;
  /** `browser.permissions` in the extension; a stub in tests. */
  permissions: PermissionsLike;
}

/** Keys, base URLs, custom endpoints, the default model and "delete all data". */
export function OptionsPage({ connector, permissions }: OptionsPageProps) {
  const model = useMemo(() => new OptionsModel(connector, permissions), [connector, permissions]);
  useEffect(() => void model.load(), [model]);
  const s = useStore(model);

  // The page renders at once (docs/side-panel.md, "The options page"): what needs the settings fills in when
  // they arrive (a cold service worker may take seconds to answer); the rest never waits for them.
  const settings = s.settings;
  const waiting = settings ? null : s.loading ? (
    <p class="hint" role="status">
      Loading…
    </p>
  ) : (
    <p role="alert">{s.loadError ? describeError(s.loadError).sentence : 'Could not load the settings.'}</p>
  );
  // The first-key card stays until one provider can be used (the side panel's rule, lib/ui/targets.ts).
  const noKey = settings !== undefined && configuredProviders(settings).length === 0;
  return (
    <main class="options">
      <header class="options-head">
        <img src="/icon/128.png" alt="" width={40} height={40} />
        <h1>Baton options</h1>
      </header>
      <p class="hint">
        Keys stay in this browser's extension storage: never synced, never exported, sent only to their own provider,
        and shown again only masked.
      </p>
      {noKey ? <FirstKey /> : null}

      <section aria-labelledby="providers-h">
        <h2 id="providers-h">Providers</h2>
        {settings
          ? settings.providers.map((p) => (
              <ProviderSection key={`${p.id}|${p.baseUrl ?? ''}`} provider={p} model={model} note={s.notes[p.id]} />
            ))
          : waiting}
      </section>

      <section aria-labelledby="passphrase-h">
        <h2 id="passphrase-h">Passphrase</h2>
        <PassphraseSection connector={connector} onChange={() => void model.load()} />
      </section>

      <section aria-labelledby="endpoints-h">
        <h2 id="endpoints-h">Add an OpenAI-compatible endpoint</h2>
        <p class="hint">
          OpenRouter, Ollama, LM Studio or any server speaking Chat Completions. Baton asks your browser for permission
          to reach it.
        </p>
        <EndpointForm model={model} note={s.notes.endpoint} />
      </section>

      <section aria-labelledby="on-device-h">
        <h2 id="on-device-h">On-device model</h2>
        <OnDeviceNote />
      </section>

      <section aria-labelledby="default-h">
        <h2 id="default-h">Default for new chats</h2>
        {settings ? (
          <DefaultTargetForm
            key={`${settings.defaultTarget?.providerId}|${settings.defaultTarget?.model}`}
            settings={settings}
            model={model}
            note={s.notes.default}
          />
        ) : (
          waiting
        )}
        <DefaultInstructionsForm connector={connector} />
      </section>

      <section aria-labelledby="disclosure-h">
        <h2 id="disclosure-h">Disclosure</h2>
        {settings ? <DisclosurePolicySection connector={connector} providers={settings.providers} /> : waiting}
      </section>

      <section aria-labelledby="transfer-h">
        <h2 id="transfer-h">Import and export</h2>
        <TransferSection connector={connector} />
      </section>

      <section aria-labelledby="sync-h">
        <h2 id="sync-h">Sync</h2>
        <SyncSection connector={connector} permissions={permissions} />
      </section>

      <section aria-labelledby="delete-h">
        <h2 id="delete-h">Delete all data</h2>
        {s.confirmingDelete ? (
          <div class="confirm" role="group" aria-label="Confirm deletion">
            <p>This deletes every conversation, API key, endpoint and setting in Baton. It cannot be undone.</p>
            <button type="button" class="danger" onClick={() => void model.deleteAll()}>
              Yes, delete everything
            </button>
            <button type="button" onClick={() => model.cancelDeleteAll()}>
              Cancel
            </button>
          </div>
        ) : (
          <button type="button" class="danger" onClick={() => model.askDeleteAll()}>
            Delete all data
          </button>
        )}
        <NoteLine note={s.notes.delete} />
      </section>
    </main>
  );
}
