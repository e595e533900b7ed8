import { useMemo, useRef } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { ImportSummary } from '../../lib/messaging/transfer-protocol';
import { useStore } from '../../lib/ui/store';
import { summaryLine, TransferModel, type SaveFn } from '../../lib/ui/transfer';
import '../transfer.css';

export interface ExportMenuProps {
  connector: Connector;
  conversationId: string;
  save?: SaveFn;
}

/** The chat head's "Export" menu: the open conversation as Baton JSON or Markdown, saved as a download. */
export function ExportMenu({ connector, conversationId, save }: ExportMenuProps) {
  const model = useMemo(() => new TransferModel(connector, save), [connector, save]);
  const s = useStore(model);
  const menu = useRef<HTMLDetailsElement>(null);
  const run = (format: 'baton' | 'markdown') => {
    if (menu.current) menu.current.open = false;
    void model.exportOne(conversationId, format);
  };
  return (
    <details class="menu export-menu" ref={menu}>
      <summary class="mini" aria-label="Export conversation">
        Export
      </summary>
      <div class="menu-items" role="group" aria-label="Export as">
        <button type="button" class="mini" disabled={s.busy} onClick={() => run('baton')}>
          Baton JSON
        </button>
        <button type="button" class="mini" disabled={s.busy} onClick={() => run('markdown')}>
          Markdown
        </button>
      </div>
      {s.error ? (
        <span class="note note-error" role="alert">
          {s.error}
        </span>
      ) : null}
    </details>
  );
}

export interface ImportEntryProps {
  connector: Connector;
  /** After an import that added conversations: e.g. reload the list and open the first one. */
  onImported?(summary: ImportSummary): void;
  /** Asks the person for a file ({@link pickFile} by default; tests pass their own). */
  pick?: () => Promise<File | undefined>;
}

const ACCEPT = '.json,.jsonl,.zip,application/json,application/zip';

/**
 * Opens the browser's file picker from a detached `<input type="file">` (so the panel keeps one
 * file input only, the composer's) and resolves with the chosen file, or undefined if none.
 */
export function pickFile(): Promise<File | undefined> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = ACCEPT;
    input.addEventListener('change', () => resolve(input.files?.[0]), { once: true });
    input.addEventListener('cancel', () => resolve(undefined), { once: true });
    input.click();
  });
}

/** The side panel's "Import…" entry: pick a file, import it (kind told by the background), say what happened. */
export function ImportEntry({ connector, onImported, pick = pickFile }: ImportEntryProps) {
  const model = useMemo(() => new TransferModel(connector), [connector]);
  const s = useStore(model);
  const choose = async () => {
    const file = await pick();
    if (!file) return;
    const summary = await model.importFile(file);
    if (summary && summary.imported.length) onImported?.(summary);
  };
  return (
    <span class="import-entry">
      <button type="button" class="mini" disabled={s.busy} title="Import a conversation file (exports, agent sessions, Baton files)" onClick={() => void choose()}>
        Import…
      </button>
      {s.busy ? <span role="status">Importing…</span> : null}
      {s.summary ? (
        <span class="hint" role="status" title={s.summary.skipped.map((x) => `${x.title ?? x.id ?? ''}: ${x.reason}`).join('\n')}>
          {summaryLine(s.summary)}
        </span>
      ) : null}
      {s.error ? (
        <span class="note note-error" role="alert">
          {s.error}
        </span>
      ) : null}
    </span>
  );
}
