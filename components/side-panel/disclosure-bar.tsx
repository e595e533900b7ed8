/**
 * The line above the composer (docs/disclosure.md): what the next send discloses, to whom, at what cost.
 * Expanded, a sheet with tabs (docs/side-panel.md): *Turns* (each block's fate, toggles to leave turns or
 * blocks out of this send), *Request* (the exact JSON body, never a key), *Who has seen this*
 * and *Policy*.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  DisclosureLedger,
  DisclosurePolicy,
  DisclosurePreview,
  PreviewTurn,
} from '../../lib/messaging/disclosure-types';
import { ConversationPolicy } from './conversation-policy';
import {
  blockGroups,
  reasoningWarnings,
  staleExclusionsLine,
  summaryLine,
  toolsWithReasoningLine,
} from './disclosure-format';
import type { BlockRef } from './disclosure-hooks';
import { DisclosureLedgerView } from './disclosure-ledger';
import { ExactCount } from './exact-count';
import { instructionsChangeLine, InstructionsRow } from './instructions-preview';
import { droppedToFit } from '../../lib/ui/summary';
import './disclosure.css';

export interface DisclosureBarProps {
  preview: DisclosurePreview | undefined;
  /** The provider's display name ("Anthropic"). */
  providerName: string;
  excludeTurns: readonly string[];
  excludeBlocks: readonly BlockRef[];
  /** Left-out turns and blocks that no longer exist (dropped from the toggles), said in one line; undefined: none. */
  staleExclusions?: { turns: number; blocks: number } | undefined;
  onToggleTurn(id: string): void;
  onToggleBlock(ref: BlockRef): void;
  /** Whether the preview and the send replay provider state from an imported file (docs/security.md, "Hostile providers and files"). */
  replayImportedState?: boolean | undefined;
  /** Sets {@link replayImportedState}; undefined: the control is not offered. */
  onReplayImportedState?: ((on: boolean) => void) | undefined;
  /** The ledger, when "Who has seen this?" is open (undefined while loading or for a new chat). */
  ledger: DisclosureLedger | undefined;
  /** Whether this conversation exists yet (a new chat has no ledger). */
  hasConversation: boolean;
  onLedgerOpen(open: boolean): void;
  providerNames: Readonly<Record<string, string>>;
  /** The conversation lets a stateful target (OpenAI Responses) keep it server-side; undefined: not offered. */
  stateful?: boolean | undefined;
  onStateful?: ((on: boolean) => void) | undefined;
  /** The conversation's stored policy and its writer ("This conversation"); undefined: not offered. */
  policy?: DisclosurePolicy | undefined;
  onPolicy?: ((policy: DisclosurePolicy) => Promise<void>) | undefined;
  /** Asks the provider for an exact count of what it has already received (docs/disclosure.md); undefined: not offered. */
  onExactCount?: (() => Promise<void>) | undefined;
  /** Opens "summarise them instead" (docs/disclosure.md, "Fitting"); undefined: not offered. */
  onSummarise?: (() => void) | undefined;
  /** Called when the line expands or collapses (docs/architecture.md#long-conversations-and-speed: the details are asked for only when shown). */
  onExpand?: ((open: boolean) => void) | undefined;
}

/** "Provider state from an imported file on N turns is not sent" (or "is sent" once chosen). */
export function importedStateLine(s: { turns: number; replayed: boolean }): string {
  const turns = s.turns === 1 ? '1 turn' : `${s.turns} turns`;
  return `Provider state from an imported file on ${turns} is ${s.replayed ? 'sent' : 'not sent'}`;
}

/** The APIs a conversation may let keep it server-side (docs/disclosure.md, "Snapshot or delta"). */
const STATEFUL_TARGET_APIS: ReadonlySet<string> = new Set(['openai-responses', 'gemini-interactions']);

const ROLE: Record<string, string> = { user: 'You', assistant: 'Answer', tool: 'Tool result' };

/** The sheet's tabs (docs/side-panel.md), in order. */
type SheetTab = 'turns' | 'request' | 'ledger' | 'policy';
const TAB_NAME: Record<SheetTab, string> = {
  turns: 'Turns',
  request: 'Request',
  ledger: 'Who has seen this',
  policy: 'Policy',
};

/**
 * The one line above the composer and, expanded, a sheet with tabs (*Turns*, *Request*, *Who
 * has seen this*, *Policy*; docs/side-panel.md). The sheet rises above the line and shrinks before the chat
 * does (layout in side-panel.css), so the chat, the newest turn and the composer stay in view,
 * and the tab clicked is what the sheet shows.
 */
export function DisclosureBar(p: DisclosureBarProps) {
  const [open, setOpen] = useState(false);
  const section = useRef<HTMLElement>(null);
  // Opened in a footer too short for it (the part above the composer scrolls), the sheet and its line
  // are brought into view; `scrollIntoView` is absent where there is no layout (unit tests).
  useEffect(() => {
    if (open) section.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open]);
  const [tab, setTab] = useState<SheetTab>('turns');
  const { preview } = p;
  if (!preview) return null;
  const line = summaryLine(preview, p.providerName);
  const warn = !preview.allowed || !preview.fits;
  const stale = staleExclusionsLine(p.staleExclusions);
  const hasPolicy =
    p.hasConversation &&
    (p.onPolicy !== undefined || (p.onStateful !== undefined && preview.target.api === 'openai-responses'));
  const tabs: SheetTab[] = [
    'turns',
    'request',
    ...(p.hasConversation ? (['ledger'] as const) : []),
    ...(hasPolicy ? (['policy'] as const) : []),
  ];
  const shown = tabs.includes(tab) ? tab : 'turns';
  const toggle = (next: boolean) => {
    setOpen(next);
    p.onExpand?.(next);
    if (!next && shown === 'ledger') p.onLedgerOpen(false);
  };
  const choose = (t: SheetTab) => {
    setTab(t);
    p.onLedgerOpen(t === 'ledger');
  };
  const warnings = reasoningWarnings(preview);
  const toolsLine = toolsWithReasoningLine(preview);
  const instructionsLine = instructionsChangeLine(preview, p.providerName);
  return (
    <section ref={section} class={`disclosure${open ? ' open' : ''}`} aria-label="Disclosure">
      <button
        type="button"
        class={`disclosure-line${warn ? ' warn' : ''}`}
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="baton-disclosure-details"
        title={`${line}\nWhat this send discloses: show the details`}
        onClick={() => toggle(!open)}
      >
        <span aria-hidden="true" class="disclosure-caret">
          {open ? '▾' : '▴'}
        </span>
        <span data-disclosure-summary="">{line}</span>
      </button>
      {p.onSummarise && p.hasConversation && droppedToFit(preview) > 0 ? (
        <p class="disclosure-fit" data-summary-offer="">
          <span>
            {droppedToFit(preview) === 1 ? 'The oldest turn is' : `The oldest ${droppedToFit(preview)} turns are`}{' '}
            dropped to fit (the default).
          </span>{' '}
          <button type="button" class="mini" aria-haspopup="dialog" onClick={p.onSummarise}>
            Summarise them instead…
          </button>
        </p>
      ) : null}
      {warnings.length > 0 ? (
        <ul class="hint" aria-label="Reasoning not used" data-reasoning-warnings="">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {instructionsLine ? (
        <p class="hint" data-instructions-change="">
          {instructionsLine}
        </p>
      ) : null}
      {toolsLine ? (
        <p class="hint" data-tools-with-reasoning="">
          {toolsLine}
        </p>
      ) : null}
      {preview.importedState && p.onReplayImportedState ? (
        // docs/security.md ("Hostile providers and files"): an imported file's provider state is sent only when chosen here.
        <p class="hint" data-imported-state="">
          <span>{importedStateLine(preview.importedState)}</span>{' '}
          <label>
            <input
              type="checkbox"
              checked={p.replayImportedState === true}
              onChange={(e) => p.onReplayImportedState?.((e.currentTarget as HTMLInputElement).checked)}
            />{' '}
            Send provider state from the imported file
          </label>
        </p>
      ) : null}
      {stale ? (
        <p class="hint" role="status" data-disclosure-stale="">
          {stale}
        </p>
      ) : null}
      {open ? (
        <div
          id="baton-disclosure-details"
          class="disclosure-sheet"
          role="region"
          aria-label="What this send discloses"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              toggle(false);
            }
          }}
        >
          <div class="sheet-tabs">
            <div role="tablist" aria-label="Disclosure details">
              {tabs.map((t) => (
                <button
                  key={t}
                  type="button"
                  role="tab"
                  id={`baton-disclosure-tab-${t}`}
                  aria-selected={shown === t ? 'true' : 'false'}
                  aria-controls="baton-disclosure-panel"
                  tabIndex={shown === t ? 0 : -1}
                  onClick={() => choose(t)}
                  onKeyDown={(e) => {
                    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
                    const next =
                      tabs[(tabs.indexOf(t) + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
                    choose(next);
                    document.getElementById(`baton-disclosure-tab-${next}`)?.focus();
                  }}
                >
                  {TAB_NAME[t]}
                </button>
              ))}
            </div>
            <button type="button" class="mini sheet-close" aria-label="Close the details" onClick={() => toggle(false)}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <div
            id="baton-disclosure-panel"
            class="sheet-panel"
            role="tabpanel"
            aria-labelledby={`baton-disclosure-tab-${shown}`}
            tabIndex={0}
          >
            {shown === 'turns' ? (
              <>
                <p class="hint">
                  {preview.delivery.mode === 'delta'
                    ? `Delta: ${preview.delivery.detail}. `
                    : preview.delivery.stateful
                      ? `Whole history, not only new turns: ${preview.delivery.detail}. `
                      : ''}
                  Window {preview.contextWindow.toLocaleString('en')} tokens,{' '}
                  {preview.maxOutputTokens.toLocaleString('en')} kept for the answer
                  {preview.notFit ? `. ${preview.notFit}` : ''}.
                </p>
                {p.hasConversation && p.onExactCount ? (
                  <ExactCount preview={preview} providerName={p.providerName} onCount={p.onExactCount} />
                ) : null}
                <InstructionsRow preview={preview} />
                {preview.countsOnly ? (
                  <p class="hint" role="status">
                    Loading the turns…
                  </p>
                ) : (
                  <ul class="disclosure-turns" aria-label="Turns in this send">
                    {preview.perTurn.map((t, i) => (
                      <TurnRow key={t.id} turn={t} n={i + 1} {...p} />
                    ))}
                  </ul>
                )}
              </>
            ) : shown === 'request' ? (
              preview.countsOnly ? (
                <p class="hint" role="status">
                  Loading the request…
                </p>
              ) : (
                <>
                  <p class="hint">The exact body sent to {p.providerName} (the key is never part of it).</p>
                  <pre class="disclosure-body" aria-label="Request body" tabIndex={0}>
                    {JSON.stringify(preview.body, null, 2)}
                  </pre>
                </>
              )
            ) : shown === 'ledger' ? (
              <DisclosureLedgerView ledger={p.ledger} turns={preview.perTurn} providerNames={p.providerNames} />
            ) : (
              <>
                {p.onStateful && STATEFUL_TARGET_APIS.has(preview.target.api) ? (
                  <label class="disclosure-stateful">
                    <input
                      type="checkbox"
                      checked={p.stateful === true}
                      onChange={(e) => p.onStateful?.(e.currentTarget.checked)}
                    />
                    <span>
                      Let {p.providerName} store this conversation and send only new turns (off: the whole bounded
                      history every time)
                    </span>
                  </label>
                ) : null}
                {p.onPolicy ? (
                  <ConversationPolicy
                    policy={p.policy}
                    targetProviderId={preview.target.providerId}
                    providerNames={p.providerNames}
                    onSave={p.onPolicy}
                    initiallyOpen
                  />
                ) : null}
              </>
            )}
          </div>
        </div>
      ) : null}
    </section>
  );
}

function TurnRow({
  turn,
  n,
  excludeTurns,
  excludeBlocks,
  onToggleTurn,
  onToggleBlock,
}: DisclosureBarProps & { turn: PreviewTurn; n: number }) {
  const excluded = excludeTurns.includes(turn.id);
  const label = `${n}. ${turn.draft ? 'Your new message' : turn.summary ? `Summary by ${turn.summary.by.model}` : (ROLE[turn.role] ?? turn.role)}`;
  return (
    <li data-disclosure-turn={turn.id} data-included={turn.included ? 'true' : 'false'}>
      <label class="disclosure-turn">
        <input
          type="checkbox"
          checked={!excluded && turn.summarised !== true}
          disabled={turn.draft === true || turn.summarised === true}
          onChange={() => onToggleTurn(turn.id)}
          aria-label={`Send turn ${n} (${label.slice(label.indexOf(' ') + 1)})`}
        />
        <span class="disclosure-turn-label">
          <strong>{label}</strong>{' '}
          <span class="hint">{turn.included ? `~${turn.tokens} tokens` : (turn.droppedReason ?? 'not sent')}</span>
          <span class="disclosure-preview-text">{turn.preview}</span>
        </span>
      </label>
      {turn.blocks.length > 1 || turn.blocks.some((b) => b.fate !== 'kept' || b.type === 'document') ? (
        <ul class="disclosure-blocks">
          {blockGroups(turn.blocks).map(({ blocks, line }) => {
            // One line per run of blocks with the same fate (docs/side-panel.md); its box sends or leaves out the whole run.
            const isOff = (b: { index: number }) =>
              excludeBlocks.some((x) => x.turn === turn.id && x.index === b.index);
            const off = blocks.every(isOff);
            const first = blocks[0]!.index + 1;
            const last = blocks[blocks.length - 1]!.index + 1;
            return (
              <li key={blocks[0]!.index} data-fate={blocks[0]!.fate}>
                <label>
                  <input
                    type="checkbox"
                    checked={!off}
                    disabled={excluded || turn.draft === true || turn.summarised === true}
                    onChange={() => {
                      for (const b of blocks) if (isOff(b) === off) onToggleBlock({ turn: turn.id, index: b.index });
                    }}
                    aria-label={
                      first === last ? `Send block ${first} of turn ${n}` : `Send blocks ${first}–${last} of turn ${n}`
                    }
                  />
                  <span>{line}</span>
                </label>
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}
