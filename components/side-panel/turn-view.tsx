import { Component } from 'preact';
import type { ProviderStatus } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { turnError } from '../../lib/ui/error-text';
import { finishState, hasVisibleContent } from '../../lib/ui/finish';
import { originLabel } from '../../lib/ui/turns';
import { BlockView } from './block-view';
import { ErrorNotice } from './error-notice';

const ROLE_LABEL: Record<Turn['role'], string> = { user: 'You', assistant: 'Assistant', tool: 'Tool' };

/** What a message offers besides its content. */
export type TurnAction = 'copy' | 'edit' | 'regenerate';

export interface TurnViewProps {
  turn: Turn;
  providers: readonly ProviderStatus[];
  /** Show the turn's own error (false for the last turn, whose error the retry bar shows). */
  showError: boolean;
  /** For tool turns: each call id's tool name and who called it. */
  calls?: ReadonlyMap<string, { name: string; from?: string | undefined }> | undefined;
  /** Buttons to show on this message. */
  actions?: readonly TurnAction[];
  onAction?: ((action: TurnAction, turn: Turn) => void) | undefined;
  /** A label of the last action's effect (e.g. "Copied"), shown next to the buttons. */
  flash?: string | undefined;
}

/** A line for an answer that has no content of its own, so a bubble is never empty. */
function emptyNote(turn: Turn): string | undefined {
  if (turn.role !== 'assistant' || hasVisibleContent(turn)) return undefined;
  switch (turn.status) {
    case 'streaming':
      return 'Waiting for the first words…';
    case 'error':
      return 'No answer was written.';
    case 'stopped':
      return 'Stopped before any text arrived.';
    case 'interrupted':
      return 'Interrupted before any text arrived.';
    default:
      return undefined;
  }
}

const ACTION_LABEL: Record<TurnAction, string> = { copy: 'Copy', edit: 'Edit', regenerate: 'Regenerate' };
const ACTION_NAME: Record<TurnAction, string> = { copy: 'Copy message', edit: 'Edit and resend', regenerate: 'Regenerate answer' };

/** One turn: its role, which model produced it, its blocks, any unusual finish (P4) and its actions. */
export function TurnView({ turn, providers, showError, calls, actions = [], onAction, flash }: TurnViewProps) {
  const from = turn.origin ? originLabel(turn.origin, providers) : undefined;
  const finish = finishState(turn);
  const note = finish ? undefined : emptyNote(turn);
  const lastBlock = turn.blocks.length - 1;
  return (
    <article class={`turn turn-${turn.role}`} data-turn-id={turn.id} data-role={turn.role} data-status={turn.status ?? 'complete'}>
      <header class="turn-head">
        <span class="turn-role">{ROLE_LABEL[turn.role]}</span>
        {from ? <span class="turn-origin">{from}</span> : null}
        {actions.length ? (
          <span class="turn-actions">
            {flash ? (
              <span class="turn-flash" role="status">
                {flash}
              </span>
            ) : null}
            {actions.map((a) => (
              <button key={a} type="button" class="mini" aria-label={ACTION_NAME[a]} title={ACTION_NAME[a]} onClick={() => onAction?.(a, turn)}>
                {ACTION_LABEL[a]}
              </button>
            ))}
          </span>
        ) : null}
      </header>
      {turn.blocks.map((b, i) => (
        <BlockView
          key={i}
          block={b}
          from={b.type === 'text' ? undefined : from}
          markdown={turn.role === 'assistant'}
          streaming={turn.status === 'streaming' && i === lastBlock}
          call={b.type === 'tool_result' ? calls?.get(b.callId) : undefined}
        />
      ))}
      {note ? <p class="turn-note">{note}</p> : null}
      {finish ? (
        <p class={`finish-state finish-${finish.kind}`} data-finish={finish.kind} data-raw-stop-reason={finish.raw}>
          <strong class="finish-label">{finish.label}.</strong> {finish.sentence}
        </p>
      ) : null}
      {showError && turn.status === 'error' ? <ErrorNotice error={turnError(turn)} /> : null}
    </article>
  );
}

/**
 * {@link TurnView} that re-renders only when its own data changed. While an answer streams, the
 * turns array changes on every chunk, but only the streaming turn's object is new: the others are
 * skipped, so a chunk's cost does not grow with the conversation. (`onAction` is read at click
 * time, so a newer callback needs no re-render.)
 */
export class PureTurnView extends Component<TurnViewProps> {
  override shouldComponentUpdate(next: TurnViewProps): boolean {
    const p = this.props;
    return (
      next.turn !== p.turn ||
      next.providers !== p.providers ||
      next.showError !== p.showError ||
      next.flash !== p.flash ||
      (next.actions ?? []).join() !== (p.actions ?? []).join() ||
      (next.turn.role === 'tool' && next.calls !== p.calls)
    );
  }

  override render() {
    return <TurnView {...this.props} onAction={(a, t) => this.props.onAction?.(a, t)} />;
  }
}
