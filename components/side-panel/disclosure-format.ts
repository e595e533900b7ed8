/**
 * Text of the disclosure preview (issue 6, "In the side panel"): the one line above the composer
 * and the words for fates and drop reasons. Pure.
 */
import type { DisclosurePreview, PreviewBlock } from '../../lib/messaging/disclosure-types';
import { withoutRuleIds } from '../../lib/ui/rule-ids';

/** Tokens for people: 950 → "950", 3,240 → "3.2k", 1,250,000 → "1.3M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** US dollars: "$0.01", "<$0.01", "$1.20"; undefined when the price is unknown. */
export function formatCost(usd: number | undefined): string | undefined {
  if (usd === undefined) return undefined;
  if (usd > 0 && usd < 0.005) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "14 of 20 turns · ~3.2k tokens · ~$0.01 · to Anthropic claude-sonnet-4-5 · 2 thinking blocks
 * dropped · 1 image omitted", plus what else matters (turns left out, does not fit, forbidden, delta).
 */
export function summaryLine(p: DisclosurePreview, providerName: string): string {
  if (!p.allowed) return `Not sent to ${providerName}: ${p.forbidden ?? 'the disclosure policy forbids it'}`;
  // Calibrated by the provider's own count of what it has already received (issue 6).
  const calibrated = p.estimateSource === 'provider-count' ? ' (calibrated)' : '';
  const parts = [`${p.includedTurns} of ${plural(p.turns, 'turn')}`, `~${formatTokens(p.estimatedInputTokens)} tokens${calibrated}`];
  const cost = formatCost(p.estimatedCostUsd);
  if (cost) parts.push(cost.startsWith('<') ? cost : `~${cost}`);
  parts.push(`to ${providerName} ${p.target.model}`);
  if (p.thinkingDropped) parts.push(`${plural(p.thinkingDropped, 'thinking block')} dropped`);
  if (p.imagesOmitted) parts.push(`${plural(p.imagesOmitted, 'image')} omitted`);
  const excluded = p.droppedByReason.excluded ?? 0;
  if (excluded) parts.push(`${plural(excluded, 'turn')} left out`);
  const budget = (p.droppedByReason['over-budget'] ?? 0) + (p.droppedByReason['over-max-turns'] ?? 0);
  if (budget) parts.push(`${plural(budget, 'old turn')} over the limit`);
  if (p.delivery.mode === 'delta') parts.push('only new turns');
  if (!p.fits) parts.push('does not fit');
  return parts.join(' · ');
}

const FATE_TEXT: Record<PreviewBlock['fate'], string> = {
  kept: 'sent',
  'replayed-native': 'sent as the provider wrote it',
  converted: 'converted',
  dropped: 'not sent',
  'id-mapped': 'sent (id mapped)',
  'name-mapped': 'sent (name mapped)',
};

/** "text: sent", "thinking: not sent (reasoning from another model)". */
export function blockLine(b: PreviewBlock): string {
  // Rule ids stay in the request view's details, not in this line (issue 14, item 8).
  const detail = b.detail && b.fate !== 'kept' ? ` (${withoutRuleIds(b.detail)})` : '';
  return `${b.type}: ${FATE_TEXT[b.fate]}${detail}`;
}

/** Short ISO time for the ledger: "2026-11-30 08:12". */
export function shortTime(iso: string): string {
  return iso.replace('T', ' ').slice(0, 16);
}

/**
 * The note for exclusions that name nothing any more (issue 6, `unknownExclusions`): "2 left-out
 * turns no longer exist — the rest is unchanged", "1 left-out turn and 1 left-out block no longer
 * exist — …"; undefined when there are none.
 */
export function staleExclusionsLine(n: { turns: number; blocks: number } | undefined): string | undefined {
  if (!n || n.turns + n.blocks === 0) return undefined;
  const what = [n.turns ? plural(n.turns, 'left-out turn') : '', n.blocks ? plural(n.blocks, 'left-out block') : ''].filter(Boolean).join(' and ');
  return `${what} no longer ${n.turns + n.blocks === 1 ? 'exists' : 'exist'} — the rest is unchanged`;
}
