/**
 * The answers of one message sent to several models (docs/side-panel.md#ask-several-models-at-once),
 * side by side while they stream — stacked when the panel is narrow — each labelled with its
 * model, tokens, cost and time, with **Continue with this** to carry on with it. Targets that did
 * not go are listed with their reason.
 */
import type { ProviderStatus } from '../../lib/messaging/protocol';
import { orderedAnswers, type CompareAnswer, type CompareRun } from '../../lib/ui/compare-model';
import { modelDisplayName, originDisplayName } from '../../lib/ui/model-names';
import { formatCost, formatTokens } from './disclosure-format';
import { TurnView } from './turn-view';
import './compare.css';

export interface CompareViewProps {
  run: CompareRun;
  providers: readonly ProviderStatus[];
  /** The answers are still streaming (Stop stops them all). */
  busy: boolean;
  onContinue(turnId: string): void;
}

/** "gpt-5.5 · OpenAI": who an answer is from. */
function whoOf(a: CompareAnswer, providers: readonly ProviderStatus[]): string {
  if (a.turn.origin) return originDisplayName(a.turn.origin, providers);
  const t = a.target;
  return t
    ? `${modelDisplayName(t.model)} · ${providers.find((p) => p.id === t.providerId)?.name ?? t.providerId}`
    : '';
}

/** "1.2k in · 340 out tokens · $0.01 · 4.2 s", from the ledger record when there is one, else the turn's usage. */
export function statsLine(a: CompareAnswer): string {
  const usage = a.entry?.usage ?? a.turn.usage;
  const parts: string[] = [];
  if (usage?.inputTokens !== undefined || usage?.outputTokens !== undefined)
    parts.push(`${formatTokens(usage.inputTokens ?? 0)} in · ${formatTokens(usage.outputTokens ?? 0)} out tokens`);
  const cost = formatCost(a.entry?.costUsd);
  if (cost) parts.push(cost);
  const start = a.turn.createdAt ? Date.parse(a.turn.createdAt) : NaN;
  // Seen ending in this panel, else (a compare shown again after a reload) when its ledger record was written.
  const end = a.endedAt ?? (a.entry ? Date.parse(a.entry.at) : NaN);
  if (Number.isFinite(end) && Number.isFinite(start)) parts.push(`${Math.max(0, (end - start) / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}

export function CompareView({ run, providers, busy, onContinue }: CompareViewProps) {
  const answers = orderedAnswers(run);
  const name = (id: string) => providers.find((p) => p.id === id)?.name ?? id;
  return (
    <section class="compare" aria-label="Answers to compare" data-compare-done={run.done ? 'true' : 'false'}>
      <p class="compare-head">
        {run.done
          ? `${answers.length} answers: continue with the one you prefer. The others stay as versions.`
          : `Asking ${answers.length || run.order.length || 'several'} models…`}
      </p>
      {run.dropped.length ? (
        <ul class="compare-dropped" aria-label="Not sent">
          {run.dropped.map((d) => (
            <li key={`${d.target.providerId}|${d.target.model}`} role="status">
              Not sent to {modelDisplayName(d.target.model)} · {name(d.target.providerId)}: {d.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <ol class="compare-grid" data-count={answers.length}>
        {answers.map((a) => {
          const who = whoOf(a, providers);
          const stats = statsLine(a);
          const streaming = a.turn.status === 'streaming';
          return (
            <li class="compare-card" key={a.turn.id} data-compare-answer={a.turn.id} aria-label={`Answer from ${who}`}>
              <TurnView turn={a.turn} providers={providers} showError />
              <footer class="compare-foot">
                <span class="compare-stats" data-compare-stats="">
                  {streaming ? 'Writing…' : stats}
                </span>
                {/* One quiet style on every card: none of the answers is the view's main action until picked. */}
                <button
                  type="button"
                  class="compare-continue"
                  aria-label={`Continue with this: ${who}`}
                  title={busy ? 'Wait for every answer to end (or stop them)' : `Continue the conversation with ${who}`}
                  disabled={busy || !run.done}
                  onClick={() => onContinue(a.turn.id)}
                >
                  Continue with this
                </button>
              </footer>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
