import { Component } from 'preact';
import type { ConversationView, ProviderStatus } from '../../lib/messaging/protocol';
import type { Block, ToolCallBlock, ToolResultBlock, Turn } from '../../lib/transcript/schema';
import { turnError } from '../../lib/ui/error-text';
import { finishState, hasVisibleContent } from '../../lib/ui/finish';
import { originDisplayName } from '../../lib/ui/model-names';
import { BlockView } from './block-view';
import { ErrorNotice } from './error-notice';
import { ToolGroup } from './tool-group';
import './turns.css';

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
  /** For assistant turns: the result of each of its tool calls, in call order (undefined: none seen). */
  results?: readonly (ToolResultBlock | undefined)[] | undefined;
  /** A tool turn whose every result is shown under its call (in the assistant turn): rendered hidden. */
  folded?: boolean | undefined;
  /** Buttons to show on this message. */
  actions?: readonly TurnAction[];
  onAction?: ((action: TurnAction, turn: Turn) => void) | undefined;
  /** A label of the last action's effect (e.g. "Copied"), shown next to the buttons. */
  flash?: string | undefined;
  /** Where this turn stands among its versions, when it has several (docs/transcript.md#versions-and-branches). */
  versions?: VersionInfo | undefined;
  /** Shows another version of this turn (a sibling turn id); undefined: switching is not possible now. */
  onVersion?: ((turnId: string) => void) | undefined;
  /** Deletes this version (with undo); undefined: not possible now. */
  onDeleteVersion?: ((turnId: string) => void) | undefined;
}

/** A turn's place among its versions: 1-based `index` of `count`, and the sibling ids either side. */
export type VersionInfo = NonNullable<ConversationView['versions']>[string];

/** "Previous version", "n / m", "Next version" (and "Delete this version") on a turn with several versions. */
export function VersionNav({
  turnId,
  v,
  onVersion,
  onDelete,
}: {
  turnId: string;
  v: VersionInfo;
  onVersion?: ((turnId: string) => void) | undefined;
  onDelete?: ((turnId: string) => void) | undefined;
}) {
  return (
    <span class="turn-versions" role="group" aria-label="Versions" data-versions={`${v.index}/${v.count}`}>
      <VersionStep name="Previous version" to={v.previous} onVersion={onVersion} mark="‹" />
      <span class="turn-version-label">
        {v.index} / {v.count}
      </span>
      <VersionStep name="Next version" to={v.next} onVersion={onVersion} mark="›" />
      {onDelete ? (
        <button
          type="button"
          class="mini"
          aria-label="Delete this version"
          title="Delete this version"
          onClick={() => onDelete(turnId)}
        >
          ×
        </button>
      ) : null}
    </span>
  );
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
const ACTION_NAME: Record<TurnAction, string> = {
  copy: 'Copy message',
  edit: 'Edit and resend',
  regenerate: 'Regenerate answer',
};

type Thinking = Extract<Block, { type: 'thinking' | 'redacted_thinking' }>;
/** A turn's body: its blocks in order, with all thinking in one section and all tool calls in one group, each where the first one was. */
type Part =
  | { kind: 'block'; block: Block; index: number }
  | { kind: 'thinking'; blocks: Thinking[]; last: number }
  | { kind: 'tools'; calls: ToolCallBlock[] };

function partsOf(blocks: readonly Block[]): Part[] {
  const parts: Part[] = [];
  let thinking: Extract<Part, { kind: 'thinking' }> | undefined;
  let tools: Extract<Part, { kind: 'tools' }> | undefined;
  blocks.forEach((b, i) => {
    if (b.type === 'thinking' || b.type === 'redacted_thinking') {
      if (!thinking) parts.push((thinking = { kind: 'thinking', blocks: [], last: i }));
      thinking.blocks.push(b);
      thinking.last = i;
    } else if (b.type === 'tool_call') {
      if (!tools) parts.push((tools = { kind: 'tools', calls: [] }));
      tools.calls.push(b);
    } else parts.push({ kind: 'block', block: b, index: i });
  });
  return parts;
}

/** Several thinking blocks of one turn as one "Thinking" section. */
function ThinkingSection({ blocks, active }: { blocks: Thinking[]; active: boolean }) {
  const shown = blocks.filter((b): b is Extract<Thinking, { type: 'thinking' }> => b.type === 'thinking');
  const redacted = blocks.length - shown.length;
  const label = active ? 'Thinking…' : shown.length ? 'Thinking' : 'Thinking, redacted';
  return (
    <details class="block-thinking" data-block={shown.length ? 'thinking' : 'redacted_thinking'}>
      <summary>{label}</summary>
      <div class="block-text">
        {shown
          .map((b) => b.text)
          .filter(Boolean)
          .join('\n\n') || (shown.length ? '(the provider did not show this reasoning)' : '')}
        {redacted
          ? `${shown.length ? '\n\n' : ''}${redacted === 1 ? 'One part of' : `${redacted} parts of`} this reasoning the provider keeps encrypted.`
          : ''}
      </div>
    </details>
  );
}

/** One turn: its role, which model produced it (once, in words), its blocks, any unusual finish (P4) and its actions. */
export function TurnView({
  turn,
  providers,
  showError,
  calls,
  results,
  folded,
  actions = [],
  onAction,
  flash,
  versions,
  onVersion,
  onDeleteVersion,
}: TurnViewProps) {
  const from = turn.origin ? originDisplayName(turn.origin, providers) : undefined;
  const finish = finishState(turn);
  const note = finish ? undefined : emptyNote(turn);
  const lastBlock = turn.blocks.length - 1;
  const streaming = turn.status === 'streaming';
  if (folded)
    return (
      <article
        class={`turn turn-${turn.role}`}
        data-turn-id={turn.id}
        data-role={turn.role}
        data-status={turn.status ?? 'complete'}
        data-folded=""
        hidden
      />
    );
  const parts = partsOf(turn.blocks);
  let callIndex = 0;
  return (
    <article
      class={`turn turn-${turn.role}`}
      data-turn-id={turn.id}
      data-role={turn.role}
      data-status={turn.status ?? 'complete'}
    >
      <header class="turn-head">
        {turn.role === 'assistant' && from ? (
          <>
            <span class="visually-hidden">Assistant, </span>
            <span class="turn-origin" title={turn.origin?.model}>
              {from}
            </span>
          </>
        ) : (
          <span class="turn-role">{ROLE_LABEL[turn.role]}</span>
        )}
        {versions ? (
          <VersionNav turnId={turn.id} v={versions} onVersion={onVersion} onDelete={onDeleteVersion} />
        ) : null}
        {actions.length ? (
          <span class="turn-actions">
            {flash ? (
              <span class="turn-flash" role="status">
                {flash}
              </span>
            ) : null}
            {actions.map((a) => (
              <button
                key={a}
                type="button"
                class="mini"
                aria-label={ACTION_NAME[a]}
                title={ACTION_NAME[a]}
                onClick={() => onAction?.(a, turn)}
              >
                {ACTION_LABEL[a]}
              </button>
            ))}
          </span>
        ) : null}
      </header>
      {parts.map((p, k) => {
        if (p.kind === 'thinking')
          return <ThinkingSection key={`t${k}`} blocks={p.blocks} active={streaming && p.last === lastBlock} />;
        if (p.kind === 'tools') {
          const first = callIndex;
          callIndex += p.calls.length;
          return (
            <ToolGroup
              key={`g${k}`}
              calls={p.calls}
              results={p.calls.map((_, j) => results?.[first + j])}
              streaming={streaming}
            />
          );
        }
        return (
          <BlockView
            key={p.index}
            block={p.block}
            role={turn.role}
            markdown={turn.role !== 'tool'}
            streaming={streaming && p.index === lastBlock}
            call={p.block.type === 'tool_result' ? calls?.get(p.block.callId) : undefined}
          />
        );
      })}
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

const sameItems = <T,>(a: readonly T[] | undefined, b: readonly T[] | undefined) =>
  a === b || (!!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]));

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
      JSON.stringify(next.versions) !== JSON.stringify(p.versions) ||
      !next.onVersion !== !p.onVersion ||
      !next.onDeleteVersion !== !p.onDeleteVersion ||
      next.folded !== p.folded ||
      !sameItems(next.results, p.results) ||
      (next.actions ?? []).join() !== (p.actions ?? []).join() ||
      (next.turn.role === 'tool' && next.calls !== p.calls)
    );
  }

  override render() {
    const { onVersion, onDeleteVersion } = this.props;
    return (
      <TurnView
        {...this.props}
        onAction={(a, t) => this.props.onAction?.(a, t)}
        onVersion={onVersion ? (id) => this.props.onVersion?.(id) : undefined}
        onDeleteVersion={onDeleteVersion ? (id) => this.props.onDeleteVersion?.(id) : undefined}
      />
    );
  }
}

/** One step between versions (named `name`); disabled when there is no version that way (`to`). */
function VersionStep({
  name,
  to,
  onVersion,
  mark,
}: {
  name: string;
  to: string | undefined;
  onVersion?: ((turnId: string) => void) | undefined;
  mark: string;
}) {
  return (
    <button
      type="button"
      class="mini"
      aria-label={name}
      title={name}
      disabled={!to || !onVersion}
      onClick={() => to && onVersion?.(to)}
    >
      {mark}
    </button>
  );
}
