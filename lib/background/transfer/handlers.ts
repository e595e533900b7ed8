/**
 * Import and export requests (docs/architecture.md#the-background-by-feature): `importFile`, `exportConversation`, `exportAll`, spread
 * into `createHandlers`. Imports run one at a time (a second waits for the first), so two
 * imports of the same file cannot race past the duplicate check.
 */
import { IMPORTERS } from '../../importers/import-file';
import { decodeInput } from '../../importers/input';
import type { ImportKind, ImportOptions } from '../../importers/types';
import { isZip } from '../../importers/zip';
import type { BackgroundEvent } from '../../messaging/protocol';
import {
  EXPORT_PART_CHARS,
  IMPORT_LIMITS,
  type ExportFile,
  type ExportFormat,
  type ImportSummary,
  type SkippedItem,
} from '../../messaging/transfer-protocol';
import {
  CONVERSATION_SEPARATOR,
  transcriptsToMarkdown,
  transcriptToMarkdown,
  type OriginNames,
} from '../../export/markdown';
import { decodeTranscript, TranscriptError } from '../../transcript/codec';
import type { Transcript } from '../../transcript/schema';
import { metaOf, type ConversationStore } from '../../store/conversations';
import { importConversations, importStampOf } from '../../store/import-store';
import { withVersions, withoutVersions } from '../../transcript/versions';
import { BatonError } from '../../messaging/errors';
import { detectImportKind } from '../../importers/detect';
import type { Handlers } from '../core/router';
import { existingConversation } from '../core/guards';

/** What the transfer handlers need (a subset of `HandlerDeps`). */
export interface TransferDeps {
  store: ConversationStore;
  now(): string;
  /** Size of one `exportAll` part, in characters (default {@link EXPORT_PART_CHARS}; tests use a small one). */
  exportPartChars?: number;
  /** Tells open pages: each imported conversation is announced as `conversationUpdated`, so their lists show it. */
  broadcast?(event: BackgroundEvent): void;
  /** The names of custom endpoints, for Markdown headings (docs/side-panel.md); without it, origins show their ids. */
  originNames?(): Promise<OriginNames>;
}

/** Custom endpoints' names by endpoint id and by base-URL origin (what an assistant turn's `origin` holds). */
export function endpointNames(endpoints: readonly { id: string; name: string; baseUrl: string }[]): OriginNames {
  const byProvider: Record<string, string> = {};
  const byEndpoint: Record<string, string> = {};
  for (const ep of endpoints) {
    byProvider[ep.id] = ep.name;
    try {
      byEndpoint[new URL(ep.baseUrl).origin] = ep.name;
    } catch {
      // a stored URL that does not parse names nothing
    }
  }
  return { byProvider, byEndpoint };
}

type TransferHandlers = Pick<Handlers, 'importFile' | 'exportConversation' | 'exportAll'>;

/**
 * The file's bytes, with the size cap checked before anything is decoded (I3).
 * @throws BatonError bad_request for a file over {@link IMPORT_LIMITS}.fileBytes or data that is not base64.
 */
export function fileBytes(data: string, encoding: 'base64' | 'text'): Uint8Array {
  const limit = IMPORT_LIMITS.fileBytes;
  const tooBig = (size: string) =>
    new BatonError(
      'bad_request',
      `The file is ${size}, over Baton's ${limit / 1024 / 1024} MiB import limit; nothing was read (I3).`,
    );
  if (encoding === 'text') {
    // A UTF-16 code unit is at least one UTF-8 byte: longer than the cap in characters is surely too big.
    if (data.length > limit) throw tooBig(`${data.length} characters`);
    const bytes = new TextEncoder().encode(data);
    if (bytes.length > limit) throw tooBig(`${bytes.length} bytes`);
    return bytes;
  }
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (size > limit) throw tooBig(`${size} bytes`);
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data))
    throw new BatonError('bad_request', 'The file data is not valid base64.');
  const bin = atob(data);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Reads the file as `kind` (or the kind its content shows), with the extension's caps. */
function readFile(bytes: Uint8Array, kind: ImportKind | undefined) {
  const opts: ImportOptions = {
    maxBytes: IMPORT_LIMITS.fileBytes,
    maxUncompressedBytes: IMPORT_LIMITS.uncompressedBytes,
  };
  const zip = isZip(bytes);
  // Any zip kind unpacks `conversations.json`; any other kind reads plain text (decodeInput refuses a zip for it).
  const text = decodeInput(kind ?? (zip ? 'chatgpt-export' : 'baton'), bytes, opts);
  const k = kind ?? detectImportKind(text);
  if (zip && k !== 'chatgpt-export' && k !== 'claude-export')
    throw new TranscriptError(
      '',
      `the zip's conversations.json is neither a ChatGPT nor a Claude export (it looks like ${k})`,
    );
  return { kind: k, result: IMPORTERS[k](text, opts) };
}

/**
 * A stored conversation as a Baton transcript: records only (never the vault, S5), checked by
 * `decodeTranscript`. Its turns are the active path; every other version goes along in
 * `meta.batonVersions` (docs/transcript.md#versions-and-branches), so an import gets the whole tree back.
 */
async function transcriptOf(store: ConversationStore, id: string): Promise<Transcript> {
  const rec = await existingConversation(store, id);
  // One read of the path and the tree, so they always agree.
  const { transcript: t, tree } = await store.toTranscriptTree(id);
  // The record's own `meta` is store-internal (policies, receipts): only an imported transcript's meta goes out.
  const meta = importStampOf(rec)?.meta;
  return decodeTranscript(withVersions(withoutVersions(meta ? { ...t, meta } : t), tree));
}

const EXT: Record<ExportFormat, { one: string; all: string; mime: string }> = {
  baton: { one: '.baton.json', all: '.baton.jsonl', mime: 'application/json' },
  markdown: { one: '.md', all: '.md', mime: 'text/markdown' },
};

/** A file-name-safe slug of a title (letters, digits, dashes; at most 60 characters). */
export function slug(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'conversation';
}

/** Creates the import/export handlers. */
export function createTransferHandlers(d: TransferDeps): TransferHandlers {
  const partChars = d.exportPartChars ?? EXPORT_PART_CHARS;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    importFile: ({ name, data, encoding, kind }) =>
      serial(async (): Promise<ImportSummary> => {
        const bytes = fileBytes(data, encoding);
        let read: ReturnType<typeof readFile>;
        try {
          read = readFile(bytes, kind);
        } catch (e) {
          if (e instanceof TranscriptError) throw new BatonError('bad_request', `${name || 'The file'}: ${e.message}`);
          throw e;
        }
        const outcome = await importConversations(d.store.db, read.result.conversations, {
          now: d.now(),
          ...(name ? { file: name } : {}),
        });
        if (d.broadcast)
          for (const c of outcome.imported) {
            const rec = await d.store.getRecord(c.id);
            if (rec) d.broadcast({ type: 'conversationUpdated', meta: metaOf(rec) });
          }
        const skipped: SkippedItem[] = [
          ...read.result.skipped.map((s): SkippedItem => ({
            ...(s.id !== undefined ? { id: s.id } : {}),
            ...(s.title !== undefined ? { title: s.title } : {}),
            why: 'invalid',
            reason: s.reason,
          })),
          ...outcome.duplicates.map((s): SkippedItem => ({ ...s, why: 'duplicate' })),
          ...outcome.failed.map((s): SkippedItem => ({ ...s, why: 'failed' })),
        ];
        return { kind: read.kind, file: name, imported: outcome.imported, skipped };
      }),

    exportConversation: async ({ id, format }): Promise<ExportFile> => {
      const t = await transcriptOf(d.store, id);
      const content =
        format === 'baton' ? `${JSON.stringify(t, null, 2)}\n` : transcriptToMarkdown(t, await d.originNames?.());
      if (content.length > 2 * EXPORT_PART_CHARS)
        throw new BatonError(
          'bad_request',
          'This conversation is too large to export in one message (over 32 Mi characters).',
        );
      return {
        filename: `${slug(t.title ?? '')}${EXT[format].one}`,
        mimeType: EXT[format].mime,
        content,
        count: 1,
        failed: [],
      };
    },

    exportAll: async ({ format, after }): Promise<ExportFile> => {
      // Oldest first, a stable order for the parts (the id breaks ties).
      const all = (await d.store.list()).sort((a, b) =>
        a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
      );
      let start = 0;
      if (after !== undefined) {
        const i = all.findIndex((c) => c.id === after);
        if (i < 0)
          throw new BatonError(
            'not_found',
            'The export changed while it was running (a conversation was deleted): export again.',
          );
        start = i + 1;
      }
      const parts: string[] = [];
      let names: OriginNames | undefined;
      const failed: ExportFile['failed'] = [];
      let size = 0;
      let count = 0;
      let next: string | undefined;
      for (let i = start; i < all.length; i++) {
        const c = all[i]!;
        let t: Transcript;
        try {
          t = await transcriptOf(d.store, c.id);
        } catch (e) {
          if (e instanceof BatonError && e.code === 'not_found') continue;
          failed.push({ id: c.id, title: c.title, reason: (e as Error).message.slice(0, 300) });
          continue;
        }
        const text =
          format === 'baton'
            ? `${JSON.stringify(t)}\n`
            : transcriptsToMarkdown([t], (names ??= await d.originNames?.()));
        if (count > 0 && size + text.length > partChars) {
          next = all[i - 1]!.id;
          break;
        }
        parts.push(text);
        size += text.length;
        count++;
      }
      // Markdown parts join with the same separator as one file would have.
      const sep = format === 'markdown' ? CONVERSATION_SEPARATOR : '';
      const content = (format === 'markdown' && after !== undefined && count > 0 ? sep : '') + parts.join(sep);
      const day = d.now().slice(0, 10);
      return {
        filename: `baton-export-${day}${EXT[format].all}`,
        mimeType: EXT[format].mime,
        content,
        count,
        ...(next !== undefined ? { next } : {}),
        failed,
      };
    },
  };
}
