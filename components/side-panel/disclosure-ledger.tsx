/**
 * "Who has seen this?" (docs/disclosure.md): the providers (id and endpoint) that received this conversation,
 * and per turn which of them received it, from the disclosure ledger.
 */
import type { DisclosureLedger, PreviewTurn } from '../../lib/messaging/disclosure-types';
import { droppedLine, formatCost, formatTokens, shortTime } from './disclosure-format';

export interface DisclosureLedgerViewProps {
  ledger: DisclosureLedger | undefined;
  /** The turns as previewed, in order (for their labels). */
  turns: readonly PreviewTurn[];
  providerNames: Readonly<Record<string, string>>;
}

export function DisclosureLedgerView({ ledger, turns, providerNames }: DisclosureLedgerViewProps) {
  if (!ledger) return <p class="hint">Loading who has seen this…</p>;
  if (ledger.seenBy.length === 0)
    return (
      <p class="hint" data-ledger-empty="">
        No provider has received this conversation yet.
      </p>
    );
  const name = (id: string) => providerNames[id] ?? id;
  const cached = ledger.entries.reduce((n, e) => n + (e.usage?.cacheReadTokens ?? 0), 0);
  const cost = ledger.entries.reduce((n, e) => n + (e.costUsd ?? 0), 0);
  const summaries = ledger.entries.filter((e) => e.purpose === 'summary').length;
  // What a provider reported it dropped, one line per send (A-B5).
  const drops = ledger.entries.flatMap((e) => {
    const line = droppedLine(e, name(e.providerId));
    return line ? [{ id: e.id, at: e.at, line }] : [];
  });
  return (
    <div class="disclosure-ledger" aria-label="Who has seen this">
      <h3>Who has seen this conversation</h3>
      <ul aria-label="Providers">
        {ledger.seenBy.map((s) => (
          <li key={`${s.providerId} ${s.endpoint}`} data-seen-provider={s.providerId}>
            <strong>{name(s.providerId)}</strong> <span class="hint">{s.endpoint}</span> · {s.models.join(', ')} ·{' '}
            {s.sends} {s.sends === 1 ? 'send' : 'sends'}, last {shortTime(s.lastAt)}
          </li>
        ))}
      </ul>
      <p class="hint">
        {ledger.entries.length} {ledger.entries.length === 1 ? 'request' : 'requests'}
        {summaries ? ` (${summaries} for a summary of earlier turns)` : ''}
        {cached ? ` · ${formatTokens(cached)} cached tokens` : ''}
        {cost ? ` · ${formatCost(cost)} in total` : ''}
      </p>
      {drops.length > 0 && (
        <ul aria-label="Dropped by the provider">
          {drops.map((d) => (
            <li key={d.id} data-ledger-dropped={d.id}>
              {shortTime(d.at)}: {d.line}
            </li>
          ))}
        </ul>
      )}
      <h3>Per turn</h3>
      <ul aria-label="Per turn">
        {turns
          .filter((t) => !t.draft)
          .map((t, i) => {
            const who = (ledger.turns[t.id] ?? []).map((k) => ledger.seenBy[k]).filter((s) => s !== undefined);
            return (
              <li key={t.id} data-seen-turn={t.id}>
                {i + 1}. {t.preview || t.role}:{' '}
                {who.length ? who.map((s) => name(s.providerId)).join(', ') : <span class="hint">no provider</span>}
              </li>
            );
          })}
      </ul>
    </div>
  );
}
