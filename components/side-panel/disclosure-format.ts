/**
 * Text of the disclosure preview (docs/disclosure.md, "In the side panel"): the one line above the composer
 * and the words for fates and drop reasons. Pure.
 */
import type { DisclosureEntry, DisclosurePreview, PreviewBlock } from '../../lib/messaging/disclosure-types';
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

/** "1 turn", "3 turns". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "14 of 20 turns · ~3.2k tokens · ~$0.01 · to Anthropic claude-sonnet-4-5 · 2 thinking blocks
 * dropped · 1 image omitted", plus what else matters (turns left out, does not fit, forbidden, delta).
 */
export function summaryLine(p: DisclosurePreview, providerName: string): string {
  if (!p.allowed) return `Not sent to ${providerName}: ${p.forbidden ?? 'the disclosure policy forbids it'}`;
  // Calibrated by the provider's own count of what it has already received (docs/disclosure.md).
  const calibrated = p.estimateSource === 'provider-count' ? ' (calibrated)' : '';
  const parts = [
    `${p.includedTurns} of ${plural(p.turns, 'turn')}`,
    `~${formatTokens(p.estimatedInputTokens)} tokens${calibrated}`,
  ];
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
  // A conversation the provider may keep, sent whole: why it is not a delta.
  else if (p.delivery.stateful) parts.push(`whole history: ${p.delivery.detail}`);
  if (!p.fits) parts.push('does not fit');
  return parts.join(' · ');
}

const UNUSED_WHY: Record<NonNullable<DisclosurePreview['reasoningUnused']>[number]['reason'], string> = {
  'other-model': 'it was written by another model',
  'other-account': 'it was made in Claude Code or claude.ai, for another account',
  'dropped-earlier': 'the conversation changed before them, and the provider dropped it',
  summarised: 'a summary replaces those turns',
  'prefix-changed': 'the conversation before them changed since, so Anthropic will drop it',
};

/**
 * The preview's plain words on earlier reasoning the target will not use (docs/provider-rules.md), one sentence
 * per reason: "Earlier reasoning on 3 turns will not be used: it was written by another model
 * (~1.2k reasoning tokens to spend again)". Empty when all sent reasoning is replayed.
 */
export function reasoningWarnings(p: DisclosurePreview): string[] {
  return (p.reasoningUnused ?? []).map((u) => {
    const cost = u.reasoningTokens > 0 ? ` (~${formatTokens(u.reasoningTokens)} reasoning tokens to spend again)` : '';
    return `Earlier reasoning on ${plural(u.turns, 'turn')} will not be used: ${UNUSED_WHY[u.reason]}${cost}.`;
  });
}

const TOOLS_WHY: Record<NonNullable<DisclosurePreview['toolsWithReasoning']>['outcome'], (model: string) => string> = {
  'effort-none': (m) =>
    `Reasoning is off for this request: ${m} takes tools on Chat Completions only without reasoning. The Responses API keeps both.`,
  'tools-left-out': (m) =>
    `Tools are left out of this request: ${m} calls tools only through the Responses API, not Chat Completions. Reasoning stays on.`,
  'stub-tools-left-out': (m) =>
    `The earlier tool calls are sent without tool definitions: ${m} takes no tools with reasoning on Chat Completions, and the history needs none there.`,
};

/**
 * The preview's plain words on how a Chat Completions request was changed so the API takes it
 * (C-T9, docs/provider-rules.md): which of the two happened — reasoning set to none, or the tools
 * left out — and why. Undefined when nothing changed.
 */
export function toolsWithReasoningLine(p: DisclosurePreview): string | undefined {
  const t = p.toolsWithReasoning;
  return t ? TOOLS_WHY[t.outcome](t.model) : undefined;
}

/** The provider's reason codes (A-B5) in plain words. */
const DROP_WHY: Readonly<Record<string, string>> = {
  prefix_binding_mismatch: 'the conversation before them changed',
  model_binding_mismatch: 'another model wrote it',
};

/** Whose reasoning an API's answers carry, by API. */
const REASONER: Readonly<Record<string, string>> = { 'anthropic-messages': 'Claude' };

/**
 * The ledger's plain words on what the provider reported it dropped from one send
 * (docs/disclosure.md, "What the provider dropped"): "Anthropic dropped Claude's reasoning on 2
 * earlier turns (the conversation before them changed)". Undefined when the entry records no drop.
 * @param providerName the provider's display name.
 */
export function droppedLine(e: DisclosureEntry, providerName: string): string | undefined {
  const d = e.dropped;
  if (!d) return undefined;
  const whose = REASONER[e.api] ? `${REASONER[e.api]}'s` : "the model's";
  const where = d.turns.length > 0 ? plural(d.turns.length, 'earlier turn') : plural(d.blocks, 'earlier block');
  const why = d.reasons.map((r) => DROP_WHY[r] ?? r).join('; ');
  return `${providerName} dropped ${whose} reasoning on ${where}${why ? ` (${why})` : ''}.`;
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
  // Rule ids stay in the request view's details, not in this line (docs/side-panel.md, item 8).
  const detail = b.detail && b.fate !== 'kept' ? ` (${withoutRuleIds(b.detail)})` : '';
  // A document (e.g. an added page) is named, with its tokens (docs/side-panel.md#add-this-page).
  if (b.type === 'document' && (b.title || b.tokens !== undefined)) {
    const tokens = b.tokens !== undefined ? `, ~${b.tokens} tokens` : '';
    return `document${b.title ? ` “${b.title}”` : ''}${tokens}: ${FATE_TEXT[b.fate]}${detail}`;
  }
  return `${b.type}: ${FATE_TEXT[b.fate]}${detail}`;
}

/** "Bash, Glob ×2": tool names in order of first use, a repeated name counted once. */
export function toolNamesLine(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(', ');
}

const GROUP_NOUN: Record<string, [string, string]> = {
  tool_call: ['tool call', 'tool calls'],
  tool_result: ['tool result', 'tool results'],
};

/** Consecutive blocks of one turn that share a type, a fate and its reason, shown as one line. */
export interface BlockGroup {
  blocks: PreviewBlock[];
  /** "3 tool calls: Bash, Glob ×2 — sent", "2 thinking blocks: not sent (reasoning from another model)", or {@link blockLine} for one block. */
  line: string;
}

/**
 * The preview's block lines for one turn (docs/side-panel.md): runs of the same type, fate and reason are
 * one line, so a repeated drop reason is said once per group; tool calls and results name their
 * tools ("3 tool calls: Bash, Glob ×2 — sent").
 */
export function blockGroups(blocks: readonly PreviewBlock[]): BlockGroup[] {
  const groups: PreviewBlock[][] = [];
  for (const b of blocks) {
    const last = groups[groups.length - 1]?.[0];
    // Documents are never merged: each is its own row, with its title and tokens.
    if (last && last.type === b.type && b.type !== 'document' && last.fate === b.fate && last.detail === b.detail)
      groups[groups.length - 1]!.push(b);
    else groups.push([b]);
  }
  return groups.map((g) => {
    const b = g[0]!;
    const noun = GROUP_NOUN[b.type];
    if (!noun && g.length === 1) return { blocks: g, line: blockLine(b) };
    const detail = b.detail && b.fate !== 'kept' ? ` (${b.detail})` : '';
    const what = noun ? `${g.length} ${g.length === 1 ? noun[0] : noun[1]}` : `${g.length} ${b.type} blocks`;
    const names = noun ? toolNamesLine(g.map((x) => x.name ?? 'unnamed tool')) : '';
    return {
      blocks: g,
      line: noun ? `${what}: ${names} — ${FATE_TEXT[b.fate]}${detail}` : `${what}: ${FATE_TEXT[b.fate]}${detail}`,
    };
  });
}

/** Short ISO time for the ledger: "2026-11-30 08:12". */
export function shortTime(iso: string): string {
  return iso.replace('T', ' ').slice(0, 16);
}

/**
 * The note for exclusions that name nothing any more (docs/disclosure.md, `unknownExclusions`): "2 left-out
 * turns no longer exist — the rest is unchanged", "1 left-out turn and 1 left-out block no longer
 * exist — …"; undefined when there are none.
 */
export function staleExclusionsLine(n: { turns: number; blocks: number } | undefined): string | undefined {
  if (!n || n.turns + n.blocks === 0) return undefined;
  const what = [n.turns ? plural(n.turns, 'left-out turn') : '', n.blocks ? plural(n.blocks, 'left-out block') : '']
    .filter(Boolean)
    .join(' and ');
  return `${what} no longer ${n.turns + n.blocks === 1 ? 'exists' : 'exist'} — the rest is unchanged`;
}
