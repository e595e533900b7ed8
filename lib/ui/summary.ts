/**
 * The side panel's words and decisions for "summarise the earlier part" (docs/disclosure.md, "Fitting"):
 * when to offer it, the notice above the chat, and what the dialog says the summary request
 * discloses and costs. Pure.
 */
import type { DisclosurePreview, PreviewSummary } from '../messaging/disclosure-types';
import type { ProviderStatus, SendTarget } from '../messaging/protocol';
import type { SummaryPreview } from '../messaging/summary-types';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * How many turns the previewed send drops to fit (`over-budget` / `over-max-turns`): when more
 * than 0, the panel offers to summarise them instead of dropping them (the default). 0 for no
 * preview or a forbidden provider.
 */
export function droppedToFit(preview: DisclosurePreview | undefined): number {
  if (!preview?.allowed) return 0;
  return (preview.droppedByReason['over-budget'] ?? 0) + (preview.droppedByReason['over-max-turns'] ?? 0);
}

/** The notice above the chat: "Earlier 6 turns are sent as a summary written by claude-haiku-4-5", or why a stale summary is not sent. */
export function summaryNoticeText(s: PreviewSummary): string {
  if (s.state === 'stale')
    return `The summary of ${plural(s.replaces, 'earlier turn')} is not sent: a summarised turn was edited or deleted. Summarise again, or stop using it.`;
  return `Earlier ${plural(s.replaces, 'turn')} ${s.replaces === 1 ? 'is' : 'are'} sent as a summary written by ${s.by.model}`;
}

/** The dialog's default summariser: the current target when it has a key, else the first provider with a key and its default model. */
export function defaultSummariser(
  target: SendTarget | undefined,
  providers: readonly ProviderStatus[],
): SendTarget | undefined {
  const usable = summariserProviders(providers);
  if (target && usable.some((p) => p.id === target.providerId))
    return { providerId: target.providerId, model: target.model };
  const first = usable[0];
  return first ? { providerId: first.id, model: first.defaultModel ?? '' } : undefined;
}

/** Providers that can write a summary: those with a usable key (the on-device model has no id here, and sends nothing). */
export function summariserProviders(providers: readonly ProviderStatus[]): ProviderStatus[] {
  return providers.filter((p) => p.hasKey && !p.keyUnbound && !p.keyInvalid);
}

/** The dialog's lines about the request: what is summarised, its size and cost, and who receives it. */
export function summaryDialogLines(p: SummaryPreview, providerName: string): string[] {
  const n = p.turnIds.length;
  const via = p.viaSummary ? ` (${p.viaSummary} of them through the current summary, which is summarised again)` : '';
  const cost =
    p.estimatedCostUsd === undefined
      ? 'price unknown'
      : p.estimatedCostUsd < 0.005
        ? 'under $0.01'
        : `up to ~$${p.estimatedCostUsd.toFixed(2)}`;
  return [
    `${plural(n, 'earlier turn')} will be summarised${via}.`,
    `~${p.estimatedInputTokens.toLocaleString('en')} tokens in, at most ${p.maxOutputTokens.toLocaleString('en')} out: ${cost}.`,
    `${providerName} (${p.summariser.origin}) will receive those turns, model ${p.summariser.model}.`,
  ];
}
