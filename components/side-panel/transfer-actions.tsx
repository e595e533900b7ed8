import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { ImportKind, ImportSummary } from '../../lib/messaging/transfer-protocol';
import { useStore } from '../../lib/ui/store';
import { withoutRuleIds } from '../../lib/ui/rule-ids';
import { KIND_LABELS, summaryLine, TransferModel, type SaveFn } from '../../lib/ui/transfer';
import { FileUp, Icon, Upload } from '../icons';
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
  /**
   * How the entry's button looks: `icon` (the header: an icon named *Import…*), `starter` (the empty
   * chat: "Import a conversation" with a line saying what can be imported), or a text button (default).
   */
  variant?: 'icon' | 'starter' | undefined;
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

/** How long a successful import's summary stays, in ms (docs/side-panel.md: transient messages clear themselves). */
export const IMPORT_NOTE_MS = 8000;

/**
 * The side panel's "Import…" entry: pick a file, import it (kind told by the background), say what
 * happened. The outcome opens as a panel under the header (docs/side-panel.md, item 8: an error never
 * stretches the header's button row), and a failed import offers the kind picker its error asks
 * for, with the same file. A success clears itself; an error stays until dismissed.
 */
export function ImportEntry({ connector, onImported, pick = pickFile, variant }: ImportEntryProps) {
  const model = useMemo(() => new TransferModel(connector), [connector]);
  const s = useStore(model);
  const [file, setFile] = useState<File | undefined>();
  const [kind, setKind] = useState<ImportKind | ''>('');
  const run = async (f: File, k?: ImportKind) => {
    const summary = await model.importFile(f, k);
    if (summary && summary.imported.length) onImported?.(summary);
  };
  const choose = async () => {
    const f = await pick();
    if (!f) return;
    setFile(f);
    setKind('');
    await run(f);
  };
  useEffect(() => {
    if (!s.summary || s.error) return;
    const t = setTimeout(() => model.clear(), IMPORT_NOTE_MS);
    return () => clearTimeout(t);
  }, [model, s.summary, s.error]);
  return (
    <span class="import-entry">
      {variant === 'icon' ? (
        <button
          type="button"
          class="icon-button"
          aria-label="Import…"
          disabled={s.busy}
          title="Import a conversation file (exports, agent sessions, Baton files)"
          onClick={() => void choose()}
        >
          <Icon icon={Upload} />
        </button>
      ) : variant === 'starter' ? (
        <button
          type="button"
          class="starter"
          aria-label="Import a conversation"
          disabled={s.busy}
          onClick={() => void choose()}
        >
          <Icon icon={FileUp} />
          <span>
            <strong>Import a conversation</strong>
            <span class="starter-line">A ChatGPT, Claude or Gemini export, an agent session, a Baton file</span>
          </span>
        </button>
      ) : (
        <button
          type="button"
          class="mini"
          disabled={s.busy}
          title="Import a conversation file (exports, agent sessions, Baton files)"
          onClick={() => void choose()}
        >
          Import…
        </button>
      )}
      {s.busy || s.summary || s.error ? (
        <div class="import-feedback" role="group" aria-label="Import">
          {s.busy ? <p role="status">Importing…</p> : null}
          {s.summary ? (
            <p
              class="hint"
              role="status"
              title={s.summary.skipped.map((x) => `${x.title ?? x.id ?? ''}: ${withoutRuleIds(x.reason)}`).join('\n')}
            >
              {summaryLine(s.summary)}
            </p>
          ) : null}
          {s.error ? (
            <>
              <p class="note note-error" role="alert">
                {withoutRuleIds(s.error)}
              </p>
              {file ? (
                <div class="row">
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
                  <button
                    type="button"
                    class="primary"
                    disabled={s.busy}
                    onClick={() => void run(file, kind || undefined)}
                  >
                    Import again
                  </button>
                </div>
              ) : null}
            </>
          ) : null}
          {s.busy ? null : (
            <button type="button" class="mini" onClick={() => model.clear()}>
              Dismiss
            </button>
          )}
        </div>
      ) : null}
    </span>
  );
}
