/**
 * Shapes of the file importers (transcript-v1.md, "Other commands" → `baton import`;
 * security-requirements.md I1–I4). Pure types and constants.
 */
import type { Transcript } from '../transcript/schema';

/**
 * Every kind `baton import <kind>` accepts: transcript-v1.md's list, plus `gemini-interactions` (a
 * native Interactions request body, like the other wire APIs; docs/transcript.md).
 */
export const IMPORT_KINDS = [
  'chatgpt-export',
  'claude-export',
  'baton',
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
  'gemini-generate-content',
  'gemini-interactions',
  'claude-code',
  'codex',
  'gemini-cli',
  'pi',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** True when `v` names an import kind. */
export function isImportKind(v: string): v is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(v);
}

/** Default cap on the input file, in bytes (200 MB; I3: checked before parsing). */
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
/** Default cap on the bytes decompressed from a zip archive (500 MB, under V8's string limit; I3). */
export const DEFAULT_MAX_UNCOMPRESSED_BYTES = 500 * 1000 * 1000;

/** Options of {@link importFile}. */
export interface ImportOptions {
  /** Largest accepted input, in bytes (default {@link DEFAULT_MAX_BYTES}); checked before anything is parsed (I3). */
  maxBytes?: number;
  /** Largest accepted decompressed size of the entry read from a zip archive, in bytes (default {@link DEFAULT_MAX_UNCOMPRESSED_BYTES}; I3). */
  maxUncompressedBytes?: number;
  /**
   * ISO 8601 time of the import; when given it is recorded as `meta.importedAt` on every
   * conversation. Leave it out for byte-identical output on re-import.
   */
  now?: string;
}

/** A conversation that was not imported, and why. */
export interface SkippedConversation {
  /** The conversation's id in the source file, when it has one. */
  id?: string;
  title?: string;
  /** Why it was skipped (a decoder message names the JSON path). */
  reason: string;
}

/** What an import produced: every conversation passes `decodeTranscript`. */
export interface ImportResult {
  conversations: Transcript[];
  skipped: SkippedConversation[];
}
