/**
 * "Who has seen this?" (docs/disclosure.md): the providers (id and endpoint) that received this conversation,
 * and per turn which of them received it, from the disclosure ledger. Consecutive turns that reached
 * the same providers are one range ("Turns 1–40: OpenAI, Anthropic"), expandable to its turns, so a
 * long conversation stays a short list at 360 px.
 */
import type { DisclosureLedger, PreviewTurn, SeenBy } from '../../lib/messaging/disclosure-types';
import { droppedLine, formatCost, formatTokens, shortTime } from './disclosure-format';

/** Consecutive turns (numbered from 1, in conversation order) that reached the same providers. */
export interface SeenRange {
  /** 1-based numbers of the first and last turn of the range. */
  from: number;
  to: number;
  turns: readonly PreviewTurn[];
  /** The providers that received every turn of the range (indices into `ledger.seenBy`, ascending). */
  seenBy: readonly number[];
}

/**
 * Groups the stored turns (drafts left out) into ranges of consecutive turns with identical
 * recipients. Pure; an empty recipient list ("no provider") groups like any other.
 */
export function seenRanges(turns: readonly PreviewTurn[], ledger: Pick<DisclosureLedger, 'turns'>): SeenRange[] {
  const out: SeenRange[] = [];
  let n = 0;
  for (const t of turns) {
    if (t.draft) continue;
    n++;
    const who = [...new Set(ledger.turns[t.id] ?? [])].sort((a, b) => a - b);
    const last = out[out.length - 1];
    if (last && last.seenBy.length === who.length && last.seenBy.every((k, i) => k === who[i])) {
      last.to = n;
      (last.turns as PreviewTurn[]).push(t);
    } else out.push({ from: n, to: n, turns: [t], seenBy: who });
  }
  return out;
}

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
            {s.keeps?.length ? (
              <span class="seen-keeps" data-seen-keeps="">
                {' '}
                · {name(s.providerId)} keeps this conversation ({s.keeps.join(', ')})
              </span>
            ) : null}
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
      <ul aria-label="Per turn" class="seen-ranges">
        {seenRanges(turns, ledger).map((r) => (
          <SeenRangeItem key={r.turns[0]!.id} range={r} seenBy={ledger.seenBy} name={name} />
        ))}
      </ul>
    </div>
  );
}

/** The providers of a range, in words: "OpenAI (gpt-5), Anthropic (claude-sonnet-4-5)". */
function recipients(range: SeenRange, seenBy: readonly SeenBy[], name: (id: string) => string): string {
  const who = range.seenBy.map((k) => seenBy[k]).filter((s) => s !== undefined);
  return who
    .map((s) => (s.models.length ? `${name(s.providerId)} (${s.models.join(', ')})` : name(s.providerId)))
    .join(', ');
}

/** One range of turns: a single line, or (several turns) a line that expands to the turns it covers. */
function SeenRangeItem({
  range: r,
  seenBy,
  name,
}: {
  range: SeenRange;
  seenBy: readonly SeenBy[];
  name: (id: string) => string;
}) {
  const who = recipients(r, seenBy, name);
  const whom = who ? who : <span class="hint">no provider</span>;
  if (r.from === r.to) {
    const t = r.turns[0]!;
    return (
      <li data-seen-range={`${r.from}`}>
        <strong>Turn {r.from}</strong> <span class="hint">({t.preview || t.role})</span>: {whom}
      </li>
    );
  }
  return (
    <li data-seen-range={`${r.from}-${r.to}`}>
      <details>
        <summary>
          <strong>
            Turns {r.from}–{r.to}
          </strong>
          : {whom}
        </summary>
        <ol start={r.from} class="seen-range-turns">
          {r.turns.map((t) => (
            <li key={t.id}>{t.preview || t.role}</li>
          ))}
        </ol>
      </details>
    </li>
  );
}
