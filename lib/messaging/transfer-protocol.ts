/**
 * The import / export part of the background protocol (docs/architecture.md#the-background-by-feature, "File import", "Export"),
 * spread into `REQUESTS` and `Responses` of `protocol.ts`. The UI imports only its types.
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';
import { IMPORT_KINDS, type ImportKind } from '../importers/types';

const MiB = 1024 * 1024;

/**
 * Caps of the extension's import, checked before anything is decoded or parsed (I3).
 *
 * Chrome carries a `runtime.sendMessage` message of at most 64 MiB of serialised JSON, and the
 * file travels base64-encoded (4 characters per 3 bytes), so a file of 32 MiB is ~42.7 MiB of
 * message: well under the limit, with room for the envelope. The importers' own cap (200 MB,
 * `DEFAULT_MAX_BYTES`) is for the CLI; a larger export zip can be unpacked and its
 * `conversations.json` imported (or use `baton import`). The decompressed-size cap for a zip's
 * `conversations.json` is lower than the importers' 500 MB default, since the service worker
 * parses it in memory.
 */
export const IMPORT_LIMITS = {
  /** Largest file, in bytes (32 MiB). */
  fileBytes: 32 * MiB,
  /** Largest `data` string, in characters: the base64 length of a {@link IMPORT_LIMITS.fileBytes}-byte file. */
  dataChars: 4 * Math.ceil((32 * MiB) / 3),
  /** Largest decompressed `conversations.json` read from an export zip, in bytes (256 MiB). */
  uncompressedBytes: 256 * MiB,
  /** Longest file name, in characters. */
  name: 500,
} as const;

/**
 * Largest export reply, in characters of content (16 Mi): a whole-data export comes in parts of
 * about this size (`next`), so no reply nears Chrome's 64 MiB message limit.
 */
export const EXPORT_PART_CHARS = 16 * MiB;

/** Export formats: `baton` = Baton transcript JSON (lossless, no keys — S5), `markdown` = readable. */
export const exportFormatSchema = onFirstUse(() => z.enum(['baton', 'markdown']));
export type ExportFormat = z.infer<typeof exportFormatSchema>;

const id = onFirstUse(() => z.string().min(1).max(200));

export const TRANSFER_REQUESTS = onFirstUse(
  () =>
    ({
      /**
       * Imports a file: `data` is its bytes as base64 (`encoding: 'base64'`, any file, zip included)
       * or its text (`encoding: 'text'`). `kind` as `baton import` names it; omitted, the background
       * tells it from the content. Sizes are capped by {@link IMPORT_LIMITS} before decoding.
       */
      importFile: {
        input: onFirstUse(() =>
          z.strictObject({
            name: z.string().max(IMPORT_LIMITS.name),
            data: z.string().max(IMPORT_LIMITS.dataChars),
            encoding: z.enum(['base64', 'text']),
            kind: z.enum(IMPORT_KINDS).optional(),
          }),
        ),
        from: ['extension'],
      },
      /** One conversation as a file. */
      exportConversation: {
        input: onFirstUse(() => z.strictObject({ id, format: exportFormatSchema })),
        from: ['extension'],
      },
      /**
       * Every conversation, oldest first, in parts: the first call omits `after`; while a reply has
       * `next`, call again with `after: next` and append its `content`.
       */
      exportAll: {
        input: onFirstUse(() => z.strictObject({ format: exportFormatSchema, after: id.optional() })),
        from: ['extension'],
      },
    }) as const,
);

/** A conversation an import wrote. */
export interface ImportedItem {
  id: string;
  title: string;
  turns: number;
  /** What was left out or repaired inside it (the importer's `meta.importWarnings`). */
  warnings?: string[];
}

/** A conversation an import left out: `duplicate` (already in Baton), `invalid` (the file's content), `failed` (the write). */
export interface SkippedItem {
  id?: string;
  title?: string;
  why: 'duplicate' | 'invalid' | 'failed';
  reason: string;
}

/** What `importFile` returns. */
export interface ImportSummary {
  /** The kind the file was read as. */
  kind: ImportKind;
  file: string;
  imported: ImportedItem[];
  skipped: SkippedItem[];
}

/** A file (or one part of it, see `exportAll`) for the page to save. */
export interface ExportFile {
  /** A suggested file name (`*.baton.json`, `*.jsonl` or `*.md`). */
  filename: string;
  mimeType: string;
  content: string;
  /** Conversations in this part. */
  count: number;
  /** Present when more parts follow: pass it as `after`. */
  next?: string;
  /** Stored conversations that could not be exported (not valid transcripts), with the reason. */
  failed: { id: string; title: string; reason: string }[];
}

/** Results of {@link TRANSFER_REQUESTS}, merged into `Responses`. */
export interface TransferResponses {
  importFile: ImportSummary;
  exportConversation: ExportFile;
  exportAll: ExportFile;
}

export type { ImportKind };
