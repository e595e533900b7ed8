import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { Turn } from '../../lib/transcript/schema';
import { copyText } from '../../lib/ui/clipboard';
import { conversationMarkdown } from '../../lib/ui/export-markdown';
import { SidePanelModel } from '../../lib/ui/side-panel-model';
import { useStore } from '../../lib/ui/store';
import { TransferModel } from '../../lib/ui/transfer';
import { applyTheme, loadTheme, nextTheme, THEME_LABEL, type ThemeChoice } from '../../lib/ui/theme';
import { ChatHead } from './chat-head';
import { ChatView } from './chat-view';
import { forTab, type PageBrowser } from '../../lib/ui/page-context';
import { AddPageButton } from './add-page';
import { Composer } from './composer';
import { DisclosureBar } from './disclosure-bar';
import { DisclosureConfirm } from './disclosure-confirm';
import { useDeliveryPolicy, useDisclosure, useLedger } from './disclosure-hooks';
import { ConversationList } from './conversation-list';
import { highlightTurn } from './message-search';
import { revealTurn, searchMessages } from '../../lib/ui/message-search';
import { CaptureNotice } from './capture-notice';
import { ErrorNotice } from './error-notice';
import { SummaryDialog } from './summary-dialog';
import { useSummaryDialog, useSummaryText } from './summary-hooks';
import { SummaryNotice } from './summary-notice';
import { TargetPicker } from './target-picker';
import { CompareTargets } from './compare-targets';
import { CompareView } from './compare-view';
import { CompareDisclosure, useComparePreviews } from './compare-disclosure';
import { ImportEntry } from './transfer-actions';
import { Instructions } from './instructions';
import { useFollow } from './follow';
import './side-panel.css';
import { FirstRun } from './first-run';
import { LockBar } from './lock-bar';
import { EmptyChat } from './empty-chat';
import { UndoToast } from './undo-toast';
import { Icon, Lock, MessageSquarePlus, Moon, PanelLeft, Settings, Sun, SunMoon } from '../icons';
import { modelDisplayName } from '../../lib/ui/model-names';

export interface SidePanelProps {
  connector: Connector;
  /** Opens the extension's options page (`browser.runtime.openOptionsPage()` in the extension). */
  openOptions?: () => void;
  /** Reads the active tab for *Add this page* (docs/side-panel.md#add-this-page); absent: the button is not offered. */
  pages?: PageBrowser | undefined;
}

function phaseText(phase: string, retryInSec: number | undefined): string {
  if (phase === 'retrying') return retryInSec ? `The provider is busy; retrying in ${retryInSec} s…` : 'Retrying…';
  if (phase === 'sending') return 'Waiting for the answer…';
  if (phase === 'streaming') return 'Writing…';
  return '';
}

/** From this panel width (px) the conversation list is docked beside the chat and open by default; narrower, it is a drawer over the chat (docs/side-panel.md). */
export const WIDE_PANEL_PX = 600;

function isWide(): boolean {
  return typeof matchMedia === 'function' ? matchMedia(`(min-width: ${WIDE_PANEL_PX}px)`).matches : false;
}

/** Whether the panel is wide ({@link WIDE_PANEL_PX}), following changes of its width. */
function useWide(): boolean {
  const [wide, setWide] = useState(isWide);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const q = matchMedia(`(min-width: ${WIDE_PANEL_PX}px)`);
    const on = () => setWide(q.matches);
    q.addEventListener?.('change', on);
    return () => q.removeEventListener?.('change', on);
  }, []);
  return wide;
}

/**
 * The side panel: the conversation list (a drawer toggled by *Conversations*, docked when the
 * panel is wide), the chat (which follows its end), the provider and model picker, the
 * disclosure line and the composer.
 */
export function SidePanel({ connector, openOptions, pages }: SidePanelProps) {
  const model = useMemo(() => new SidePanelModel(connector), [connector]);
  useEffect(() => model.start(), [model]);
  // "Add this page to Baton" from the page's context menu (docs/side-panel.md#add-this-page).
  useEffect(() => pages?.onAddRequest?.((tabId) => void model.addPage(forTab(pages, tabId))), [pages, model]);
  useEffect(() => {
    // A pending delete is sent before the page goes away (no undo is possible after that).
    const flush = () => {
      model.flushDelete();
      model.flushVersionDelete();
    };
    addEventListener('pagehide', flush);
    return () => removeEventListener('pagehide', flush);
  }, [model]);
  const s = useStore(model);
  const x = useStore(model.extras);
  const cmp = useStore(model.compare);
  // docs/side-panel.md#ask-several-models-at-once: the answers side by side after the message they answer.
  const run = cmp.run && cmp.run.conversationId === s.currentId ? cmp.run : undefined;
  const compareAfter = run ? (run.userTurnId ?? s.turns.findLast((t) => t.role === 'user')?.id) : undefined;
  const [theme, setTheme] = useState<ThemeChoice>(() => loadTheme());
  const wide = useWide();
  const [listOpen, setListOpen] = useState(wide);
  const listWasWide = useRef(wide);
  useEffect(() => {
    // Crossing the width threshold resets the list to that width's default.
    if (listWasWide.current !== wide) setListOpen(wide);
    listWasWide.current = wide;
  }, [wide]);
  const exporter = useMemo(() => new TransferModel(connector), [connector]);

  const ex = useStore(exporter);
  const messageBox = useRef<HTMLTextAreaElement>(null);
  const ready = model.sendTarget() !== undefined;
  const onDevice = model.onDeviceTarget();
  const status = s.busy ? phaseText(s.phase, s.retryInSec) : '';
  const meta = s.currentId ? s.conversations.find((c) => c.id === s.currentId) : undefined;
  const providers = s.settings?.providers ?? [];
  // docs/disclosure.md: what the next send discloses, the confirmation of a first disclosure, the ledger.
  const delivery = useDeliveryPolicy(connector, s.currentId);
  const [summaryVersion, setSummaryVersion] = useState(0);
  // `s.summaryVersion`: a summary stored or cleared from any panel (`summaryUpdated`); `summaryVersion`: this panel's own.
  // docs/side-panel.md#instructions: saved instructions change what the next send carries.
  const [instructionsVersion, setInstructionsVersion] = useState(0);
  const turnsKey = `${s.turns.map((t) => `${t.id}:${t.status ?? ''}`).join(',')}|${settledEvent(s)}|${delivery.version}|${summaryVersion}|${s.summaryVersion}|${instructionsVersion}`;
  const disclosure = useDisclosure(
    connector,
    {
      conversationId: s.currentId,
      target: onDevice ? undefined : model.sendTarget(),
      draft: s.draft,
      attachments: s.attachments,
      turnsKey,
      compare: model.comparing(),
    },
    (extra, askToConfirm) => model.send(extra, askToConfirm),
  );
  const [ledgerOpen, setLedgerOpen] = useState(false);
  const ledger = useLedger(connector, s.currentId, ledgerOpen, turnsKey);
  const providerNames = Object.fromEntries(providers.map((p) => [p.id, p.name]));
  const targetName = providerNames[s.target.providerId] ?? s.target.providerId;
  // docs/side-panel.md#ask-several-models-at-once: what each target of the next send receives.
  const compareTargets = model.comparing() && !onDevice ? model.compareTargets() : [];
  const compare = useComparePreviews(connector, {
    conversationId: s.currentId,
    targets: compareTargets,
    draft: s.draft,
    attachments: s.attachments,
    turnsKey,
    exclusions: { excludeTurns: disclosure.excludeTurns, excludeBlocks: disclosure.excludeBlocks },
  });
  // docs/disclosure.md "Fitting": summarise the turns a send drops instead of dropping them.
  const summaryDialog = useSummaryDialog(
    connector,
    {
      conversationId: s.currentId,
      target: onDevice ? undefined : model.sendTarget(),
      draft: s.draft,
      attachments: s.attachments,
      excludeTurns: disclosure.excludeTurns,
      excludeBlocks: disclosure.excludeBlocks,
      providers,
    },
    () => setSummaryVersion((v) => v + 1),
  );
  const [summaryOpen, setSummaryOpen] = useState(false);
  const summaryText = useSummaryText(connector, s.currentId, summaryOpen, turnsKey);
  const activeSummary = disclosure.preview?.summary;
  const lastTurn = s.turns[s.turns.length - 1];
  const follow = useFollow(
    s.loading ? undefined : (s.currentId ?? ''),
    `${s.turns.length}|${lastTurn?.id ?? ''}|${lastTurn?.status ?? ''}|${lastTurn ? JSON.stringify(lastTurn.blocks).length : 0}|${s.answerError ? 1 : 0}`,
  );
  const openImported = (r: { imported: { id: string }[] }) =>
    void model.reload().then(() => model.open(r.imported[0]!.id));
  const closeDrawer = () => {
    if (!wide) setListOpen(false);
  };
  // docs/side-panel.md#search: full-text matches, and the jump to a matched turn.
  const search = {
    search: (q: string) => searchMessages(connector, q),
    onJump: (hit: { conversationId: string; turnId?: string }) => {
      closeDrawer();
      void revealTurn(model, hit.conversationId, hit.turnId).then((ok) => {
        if (ok && hit.turnId) highlightTurn(hit.turnId);
      });
    },
  };
  // No usable provider and no conversation at all → one call to action (first-run.tsx), not a picker notice.
  // With no conversation open, the page shows the lock (locked), the call to action (no provider) or the starters.
  const [locked, setLocked] = useState(false);
  const empty = s.turns.length === 0 && !s.currentId;
  const firstRun = empty && !s.loading && !locked && s.settings !== undefined && s.providers.length === 0;
  const startWith = (text: string) => {
    model.setDraft(text);
    const box = messageBox.current;
    if (box) {
      box.focus();
      box.setSelectionRange(text.length, text.length);
    }
  };
  const targetLabel = onDevice
    ? "Chrome's on-device model"
    : ready
      ? `${modelDisplayName(s.target.model)} · ${targetName}`
      : undefined;
  const lockBar = (
    <LockBar connector={connector} full={empty} onLocked={setLocked} onUnlocked={() => setLocked(false)} />
  );

  return (
    <div class="side-panel">
      <header class="panel-bar">
        <button
          type="button"
          class="icon-button conversations-toggle"
          aria-label="Conversations"
          title={listOpen ? 'Hide the conversations' : 'Show the conversations'}
          aria-expanded={listOpen ? 'true' : 'false'}
          aria-controls="baton-conversations"
          onClick={() => {
            setListOpen(!listOpen);
            // A drawer over the chat takes the focus (its search box), as a dialog would.
            if (!listOpen && !wide)
              setTimeout(
                () =>
                  (
                    document.querySelector<HTMLElement>('#baton-conversations input[type="search"]') ??
                    document.querySelector<HTMLElement>('#baton-conversations button')
                  )?.focus(),
                0,
              );
          }}
        >
          <Icon icon={PanelLeft} />
        </button>
        <strong class="brand">
          Baton
          {locked ? (
            <span class="brand-lock" title="Baton is locked">
              <Icon icon={Lock} label="Locked" />
            </span>
          ) : null}
        </strong>
        <span class="bar-actions">
          <button
            type="button"
            class="icon-button"
            aria-label={`Theme: ${THEME_LABEL[theme]}`}
            title={`Theme: ${THEME_LABEL[theme]} (switch between the system theme, light and dark)`}
            onClick={() => {
              const t = nextTheme(theme);
              applyTheme(t);
              setTheme(t);
            }}
          >
            <Icon icon={theme === 'light' ? Sun : theme === 'dark' ? Moon : SunMoon} />
          </button>
          <ImportEntry connector={connector} variant="icon" onImported={openImported} />
          {openOptions ? (
            <button
              type="button"
              class="icon-button"
              aria-label="Options"
              title="Options: keys, models, policies"
              onClick={() => openOptions()}
            >
              <Icon icon={Settings} />
            </button>
          ) : null}
          <button
            type="button"
            class="new-chat"
            aria-label="New chat"
            title="Start a new chat"
            onClick={() => {
              model.newChat();
              closeDrawer();
              messageBox.current?.focus();
            }}
          >
            <Icon icon={MessageSquarePlus} />
            {/* Hidden when the header is too narrow for it (side-panel.css): the icon, the name and the tooltip stay. */}
            <span class="new-chat-label">New chat</span>
          </button>
        </span>
      </header>
      {empty ? null : lockBar}
      <div class={`panel-body${wide ? ' wide' : ' narrow'}${listOpen ? ' list-open' : ''}`}>
        <aside
          id="baton-conversations"
          class="drawer"
          hidden={!listOpen}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !wide) {
              setListOpen(false);
              document.querySelector<HTMLElement>('.conversations-toggle')?.focus();
            }
          }}
        >
          <div class="drawer-head">
            <h2>Conversations</h2>
            {!wide ? (
              <button
                type="button"
                class="icon-button"
                aria-label="Close the conversations"
                onClick={() => setListOpen(false)}
              >
                <span aria-hidden="true">×</span>
              </button>
            ) : null}
          </div>
          <ConversationList
            conversations={s.conversations}
            currentId={s.currentId}
            onOpen={(id) => {
              closeDrawer();
              void model.open(id);
            }}
            search={search}
          />
        </aside>
        {listOpen && !wide ? <div class="drawer-scrim" aria-hidden="true" onClick={() => setListOpen(false)} /> : null}
        <div class="panel-main">
          {meta ? (
            <ChatHead
              meta={meta}
              busy={s.busy}
              onRename={(title) => model.rename(meta.id, title)}
              onPin={(pinned) => void model.pin(meta.id, pinned)}
              onDelete={() => model.remove(meta.id)}
              onCopyAll={() =>
                Promise.all([model.allTurns(), connector.request('getInstructions', { id: meta.id })]).then(
                  ([turns, { instructions }]) =>
                    copyText(conversationMarkdown(meta.title, turns, providers, instructions)),
                  () => false,
                )
              }
              onExport={(format) => void exporter.exportOne(meta.id, format)}
              exporting={ex.busy}
              exportError={ex.error}
            />
          ) : null}
          {firstRun || (locked && !meta) ? null : (
            <Instructions
              connector={connector}
              conversationId={s.currentId}
              target={model.sendTarget()}
              onCreated={(id) => void model.open(id, { keepTarget: true })}
              onSaved={() => setInstructionsVersion((v) => v + 1)}
            />
          )}
          <div class="chat-wrap">
            <main class="chat" data-lazy-render="" ref={(el) => void (follow.scroller.current = el)}>
              <CaptureNotice turns={s.hasEarlier && s.firstTurn ? [s.firstTurn, ...s.turns] : s.turns} />
              {activeSummary && s.currentId ? (
                <SummaryNotice
                  key={s.currentId}
                  summary={activeSummary}
                  text={summaryText}
                  onView={setSummaryOpen}
                  onStop={() =>
                    connector
                      .request('clearSummary', { conversationId: s.currentId! })
                      .then(() => setSummaryVersion((v) => v + 1))
                  }
                />
              ) : null}
              {empty ? lockBar : null}
              {s.loading ? (
                <p class="empty">Loading…</p>
              ) : empty ? (
                locked ? null : firstRun ? (
                  <FirstRun openOptions={openOptions} />
                ) : (
                  <EmptyChat
                    targetLabel={targetLabel}
                    onPrompt={startWith}
                    importStarter={<ImportEntry connector={connector} variant="starter" onImported={openImported} />}
                  />
                )
              ) : (
                <ChatView
                  turns={s.turns}
                  busy={s.busy}
                  providers={providers}
                  answerError={s.answerError}
                  canRetry={ready && !onDevice}
                  retryHint={
                    onDevice ? 'Not available with the on-device model yet: choose another provider' : undefined
                  }
                  onRetry={() => void model.retry()}
                  onRegenerate={() => void model.regenerate()}
                  onEditResend={(id, text) => void model.editResend(id, text)}
                  versions={s.versions}
                  onVersion={(id) => void model.showVersion(id)}
                  onDeleteVersion={(id) => void model.removeVersion(id)}
                  openOptions={openOptions}
                  hasEarlier={s.hasEarlier}
                  loadingEarlier={s.loadingEarlier}
                  onShowEarlier={() => {
                    follow.release();
                    void model.showEarlier();
                  }}
                  tail={
                    run && compareAfter
                      ? {
                          after: compareAfter,
                          node: (
                            <CompareView
                              run={run}
                              providers={providers}
                              busy={s.busy}
                              onContinue={(id) => void model.continueWith(id)}
                            />
                          ),
                        }
                      : undefined
                  }
                />
              )}
            </main>
            {follow.away ? (
              <button type="button" class="jump-latest" onClick={follow.jump}>
                <span aria-hidden="true">↓ </span>Jump to latest
              </button>
            ) : null}
          </div>
          <footer class="panel-foot">
            <p class="phase" role="status">
              {status}
            </p>
            {x.pendingDelete ? (
              <UndoToast text={`Deleted “${x.pendingDelete.title || 'Untitled'}”.`} onUndo={() => model.undoRemove()} />
            ) : null}
            {x.pendingVersionDelete ? (
              <UndoToast text="Deleted a version." onUndo={() => void model.undoRemoveVersion()} />
            ) : null}
            {s.error ? <ErrorNotice error={s.error} openOptions={openOptions} live /> : null}
            {firstRun ? null : (
              <TargetPicker
                providers={s.providers}
                target={s.target}
                models={s.models[s.target.providerId] ?? []}
                modelsAt={s.modelsAt[s.target.providerId]}
                modelsError={s.modelsError[s.target.providerId]}
                onProvider={(id) => model.setProvider(id)}
                onModel={(m, chosen) => model.setModel(m, chosen)}
                onWantModels={(refresh) => void model.loadModels(s.target.providerId, refresh)}
                onModelFocus={(focused) => model.modelFieldFocus(focused)}
                onThinking={(on) => model.setThinking(on)}
                onApi={(api) => model.setApi(api)}
                openOptions={openOptions}
                number={compareTargets.length > 0 ? 1 : undefined}
              />
            )}
            {/* Scrolls when the footer does not fit; the picker stays outside it so its model list is not clipped
                (the added targets' lists are the browser's own, drawn over the page). */}
            <div class="panel-foot-top">
              {firstRun || onDevice ? null : (
                <CompareTargets
                  providers={s.providers}
                  extra={cmp.extra}
                  models={s.models}
                  busy={s.busy}
                  onAdd={() => model.addTarget()}
                  onProvider={(i, id) => model.setExtraProvider(i, id)}
                  onModel={(i, m) => model.setExtraModel(i, m)}
                  onRemove={(i) => model.removeTarget(i)}
                />
              )}
              {s.providers.length > 0 && !ready ? <p class="hint">Choose a model to send.</p> : null}
              {onDevice ? (
                <p class="hint">Chrome's built-in model answers on this device: nothing is sent anywhere.</p>
              ) : null}
              <CompareDisclosure
                targets={compareTargets}
                previews={compare.previews}
                pending={compare.pending}
                providerNames={providerNames}
              />
              <DisclosureBar
                preview={disclosure.preview}
                providerName={targetName}
                excludeTurns={disclosure.excludeTurns}
                excludeBlocks={disclosure.excludeBlocks}
                replayImportedState={disclosure.replayImportedState}
                onReplayImportedState={disclosure.setReplayImportedState}
                staleExclusions={disclosure.staleExclusions}
                onToggleTurn={disclosure.toggleTurn}
                onToggleBlock={disclosure.toggleBlock}
                ledger={ledger}
                hasConversation={s.currentId !== undefined}
                onLedgerOpen={setLedgerOpen}
                providerNames={providerNames}
                stateful={delivery.stateful}
                onStateful={delivery.setStateful}
                policy={delivery.policy}
                onPolicy={delivery.save}
                onExactCount={disclosure.countExact}
                onSummarise={summaryDialog.start}
                onExpand={disclosure.setDetailed}
              />
            </div>
            <Composer
              draft={s.draft}
              busy={s.busy}
              ready={ready}
              onDraft={(t) => model.setDraft(t)}
              onSend={() => {
                // Sending follows the new message and its answer again (docs/side-panel.md).
                follow.jump();
                if (model.comparing() && !onDevice)
                  void model.sendCompare({
                    excludeTurns: disclosure.excludeTurns,
                    excludeBlocks: disclosure.excludeBlocks,
                    ...(disclosure.replayImportedState ? { replayImportedState: true } : {}),
                  });
                else {
                  model.closeCompare();
                  void disclosure.send();
                }
              }}
              onStop={() => void model.stop()}
              attachments={s.attachments}
              onFiles={(files) => void model.addFiles(files)}
              onRemoveAttachment={(id) => model.removeAttachment(id)}
              caps={model.currentCaps()}
              attachVerdict={model.attachmentVerdict()}
              attachNote={x.attachNote}
              inputRef={messageBox}
              attachExtras={pages ? <AddPageButton onAddPage={() => model.addPage(pages)} disabled={s.busy} /> : null}
            />
          </footer>
        </div>
      </div>
      {summaryDialog.open ? (
        <SummaryDialog
          dialog={summaryDialog}
          providers={providers}
          models={s.models}
          onWantModels={(id) => void model.loadModels(id)}
        />
      ) : cmp.confirming ? (
        // One confirmation per target that has not received this conversation (docs/disclosure.md).
        <DisclosureConfirm
          preview={cmp.confirming.preview}
          providerName={providerNames[cmp.confirming.target.providerId] ?? cmp.confirming.target.providerId}
          onConfirm={() => cmp.confirming?.answer(true)}
          onCancel={() => cmp.confirming?.answer(false)}
        />
      ) : disclosure.confirming ? (
        <DisclosureConfirm
          preview={disclosure.confirming}
          providerName={targetName}
          onConfirm={disclosure.confirm}
          onCancel={disclosure.cancel}
        />
      ) : s.pendingResend ? (
        // Retry, Regenerate or Edit refused until a first disclosure is confirmed (docs/disclosure.md).
        <DisclosureConfirm
          preview={s.pendingResend.preview}
          providerName={providerNames[s.pendingResend.target.providerId] ?? s.pendingResend.target.providerId}
          onConfirm={() => void model.confirmResend()}
          onCancel={() => model.cancelResend()}
        />
      ) : null}
    </div>
  );
}

/**
 * The last final event of an answer the panel applied ("turnId@seq"), or '' while that answer streams.
 * An answer's final event is broadcast after its turn is stored and the usage its provider
 * reported is recorded (docs/architecture.md, one send step 14): a panel that read the stored answer earlier (opening
 * or reloading the conversation) already has its final status, so only this event says that the
 * estimates are now corrected, and the previews (the line and each compare row) are asked again.
 */
function settledEvent(s: { turns: readonly Turn[]; streamSeq?: { turnId: string; seq: number } | undefined }): string {
  const at = s.streamSeq;
  if (!at) return '';
  return s.turns.find((t) => t.id === at.turnId)?.status === 'streaming' ? '' : `${at.turnId}@${at.seq}`;
}
