import { useEffect, useMemo } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import { ChatModel } from '../../lib/ui/chat-model';
import { useStore } from '../../lib/ui/store';
import { ChatView } from './chat-view';
import { Composer } from './composer';
import { ConversationList } from './conversation-list';
import { ErrorNotice } from './error-notice';
import { TargetPicker } from './target-picker';

export interface SidePanelProps {
  connector: Connector;
  /** Opens the extension's options page (`browser.runtime.openOptionsPage()` in the extension). */
  openOptions?: () => void;
}

function phaseText(phase: string, retryInSec: number | undefined): string {
  if (phase === 'retrying') return retryInSec ? `The provider is busy; retrying in ${retryInSec} s…` : 'Retrying…';
  if (phase === 'sending') return 'Waiting for the answer…';
  if (phase === 'streaming') return 'Writing…';
  return '';
}

/** The side panel: conversation list, chat, provider/model picker and composer. */
export function SidePanel({ connector, openOptions }: SidePanelProps) {
  const model = useMemo(() => new ChatModel(connector), [connector]);
  useEffect(() => model.start(), [model]);
  const s = useStore(model);
  const ready = model.sendTarget() !== undefined;
  const status = s.busy ? phaseText(s.phase, s.retryInSec) : '';

  return (
    <div class="side-panel">
      <header class="panel-bar">
        <strong class="brand">Baton</strong>
        <button type="button" onClick={() => model.newChat()}>
          New chat
        </button>
      </header>
      <ConversationList conversations={s.conversations} currentId={s.currentId} onOpen={(id) => void model.open(id)} />
      <main class="chat">
        {s.loading ? (
          <p class="empty">Loading…</p>
        ) : (
          <ChatView
            turns={s.turns}
            busy={s.busy}
            providers={s.settings?.providers ?? []}
            answerError={s.answerError}
            canRetry={ready}
            onRetry={() => void model.retry()}
            openOptions={openOptions}
          />
        )}
      </main>
      <footer class="panel-foot">
        <p class="phase" role="status">
          {status}
        </p>
        {s.error ? <ErrorNotice error={s.error} openOptions={openOptions} live /> : null}
        <TargetPicker
          providers={s.providers}
          target={s.target}
          models={s.models[s.target.providerId] ?? []}
          onProvider={(id) => model.setProvider(id)}
          onModel={(m) => model.setModel(m)}
          onWantModels={() => void model.loadModels(s.target.providerId)}
          openOptions={openOptions}
        />
        {s.providers.length > 0 && !ready ? <p class="hint">Choose a model to send.</p> : null}
        <Composer
          draft={s.draft}
          busy={s.busy}
          ready={ready}
          onDraft={(t) => model.setDraft(t)}
          onSend={() => void model.send()}
          onStop={() => void model.stop()}
        />
      </footer>
    </div>
  );
}
