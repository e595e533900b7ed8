import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ProtocolError, ProviderStatus } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { copyText } from '../../lib/ui/clipboard';
import { interruptionError, turnError } from '../../lib/ui/error-text';
import { turnMarkdown } from '../../lib/ui/export-markdown';
import { hasVisibleContent } from '../../lib/ui/finish';
import { originLabel, providerSwitches, retryOffer, toolCallIndex, type RetryOffer } from '../../lib/ui/turns';
import { EarlierTurns, useKeepScrollOnPrepend } from './earlier-turns';
import { ErrorNotice } from './error-notice';
import { switchDisplayNames } from '../../lib/ui/model-names';
import { toolCallIds, toolResultIndex } from './tool-group';
import { PureTurnView, type TurnAction, type VersionInfo } from './turn-view';

export interface ChatViewProps {
  turns: readonly Turn[];
  busy: boolean;
  providers: readonly ProviderStatus[];
  /** The last answer's failure as reported live (has `retryAfterSec`), else read from the turn. */
  answerError?: ProtocolError | undefined;
  /** Retry is possible (a provider and a model are chosen). */
  canRetry: boolean;
  /** Why Retry is not possible (shown on the disabled button). */
  retryHint?: string | undefined;
  onRetry(): void;
  /** Answers the last user message again; the new answer is a new version beside the last one. */
  onRegenerate?: (() => void) | undefined;
  /** Sends `text` as a new version of user message `turnId` (any of them), starting a branch there. */
  onEditResend?: ((turnId: string, text: string) => void) | undefined;
  /** The shown turns with several versions, by turn id (docs/transcript.md#versions-and-branches). */
  versions?: Readonly<Record<string, VersionInfo>> | undefined;
  /** Shows another version of a turn (its turn id). */
  onVersion?: ((turnId: string) => void) | undefined;
  /** Deletes one version of a turn (with undo). */
  onDeleteVersion?: ((turnId: string) => void) | undefined;
  openOptions?: (() => void) | undefined;
  /** `turns` is the newest part of a longer conversation (docs/architecture.md#long-conversations-and-speed): offer "Show earlier turns". */
  hasEarlier?: boolean | undefined;
  /** The previous page is loading. */
  loadingEarlier?: boolean | undefined;
  /** Loads the previous page of turns (put in front of `turns`; the scroll position is kept). */
  onShowEarlier?: (() => void) | undefined;
  /**
   * Shown in place of the turns after turn `after` (the answers of a message sent to several
   * models, docs/side-panel.md#ask-several-models-at-once); no retry offer meanwhile.
   */
  tail?: { after: string; node: ComponentChildren } | undefined;
}

/** Which actions each message offers. */
function actionsFor(t: Turn, i: number, turns: readonly Turn[], busy: boolean, canRetry: boolean): TurnAction[] {
  const out: TurnAction[] = [];
  if (t.role !== 'tool' && hasVisibleContent(t) && t.blocks.some((b) => b.type === 'text')) out.push('copy');
  // Any user message can be edited: the edit is a new version of it (docs/transcript.md#versions-and-branches).
  if (!busy && t.role === 'user' && t.blocks.some((b) => b.type === 'text') && canRetry) out.push('edit');
  if (
    !busy &&
    canRetry &&
    i === turns.length - 1 &&
    t.role === 'assistant' &&
    (t.status === undefined || t.status === 'complete')
  )
    out.push('regenerate');
  return out;
}

/** The turns of the open conversation, with provider-switch markers, message actions and the retry offer. */
export function ChatView(props: ChatViewProps) {
  const cut = props.tail ? props.turns.findIndex((t) => t.id === props.tail!.after) : -1;
  const p = cut >= 0 ? { ...props, turns: props.turns.slice(0, cut + 1) } : props;
  const [editing, setEditing] = useState<{ id: string; text: string } | undefined>(undefined);
  const [flash, setFlash] = useState<{ id: string; text: string } | undefined>(undefined);
  const flashTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(flashTimer.current), []);

  const switches = useMemo(() => providerSwitches(p.turns), [p.turns]);
  const calls = useMemo(() => {
    const out = new Map<string, { name: string; from?: string }>();
    for (const [id, c] of toolCallIndex(p.turns))
      out.set(id, { name: c.name, ...(c.origin ? { from: originLabel(c.origin, p.providers) } : {}) });
    return out;
  }, [p.turns, p.providers]);
  // Tool results are shown under their calls (docs/side-panel.md); a tool turn whose every call is shown folds away.
  const results = useMemo(() => toolResultIndex(p.turns), [p.turns]);
  const callIds = useMemo(() => toolCallIds(p.turns), [p.turns]);
  const keepScroll = useKeepScrollOnPrepend(p.turns[0]?.id);
  if (p.turns.length === 0) return <p class="empty">Write a message below to start.</p>;

  const offer = retryOffer(p.turns, p.busy);
  const lastId = p.turns[p.turns.length - 1]!.id;

  const onAction = (a: TurnAction, t: Turn) => {
    if (a === 'copy') {
      void copyText(turnMarkdown(t)).then((ok) => {
        setFlash({ id: t.id, text: ok ? 'Copied' : 'Copy failed' });
        clearTimeout(flashTimer.current);
        flashTimer.current = setTimeout(() => setFlash(undefined), 1500);
      });
    } else if (a === 'edit') {
      setEditing({ id: t.id, text: t.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n') });
    } else if (a === 'regenerate') p.onRegenerate?.();
  };

  return (
    <>
      {p.hasEarlier && p.onShowEarlier ? (
        <EarlierTurns
          loading={p.loadingEarlier === true}
          onShow={(button) => {
            keepScroll(button);
            p.onShowEarlier?.();
          }}
        />
      ) : null}
      <ol class="turns" aria-label="Chat">
        {p.turns.map((t, i) => {
          const prev = switches.get(t.id);
          return (
            <li key={t.id}>
              {prev && t.origin ? (
                <p class="provider-switch" data-provider-switch="">
                  Switched from {switchDisplayNames(prev, t.origin, p.providers).join(' to ')}
                </p>
              ) : null}
              {editing?.id === t.id && !p.busy ? (
                <EditBox
                  turn={t}
                  text={editing.text}
                  onText={(text) => setEditing({ id: t.id, text })}
                  onCancel={() => setEditing(undefined)}
                  onSave={() => {
                    const text = editing.text;
                    setEditing(undefined);
                    p.onEditResend?.(t.id, text);
                  }}
                />
              ) : (
                <PureTurnView
                  turn={t}
                  providers={p.providers}
                  showError={t.id !== lastId}
                  calls={t.role === 'tool' ? calls : undefined}
                  results={
                    t.role === 'assistant'
                      ? t.blocks.flatMap((b) => (b.type === 'tool_call' ? [results.get(b.id)] : []))
                      : undefined
                  }
                  folded={
                    t.role === 'tool' &&
                    t.blocks.length > 0 &&
                    t.blocks.every((b) => b.type === 'tool_result' && callIds.has(b.callId))
                  }
                  actions={actionsFor(t, i, p.turns, p.busy, p.canRetry && !!p.onEditResend)}
                  onAction={onAction}
                  flash={flash?.id === t.id ? flash.text : undefined}
                  versions={p.versions?.[t.id]}
                  onVersion={p.busy ? undefined : p.onVersion}
                  onDeleteVersion={p.busy ? undefined : p.onDeleteVersion}
                />
              )}
            </li>
          );
        })}
      </ol>
      {cut >= 0 ? p.tail!.node : offer.kind === 'retry' ? <RetryBar offer={offer} {...p} /> : null}
    </>
  );
}

function EditBox({
  turn,
  text,
  onText,
  onSave,
  onCancel,
}: {
  turn: Turn;
  text: string;
  onText(t: string): void;
  onSave(): void;
  onCancel(): void;
}) {
  const attached = turn.blocks.filter((b) => b.type === 'image' || b.type === 'document').length;
  return (
    <div class="turn turn-user turn-editing" data-turn-id={turn.id} data-editing="">
      <textarea
        aria-label="Edit message"
        rows={4}
        value={text}
        ref={(el) => el?.focus()}
        onInput={(e) => onText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            if (text.trim()) onSave();
          }
        }}
      />
      {attached ? (
        <p class="hint">
          {attached === 1 ? 'The attachment is sent again.' : `The ${attached} attachments are sent again.`}
        </p>
      ) : null}
      <p class="hint">This becomes a new version of the message; the earlier one and its answers stay.</p>
      <div class="composer-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="primary" disabled={!text.trim()} onClick={onSave}>
          Save and resend
        </button>
      </div>
    </div>
  );
}

function RetryBar({
  offer,
  answerError,
  canRetry,
  retryHint,
  onRetry,
  openOptions,
}: ChatViewProps & { offer: Extract<RetryOffer, { kind: 'retry' }> }) {
  const why = offer.reason === 'interrupted' && offer.turn ? (answerError ?? interruptionError(offer.turn)) : undefined;
  return (
    <div class="retry-bar" data-retry-reason={offer.reason}>
      {offer.reason === 'error' && offer.turn ? (
        <ErrorNotice error={answerError ?? turnError(offer.turn)} openOptions={openOptions} live />
      ) : (
        <div class="retry-text">
          <p role="status">
            {offer.reason === 'interrupted'
              ? 'Response interrupted.'
              : offer.reason === 'stopped'
                ? 'Response interrupted: you stopped it.'
                : offer.reason === 'not_sent'
                  ? 'The selection is ready: nothing has been sent yet.'
                  : 'No answer was received.'}
          </p>
          {why ? <ErrorNotice error={why} openOptions={openOptions} /> : null}
        </div>
      )}
      <button
        type="button"
        onClick={onRetry}
        disabled={!canRetry}
        title={canRetry ? undefined : (retryHint ?? 'Choose a provider and a model first')}
      >
        {offer.reason === 'not_sent' ? 'Send selection' : 'Retry'}
      </button>
    </div>
  );
}
