/**
 * Ask several models at once (docs/side-panel.md#ask-several-models-at-once), before the send: what
 * each target will receive, one compact row per target — its turns, estimated tokens and cost, and
 * a mark where it would be a first disclosure (that target asks for its own confirmation on
 * Send). Each row is the background's preview of exactly that target's request, planned as the
 * compare sends it (`previewSend` with `compare`: stateless, docs/disclosure.md "Snapshot or delta").
 * The line below it keeps the first target's details (turns to leave out, the request, the policy).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { SendTarget } from '../../lib/messaging/protocol';
import type { PendingAttachment } from '../../lib/ui/attachments';
import type { SendExtras } from '../../lib/ui/chat-model';
import { modelDisplayName } from '../../lib/ui/model-names';
import { formatCost, formatTokens, plural } from './disclosure-format';
import './compare.css';

export interface ComparePreviewInputs {
  conversationId: string | undefined;
  /** Every target of the send, the picker's first; fewer than two: nothing is asked. */
  targets: readonly SendTarget[];
  draft: string;
  attachments: readonly PendingAttachment[];
  /**
   * Changes whenever the stored turns change — also when an answer ends, since its final state is
   * stored and broadcast with its ledger record (docs/disclosure.md), which may end a first disclosure.
   */
  turnsKey: string;
  /** The person's exclusions, as the send carries them to every target. */
  exclusions: SendExtras;
}

/** One target's preview, or undefined while it is asked (or could not be made: the send says why). */
export type ComparePreviews = readonly (DisclosurePreview | undefined)[];

/** The previews to show, and whether they are still those of earlier inputs (a refresh is on its way). */
export interface ComparePreviewState {
  previews: ComparePreviews;
  /**
   * True while the rows shown were asked for earlier inputs: their counts may change when the
   * fresh previews arrive (an answer that just ended adds a turn and may correct the estimates).
   */
  pending: boolean;
}

/** The previews of every target of a compare send, refreshed (debounced) when an input changes; counts only. */
export function useComparePreviews(
  connector: Connector,
  inputs: ComparePreviewInputs,
  delayMs = 300,
): ComparePreviewState {
  const { conversationId, targets, draft, attachments, turnsKey, exclusions } = inputs;
  const asked: Asked = { conversationId: conversationId ?? null, targets: JSON.stringify(targets), turnsKey };
  const key = JSON.stringify([asked, draft, attachments.map((a) => a.id), exclusions]);
  const [state, setState] = useState<{ key: string; asked: Asked | undefined; previews: ComparePreviews }>({
    key: '',
    asked: undefined,
    previews: [],
  });
  useEffect(() => {
    const hasDraft = draft.trim() !== '' || attachments.length > 0;
    if (targets.length < 2 || (!conversationId && !hasDraft)) {
      setState({ key, asked, previews: [] });
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      void Promise.all(
        targets.map((target) =>
          connector
            .request('previewSend', {
              target,
              ...(conversationId ? { conversationId } : {}),
              ...(draft.trim() ? { text: draft } : {}),
              ...(attachments.length ? { attachments: attachments.map(({ id: _id, bytes: _bytes, ...a }) => a) } : {}),
              ...exclusions,
              countsOnly: true,
              compare: true,
            })
            .catch(() => undefined),
        ),
      ).then((previews) => {
        if (live) setState({ key, asked, previews });
      });
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [connector, key, delayMs]);
  return { previews: shownPreviews(state, key, asked), pending: state.key !== key };
}

/** What a compare preview was asked for: the conversation, the targets and the stored turns (`turnsKey`). */
interface Asked {
  conversationId: string | null;
  /** The targets, as JSON. */
  targets: string;
  turnsKey: string;
}

/**
 * The previews to show for the inputs `key`/`now`, given the last ones received (`state`). While a
 * refresh is on its way the last previews stay (no flicker while typing), but only for the same
 * conversation and targets: a row never shows another target's or conversation's preview. Asked
 * before the stored turns changed — an answer ended, and its ledger record was written with it
 * (docs/disclosure.md) — their counts stay until the fresh ones arrive, but not their
 * first-disclosure marks: the send that just ended may have made them untrue. Nothing is lost by
 * that: Send previews each target again before it goes and asks for its confirmation there.
 */
function shownPreviews(
  state: { key: string; asked: Asked | undefined; previews: ComparePreviews },
  key: string,
  now: Asked,
): ComparePreviews {
  if (state.key === key) return state.previews;
  const was = state.asked;
  if (!was || was.conversationId !== now.conversationId || was.targets !== now.targets) return [];
  if (was.turnsKey === now.turnsKey) return state.previews;
  return state.previews.map((p) => (p?.needsConfirmation ? { ...p, needsConfirmation: false } : p));
}

/** "3 of 4 turns · ~1.2k tokens · ~$0.01", or why it cannot go: the compact words of one target's preview. */
export function compareLine(p: DisclosurePreview): string {
  if (!p.allowed) return `not sent: ${p.forbidden ?? 'the disclosure policy forbids it'}`;
  const parts = [`${p.includedTurns} of ${plural(p.turns, 'turn')}`, `~${formatTokens(p.estimatedInputTokens)} tokens`];
  const cost = formatCost(p.estimatedCostUsd);
  if (cost) parts.push(cost.startsWith('<') ? cost : `~${cost}`);
  const excluded = p.droppedByReason.excluded ?? 0;
  if (excluded) parts.push(`${plural(excluded, 'turn')} left out`);
  const budget = (p.droppedByReason['over-budget'] ?? 0) + (p.droppedByReason['over-max-turns'] ?? 0);
  if (budget) parts.push(`${plural(budget, 'old turn')} over the limit`);
  if (p.imagesOmitted) parts.push(`${plural(p.imagesOmitted, 'image')} omitted`);
  if (!p.fits) parts.push('does not fit');
  return parts.join(' · ');
}

export interface CompareDisclosureProps {
  targets: readonly SendTarget[];
  previews: ComparePreviews;
  /** The rows shown are those of earlier inputs, a refresh on its way: shown muted and marked busy. */
  pending?: boolean;
  providerNames: Readonly<Record<string, string>>;
}

/** The rows: "1  gpt-5 · OpenAI  3 of 4 turns · ~1.2k tokens  [first disclosure]". */
export function CompareDisclosure({ targets, previews, providerNames, pending = false }: CompareDisclosureProps) {
  if (targets.length < 2) return null;
  return (
    <ol
      class={`compare-disclosure${pending ? ' pending' : ''}`}
      aria-label="What each model receives"
      aria-busy={pending ? 'true' : 'false'}
      data-compare-settled={pending ? 'false' : 'true'}
    >
      {targets.map((t, i) => {
        const p = previews[i];
        const who = `${modelDisplayName(t.model)} · ${providerNames[t.providerId] ?? t.providerId}`;
        const warn = p !== undefined && (!p.allowed || !p.fits);
        return (
          <li
            key={`${t.providerId}|${t.model}`}
            class={`compare-disclosure-row${warn ? ' warn' : ''}`}
            data-compare-preview={i + 1}
            {...(p && !pending ? { 'data-estimate-source': p.estimateSource } : {})}
          >
            <span class="compare-number" aria-hidden="true">
              {i + 1}
            </span>
            <span class="compare-disclosure-text">
              <span class="compare-disclosure-who">{who}</span>{' '}
              <span class="compare-disclosure-what">{p ? compareLine(p) : '…'}</span>
            </span>
            {p?.needsConfirmation ? (
              <span
                class="compare-first"
                title={`${who} has not received this conversation: Send asks you to confirm it first`}
              >
                First disclosure
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
