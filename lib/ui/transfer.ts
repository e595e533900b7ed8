/**
 * The pages' side of import and export (docs/architecture.md#the-background-by-feature): reading a chosen file for `importFile`,
 * collecting `exportAll` parts into one file, saving a file through a download, and the state
 * both the options page section and the side panel show.
 */
import type { Connector } from '../messaging/client';
import type { ExportFormat, ImportKind, ImportSummary } from '../messaging/transfer-protocol';
import { Store } from './store';
import { withoutRuleIds } from './rule-ids';

/**
 * Largest file the page sends, in bytes: the background's `IMPORT_LIMITS.fileBytes` (32 MiB;
 * a test keeps the two equal). Checked before the file is read at all (I3).
 */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

/** Every import kind with its label; a `Record` over the protocol's kinds, so the compiler keeps it complete. */
export const KIND_LABELS: Record<ImportKind, string> = {
  'chatgpt-export': 'ChatGPT export (zip or conversations.json)',
  'claude-export': 'Claude export (zip or conversations.json)',
  baton: 'Baton transcripts (JSON or JSONL)',
  'claude-code': 'Claude Code session (JSONL)',
  codex: 'Codex CLI rollout (JSONL)',
  'gemini-cli': 'Gemini CLI session',
  pi: 'pi session (JSONL)',
  'anthropic-messages': 'Anthropic Messages history (JSON)',
  'openai-chat': 'OpenAI Chat Completions history (JSON)',
  'openai-responses': 'OpenAI Responses history (JSON)',
  'gemini-generate-content': 'Gemini generateContent history (JSON)',
  'gemini-interactions': 'Gemini Interactions history (JSON)',
};

/** The file's bytes as base64 (no `data:` prefix). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // A multiple of 3 bytes per chunk, so the chunks' base64 simply concatenates.
  const CHUNK = 3 * 8192;
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + CHUNK))));
  return parts.join('');
}

/** Saves `blob` as a download named `filename` (an `<a download>` click on an object URL). */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** One line saying what an import did: `Imported 2 conversations; skipped 1 (1 already in Baton).` */
export function summaryLine(s: ImportSummary): string {
  const n = s.imported.length;
  const head = `Imported ${n} conversation${n === 1 ? '' : 's'}`;
  if (!s.skipped.length) return `${head}.`;
  const count = (why: string) => s.skipped.filter((x) => x.why === why).length;
  const parts = [
    count('duplicate') ? `${count('duplicate')} already in Baton` : '',
    count('invalid') ? `${count('invalid')} could not be read` : '',
    count('failed') ? `${count('failed')} could not be stored` : '',
  ].filter(Boolean);
  return `${head}; skipped ${s.skipped.length} (${parts.join(', ')}).`;
}

export interface TransferState {
  busy: boolean;
  /** The last import's summary. */
  summary?: ImportSummary;
  /** What went wrong (plain text). */
  error?: string;
  /** Progress or result of an export. */
  note?: string;
}

/** Saves a file; {@link downloadBlob} in the pages, a recorder in tests. */
export type SaveFn = (blob: Blob, filename: string) => void;

/** Import and export state for one page. Never throws: failures land in `error`. */
export class TransferModel extends Store<TransferState> {
  constructor(
    private readonly connector: Connector,
    private readonly save: SaveFn = downloadBlob,
  ) {
    super({ busy: false });
  }

  private async run<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.state.busy) return undefined;
    this.set({ busy: true, error: undefined, note: undefined });
    try {
      return await work();
    } catch (e) {
      this.set({ error: withoutRuleIds(e instanceof Error ? e.message : String(e)) });
      return undefined;
    } finally {
      this.set({ busy: false });
    }
  }

  /** Imports `file` as `kind` (undefined: the background tells it). Refuses a file over {@link MAX_IMPORT_BYTES} unread. */
  importFile(file: File, kind?: ImportKind): Promise<ImportSummary | undefined> {
    return this.run(async () => {
      this.set({ summary: undefined });
      if (file.size > MAX_IMPORT_BYTES)
        throw new Error(
          `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB, over the 32 MiB import limit. For a larger export zip, unpack it and import its conversations.json.`,
        );
      const data = await fileToBase64(file);
      const summary = await this.connector.request('importFile', {
        name: file.name,
        data,
        encoding: 'base64',
        ...(kind ? { kind } : {}),
      });
      this.set({ summary });
      return summary;
    });
  }

  /** Exports every conversation (all parts) into one download. */
  exportAll(format: ExportFormat): Promise<void> {
    return this.run(async () => {
      const parts: string[] = [];
      let after: string | undefined;
      let count = 0;
      let failed = 0;
      let file: { filename: string; mimeType: string } | undefined;
      do {
        const p = await this.connector.request('exportAll', { format, ...(after !== undefined ? { after } : {}) });
        parts.push(p.content);
        count += p.count;
        failed += p.failed.length;
        file ??= p;
        after = p.next;
      } while (after !== undefined);
      if (!file || count === 0) {
        this.set({
          note: failed
            ? `Nothing exported: ${failed} conversation${failed === 1 ? '' : 's'} could not be read.`
            : 'There are no conversations to export.',
        });
        return;
      }
      this.save(new Blob(parts, { type: file.mimeType }), file.filename);
      this.set({
        note: `Exported ${count} conversation${count === 1 ? '' : 's'} to ${file.filename}${failed ? `; ${failed} could not be read` : ''}.`,
      });
    });
  }

  /** Exports one conversation into a download. */
  exportOne(id: string, format: ExportFormat): Promise<void> {
    return this.run(async () => {
      const f = await this.connector.request('exportConversation', { id, format });
      this.save(new Blob([f.content], { type: f.mimeType }), f.filename);
      this.set({ note: `Saved ${f.filename}.` });
    });
  }

  /** Forgets the last summary, error and note. */
  clear(): void {
    this.set({ summary: undefined, error: undefined, note: undefined });
  }
}
