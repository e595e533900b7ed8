import { useMemo, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { ImportKind, ImportSummary } from '../../lib/messaging/transfer-protocol';
import { withoutRuleIds } from '../../lib/ui/rule-ids';
import { useStore } from '../../lib/ui/store';
import { KIND_LABELS, summaryLine, TransferModel, type SaveFn } from '../../lib/ui/transfer';
import '../transfer.css';

const WHY: Record<ImportSummary['skipped'][number]['why'], string> = {
  duplicate: 'already in Baton',
  invalid: 'could not be read',
  failed: 'could not be stored',
};

/** The summary of an import: counts, what was imported, and every skipped conversation with its reason. */
export function ImportSummaryView({ summary }: { summary: ImportSummary }) {
  return (
    <div class="import-summary" data-import-summary>
      <p role="status">
        {summary.file ? `${summary.file}: ` : ''}
        {summaryLine(summary)}
      </p>
      {summary.imported.length ? (
        <ul aria-label="Imported conversations">
          {summary.imported.map((c) => (
            <li key={c.id}>
              {c.title} ({c.turns} turn{c.turns === 1 ? '' : 's'})
              {c.warnings?.length ? (
                <details>
                  <summary>
                    {c.warnings.length} note{c.warnings.length === 1 ? '' : 's'} on what was left out
                  </summary>
                  <ul>
                    {c.warnings.map((w, i) => (
                      <li key={i}>{withoutRuleIds(w)}</li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {summary.skipped.length ? (
        <ul aria-label="Skipped conversations">
          {summary.skipped.map((s, i) => (
            <li key={`${s.id ?? ''}|${i}`} data-why={s.why}>
              {s.title ?? s.id ?? 'A conversation'}: {WHY[s.why]} — {withoutRuleIds(s.reason)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export interface TransferSectionProps {
  connector: Connector;
  /** Saves a file (a download by default; tests record it). */
  save?: SaveFn;
}

/** Options page: import a file (any kind `baton import` takes) and export everything as Baton JSON or Markdown. */
export function TransferSection({ connector, save }: TransferSectionProps) {
  const model = useMemo(() => new TransferModel(connector, save), [connector, save]);
  const s = useStore(model);
  const [kind, setKind] = useState<ImportKind | ''>('');
  return (
    <div class="transfer">
      <p class="hint">
        Bring in conversations from ChatGPT or Claude exports, agent sessions (Claude Code, Codex, Gemini CLI, pi),
        provider API histories or Baton files. Importing the same file again adds nothing. Files up to 32 MiB.
      </p>
      <label>
        Kind{' '}
        <select
          aria-label="Kind of file"
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as ImportKind | '')}
        >
          <option value="">Detect automatically</option>
          {(Object.keys(KIND_LABELS) as ImportKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        File{' '}
        <input
          type="file"
          aria-label="Import a file"
          accept=".json,.jsonl,.zip,application/json,application/zip"
          disabled={s.busy}
          onChange={(e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            if (file) void model.importFile(file, kind || undefined).then(() => (input.value = ''));
          }}
        />
      </label>
      {s.busy ? <p role="status">Working…</p> : null}
      {s.summary ? <ImportSummaryView summary={s.summary} /> : null}
      {s.error ? (
        <p class="note note-error" role="alert">
          {s.error}
        </p>
      ) : null}
      <h3>Export</h3>
      <p class="hint">
        Baton JSON keeps everything (tool calls, reasoning, images) and can be imported again; Markdown is for reading.
        Keys are never exported.
      </p>
      <button type="button" disabled={s.busy} onClick={() => void model.exportAll('baton')}>
        Export all (Baton JSON)
      </button>{' '}
      <button type="button" disabled={s.busy} onClick={() => void model.exportAll('markdown')}>
        Export all (Markdown)
      </button>
      {s.note ? (
        <p class="note" role="status" data-export-note>
          {s.note}
        </p>
      ) : null}
    </div>
  );
}
