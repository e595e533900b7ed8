import type { ProviderStatus } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { turnError } from '../../lib/ui/error-text';
import { finishNote, originLabel } from '../../lib/ui/turns';
import { BlockView } from './block-view';
import { ErrorNotice } from './error-notice';

const ROLE_LABEL: Record<Turn['role'], string> = { user: 'You', assistant: 'Assistant', tool: 'Tool' };

export interface TurnViewProps {
  turn: Turn;
  providers: readonly ProviderStatus[];
  /** Show the turn's own error (false for the last turn, whose error the retry bar shows). */
  showError: boolean;
}

/** One turn: its role, which model produced it, its blocks and any unusual finish (P4). */
export function TurnView({ turn, providers, showError }: TurnViewProps) {
  const from = turn.origin ? originLabel(turn.origin, providers) : undefined;
  const note = finishNote(turn);
  return (
    <article class={`turn turn-${turn.role}`} data-turn-id={turn.id} data-role={turn.role} data-status={turn.status ?? 'complete'}>
      <header class="turn-head">
        <span class="turn-role">{ROLE_LABEL[turn.role]}</span>
        {from ? <span class="turn-origin">{from}</span> : null}
      </header>
      {turn.blocks.map((b, i) => (
        <BlockView
          key={i}
          block={b}
          from={b.type === 'text' ? undefined : from}
          markdown={turn.role === 'assistant'}
          streaming={turn.status === 'streaming' && i === turn.blocks.length - 1}
        />
      ))}
      {turn.status === 'streaming' && turn.blocks.length === 0 ? <p class="turn-note">Waiting for the first words…</p> : null}
      {note ? <p class="turn-note">{note}</p> : null}
      {showError && turn.status === 'error' ? <ErrorNotice error={turnError(turn)} /> : null}
    </article>
  );
}
