/**
 * `importFile`: one entry point for every import kind (transcript-v1.md, "Other commands" →
 * `baton import`; security-requirements.md I1–I4). Pure: bytes in, transcripts out.
 */
import { importAnthropicMessages } from './anthropic-messages';
import { importBaton } from './baton';
import { importChatGPTExport } from './chatgpt-export';
import { importClaudeCode } from './claude-code';
import { importClaudeExport } from './claude-export';
import { importCodex } from './codex';
import { importGeminiCli } from './gemini-cli';
import { importGeminiGenerateContent } from './gemini-generate-content';
import { importGeminiInteractions } from './gemini-interactions';
import { decodeInput } from './input';
import { importOpenAIChat } from './openai-chat';
import { importOpenAIResponses } from './openai-responses';
import { importPi } from './pi';
import type { ImportKind, ImportOptions, ImportResult } from './types';

/** The text importer of each kind (one module per kind). */
export const IMPORTERS: Readonly<Record<ImportKind, (text: string, opts?: ImportOptions) => ImportResult>> = {
  'chatgpt-export': importChatGPTExport,
  'claude-export': importClaudeExport,
  baton: importBaton,
  'anthropic-messages': importAnthropicMessages,
  'openai-chat': importOpenAIChat,
  'openai-responses': importOpenAIResponses,
  'gemini-generate-content': importGeminiGenerateContent,
  'gemini-interactions': importGeminiInteractions,
  'claude-code': importClaudeCode,
  codex: importCodex,
  'gemini-cli': importGeminiCli,
  pi: importPi,
};

/**
 * Imports a file of `kind`.
 *
 * Before anything is parsed the size is checked against `opts.maxBytes` (default 200 MB, I3); a
 * ChatGPT or Claude export zip (detected by its magic bytes) is opened with zip-slip and
 * decompression-bomb checks and its `conversations.json` read. JSON is parsed without
 * `__proto__` / `constructor` / `prototype` keys (I2).
 *
 * Every conversation is imported whole or skipped with its reason (I3): `conversations` all pass
 * `decodeTranscript`, have a stable id derived from their source id (the same file always yields
 * the same ids, so a store deduplicating by id adds nothing on re-import) and `source: {kind,
 * id}`. Imported content keeps its roles: a system prompt becomes labelled user text, never a
 * system prompt (N5, I4). What was left out inside a conversation is listed in its
 * `meta.importWarnings`.
 * @throws TranscriptError when the file as a whole cannot be read: over the size cap, an unsafe
 *   or oversized zip, not UTF-8, not JSON / JSONL, or not the kind's shape at all.
 */
export function importFile(kind: ImportKind, bytes: Uint8Array, opts: ImportOptions = {}): ImportResult {
  const text = decodeInput(kind, bytes, opts);
  return IMPORTERS[kind](text, opts);
}
